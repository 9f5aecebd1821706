// Request signing as the reference clients do it (spec 5, binance-facts §1.3): REST signs the
// query string as sent; the WS API signs its params sorted by name, unencoded.

import { createHmac } from 'node:crypto';

export type ParamValue = string | number | boolean | undefined;

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** `k=v&...` in the given order, percent-encoded; undefined values left out. */
export function queryString(params: Readonly<Record<string, ParamValue>>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** The WS API payload: every param but `signature`, sorted by name, `k=v` joined by `&`. */
export function wsPayload(params: Readonly<Record<string, ParamValue>>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${String(params[k])}`)
    .join('&');
}
