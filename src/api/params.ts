// Request parameters, the same for both transports: REST merges the query string and a form
// body (the query wins on a name sent in both, binance-facts §1.1); the WS API takes `params`
// of any JSON scalar type and stringifies them (client-requests §0.10). The signed payload is
// kept exactly as the client built it: REST = query + body as sent, minus `signature`
// (§1.3); WS API = every param but `signature`, sorted by name, joined `k=v&...`.

import { apiError, ApiError } from '../core/errors.ts';
import { plainNumber } from '../untrusted.ts';
import { ExactInteger } from './exact-json.ts';

export const MAX_PARAMS = 64;

/** An integer parameter's text; leading zeros allowed (`00000000000000000001` is 1). */
const LONG_RE = /^-?[0-9]{1,20}$/;
const LONG_PATTERN = '^[0-9]{1,20}$';
/** The LONG range of the reference's integer parameters and request ids. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

function isInt64(digits: string): boolean {
  const value = BigInt(digits);
  return value >= INT64_MIN && value <= INT64_MAX;
}

export class Params {
  private signed: string | null;
  private alt: string | null | undefined = undefined;

  constructor(
    protected readonly values: ReadonlyMap<string, string>,
    /** The bytes a signature must cover; null = built on first use (unsigned requests never pay). */
    signed: string | null,
  ) {
    this.signed = signed;
  }

  get signedPayload(): string {
    if (this.signed === null) this.signed = this.buildSignedPayload();
    return this.signed;
  }

  /** Only asked for when the signature over `signedPayload` did not verify. */
  get altSignedPayload(): string | null {
    if (this.alt === undefined) this.alt = this.buildAltPayload();
    return this.alt;
  }

  protected buildSignedPayload(): string {
    return '';
  }

  /** Another payload the client may have signed; none unless a transport says so. */
  protected buildAltPayload(): string | null {
    return null;
  }

  get(name: string): string | undefined {
    const v = this.values.get(name);
    return v === '' ? undefined : v;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  names(): string[] {
    return [...this.values.keys()];
  }

  /** A mandatory parameter, or -1102 naming it. */
  required(name: string): string {
    const v = this.get(name);
    if (v === undefined) throw apiError('MANDATORY_PARAM', name);
    return v;
  }

  /**
   * An optional integer parameter (LONG, int64): -1100 naming the pattern when the text is not
   * up to 20 digits, -1130 when it is but lies outside int64 (so a refusal never names a pattern
   * the value matches). Values beyond 2^53 come back as the nearest double: no order, trade or
   * subscription id gets near 2^53, so such a value names nothing (an unknown order is -2013, as
   * on the reference), and times and limits that large are out of every range anyway.
   */
  int(name: string): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (!LONG_RE.test(v)) throw apiError('ILLEGAL_CHARS', name, LONG_PATTERN);
    if (v.length >= 19 && !isInt64(v)) throw apiError('INVALID_PARAMETER', name);
    return Number(v);
  }

  /**
   * A time parameter (`startTime`, `endTime`) as sent, milliseconds or microseconds, checked as
   * `int`. The one accessor for times: `timeWindow` (time-unit.ts) reads the unit. The endpoint
   * table's test (time-params.test.ts) fails for a row that reads a time any other way.
   */
  time(name: string): number | undefined {
    return this.int(name);
  }

  /** An optional boolean ("true"/"false", any case). */
  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw apiError('INVALID_PARAMETER', name);
  }
}

/** REST: query string and form body, each as sent (still percent-encoded). */
export function parseRestParams(query: string, body: string): Params {
  const bodyValues = decodeForm(body);
  const queryValues = decodeForm(query);
  let values: Map<string, string>;
  if (bodyValues.size === 0) {
    values = queryValues; // the common case (GET/DELETE, or all in the query): nothing to merge
  } else {
    values = new Map<string, string>();
    for (const [k, v] of bodyValues) values.set(k, v);
    for (const [k, v] of queryValues) values.set(k, v); // the query string wins
  }
  if (values.size > MAX_PARAMS) throw apiError('TOO_MANY_PARAMETERS');
  return new Params(values, withoutSignature(query) + withoutSignature(body));
}

/** WS API: a JSON `params` object. */
export function parseWsParams(raw: unknown): Params {
  if (raw === undefined || raw === null) return new Params(new Map(), '');
  if (typeof raw !== 'object' || Array.isArray(raw)) throw apiError('INVALID_PARAMETER', 'params');
  const values = new Map<string, string>();
  const object = raw as Record<string, unknown>;
  // for-in over a JSON.parse result: its own keys only (its prototype is Object.prototype).
  for (const k in object) {
    const v = object[k];
    if (typeof v === 'string') values.set(k, v);
    else if (v instanceof ExactInteger) values.set(k, v.digits); // beyond 2^53: the digits sent
    else if (typeof v === 'number' && Number.isFinite(v)) values.set(k, plainNumber(v));
    else if (typeof v === 'boolean') values.set(k, String(v));
    else if (Array.isArray(v) && v.every(isString)) values.set(k, JSON.stringify(v));
    else throw apiError('INVALID_PARAMETER', k);
  }
  if (values.size > MAX_PARAMS) throw apiError('TOO_MANY_PARAMETERS');
  return new WsParams(values, null);
}

function isString(x: unknown): boolean {
  return typeof x === 'string';
}

/**
 * WS API params: the signed payload is every param but `signature`, sorted by name, joined
 * `k=v&...` (client-requests §0.10); some clients sign the values URI-encoded instead, which is
 * the alternative payload.
 */
class WsParams extends Params {
  private sortedKeys(): string[] {
    const keys: string[] = [];
    for (const k of this.values.keys()) if (k !== 'signature') keys.push(k);
    return keys.sort();
  }

  protected override buildSignedPayload(): string {
    let text = '';
    for (const k of this.sortedKeys()) text += `${text === '' ? '' : '&'}${k}=${this.values.get(k)}`;
    return text;
  }

  protected override buildAltPayload(): string | null {
    let text = '';
    for (const k of this.sortedKeys()) text += `${text === '' ? '' : '&'}${k}=${encodeURIComponent(this.values.get(k)!)}`;
    return text === this.signedPayload ? null : text;
  }
}


function decodeForm(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (text === '') return out;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? '' : part.slice(eq + 1);
    const key = decode(rawKey, rawKey);
    if (out.has(key)) throw apiError('DUPLICATE_PARAM');
    out.set(key, decode(rawValue, key));
  }
  return out;
}

function decode(text: string, name: string): string {
  // Most names and values carry no escapes: decoding would return them unchanged.
  if (text.indexOf('%') < 0 && text.indexOf('+') < 0) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw apiError('ILLEGAL_CHARS_ANY', name);
  }
}

/** The payload minus its `signature=...` pair, wherever it stands. */
function withoutSignature(text: string): string {
  if (!text.includes('signature=')) return text;
  // Same result as split('&') / filter / join('&'), without the intermediate arrays.
  let out = '';
  let kept = 0;
  let start = 0;
  for (;;) {
    const amp = text.indexOf('&', start);
    const end = amp < 0 ? text.length : amp;
    if (!text.startsWith('signature=', start)) {
      const part = text.slice(start, end);
      out = kept++ === 0 ? part : `${out}&${part}`;
    }
    if (amp < 0) return out;
    start = amp + 1;
  }
}

export { ApiError };
