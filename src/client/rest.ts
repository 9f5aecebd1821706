// The typed REST client (API.md section 4): one method per endpoint of spec 4.1, each naming
// its operation in the server's endpoint table (route, method and security come from there),
// signed with the simulator's credentials, and a raw `request()` for deliberately malformed
// input. Refusals throw SpotSimError with status, code, message and headers.

import { ENDPOINTS, type HttpMethod, type RestEndpointId, type Security } from '../api/endpoints.ts';
import { SpotSimError, SpotSimNetworkError, SpotSimTimeoutError } from './errors.ts';
import { HttpTimeout, HttpTransport, type RawRequest, type RawResponse } from './http.ts';
import { withClientOrderId } from './order-ids.ts';
import { hmacHex, queryString, type ParamValue } from './signing.ts';
import type { RawRestRequest, RestOptions, RestResponse } from './rest-types.ts';
export type { ClientCredentials, RawRestRequest, RequestStep, RestOptions, RestResponse } from './rest-types.ts';
import type {
  Account,
  AccountCommission,
  AllOrdersParams,
  AmendParams,
  AmendResult,
  BookTicker,
  CancelledOrder,
  CancelledOrderList,
  CancelReplaceParams,
  CancelReplaceResult,
  Depth,
  ExchangeInfo,
  MyTrade,
  MyTradesParams,
  NewOrderParams,
  NewOrderReply,
  Order,
  OrderRef,
  RateLimitCount,
  TestOrderResult,
} from './types.ts';
import type { AllOrderListsParams, CancelOrderListParams, DeprecatedOcoParams, OcoParams, OrderList, OrderListRef, OrderListReply, OtocoParams, OtoParams } from './order-list-types.ts';
import type { AggTrade, AvgPrice, Kline, KlineParams, MiniTicker, PriceTicker, PublicTrade, Ticker24hr, TickerType, WindowTicker } from './market-types.ts';

type Params = Record<string, ParamValue>;

/** Route and security type of each REST operation, from the server's own endpoint table. */
const ROUTES: ReadonlyMap<string, { readonly method: HttpMethod; readonly path: string; readonly security: Security }> = new Map(
  ENDPOINTS.flatMap((e) => (e.rest === undefined ? [] : [[e.id, { method: e.rest.method, path: e.rest.path, security: e.security }] as const])),
);

/**
 * The typed REST client (`client.rest`): one method per REST endpoint, signed with the simulator's
 * credentials; a refusal throws a SpotSimError.
 * @example
 * const book = await client.rest.depth({ symbol: 'BTCUSDT', limit: 5 });
 * const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: book.bids[0]?.[0] ?? '59000' });
 * console.log(client.rest.lastHeaders['x-mbx-used-weight-1m']);
 */
export class RestClient {
  private readonly http = new HttpTransport();
  /** Headers of the latest response (X-MBX-USED-WEIGHT-1M, X-MBX-ORDER-COUNT-*, ...). */
  lastHeaders: Record<string, string> = {};

  /** @internal Made by SpotSimClient (`client.rest`). */
  constructor(private readonly options: RestOptions) {}

  // ------------------------------------------------------------------ market data

  /** GET /api/v3/ping: tests connectivity; resolves to `{}`. */
  ping(): Promise<Record<string, never>> {
    return this.call('ping', {});
  }

  /** GET /api/v3/time: the server time (`serverTime`, ms), which signed requests' `timestamp` must be near. */
  time(): Promise<{ serverTime: number }> {
    return this.call('time', {});
  }

  /** GET /api/v3/exchangeInfo: symbols with their filters (tick, lot, notional), rate limits and precisions. */
  exchangeInfo(params: { symbol?: string; symbols?: string[] } = {}): Promise<ExchangeInfo> {
    return this.call('exchangeInfo', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) });
  }

  /** GET /api/v3/depth: an order-book snapshot (`lastUpdateId`, `bids`, `asks` as [price, qty] strings). */
  depth(params: { symbol: string; limit?: number }): Promise<Depth> {
    return this.call('depth', params);
  }

  /** GET /api/v3/ticker/bookTicker: best bid and ask of one symbol, or of several / all. */
  bookTicker(params: { symbol: string }): Promise<BookTicker>;
  bookTicker(params?: { symbols?: string[] }): Promise<BookTicker[]>;
  bookTicker(params: { symbol?: string; symbols?: string[] } = {}): Promise<BookTicker | BookTicker[]> {
    return this.call('ticker.book', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) });
  }

  /** GET /api/v3/trades: the most recent public trades (default 500, at most 1000), oldest first. */
  trades(params: { symbol: string; limit?: number }): Promise<PublicTrade[]> {
    return this.call('trades.recent', params);
  }

  /** GET /api/v3/historicalTrades: public trades from `fromId` (default: the most recent), oldest first. */
  historicalTrades(params: { symbol: string; fromId?: number; limit?: number }): Promise<PublicTrade[]> {
    return this.call('trades.historical', params);
  }

  /** GET /api/v3/aggTrades: aggregate trades (one taker order, one price, one time) by id or time range. */
  aggTrades(params: { symbol: string; fromId?: number; startTime?: number; endTime?: number; limit?: number }): Promise<AggTrade[]> {
    return this.call('trades.aggregate', params);
  }

  /** GET /api/v3/klines: candles of an interval (`1s`..`1M`), oldest first; the last one is still open. */
  klines(params: KlineParams): Promise<Kline[]> {
    return this.call('klines', { ...params });
  }

  /** GET /api/v3/uiKlines: the same candles as `klines`. */
  uiKlines(params: KlineParams): Promise<Kline[]> {
    return this.call('uiKlines', { ...params });
  }

  /** GET /api/v3/avgPrice: the 5-minute volume-weighted price and the last trade's time. */
  avgPrice(params: { symbol: string }): Promise<AvgPrice> {
    return this.call('avgPrice', params);
  }

  /** GET /api/v3/ticker/24hr: 24-hour rolling statistics of one symbol, several or all (FULL or MINI). */
  ticker24hr(params: { symbol: string; type?: 'FULL' }): Promise<Ticker24hr>;
  ticker24hr(params: { symbol: string; type: 'MINI' }): Promise<MiniTicker>;
  ticker24hr(params?: { symbols?: string[]; type?: 'FULL' }): Promise<Ticker24hr[]>;
  ticker24hr(params: { symbols?: string[]; type: 'MINI' }): Promise<MiniTicker[]>;
  ticker24hr(params: { symbol?: string; symbols?: string[]; type?: TickerType } = {}): Promise<unknown> {
    return this.call('ticker.24hr', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols), type: params.type });
  }

  /** GET /api/v3/ticker/price: the last trade price of one symbol, several or all. */
  tickerPrice(params: { symbol: string }): Promise<PriceTicker>;
  tickerPrice(params?: { symbols?: string[] }): Promise<PriceTicker[]>;
  tickerPrice(params: { symbol?: string; symbols?: string[] } = {}): Promise<PriceTicker | PriceTicker[]> {
    return this.call('ticker.price', { symbol: params.symbol, symbols: params.symbols && JSON.stringify(params.symbols) });
  }

  /** GET /api/v3/ticker: rolling-window statistics (`windowSize` 1m..59m, 1h..23h, 1d..7d; default 1d), opening on a minute. */
  ticker(params: { symbol: string; windowSize?: string; type?: TickerType }): Promise<WindowTicker>;
  ticker(params: { symbols: string[]; windowSize?: string; type?: TickerType }): Promise<WindowTicker[]>;
  ticker(params: { symbol?: string; symbols?: string[]; windowSize?: string; type?: TickerType }): Promise<WindowTicker | WindowTicker[]> {
    return this.call('ticker', { ...params, symbols: params.symbols && JSON.stringify(params.symbols) });
  }

  /** GET /api/v3/ticker/tradingDay: statistics of the current trading day (UTC, or `timeZone`). */
  tradingDay(params: { symbol: string; timeZone?: string; type?: TickerType }): Promise<WindowTicker>;
  tradingDay(params: { symbols: string[]; timeZone?: string; type?: TickerType }): Promise<WindowTicker[]>;
  tradingDay(params: { symbol?: string; symbols?: string[]; timeZone?: string; type?: TickerType }): Promise<WindowTicker | WindowTicker[]> {
    return this.call('ticker.tradingDay', { ...params, symbols: params.symbols && JSON.stringify(params.symbols) });
  }

  // ------------------------------------------------------------------ account and orders

  /** GET /api/v3/account (SIGNED): balances (`free`, `locked`), commission rates and permissions. */
  account(params: { omitZeroBalances?: boolean } = {}): Promise<Account> {
    return this.call('account.status', params);
  }

  /** GET /api/v3/account/commission (SIGNED): the account's maker/taker commission rates for a symbol. */
  commission(params: { symbol: string }): Promise<AccountCommission> {
    return this.call('account.commission', params);
  }

  /**
   * POST /api/v3/order (SIGNED): places an order. The reply type follows `newOrderRespType`
   * (ACK, RESULT or FULL with `fills`; default FULL for LIMIT and MARKET, ACK otherwise); a union
   * gives the union of replies. A `newClientOrderId` is generated when not given, and a timeout
   * (SpotSimTimeoutError) reports it, so the order can be looked up with `getOrder`.
   */
  newOrder<P extends NewOrderParams>(params: P): Promise<NewOrderReply<P>> {
    return this.call('order.place', { ...(withClientOrderId(params) as NewOrderParams) });
  }

  /** POST /api/v3/order/test (SIGNED): validates an order like newOrder without placing it. */
  testOrder(params: NewOrderParams & { computeCommissionRates?: boolean }): Promise<TestOrderResult> {
    return this.call('order.test', { ...params });
  }

  /** GET /api/v3/order (SIGNED): one order by `orderId` or `origClientOrderId`. */
  getOrder(params: OrderRef): Promise<Order> {
    return this.call('order.status', { ...params });
  }

  /** DELETE /api/v3/order (SIGNED): cancels an open order by `orderId` or `origClientOrderId`. */
  cancelOrder(params: OrderRef & { newClientOrderId?: string }): Promise<CancelledOrder> {
    return this.call('order.cancel', { ...params });
  }

  /** POST /api/v3/order/cancelReplace (SIGNED): cancels an order and places a new one in one request. */
  cancelReplace(params: CancelReplaceParams): Promise<CancelReplaceResult> {
    return this.call('order.cancelReplace', { ...withClientOrderId(params) });
  }

  /** PUT /api/v3/order/amend/keepPriority (SIGNED): lowers an open order's quantity, keeping its place in the queue. */
  amendKeepPriority(params: AmendParams): Promise<AmendResult> {
    return this.call('order.amend.keepPriority', { ...params });
  }

  /** GET /api/v3/openOrders (SIGNED): the account's open orders, of one symbol or all. */
  openOrders(params: { symbol?: string } = {}): Promise<Order[]> {
    return this.call('openOrders.status', params);
  }

  /** DELETE /api/v3/openOrders (SIGNED): cancels every open order of a symbol; an order list's orders come as the cancelled list. */
  cancelOpenOrders(params: { symbol: string }): Promise<(CancelledOrder | CancelledOrderList)[]> {
    return this.call('openOrders.cancelAll', params);
  }

  /** GET /api/v3/myTrades (SIGNED): the account's trades of a symbol (filters: orderId, fromId, time range, limit). */
  myTrades(params: MyTradesParams): Promise<MyTrade[]> {
    return this.call('myTrades', { ...params });
  }

  /**
   * GET /api/v3/allOrders (SIGNED, weight 20): the account's orders of a symbol, oldest first:
   * open ones, and ended ones when the simulator keeps them (`ended_orders = "keep"`).
   */
  allOrders(params: AllOrdersParams): Promise<Order[]> {
    return this.call('allOrders', { ...params });
  }

  // ------------------------------------------------------------------ order lists (order_types = "reference")

  /** POST /api/v3/orderList/oco (SIGNED): an OCO pair; the reports follow `newOrderRespType` (default FULL). */
  newOrderListOco<P extends OcoParams>(params: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.oco', { ...(params as OcoParams) });
  }

  /** POST /api/v3/orderList/oto (SIGNED): a working order and a pending one placed once it has filled. */
  newOrderListOto<P extends OtoParams>(params: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.oto', { ...(params as OtoParams) });
  }

  /** POST /api/v3/orderList/otoco (SIGNED): a working order and a pending OCO pair. */
  newOrderListOtoco<P extends OtocoParams>(params: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.otoco', { ...(params as OtocoParams) });
  }

  /** @deprecated the reference's POST /api/v3/order/oco (SIGNED): use newOrderListOco. */
  newOco<P extends DeprecatedOcoParams>(params: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place', { ...(params as DeprecatedOcoParams) });
  }

  /** DELETE /api/v3/orderList (SIGNED): cancels every order of a list. */
  cancelOrderList(params: CancelOrderListParams): Promise<CancelledOrderList> {
    return this.call('orderList.cancel', { ...params });
  }

  /** GET /api/v3/orderList (SIGNED): one list by `orderListId` or `origClientOrderId`. */
  getOrderList(params: OrderListRef): Promise<OrderList> {
    return this.call('orderList.status', { ...params });
  }

  /** GET /api/v3/openOrderList (SIGNED): the open lists of every symbol, oldest first. */
  openOrderLists(): Promise<OrderList[]> {
    return this.call('openOrderLists.status', {});
  }

  /** GET /api/v3/allOrderList (SIGNED): open and kept lists, oldest first. */
  allOrderLists(params: AllOrderListsParams = {}): Promise<OrderList[]> {
    return this.call('allOrderLists', { ...params });
  }

  /** GET /api/v3/rateLimit/order (SIGNED): the unfilled-order counts against the order rate limits. */
  orderRateLimit(): Promise<RateLimitCount[]> {
    return this.call('account.rateLimits.orders', {});
  }

  // ------------------------------------------------------------------ legacy user stream

  /** POST /api/v3/userDataStream (API key): a listen key for `/ws/<listenKey>` (the same key while one is valid). */
  startUserDataStream(): Promise<{ listenKey: string }> {
    return this.call('userDataStream.start', {});
  }

  /** PUT /api/v3/userDataStream: extends a listen key's validity. */
  keepAliveUserDataStream(listenKey: string): Promise<Record<string, never>> {
    return this.call('userDataStream.ping', { listenKey });
  }

  /** DELETE /api/v3/userDataStream: closes a listen key (its streams end). */
  closeUserDataStream(listenKey: string): Promise<Record<string, never>> {
    return this.call('userDataStream.stop', { listenKey });
  }

  // ------------------------------------------------------------------ raw

  /** Sends exactly what it is given (no signing, no validation) and never throws on a status. */
  request<T = unknown>(req: RawRestRequest): Promise<RestResponse<T>> {
    return this.stepped(`${req.method} ${req.path.split('?')[0]}`, async () => {
      const res = await this.exchange({ method: req.method, url: this.options.baseUrl + req.path, headers: req.headers, body: req.body, timeoutMs: this.options.timeoutMs }, undefined);
      return { status: res.status, headers: res.headers, body: parse(res) as T };
    });
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

  /** Calls the operation `id` of the endpoint table, by its route and security type. */
  private call<T>(id: RestEndpointId, params: Params): Promise<T> {
    const route = ROUTES.get(id);
    if (route === undefined) return Promise.reject(new Error(`no REST route for ${id}`));
    return this.stepped(`${route.method} ${route.path}`, () => this.callRoute<T>(route, params));
  }

  private stepped<T>(title: string, send: () => Promise<T>): Promise<T> {
    return this.options.step === undefined ? send() : this.options.step(title, send);
  }

  private async callRoute<T>(route: { readonly method: HttpMethod; readonly path: string; readonly security: Security }, params: Params): Promise<T> {
    const { method, path, security } = route;
    const query = security === 'SIGNED' ? this.sign(params) : queryString(params);
    const headers: Record<string, string> = security === 'NONE' ? {} : { 'X-MBX-APIKEY': this.options.credentials.apiKey };
    const url = `${this.options.baseUrl}${path}${query ? `?${query}` : ''}`;
    const clientOrderId = typeof params.newClientOrderId === 'string' ? params.newClientOrderId : undefined;
    const res = await this.exchange({ method, url, headers, timeoutMs: this.options.timeoutMs }, clientOrderId);
    this.lastHeaders = res.headers;
    const body = parse(res) as { code?: number; msg?: string; data?: unknown };
    if (res.status !== 200) throw new SpotSimError(res.status, body?.code ?? 0, body?.msg ?? res.text, res.headers, body?.data);
    return body as T;
  }

  /** One HTTP exchange; a timeout is SpotSimTimeoutError (outcome unknown), any other failure SpotSimNetworkError. */
  private async exchange(req: RawRequest, clientOrderId: string | undefined): Promise<RawResponse> {
    try {
      return await this.http.send(req);
    } catch (error) {
      const what = `${req.method} ${new URL(req.url).pathname}`;
      if (error instanceof HttpTimeout) {
        throw new SpotSimTimeoutError(`REST ${what}: no reply within ${error.timeoutMs} ms; the outcome is unknown`, what, clientOrderId, error.timeoutMs);
      }
      throw new SpotSimNetworkError(`REST ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
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
