// The typed WS API client (API.md sections 4 and 5.1): `call(method, params)` with HMAC signing by
// the reference rule (params sorted, unencoded), a typed helper for every method the server
// serves (ws-api-methods.ts), and the user-data subscription as an awaitable EventStream.
// It never stalls on a dead socket: a call on a closed connection rejects at once with
// StreamClosedError, a close rejects what is pending, and nothing is ever sent twice; a reply
// that does not come in time is a SpotSimTimeoutError whose outcome is unknown.

import { sign as signEd25519 } from 'node:crypto';
import { WebSocket } from 'ws';
import { closeSocket, openSocket } from './socket.ts';
import { WS_METHODS } from '../api/endpoints.ts';
import { SpotSimError, SpotSimNetworkError, SpotSimTimeoutError, StreamClosedError } from './errors.ts';
import { EventStream } from './event-stream.ts';
import { hmacHex, plainParams, wsPayload, type ParamValue } from './signing.ts';
import type { ClientCredentials, RequestStep } from './rest.ts';
import type { UserEvent } from './event-types.ts';
import type { RateLimitCount } from './types.ts';

export interface WsApiOptions {
  readonly url: string;
  readonly credentials: ClientCredentials;
  readonly now?: () => number;
  readonly timeoutMs?: number;
  /** Wraps each request, titled `WS API <method>` (see RequestStep); none by default. */
  readonly step?: RequestStep;
}

/**
 * A whole WS API response frame (`send()`): the request's id, the status, `result` or `error`, and
 * `rateLimits`.
 * @example
 * const api = await client.wsApi();
 * const res: WsApiResponse = await api.send('ticker.price', { symbol: 'BTCUSDT' });
 * if (res.error) console.log(res.status, res.error.code);
 */
export interface WsApiResponse<T = unknown> {
  readonly id: unknown;
  readonly status: number;
  readonly result?: T;
  readonly error?: { code: number; msg: string; data?: unknown };
  readonly rateLimits?: RateLimitCount[];
}

/**
 * The `params` of a WS API request: strings, numbers (written in plain decimal), booleans, arrays
 * of strings.
 * @example
 * const params: WsApiParams = { symbol: 'BTCUSDT', limit: 5 };
 * const book = await (await client.wsApi()).call('depth', params);
 */
export type WsApiParams = Readonly<Record<string, ParamValue>>;

/** Events kept for subscriptions not claimed yet (see `unclaimed`). */
const MAX_UNCLAIMED = 1_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Which methods are signed: the server's own endpoint table says. */
const SIGNED = new Set([...WS_METHODS.values()].filter((e) => e.security === 'SIGNED').map((e) => e.ws!));

interface Pending {
  resolve: (r: WsApiResponse) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One WS API connection. Its typed helpers are added by ws-api-methods.ts (`WsApiClient`).
 * @example
 * const api = client.newWsApi('returnRateLimits=false');   // a WsApiClient, which is a WsApiConnection
 * await api.ready();
 * const time = await api.call<{ serverTime: number }>('time');
 */
export class WsApiConnection {
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;
  private readonly closedAt: Promise<StreamClosedError>;
  private closedWith: StreamClosedError | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Every frame that is not a reply to a call or an event of a subscription (malformed frames, stray replies), as received. */
  readonly frames = new EventStream<unknown>('WS API frames');
  /** The `rateLimits` of the latest reply that carried them (like RestClient.lastHeaders). */
  lastRateLimits: RateLimitCount[] | undefined;
  private readonly userStreams = new Map<number, EventStream<UserEvent>>();
  /**
   * Events of a subscription whose stream does not exist yet: the server may send the first
   * events in the same read as the subscribe reply, before `subscribeUserData` resumes. Bounded.
   */
  private readonly unclaimed: { subscriptionId: number; event: UserEvent }[] = [];
  /** Events that left `unclaimed` because it was full (never silently: see `droppedUnclaimed`). */
  droppedUnclaimed = 0;

  /** @internal Made by SpotSimClient (`client.wsApi()`, `client.newWsApi()`). */
  constructor(protected readonly options: WsApiOptions) {
    this.ws = openSocket(options.url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', (error) => reject(new SpotSimNetworkError(`WS API connection to ${options.url} failed: ${error.message}`, { cause: error })));
      this.ws.once('unexpected-response', (_req, res) => {
        reject(new SpotSimNetworkError(`WS API connection to ${options.url} refused: HTTP ${res.statusCode}`));
        this.ws.terminate();
      });
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data) => this.onFrame(String(data)));
    this.closedAt = new Promise((resolve) => {
      this.ws.once('close', (code, reason) => {
        const error = new StreamClosedError(`WS API connection closed (${code}${reason.length > 0 ? ` ${String(reason)}` : ''})`, code);
        this.closedWith = error;
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(error);
        }
        this.pending.clear();
        this.frames.end(error);
        for (const s of this.userStreams.values()) s.end(error);
        resolve(error);
      });
    });
  }

  /** Resolves once the connection is open; rejects with SpotSimNetworkError when it cannot open. */
  ready(): Promise<void> {
    return this.opened;
  }

  /** True once the connection closed (or never opened): calls reject at once; open a new one. */
  get closed(): boolean {
    return this.closedWith !== null || this.ws.readyState === WebSocket.CLOSING || this.ws.readyState === WebSocket.CLOSED;
  }

  /** Resolves when the connection has closed, with the error its calls get. */
  closedPromise(): Promise<StreamClosedError> {
    return this.closedAt;
  }

  /** Calls a method and returns its `result`; a refusal throws SpotSimError (number `code`, `retryAfterMs` on 429/418). */
  async call<T = unknown>(method: string, params: WsApiParams = {}, options: { signed?: boolean } = {}): Promise<T> {
    const response = await this.send<T>(method, params, options);
    if (response.status !== 200 || response.error !== undefined) {
      const e = response.error ?? { code: 0, msg: 'no result' };
      throw new SpotSimError(response.status, e.code, e.msg, {}, e.data, (this.options.now ?? Date.now)());
    }
    return response.result as T;
  }

  /**
   * Calls a method and returns the whole response frame (status, error, rateLimits). Sends
   * exactly once: a close rejects with StreamClosedError, no reply in time with
   * SpotSimTimeoutError (request id and `newClientOrderId` in it); neither is retried.
   */
  send<T = unknown>(method: string, params: WsApiParams = {}, options: { signed?: boolean } = {}): Promise<WsApiResponse<T>> {
    const step = this.options.step;
    return step === undefined ? this.sendNow<T>(method, params, options) : step(`WS API ${method}`, () => this.sendNow<T>(method, params, options));
  }

  private async sendNow<T>(method: string, params: WsApiParams, options: { signed?: boolean }): Promise<WsApiResponse<T>> {
    this.throwIfClosed(method);
    await this.opened;
    this.throwIfClosed(method);
    const id = this.nextId++;
    const signed = options.signed ?? SIGNED.has(method);
    const plain = plainParams(params);
    const body = signed ? this.sign(plain) : plain;
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const response = await new Promise<WsApiResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        const clientOrderId = typeof params.newClientOrderId === 'string' ? params.newClientOrderId : undefined;
        reject(new SpotSimTimeoutError(`WS API ${method}: no reply within ${timeout} ms (request id ${id}); the outcome is unknown`, id, clientOrderId, timeout));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer });
      this.ws.send(JSON.stringify({ id, method, params: body }));
    });
    if (response.rateLimits !== undefined) this.lastRateLimits = response.rateLimits;
    return response as WsApiResponse<T>;
  }

  /** Sends a text frame as is (malformed input on purpose). */
  async sendRaw(text: string): Promise<void> {
    this.throwIfClosed('a raw frame');
    await this.opened;
    this.throwIfClosed('a raw frame');
    this.ws.send(text);
  }

  /** Adds `apiKey`, `timestamp` and an HMAC `signature` to `params` (what signed methods send). */
  sign(params: WsApiParams): Record<string, ParamValue> {
    const full: Record<string, ParamValue> = { ...params, apiKey: this.options.credentials.apiKey, timestamp: params.timestamp ?? (this.options.now ?? Date.now)() };
    const key = this.options.credentials.ed25519PrivateKey;
    const payload = wsPayload(full);
    // An Ed25519 account signs with its private key (base64), an HMAC account with its secret (hex).
    const signature = key === undefined ? hmacHex(this.options.credentials.apiSecret, payload) : signEd25519(null, Buffer.from(payload), key).toString('base64');
    return { ...full, signature };
  }

  /**
   * Subscribes to the account's user data on this connection (HMAC: the signed form). The
   * stream's `close()` unsubscribes (`userDataStream.unsubscribe`) when the connection is open.
   */
  async subscribeUserData(): Promise<EventStream<UserEvent>> {
    const { subscriptionId } = await this.call<{ subscriptionId: number }>('userDataStream.subscribe.signature');
    const stream = new EventStream<UserEvent>(`user data (subscription ${subscriptionId})`, async () => {
      this.userStreams.delete(subscriptionId);
      if (!this.closed) await this.call('userDataStream.unsubscribe', { subscriptionId });
    });
    if (this.closedWith !== null) stream.end(this.closedWith);
    this.userStreams.set(subscriptionId, stream);
    for (const early of this.unclaimed.filter((u) => u.subscriptionId === subscriptionId)) stream.push(early.event);
    this.unclaimed.splice(0, this.unclaimed.length, ...this.unclaimed.filter((u) => u.subscriptionId !== subscriptionId));
    return stream;
  }

  /** Closes the connection; pending calls reject with StreamClosedError. */
  close(): Promise<void> {
    return closeSocket(this.ws);
  }

  /** `await using api = client.newWsApi()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  private throwIfClosed(what: string): void {
    if (this.closedWith !== null) throw new StreamClosedError(`WS API ${what}: the connection is closed (${this.closedWith.message}); open a new one`, this.closedWith.closeCode);
    if (this.closed) throw new StreamClosedError(`WS API ${what}: the connection is closing; open a new one`);
  }

  private onFrame(text: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.frames.push(text);
      return;
    }
    const frame = msg as { id?: unknown; subscriptionId?: number; event?: UserEvent };
    if (typeof frame.id === 'number' && this.pending.has(frame.id) && 'status' in (msg as object)) {
      const p = this.pending.get(frame.id)!;
      this.pending.delete(frame.id);
      clearTimeout(p.timer);
      p.resolve(msg as WsApiResponse);
      return;
    }
    if (typeof frame.subscriptionId === 'number' && frame.event !== undefined) {
      // One copy of each event: in its subscription's stream only.
      const stream = this.userStreams.get(frame.subscriptionId);
      if (stream !== undefined) stream.push(frame.event);
      else if (this.unclaimed.push({ subscriptionId: frame.subscriptionId, event: frame.event }) > MAX_UNCLAIMED) {
        this.unclaimed.shift();
        this.droppedUnclaimed++;
      }
      return;
    }
    this.frames.push(msg);
  }
}
