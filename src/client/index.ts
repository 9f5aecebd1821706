// The typed client of a running simulator (API.md sections 4, 3.2 and 5.1), usable in and outside
// Playwright: REST (`rest`), the WS API (`wsApi()`), market-data streams (`streams()`) and the
// account's user data (`userData()`), all signed with the simulator's credentials. A closed
// WS API connection is never reused: `wsApi()` opens a fresh one, and calls on the old one
// reject at once. `close()` closes every connection the client opened, for good.

import { MarketStream } from './market.ts';
import { RestClient, type ClientCredentials, type RequestStep } from './rest.ts';
import type { EventStream } from './event-stream.ts';
import { StreamClosedError } from './errors.ts';
import type { UserEvent } from './event-types.ts';
import { WsApiClient } from './ws-api-methods.ts';

/**
 * A simulator a client can reach: its URLs and credentials (an in-process `Simulator` is one).
 * @example
 * const target: ClientTarget = sim;
 * const client = new SpotSimClient(target, { tls: true });
 */
export interface ClientTarget {
  readonly urls: { readonly http: string; readonly https: string; readonly ws: string; readonly wss: string };
  readonly credentials: ClientCredentials;
}

/**
 * A server by its URLs (a standalone `npx spot-sim`): `wsUrl` defaults to `baseUrl` with ws(s).
 * @example
 * const client = new SpotSimClient({ baseUrl: 'http://127.0.0.1:9080', apiKey: 'SpotSimDefaultApiKey01234567890123456789012345678901234567890123', apiSecret: 'SpotSimDefaultApiSecret98765432109876543210987654321098765432109' });
 */
export interface ClientEndpoint extends ClientCredentials {
  readonly baseUrl: string;
  readonly wsUrl?: string;
}

/**
 * Options of a SpotSimClient: TLS, the timestamp source of signed requests, the request timeout, a
 * wrapper of each request.
 * @example
 * const client = new SpotSimClient(sim, { timeoutMs: 2_000, now: () => sim.now() });
 */
export interface ClientOptions {
  /** Use the TLS listener (https/wss) instead of plain http/ws (a ClientTarget only). */
  readonly tls?: boolean;
  /** Timestamp source of signed requests (default Date.now; the fixture passes the manual clock). */
  readonly now?: () => number;
  /** How long a request waits for its reply before SpotSimTimeoutError (default 10000 ms). */
  readonly timeoutMs?: number;
  /** Wraps each REST and WS API request (the fixture records them as report steps). */
  readonly step?: RequestStep;
}

/**
 * The user-data stream of `client.userData()`: `close()` closes its own connection.
 * @example
 * const user: UserDataStream = await client.userData();
 * await expect(user).toReceive('outboundAccountPosition');
 */
export type UserDataStream = EventStream<UserEvent>;

/**
 * A typed client of one simulator: REST, the WS API, market streams and user data, signed with
 * its credentials. The fixture hands one to each test; outside Playwright:
 * `new SpotSimClient(sim)` (an in-process simulator) or
 * `new SpotSimClient({ baseUrl: 'http://127.0.0.1:9080', apiKey, apiSecret })`, then `await client.close()`.
 * @example
 * const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0 } } });
 * const client = new SpotSimClient(sim);
 * console.log((await client.rest.time()).serverTime);
 * await client.close();
 * await sim.stop();
 */
export class SpotSimClient {
  /** The REST API (`/api/v3/...`), typed; signed endpoints are signed with the simulator's credentials. */
  readonly rest: RestClient;
  private readonly wsBase: string;
  private readonly credentials: ClientCredentials;
  private readonly connections = new Set<{ close(): Promise<void> }>();
  private api: WsApiClient | null = null;
  private closed = false;

  constructor(
    target: ClientTarget | ClientEndpoint,
    private readonly options: ClientOptions = {},
  ) {
    const { http, ws, credentials } = resolveTarget(target, options);
    this.wsBase = ws;
    this.credentials = credentials;
    this.rest = new RestClient({ baseUrl: http, credentials, now: options.now, timeoutMs: options.timeoutMs, step: options.step });
  }

  /**
   * The client's shared WS API connection: opened on first use, and again whenever the last one
   * closed (a drop fault, a reset, a failed connect). Requests are never resent on the new one.
   */
  async wsApi(): Promise<WsApiClient> {
    this.throwIfClosed('wsApi()');
    if (this.api === null || this.api.closed) this.api = this.newWsApi();
    await this.api.ready();
    return this.api;
  }

  /** A new, separate WS API connection (closed with the client). */
  newWsApi(query = ''): WsApiClient {
    this.throwIfClosed('newWsApi()');
    const api = new WsApiClient({ url: `${this.wsBase}/ws-api/v3${query}`, credentials: this.credentials, now: this.options.now, timeoutMs: this.options.timeoutMs, step: this.options.step });
    this.track(api, api.closedPromise());
    return api;
  }

  /** Subscribes to market-data streams (e.g. `btcusdt@depth`, `btcusdt@trade`) on one connection, typed by name. */
  async streams<const N extends string>(...names: N[]): Promise<MarketStream<N>> {
    this.throwIfClosed('streams()');
    const stream = new MarketStream<N>(this.wsBase, names);
    this.track(stream, stream.ended);
    await stream.ready();
    return stream;
  }

  /** The account's user data through a WS API subscription on its own connection; `close()` closes that connection. */
  async userData(): Promise<UserDataStream> {
    const api = this.newWsApi();
    await api.ready();
    const stream = await api.subscribeUserData();
    const close = stream.close.bind(stream);
    stream.close = async () => {
      await api.close();
      await close();
    };
    return stream;
  }

  /** Closes every connection the client opened; the client opens no more (calls reject with StreamClosedError). */
  async close(): Promise<void> {
    this.closed = true;
    this.rest.close();
    const open = [...this.connections];
    this.connections.clear();
    await Promise.all(open.map((c) => c.close()));
  }

  /** `await using client = new SpotSimClient(sim)` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private track(connection: { close(): Promise<void> }, ended: Promise<unknown>): void {
    this.connections.add(connection);
    void ended.then(() => this.connections.delete(connection));
  }

  private throwIfClosed(what: string): void {
    if (this.closed) throw new StreamClosedError(`SpotSimClient.${what}: the client is closed`);
  }
}

function resolveTarget(target: unknown, options: unknown): { http: string; ws: string; credentials: ClientCredentials } {
  const expected = 'new SpotSimClient(sim) with a Simulator, or new SpotSimClient({ baseUrl, wsUrl?, apiKey, apiSecret })';
  if (typeof target !== 'object' || target === null) throw new TypeError(`${expected}; got ${target === null ? 'null' : typeof target}`);
  if (options !== undefined && (typeof options !== 'object' || options === null)) throw new TypeError('SpotSimClient options must be an object ({ tls?, now?, timeoutMs? })');
  const tls = (options as ClientOptions | undefined)?.tls === true;
  const t = target as Partial<ClientTarget> & Partial<ClientEndpoint>;
  if ('baseUrl' in t) {
    const base = urlOf(t.baseUrl, 'baseUrl', ['http:', 'https:'], expected);
    const ws = t.wsUrl === undefined ? base.replace(/^http/, 'ws') : urlOf(t.wsUrl, 'wsUrl', ['ws:', 'wss:'], expected);
    return { http: base, ws, credentials: credentialsOf(t, expected) };
  }
  const urls = t.urls;
  if (typeof urls !== 'object' || urls === null) throw new TypeError(`${expected}; the argument has neither baseUrl nor urls`);
  const http = urlOf(tls ? urls.https : urls.http, tls ? 'urls.https' : 'urls.http', ['http:', 'https:'], expected);
  const ws = urlOf(tls ? urls.wss : urls.ws, tls ? 'urls.wss' : 'urls.ws', ['ws:', 'wss:'], expected);
  if (typeof t.credentials !== 'object' || t.credentials === null) throw new TypeError(`${expected}; credentials must be { apiKey, apiSecret }`);
  return { http, ws, credentials: credentialsOf(t.credentials, expected) };
}

function urlOf(value: unknown, name: string, protocols: readonly string[], expected: string): string {
  if (typeof value !== 'string') throw new TypeError(`${expected}; ${name} must be a URL string, got ${typeof value}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${expected}; ${name} is not a URL: ${JSON.stringify(value.slice(0, 200))}`);
  }
  if (!protocols.includes(url.protocol)) throw new TypeError(`${name} must be a ${protocols.join(' or ')} URL, got ${url.protocol}`);
  return value.replace(/\/+$/, '');
}

function credentialsOf(c: Partial<ClientCredentials>, expected: string): ClientCredentials {
  if (typeof c.apiKey !== 'string' || c.apiKey === '') throw new TypeError(`${expected}; apiKey must be a non-empty string`);
  if (typeof c.apiSecret !== 'string') throw new TypeError(`${expected}; apiSecret must be a string`);
  return { apiKey: c.apiKey, apiSecret: c.apiSecret, ...(c.ed25519PrivateKey === undefined ? {} : { ed25519PrivateKey: c.ed25519PrivateKey }) };
}

export { SpotSimError, SpotSimTimeoutError, SpotSimNetworkError, StreamClosedError } from './errors.ts';
export { EventStream, type WaitOptions, type EventName, type EventOfName, type EventMatch } from './event-stream.ts';
export { MarketStream, type StreamMessage, type StreamMessageOf, type StreamMatchName, type MessageNamed } from './market.ts';
export { RestClient, type RawRestRequest, type RestResponse, type ClientCredentials, type RequestStep } from './rest.ts';
export { WsApiConnection, type WsApiResponse, type WsApiParams } from './ws-api.ts';
export { WsApiClient, WS_HELPERS } from './ws-api-methods.ts';
export type * from './types.ts';
export type * from './event-types.ts';
export type * from './market-types.ts';
export type * from './order-list-types.ts';
