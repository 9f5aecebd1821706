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

  ping(): Promise<Record<string, never>> {
    return this.call('GET', '/api/v3/ping', {}, 'NONE');
  }

  time(): Promise<{ serverTime: number }> {
    return this.call('GET', '/api/v3/time', {}, 'NONE');
  }

  exchangeInfo(params: { symbol?: string; symbols?: string[] } = {}): Promise<ExchangeInfo> {
    return this.call('GET', '/api/v3/exchangeInfo', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) }, 'NONE');
  }

  depth(params: { symbol: string; limit?: number }): Promise<Depth> {
    return this.call('GET', '/api/v3/depth', params, 'NONE');
  }

  bookTicker(params: { symbol: string }): Promise<BookTicker>;
  bookTicker(params?: { symbols?: string[] }): Promise<BookTicker[]>;
  bookTicker(params: { symbol?: string; symbols?: string[] } = {}): Promise<BookTicker | BookTicker[]> {
    return this.call('GET', '/api/v3/ticker/bookTicker', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) }, 'NONE');
  }

  // ------------------------------------------------------------------ account and orders

  account(params: { omitZeroBalances?: boolean } = {}): Promise<Account> {
    return this.call('GET', '/api/v3/account', params, 'SIGNED');
  }

  commission(params: { symbol: string }): Promise<Record<string, unknown> & { symbol: string }> {
    return this.call('GET', '/api/v3/account/commission', params, 'SIGNED');
  }

  newOrder(params: NewOrderParams & { newOrderRespType: 'ACK' }): Promise<OrderAck>;
  newOrder(params: NewOrderParams): Promise<OrderResult>;
  newOrder(params: NewOrderParams): Promise<OrderAck | OrderResult> {
    return this.call('POST', '/api/v3/order', { ...params }, 'SIGNED');
  }

  testOrder(params: NewOrderParams & { computeCommissionRates?: boolean }): Promise<Record<string, unknown>> {
    return this.call('POST', '/api/v3/order/test', { ...params }, 'SIGNED');
  }

  getOrder(params: OrderRef): Promise<Order> {
    return this.call('GET', '/api/v3/order', { ...params }, 'SIGNED');
  }

  cancelOrder(params: OrderRef & { newClientOrderId?: string }): Promise<CancelledOrder> {
    return this.call('DELETE', '/api/v3/order', { ...params }, 'SIGNED');
  }

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

  amendKeepPriority(params: OrderRef & { newQty: string | number; newClientOrderId?: string }): Promise<AmendResult> {
    return this.call('PUT', '/api/v3/order/amend/keepPriority', { ...params }, 'SIGNED');
  }

  openOrders(params: { symbol?: string } = {}): Promise<Order[]> {
    return this.call('GET', '/api/v3/openOrders', params, 'SIGNED');
  }

  cancelOpenOrders(params: { symbol: string }): Promise<CancelledOrder[]> {
    return this.call('DELETE', '/api/v3/openOrders', params, 'SIGNED');
  }

  myTrades(params: { symbol: string; orderId?: number; fromId?: number; startTime?: number; endTime?: number; limit?: number }): Promise<MyTrade[]> {
    return this.call('GET', '/api/v3/myTrades', { ...params }, 'SIGNED');
  }

  orderRateLimit(): Promise<RateLimitCount[]> {
    return this.call('GET', '/api/v3/rateLimit/order', {}, 'SIGNED');
  }

  // ------------------------------------------------------------------ legacy user stream

  startUserDataStream(): Promise<{ listenKey: string }> {
    return this.call('POST', '/api/v3/userDataStream', {}, 'API_KEY');
  }

  keepAliveUserDataStream(listenKey: string): Promise<Record<string, never>> {
    return this.call('PUT', '/api/v3/userDataStream', { listenKey }, 'API_KEY');
  }

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
