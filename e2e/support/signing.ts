// The one request signer of the e2e specs, on top of the typed client's (src/client/signing.ts):
// the same HMAC and the same payload rules (REST: the query or form body as sent, percent-encoded
// values; WS API: every param but `signature`, sorted by name, unencoded). What the typed client
// does not do, the specs need for bytes a client library sends: Ed25519 signatures
// (binance-facts §1.3: base64 over the payload, percent-encoded in REST, as is in WS API JSON)
// and a chosen signer per request (a wrong key, an upper-cased signature).
import { sign, type KeyObject } from 'node:crypto';
import { hmacHex, queryString, wsPayload as clientWsPayload } from '../../src/client/signing.ts';

/** Returns the `signature` value to put on the wire for a payload. */
export type Signer = (payload: string) => string;

export type ParamValue = string | number | boolean | undefined;
export type ParamList = Record<string, ParamValue>;

/** HMAC-SHA256 hex, as the typed client signs. */
export function hmacSigner(secret: string): Signer {
  return (payload) => hmacHex(secret, payload);
}

/** Ed25519 over the payload bytes, base64; percent-encoded for REST (`transport: 'rest'`), as is for the WS API. */
export function ed25519Signer(privateKey: KeyObject, transport: 'rest' | 'ws-api' = 'rest'): Signer {
  return (payload) => {
    const signature = sign(null, Buffer.from(payload), privateKey).toString('base64');
    return transport === 'rest' ? encodeURIComponent(signature) : signature;
  };
}

/** A REST query or form body as the typed client writes it (`k=v&...`, in order, percent-encoded). */
export const encode: (params: ParamList) => string = queryString;

export type WsParams = Record<string, string | number | boolean | string[] | undefined>;

/** The WS API signature payload of the typed client; an array param is signed as the JSON it is sent as. */
export function wsPayload(params: WsParams): string {
  const scalar: ParamList = {};
  for (const [k, v] of Object.entries(params)) scalar[k] = Array.isArray(v) ? JSON.stringify(v) : v;
  return clientWsPayload(scalar);
}
