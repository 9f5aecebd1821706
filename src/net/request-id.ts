// Request ids of the WebSocket transports (binance-facts §5, §6): an int64, an alphanumeric
// string of at most 36 characters, or null. Ids are echoed verbatim with their JSON type;
// integers beyond 2^53 are taken from the frame's own text so they come back digit for digit
// (JSON.parse would round them to the nearest double).

import { INT64_MAX, INT64_MIN } from '../api/params.ts';

const ID_STRING = /^[A-Za-z0-9_-]{0,36}$/;

/**
 * The request id as JSON text to echo, or null when it is not an allowed id. `unsigned`: the
 * market-data control frames take 0..2^63-1 ("request ID must be an unsigned integer"); the WS
 * API takes any int64.
 */
export function requestIdText(id: unknown, text: string, unsigned: boolean): string | null {
  if (id === undefined || id === null) return 'null';
  if (typeof id === 'string') return ID_STRING.test(id) ? JSON.stringify(id) : null;
  if (typeof id !== 'number' || !Number.isInteger(id) || (unsigned && id < 0)) return null;
  if (Number.isSafeInteger(id)) return String(id);
  const digits = /(?<!\\)"id"\s*:\s*(-?[0-9]+)\s*[,}]/.exec(text)?.[1];
  if (digits === undefined) return null;
  const big = BigInt(digits);
  return big >= (unsigned ? 0n : INT64_MIN) && big <= INT64_MAX ? digits : null;
}
