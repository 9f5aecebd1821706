// The typed REST client (API.md section 4): one method per endpoint of spec 4.1, signed with
// the simulator's credentials, and a raw `request()` for deliberately malformed input. Refusals
// throw SpotSimError with status, code, message and headers.

import { SpotSimError } from './errors.ts';
import { HttpTransport, type RawResponse } from './http.ts';
import { hmacHex, queryString, type ParamValue } from './signing.ts';
import type {
  Account,
  AmendResult,
  BookTicker,
  CancelledOrder,
  CancelReplaceResult,
  Depth,
  ExchangeInfo,
  MyTrade,
  NewOrderParams,
  Order,
  OrderAck,
  OrderRef,
  OrderResult,
  RateLimitCount,
} from './types.ts';

export interface ClientCredentials {
  readonly apiKey: string;
  readonly apiSecret: string;
}

export interface RestOptions {
  readonly baseUrl: string;
  readonly credentials: ClientCredentials;
  /** The timestamp source of signed requests (default: Date.now). */
  readonly now?: () => number;
  readonly timeoutMs?: number;
}

type Params = Record<string, ParamValue>;

export interface RawRestRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
  /** Path with or without a query string, e.g. `/api/v3/depth?symbol=BTCUSDT`. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface RestResponse<T = unknown> {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: T;
}

export class RestClient {
  private readonly http = new HttpTransport();
  /** Headers of the latest response (X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-*, ...). */
  lastHeaders: Record<string, string> = {};

  constructor(private readonly options: RestOptions) {}

  // ------------------------------------------------------------------ market data

  /** GET /api/v3/ping: tests connectivity; resolves to `{}`. */
  ping(): Promise<Record<string, never>> {
    return this.call('GET', '/api/v3/ping', {}, 'NONE');
  }

  /** GET /api/v3/time: the server time (`serverTime`, ms), which signed requests' `timestamp` must be near. */
  time(): Promise<{ serverTime: number }> {
    return this.call('GET', '/api/v3/time', {}, 'NONE');
  }

  /** GET /api/v3/exchangeInfo: symbols with their filters (tick, lot, notional), rate limits and precisions. */
  exchangeInfo(params: { symbol?: string; symbols?: string[] } = {}): Promise<ExchangeInfo> {
    return this.call('GET', '/api/v3/exchangeInfo', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) }, 'NONE');
  }

  /** GET /api/v3/depth: an order-book snapshot (`lastUpdateId`, `bids`, `asks` as [price, qty] strings). */
  depth(params: { symbol: string; limit?: number }): Promise<Depth> {
    return this.call('GET', '/api/v3/depth', params, 'NONE');
  }

  /** GET /api/v3/ticker/bookTicker: best bid and ask of one symbol, or of several / all. */
  bookTicker(params: { symbol: string }): Promise<BookTicker>;
  bookTicker(params?: { symbols?: string[] }): Promise<BookTicker[]>;
  bookTicker(params: { symbol?: string; symbols?: string[] } = {}): Promise<BookTicker | BookTicker[]> {
    return this.call('GET', '/api/v3/ticker/bookTicker', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) }, 'NONE');
  }

  // ------------------------------------------------------------------ account and orders

  /** GET /api/v3/account (SIGNED): balances (`free`, `locked`), commission rates and permissions. */
  account(params: { omitZeroBalances?: boolean } = {}): Promise<Account> {
    return this.call('GET', '/api/v3/account', params, 'SIGNED');
  }

  /** GET /api/v3/account/commission (SIGNED): the account's maker/taker commission rates for a symbol. */
  commission(params: { symbol: string }): Promise<Record<string, unknown> & { symbol: string }> {
    return this.call('GET', '/api/v3/account/commission', params, 'SIGNED');
  }

  /** POST /api/v3/order (SIGNED): places an order; the reply is ACK, RESULT or FULL (with `fills`) by `newOrderRespType`. */
  newOrder(params: NewOrderParams & { newOrderRespType: 'ACK' }): Promise<OrderAck>;
  newOrder(params: NewOrderParams): Promise<OrderResult>;
  newOrder(params: NewOrderParams): Promise<OrderAck | OrderResult> {
    return this.call('POST', '/api/v3/order', { ...params }, 'SIGNED');
  }

  /** POST /api/v3/order/test (SIGNED): validates an order like newOrder without placing it. */
  testOrder(params: NewOrderParams & { computeCommissionRates?: boolean }): Promise<Record<string, unknown>> {
    return this.call('POST', '/api/v3/order/test', { ...params }, 'SIGNED');
  }

  /** GET /api/v3/order (SIGNED): one order by `orderId` or `origClientOrderId`. */
  getOrder(params: OrderRef): Promise<Order> {
    return this.call('GET', '/api/v3/order', { ...params }, 'SIGNED');
  }

  /** DELETE /api/v3/order (SIGNED): cancels an open order by `orderId` or `origClientOrderId`. */
  cancelOrder(params: OrderRef & { newClientOrderId?: string }): Promise<CancelledOrder> {
    return this.call('DELETE', '/api/v3/order', { ...params }, 'SIGNED');
  }

  /** POST /api/v3/order/cancelReplace (SIGNED): cancels an order and places a new one in one request. */
  cancelReplace(
    params: NewOrderParams & {
      cancelReplaceMode: 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';
      cancelOrderId?: number;
      cancelOrigClientOrderId?: string;
      cancelNewClientOrderId?: string;
    },
  ): Promise<CancelReplaceResult> {
    return this.call('POST', '/api/v3/order/cancelReplace', { ...params }, 'SIGNED');
  }

  /** PUT /api/v3/order/amend/keepPriority (SIGNED): lowers an open order's quantity, keeping its place in the queue. */
  amendKeepPriority(params: OrderRef & { newQty: string | number; newClientOrderId?: string }): Promise<AmendResult> {
    return this.call('PUT', '/api/v3/order/amend/keepPriority', { ...params }, 'SIGNED');
  }

  /** GET /api/v3/openOrders (SIGNED): the account's open orders, of one symbol or all. */
  openOrders(params: { symbol?: string } = {}): Promise<Order[]> {
    return this.call('GET', '/api/v3/openOrders', params, 'SIGNED');
  }

  /** DELETE /api/v3/openOrders (SIGNED): cancels every open order of a symbol. */
  cancelOpenOrders(params: { symbol: string }): Promise<CancelledOrder[]> {
    return this.call('DELETE', '/api/v3/openOrders', params, 'SIGNED');
  }

  /** GET /api/v3/myTrades (SIGNED): the account's trades of a symbol (filters: orderId, fromId, time range, limit). */
  myTrades(params: { symbol: string; orderId?: number; fromId?: number; startTime?: number; endTime?: number; limit?: number }): Promise<MyTrade[]> {
    return this.call('GET', '/api/v3/myTrades', { ...params }, 'SIGNED');
  }

  /** GET /api/v3/rateLimit/order (SIGNED): the unfilled-order counts against the order rate limits. */
  orderRateLimit(): Promise<RateLimitCount[]> {
    return this.call('GET', '/api/v3/rateLimit/order', {}, 'SIGNED');
  }

  // ------------------------------------------------------------------ legacy user stream

  /** POST /api/v3/userDataStream (API key): a listen key for `/ws/<listenKey>` (the same key while one is valid). */
  startUserDataStream(): Promise<{ listenKey: string }> {
    return this.call('POST', '/api/v3/userDataStream', {}, 'API_KEY');
  }

  /** PUT /api/v3/userDataStream: extends a listen key's validity. */
  keepAliveUserDataStream(listenKey: string): Promise<Record<string, never>> {
    return this.call('PUT', '/api/v3/userDataStream', { listenKey }, 'API_KEY');
  }

  /** DELETE /api/v3/userDataStream: closes a listen key (its streams end). */
  closeUserDataStream(listenKey: string): Promise<Record<string, never>> {
    return this.call('DELETE', '/api/v3/userDataStream', { listenKey }, 'API_KEY');
  }

  // ------------------------------------------------------------------ raw

  /** Sends exactly what it is given (no signing, no validation) and never throws on a status. */
  async request<T = unknown>(req: RawRestRequest): Promise<RestResponse<T>> {
    const res = await this.http.send({ method: req.method, url: this.options.baseUrl + req.path, headers: req.headers, body: req.body, timeoutMs: this.options.timeoutMs });
    return { status: res.status, headers: res.headers, body: parse(res) as T };
  }

  /** Signs `params` (HMAC over the query string) and returns the full query string. */
  sign(params: Params): string {
    const query = queryString({ ...params, timestamp: (this.options.now ?? Date.now)() });
    return `${query}&signature=${hmacHex(this.options.credentials.apiSecret, query)}`;
  }

  /** Closes the client's keep-alive connections. */
  close(): void {
    this.http.close();
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Params, security: 'NONE' | 'API_KEY' | 'SIGNED'): Promise<T> {
    const query = security === 'SIGNED' ? this.sign(params) : queryString(params);
    const headers: Record<string, string> = security === 'NONE' ? {} : { 'X-MBX-APIKEY': this.options.credentials.apiKey };
    const res = await this.http.send({ method, url: `${this.options.baseUrl}${path}${query ? `?${query}` : ''}`, headers, timeoutMs: this.options.timeoutMs });
    this.lastHeaders = res.headers;
    const body = parse(res) as { code?: number; msg?: string; data?: unknown };
    if (res.status !== 200) throw new SpotSimError(res.status, body?.code ?? 0, body?.msg ?? res.text, res.headers, body?.data);
    return body as T;
  }
}

function parse(res: RawResponse): unknown {
  if (res.text === '') return null;
  try {
    return JSON.parse(res.text);
  } catch {
    return res.text;
  }
}
