// The typed WS API client (API.md section 4): `call(method, params)` with HMAC signing by the
// reference rule (params sorted, unencoded), typed helpers for the order and account methods,
// and the user-data subscription as an awaitable EventStream.

import type { WebSocket } from 'ws';
import { closeSocket, openSocket } from './socket.ts';
import { WS_METHODS } from '../api/endpoints.ts';
import { SpotSimError } from './errors.ts';
import { EventStream } from './event-stream.ts';
import { hmacHex, wsPayload, type ParamValue } from './signing.ts';
import type { ClientCredentials } from './rest.ts';
import type { Account, AllOrdersParams, CancelledOrder, Depth, NewOrderParams, Order, OrderAck, OrderRef, OrderResult, RateLimitCount, UserEvent } from './types.ts';

export interface WsApiOptions {
  readonly url: string;
  readonly credentials: ClientCredentials;
  readonly now?: () => number;
  readonly timeoutMs?: number;
}

export interface WsApiResponse<T = unknown> {
  readonly id: unknown;
  readonly status: number;
  readonly result?: T;
  readonly error?: { code: number; msg: string; data?: unknown };
  readonly rateLimits?: RateLimitCount[];
}

type Params = Record<string, ParamValue>;

/** Events kept for subscriptions not claimed yet (see `unclaimed`). */
const MAX_UNCLAIMED = 1_000;

/** Which methods are signed: the server's own endpoint table says (binance-facts §6). */
const SIGNED = new Set([...WS_METHODS.values()].filter((e) => e.security === 'SIGNED').map((e) => e.ws!));

export class WsApiClient {
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: WsApiResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  /** Every frame that is not a reply to a call (events, malformed frames), as received. */
  readonly frames = new EventStream<unknown>('WS API frames');
  private readonly userStreams = new Map<number, EventStream<UserEvent>>();
  /**
   * Events of a subscription whose stream does not exist yet: the server may send the first
   * events in the same read as the subscribe reply, before `subscribeUserData` resumes. Bounded.
   */
  private readonly unclaimed: { subscriptionId: number; event: UserEvent }[] = [];

  constructor(private readonly options: WsApiOptions) {
    this.ws = openSocket(options.url);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data) => this.onFrame(String(data)));
    this.ws.on('close', (code, reason) => {
      const error = new Error(`WS API connection closed (${code} ${String(reason)})`);
      for (const p of this.pending.values()) {
        clearTimeout(p.timer);
        p.reject(error);
      }
      this.pending.clear();
      this.frames.end(error);
      for (const s of this.userStreams.values()) s.end(error);
    });
  }

  /** Resolves once the connection is open. */
  ready(): Promise<void> {
    return this.opened;
  }

  /** Calls a method and returns its `result`; a refusal throws SpotSimError. */
  async call<T = unknown>(method: string, params: Params = {}, options: { signed?: boolean } = {}): Promise<T> {
    const response = await this.send<T>(method, params, options);
    if (response.status !== 200 || response.error !== undefined) {
      const e = response.error ?? { code: 0, msg: 'no result' };
      throw new SpotSimError(response.status, e.code, e.msg, {}, e.data);
    }
    return response.result as T;
  }

  /** Calls a method and returns the whole response frame (status, error, rateLimits). */
  async send<T = unknown>(method: string, params: Params = {}, options: { signed?: boolean } = {}): Promise<WsApiResponse<T>> {
    await this.opened;
    const id = this.nextId++;
    const signed = options.signed ?? SIGNED.has(method);
    const body = signed ? this.sign(params) : params;
    return new Promise((resolve, reject) => {
      const timeout = this.options.timeoutMs ?? 10_000;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`WS API ${method}: no reply within ${timeout} ms`));
      }, timeout);
      this.pending.set(id, { resolve: resolve as (r: WsApiResponse) => void, reject, timer });
      this.ws.send(JSON.stringify({ id, method, params: body }));
    });
  }

  /** Sends a text frame as is (malformed input on purpose). */
  async sendRaw(text: string): Promise<void> {
    await this.opened;
    this.ws.send(text);
  }

  /** Adds `apiKey`, `timestamp` and an HMAC `signature` to `params` (what signed methods send). */
  sign(params: Params): Params {
    const full: Params = { ...params, apiKey: this.options.credentials.apiKey, timestamp: params.timestamp ?? (this.options.now ?? Date.now)() };
    return { ...full, signature: hmacHex(this.options.credentials.apiSecret, wsPayload(full)) };
  }

  // ------------------------------------------------------------------ typed methods

  /** `order.place`: places an order (ACK, RESULT or FULL reply by `newOrderRespType`). */
  placeOrder(params: NewOrderParams & { newOrderRespType: 'ACK' }): Promise<OrderAck>;
  placeOrder(params: NewOrderParams): Promise<OrderResult>;
  placeOrder(params: NewOrderParams): Promise<OrderAck | OrderResult> {
    return this.call('order.place', { ...params });
  }

  /** `order.cancel`: cancels an open order by `orderId` or `origClientOrderId`. */
  cancelOrder(params: OrderRef & { newClientOrderId?: string }): Promise<CancelledOrder> {
    return this.call('order.cancel', { ...params });
  }

  /** `order.status`: one order by `orderId` or `origClientOrderId`. */
  orderStatus(params: OrderRef): Promise<Order> {
    return this.call('order.status', { ...params });
  }

  /** `allOrders`: the account's orders of a symbol, oldest first (ended ones with `ended_orders = "keep"`). */
  allOrders(params: AllOrdersParams): Promise<Order[]> {
    return this.call('allOrders', { ...params });
  }

  /** `openOrders.status`: the account's open orders, of one symbol or all. */
  openOrders(params: { symbol?: string } = {}): Promise<Order[]> {
    return this.call('openOrders.status', params);
  }

  /** `openOrders.cancelAll`: cancels every open order of a symbol. */
  cancelAll(params: { symbol: string }): Promise<CancelledOrder[]> {
    return this.call('openOrders.cancelAll', params);
  }

  /** `account.status`: balances and commission rates. */
  account(params: { omitZeroBalances?: boolean } = {}): Promise<Account> {
    return this.call('account.status', params);
  }

  /** `depth`: an order-book snapshot. */
  depth(params: { symbol: string; limit?: number }): Promise<Depth> {
    return this.call('depth', params);
  }

  /** Subscribes to the account's user data on this connection (HMAC: the signed form). */
  async subscribeUserData(): Promise<EventStream<UserEvent>> {
    const { subscriptionId } = await this.call<{ subscriptionId: number }>('userDataStream.subscribe.signature');
    const stream = new EventStream<UserEvent>(`user data (subscription ${subscriptionId})`);
    this.userStreams.set(subscriptionId, stream);
    for (const early of this.unclaimed.filter((u) => u.subscriptionId === subscriptionId)) stream.push(early.event);
    this.unclaimed.splice(0, this.unclaimed.length, ...this.unclaimed.filter((u) => u.subscriptionId !== subscriptionId));
    return stream;
  }

  /** Closes the connection; pending calls reject. */
  close(): Promise<void> {
    return closeSocket(this.ws);
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
      const stream = this.userStreams.get(frame.subscriptionId);
      if (stream !== undefined) stream.push(frame.event);
      else if (this.unclaimed.push({ subscriptionId: frame.subscriptionId, event: frame.event }) > MAX_UNCLAIMED) this.unclaimed.shift();
    }
    this.frames.push(msg);
  }
}
