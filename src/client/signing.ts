// Request signing as the reference clients do it (spec 5, binance-facts §1.3): REST signs the
// query string as sent; the WS API signs its params sorted by name, unencoded.

import { createHmac } from 'node:crypto';
import { Decimal } from 'decimal.js';

export type ParamValue = string | number | boolean | undefined;

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/**
 * A parameter's text. Numbers are written in plain decimal notation: JavaScript
 * writes 1e-7 and 1e21 in exponent form, which the reference refuses (-1100).
 */
export function paramText(value: string | number | boolean): string {
  if (typeof value !== 'number') return String(value);
  const text = String(value);
  return Number.isFinite(value) && /e/i.test(text) ? new Decimal(value).toFixed() : text;
}

/** A number in exponent form becomes its plain decimal string (the WS API's JSON params); the rest as given. */
export function plainParams<P extends Readonly<Record<string, ParamValue>>>(params: P): P {
  let out: Record<string, ParamValue> | null = null;
  for (const k in params) {
    const v = params[k];
    if (typeof v === 'number' && /e/i.test(String(v)) && Number.isFinite(v)) (out ??= { ...params })[k] = paramText(v);
  }
  return (out ?? params) as P;
}

/** `k=v&...` in the given order, percent-encoded; undefined values left out. */
export function queryString(params: Readonly<Record<string, ParamValue>>): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(paramText(v!))}`)
    .join('&');
}

/** The WS API payload: every param but `signature`, sorted by name, `k=v` joined by `&`. */
export function wsPayload(params: Readonly<Record<string, ParamValue>>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature' && params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${paramText(params[k]!)}`)
    .join('&');
}
