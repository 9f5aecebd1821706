// A typed helper for every WS API method the simulator serves (its endpoint table; spec 4.3):
// names follow the REST client's where both have the operation (`exchangeInfo`, `bookTicker`,
// `testOrder`, `cancelReplace`, ...), each documented with its method name. `ws-api.test.ts`
// checks that every WS method of the endpoint table has a helper here.

import type { ParamValue } from './signing.ts';
import { withClientOrderId } from './order-ids.ts';
import { WsApiConnection, type WsApiParams } from './ws-api.ts';
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
  SessionStatus,
  TestOrderResult,
} from './types.ts';
import type { AllOrderListsParams, CancelOrderListParams, DeprecatedOcoParams, OcoParams, OrderList, OrderListRef, OrderListReply, OtocoParams, OtoParams } from './order-list-types.ts';
import type { AggTrade, AvgPrice, Kline, KlineParams, MiniTicker, PriceTicker, PublicTrade, Ticker24hr, TickerType, WindowTicker } from './market-types.ts';

/**
 * Which WS API method each helper calls (the test checks it covers the endpoint table).
 * @example
 * const method: 'ticker.book' = WS_HELPERS.bookTicker;
 */
export const WS_HELPERS = {
  ping: 'ping',
  time: 'time',
  exchangeInfo: 'exchangeInfo',
  depth: 'depth',
  bookTicker: 'ticker.book',
  account: 'account.status',
  commission: 'account.commission',
  placeOrder: 'order.place',
  testOrder: 'order.test',
  orderStatus: 'order.status',
  cancelOrder: 'order.cancel',
  cancelReplace: 'order.cancelReplace',
  amendKeepPriority: 'order.amend.keepPriority',
  openOrders: 'openOrders.status',
  cancelAll: 'openOrders.cancelAll',
  myTrades: 'myTrades',
  allOrders: 'allOrders',
  orderRateLimit: 'account.rateLimits.orders',
  placeOco: 'orderList.place',
  placeOrderListOco: 'orderList.place.oco',
  placeOrderListOto: 'orderList.place.oto',
  placeOrderListOtoco: 'orderList.place.otoco',
  cancelOrderList: 'orderList.cancel',
  orderListStatus: 'orderList.status',
  openOrderLists: 'openOrderLists.status',
  allOrderLists: 'allOrderLists',
  sessionLogon: 'session.logon',
  sessionStatus: 'session.status',
  sessionLogout: 'session.logout',
  sessionSubscriptions: 'session.subscriptions',
  subscribeUserDataSession: 'userDataStream.subscribe',
  subscribeUserData: 'userDataStream.subscribe.signature',
  unsubscribeUserData: 'userDataStream.unsubscribe',
  klines: 'klines',
  uiKlines: 'uiKlines',
  recentTrades: 'trades.recent',
  historicalTrades: 'trades.historical',
  aggTrades: 'trades.aggregate',
  avgPrice: 'avgPrice',
  ticker24hr: 'ticker.24hr',
  tickerPrice: 'ticker.price',
  ticker: 'ticker',
  tradingDay: 'ticker.tradingDay',
} as const;

function params(p: object): WsApiParams {
  return p as Record<string, ParamValue>;
}

/**
 * One WS API connection with a typed helper per method; `call()`/`send()` for anything else.
 * @example
 * const api = await client.wsApi();
 * const order = await api.placeOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
 * await api.cancelOrder({ symbol: 'BTCUSDT', orderId: order.orderId });
 */
export class WsApiClient extends WsApiConnection {
  /** `ping`: resolves to `{}`. */
  ping(): Promise<Record<string, never>> {
    return this.call('ping');
  }

  /** `time`: the server time. */
  time(): Promise<{ serverTime: number }> {
    return this.call('time');
  }

  /** `exchangeInfo`: symbols with their filters, rate limits and precisions. */
  exchangeInfo(p: { symbol?: string; symbols?: string[] } = {}): Promise<ExchangeInfo> {
    return this.call('exchangeInfo', { symbol: p.symbol, symbols: p.symbols && JSON.stringify(p.symbols) });
  }

  /** `depth`: an order-book snapshot. */
  depth(p: { symbol: string; limit?: number }): Promise<Depth> {
    return this.call('depth', p);
  }

  /** `ticker.book`: best bid and ask of one symbol, or of several / all. */
  bookTicker(p: { symbol: string }): Promise<BookTicker>;
  bookTicker(p?: { symbols?: string[] }): Promise<BookTicker[]>;
  bookTicker(p: { symbol?: string; symbols?: string[] } = {}): Promise<BookTicker | BookTicker[]> {
    return this.call('ticker.book', { symbol: p.symbol, symbols: p.symbols && JSON.stringify(p.symbols) });
  }

  /** `account.status`: balances and commission rates. */
  account(p: { omitZeroBalances?: boolean } = {}): Promise<Account> {
    return this.call('account.status', p);
  }

  /** `account.commission`: the account's commission rates for a symbol. */
  commission(p: { symbol: string }): Promise<AccountCommission> {
    return this.call('account.commission', p);
  }

  /**
   * `order.place`: places an order. The reply type follows `newOrderRespType` (ACK, RESULT or
   * FULL; default FULL for LIMIT and MARKET, ACK otherwise); a union gives the union of replies.
   * A `newClientOrderId` is generated when not given, and a timeout reports it.
   */
  placeOrder<P extends NewOrderParams>(p: P): Promise<NewOrderReply<P>> {
    return this.call('order.place', params(withClientOrderId(p)));
  }

  /** `order.test`: validates an order like placeOrder without placing it. */
  testOrder(p: NewOrderParams & { computeCommissionRates?: boolean }): Promise<TestOrderResult> {
    return this.call('order.test', params(p));
  }

  /** `order.status`: one order by `orderId` or `origClientOrderId`. */
  orderStatus(p: OrderRef): Promise<Order> {
    return this.call('order.status', params(p));
  }

  /** `order.cancel`: cancels an open order by `orderId` or `origClientOrderId`. */
  cancelOrder(p: OrderRef & { newClientOrderId?: string }): Promise<CancelledOrder> {
    return this.call('order.cancel', params(p));
  }

  /** `order.cancelReplace`: cancels an order and places a new one (its `newClientOrderId` generated when not given). */
  cancelReplace(p: CancelReplaceParams): Promise<CancelReplaceResult> {
    return this.call('order.cancelReplace', params(withClientOrderId(p)));
  }

  /** `order.amend.keepPriority`: lowers an open order's quantity, keeping its place in the queue. */
  amendKeepPriority(p: AmendParams): Promise<AmendResult> {
    return this.call('order.amend.keepPriority', params(p));
  }

  /** `openOrders.status`: the account's open orders, of one symbol or all. */
  openOrders(p: { symbol?: string } = {}): Promise<Order[]> {
    return this.call('openOrders.status', p);
  }

  /** `openOrders.cancelAll`: cancels every open order of a symbol; an order list's orders come as the cancelled list. */
  cancelAll(p: { symbol: string }): Promise<(CancelledOrder | CancelledOrderList)[]> {
    return this.call('openOrders.cancelAll', p);
  }

  /** `myTrades`: the account's trades of a symbol. */
  myTrades(p: MyTradesParams): Promise<MyTrade[]> {
    return this.call('myTrades', params(p));
  }

  /** `allOrders`: the account's orders of a symbol, oldest first (ended ones with `ended_orders = "keep"`, docs/order-history.md). */
  allOrders(p: AllOrdersParams): Promise<Order[]> {
    return this.call('allOrders', params(p));
  }

  /** `account.rateLimits.orders`: the unfilled-order counts against the order rate limits. */
  orderRateLimit(): Promise<RateLimitCount[]> {
    return this.call('account.rateLimits.orders');
  }

  // ---------------------------------------------------------------- order lists (order_types = "reference")

  /** `orderList.place.oco`: an OCO pair; the reports follow `newOrderRespType` (default FULL). */
  placeOrderListOco<P extends OcoParams>(p: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.oco', params(p));
  }

  /** `orderList.place.oto`: a working order and a pending one placed once it has filled. */
  placeOrderListOto<P extends OtoParams>(p: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.oto', params(p));
  }

  /** `orderList.place.otoco`: a working order and a pending OCO pair. */
  placeOrderListOtoco<P extends OtocoParams>(p: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place.otoco', params(p));
  }

  /** @deprecated the reference's `orderList.place` (a LIMIT_MAKER and a stop leg): use placeOrderListOco. */
  placeOco<P extends DeprecatedOcoParams>(p: P): Promise<OrderListReply<P>> {
    return this.call('orderList.place', params(p));
  }

  /** `orderList.cancel`: cancels every order of a list. */
  cancelOrderList(p: CancelOrderListParams): Promise<CancelledOrderList> {
    return this.call('orderList.cancel', params(p));
  }

  /** `orderList.status`: one list by `orderListId` or `origClientOrderId`. */
  orderListStatus(p: OrderListRef): Promise<OrderList> {
    return this.call('orderList.status', params(p));
  }

  /** `openOrderLists.status`: the open lists of every symbol, oldest first. */
  openOrderLists(): Promise<OrderList[]> {
    return this.call('openOrderLists.status');
  }

  /** `allOrderLists`: open and kept lists, oldest first. */
  allOrderLists(p: AllOrderListsParams = {}): Promise<OrderList[]> {
    return this.call('allOrderLists', params(p));
  }

  /** `session.logon` (Ed25519 accounts: needs `credentials.ed25519PrivateKey`): later requests need no signature. */
  sessionLogon(): Promise<SessionStatus> {
    if (this.options.credentials.ed25519PrivateKey === undefined) {
      return Promise.reject(new TypeError('session.logon needs an Ed25519 account: pass credentials.ed25519PrivateKey'));
    }
    return this.call('session.logon');
  }

  /** `session.status`: whether the connection is logged on, and since when. */
  sessionStatus(): Promise<SessionStatus> {
    return this.call('session.status');
  }

  /** `session.logout`: forgets the logon. */
  sessionLogout(): Promise<SessionStatus> {
    return this.call('session.logout');
  }

  /** `session.subscriptions`: the connection's active user-data subscriptions. */
  sessionSubscriptions(): Promise<{ subscriptionId: number }[]> {
    return this.call('session.subscriptions');
  }

  /** `userDataStream.subscribe` (unsigned: needs a logged-on session); returns its id. Events: use `subscribeUserData()` for a typed stream. */
  subscribeUserDataSession(): Promise<{ subscriptionId: number }> {
    return this.call('userDataStream.subscribe');
  }

  /** `userDataStream.unsubscribe`: one subscription by id, or every one of the connection. */
  unsubscribeUserData(p: { subscriptionId?: number } = {}): Promise<Record<string, never>> {
    return this.call('userDataStream.unsubscribe', p);
  }

  // ------------------------------------------------------------------ market data (API.md section 9)

  /** `klines`: candles of an interval (`1s`..`1M`), oldest first, as GET /api/v3/klines. */
  klines(p: KlineParams): Promise<Kline[]> {
    return this.call('klines', params(p));
  }

  /** `uiKlines`: the same candles as `klines`. */
  uiKlines(p: KlineParams): Promise<Kline[]> {
    return this.call('uiKlines', params(p));
  }

  /** `trades.recent`: the most recent public trades. */
  recentTrades(p: { symbol: string; limit?: number }): Promise<PublicTrade[]> {
    return this.call('trades.recent', p);
  }

  /** `trades.historical`: public trades from `fromId`. */
  historicalTrades(p: { symbol: string; fromId?: number; limit?: number }): Promise<PublicTrade[]> {
    return this.call('trades.historical', p);
  }

  /** `trades.aggregate`: aggregate trades (one taker order, one price, one time) by id or time range. */
  aggTrades(p: { symbol: string; fromId?: number; startTime?: number; endTime?: number; limit?: number }): Promise<AggTrade[]> {
    return this.call('trades.aggregate', p);
  }

  /** `avgPrice`: the 5-minute volume-weighted price. */
  avgPrice(p: { symbol: string }): Promise<AvgPrice> {
    return this.call('avgPrice', p);
  }

  /** `ticker.24hr`: 24-hour rolling statistics (one symbol: an object; `symbols` or none: an array). */
  ticker24hr(p: { symbol: string; type?: 'FULL' }): Promise<Ticker24hr>;
  ticker24hr(p: { symbol: string; type: 'MINI' }): Promise<MiniTicker>;
  ticker24hr(p?: { symbols?: string[]; type?: 'FULL' }): Promise<Ticker24hr[]>;
  ticker24hr(p: { symbols?: string[]; type: 'MINI' }): Promise<MiniTicker[]>;
  ticker24hr(p: { symbol?: string; symbols?: string[]; type?: TickerType } = {}): Promise<unknown> {
    return this.call('ticker.24hr', { symbol: p.symbol, symbols: p.symbols && JSON.stringify(p.symbols), type: p.type });
  }

  /** `ticker.price`: the last trade price (one symbol: an object; `symbols` or none: an array). */
  tickerPrice(p: { symbol: string }): Promise<PriceTicker>;
  tickerPrice(p?: { symbols?: string[] }): Promise<PriceTicker[]>;
  tickerPrice(p: { symbol?: string; symbols?: string[] } = {}): Promise<PriceTicker | PriceTicker[]> {
    return this.call('ticker.price', { symbol: p.symbol, symbols: p.symbols && JSON.stringify(p.symbols) });
  }

  /** `ticker`: rolling-window statistics (`windowSize` 1m..59m, 1h..23h, 1d..7d; default 1d). */
  ticker(p: { symbol: string; windowSize?: string; type?: TickerType }): Promise<WindowTicker>;
  ticker(p: { symbols: string[]; windowSize?: string; type?: TickerType }): Promise<WindowTicker[]>;
  ticker(p: { symbol?: string; symbols?: string[]; windowSize?: string; type?: TickerType }): Promise<WindowTicker | WindowTicker[]> {
    return this.call('ticker', { ...p, symbols: p.symbols && JSON.stringify(p.symbols) });
  }

  /** `ticker.tradingDay`: statistics of the current trading day (UTC, or `timeZone`). */
  tradingDay(p: { symbol: string; timeZone?: string; type?: TickerType }): Promise<WindowTicker>;
  tradingDay(p: { symbols: string[]; timeZone?: string; type?: TickerType }): Promise<WindowTicker[]>;
  tradingDay(p: { symbol?: string; symbols?: string[]; timeZone?: string; type?: TickerType }): Promise<WindowTicker | WindowTicker[]> {
    return this.call('ticker.tradingDay', { ...p, symbols: p.symbols && JSON.stringify(p.symbols) });
  }
}
