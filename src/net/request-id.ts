// Request ids of the WebSocket transports (binance-facts §5, §6): an int64, an alphanumeric
// string of at most 36 characters, or null. Ids are echoed verbatim with their JSON type; an
// integer beyond 2^53 comes from the frame's exact scan (api/exact-json.ts) as the digits sent,
// so it comes back digit for digit, and only the top-level `id` member is ever read.

import { ExactInteger } from '../api/exact-json.ts';
import { INT64_MAX, INT64_MIN } from '../api/params.ts';

const ID_STRING = /^[A-Za-z0-9_-]{0,36}$/;

/**
 * The request id as JSON text to echo, or null when it is not an allowed id. `unsigned`: the
 * market-data control frames take 0..2^63-1 ("request ID must be an unsigned integer"); the WS
 * API takes any int64.
 */
export function requestIdText(id: unknown, unsigned: boolean): string | null {
  if (id === undefined || id === null) return 'null';
  if (typeof id === 'string') return ID_STRING.test(id) ? JSON.stringify(id) : null;
  if (id instanceof ExactInteger) {
    const big = BigInt(id.digits);
    return big >= (unsigned ? 0n : INT64_MIN) && big <= INT64_MAX ? id.digits : null;
  }
  // A rounded integer here means the exact scan did not run (nesting beyond its depth): refused.
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || (unsigned && id < 0)) return null;
  return String(id);
}
