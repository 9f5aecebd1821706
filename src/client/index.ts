// The typed client of a running simulator (API.md section 4), usable in and outside Playwright:
// REST (`rest`), the WS API (`wsApi()`), market-data streams (`streams()`) and the account's
// user data (`userData()`), all signed with the simulator's credentials.

import { MarketStream } from './market.ts';
import { RestClient, type ClientCredentials } from './rest.ts';
import type { EventStream } from './event-stream.ts';
import type { UserEvent } from './types.ts';
import { WsApiClient } from './ws-api.ts';

export interface ClientTarget {
  readonly urls: { readonly http: string; readonly https: string; readonly ws: string; readonly wss: string };
  readonly credentials: ClientCredentials;
}

export interface ClientOptions {
  /** Use the TLS listener (https/wss) instead of plain http/ws. */
  readonly tls?: boolean;
  /** Timestamp source of signed requests (default Date.now; the fixture passes the manual clock). */
  readonly now?: () => number;
  readonly timeoutMs?: number;
}

/**
 * A typed client of one simulator (or anything with its `urls` and `credentials`): REST,
 * the WS API, market streams and user data, signed with its credentials. The fixture hands one
 * to each test; outside Playwright: `new SpotSimClient(sim)` and `await client.close()`.
 */
export class SpotSimClient {
  /** The REST API (`/api/v3/...`), typed; signed endpoints are signed with the simulator's credentials. */
  readonly rest: RestClient;
  private readonly closers: (() => Promise<void> | void)[] = [];
  private api: WsApiClient | null = null;

  constructor(
    private readonly target: ClientTarget,
    private readonly options: ClientOptions = {},
  ) {
    this.rest = new RestClient({ baseUrl: options.tls ? target.urls.https : target.urls.http, credentials: target.credentials, now: options.now, timeoutMs: options.timeoutMs });
    this.closers.push(() => this.rest.close());
  }

  private get wsBase(): string {
    return this.options.tls ? this.target.urls.wss : this.target.urls.ws;
  }

  /** The client's shared WS API connection (opened on first use). */
  async wsApi(): Promise<WsApiClient> {
    if (this.api === null) {
      this.api = this.newWsApi();
    }
    await this.api.ready();
    return this.api;
  }

  /** A new, separate WS API connection (closed with the client). */
  newWsApi(query = ''): WsApiClient {
    const api = new WsApiClient({ url: `${this.wsBase}/ws-api/v3${query}`, credentials: this.target.credentials, now: this.options.now, timeoutMs: this.options.timeoutMs });
    this.closers.push(() => api.close());
    return api;
  }

  /** Subscribes to market-data streams (e.g. `btcusdt@depth`, `btcusdt@trade`) on one connection. */
  async streams(...names: string[]): Promise<MarketStream> {
    const stream = new MarketStream(this.wsBase, names);
    this.closers.push(() => stream.close());
    await stream.ready();
    return stream;
  }

  /** The account's user data through a WS API subscription on its own connection. */
  async userData(): Promise<EventStream<UserEvent>> {
    const api = this.newWsApi();
    await api.ready();
    return api.subscribeUserData();
  }

  /** Closes every connection the client opened. */
  async close(): Promise<void> {
    const closers = this.closers.splice(0);
    await Promise.all(closers.map((c) => c()));
  }
}

export { SpotSimError, SpotSimTimeoutError, SpotSimNetworkError, StreamClosedError } from './errors.ts';
export { EventStream, type WaitOptions, type EventName, type EventOfName, type EventMatch } from './event-stream.ts';
export { MarketStream, type StreamMessage } from './market.ts';
export { RestClient, type RawRestRequest, type RestResponse } from './rest.ts';
export { WsApiClient, type WsApiResponse } from './ws-api.ts';
export type * from './types.ts';
export type * from './market-types.ts';
