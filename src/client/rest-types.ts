// The REST client's option and raw-request types (src/client/rest.ts is the client): what a
// caller hands `new SpotSimClient(...)` and `client.rest.request()`, and what the latter returns.

import type { KeyObject } from 'node:crypto';

/**
 * The account's API key and secret a client signs with (a simulator's `credentials`), and an
 * Ed25519 account's private key.
 * @example
 * const client = new SpotSimClient({ baseUrl: 'http://127.0.0.1:9080', ...sim.credentials });
 */
export interface ClientCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
  /** An Ed25519 account's private key (PEM or KeyObject): WS API requests are signed with it (needed for `session.logon`). */
  readonly ed25519PrivateKey?: string | KeyObject;
}

/**
 * Runs one request under a title such as `POST /api/v3/order` (the fixture makes it a report
 * step). Called synchronously by the method the caller called, so the caller's frame is on the stack.
 * @example
 * const logged: RequestStep = async (title, send) => {
 *   console.log('->', title);
 *   return send();
 * };
 * const client = new SpotSimClient(sim, { step: logged });
 */
export type RequestStep = <T>(title: string, send: () => Promise<T>) => Promise<T>;

export interface RestOptions {
  readonly baseUrl: string;
  readonly credentials: ClientCredentials;
  /** The timestamp source of signed requests (default: Date.now). */
  readonly now?: () => number;
  readonly timeoutMs?: number;
  /** Wraps each request (see RequestStep); none by default. */
  readonly step?: RequestStep;
}

/**
 * A request `client.rest.request()` sends exactly as given: method, path with its query string,
 * headers, body.
 * @example
 * const req: RawRestRequest = { method: 'GET', path: '/api/v3/depth?symbol=BTCUSDT&limit=abc' };
 * const { status, body } = await client.rest.request(req);   // 400, the reference's -1100
 */
export interface RawRestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
  /** Path with or without a query string, e.g. `/api/v3/depth?symbol=BTCUSDT`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/**
 * What `client.rest.request()` resolves to, whatever the status: status, headers (lowercase names)
 * and the parsed body.
 * @example
 * const res: RestResponse<{ code: number; msg: string }> = await client.rest.request({ method: 'GET', path: '/api/v3/order?symbol=BTCUSDT' });
 * console.log(res.status, res.body.code);
 */
export interface RestResponse<T = unknown> {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: T;
}
