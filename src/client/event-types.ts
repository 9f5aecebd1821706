// Typed stream events: the market streams' depth diffs, trades and bookTicker (the other
// market-data payloads are in ./market-types.ts) and the account's user-data events, with the
// reference exchange's field names. Decimals are strings; ids and times numbers.

import type { MarketDataEvent, MarketDataEventOf } from './market-types.ts';
import type { OrderStatus, OrderType, Side, TimeInForce } from '../api/wire-types.ts';

/**
 * A `<symbol>@depth` diff: the update ids `U`..`u` it covers and the changed levels (quantity "0"
 * removes one).
 * @example
 * const stream = await client.streams('btcusdt@depth');
 * const diff: DepthUpdateEvent = await stream.nextOf('btcusdt@depth');
 */
export interface DepthUpdateEvent {
  e: 'depthUpdate';
  E: number;
  s: string;
  U: number;
  u: number;
  b: [string, string][];
  a: [string, string][];
}

/**
 * A `<symbol>@trade` push: one public trade (`m`: the buyer was the maker).
 * @example
 * const stream = await client.streams('btcusdt@trade');
 * const trade: TradeEvent = await stream.nextOf('btcusdt@trade');
 */
export interface TradeEvent {
  e: 'trade';
  E: number;
  s: string;
  t: number;
  p: string;
  q: string;
  T: number;
  m: boolean;
  M: boolean;
}

/**
 * A `<symbol>@bookTicker` push: the best bid and ask after a change.
 * @example
 * const stream = await client.streams('btcusdt@bookTicker');
 * const touch: BookTickerEvent = await stream.nextOf('btcusdt@bookTicker');
 */
export interface BookTickerEvent {
  u: number;
  s: string;
  b: string;
  B: string;
  a: string;
  A: string;
}

/**
 * The user-data event of every order change: `x` what happened (NEW, TRADE, CANCELED...), `X` the
 * status after it, `l`/`L` the last fill.
 * @example
 * const user = await client.userData();
 * const report: ExecutionReportEvent = await user.next('executionReport');
 */
export interface ExecutionReportEvent {
  e: 'executionReport';
  E: number;
  s: string;
  c: string;
  S: Side;
  o: OrderType;
  f: TimeInForce;
  q: string;
  p: string;
  C: string;
  x: 'NEW' | 'CANCELED' | 'REPLACED' | 'REJECTED' | 'TRADE' | 'EXPIRED' | 'TRADE_PREVENTION';
  X: OrderStatus;
  r: string;
  i: number;
  l: string;
  z: string;
  L: string;
  n: string;
  N: string | null;
  T: number;
  t: number;
  I: number;
  w: boolean;
  m: boolean;
  O: number;
  Z: string;
  Y: string;
  W?: number;
  V: string;
  /** Stop price, iceberg quantity, order list id, quote order quantity ("0.00000000" / -1 when unused). */
  P: string;
  F: string;
  g: number;
  Q: string;
  /** A trailing stop's delta (BIPS) and when it started tracking (-1 until then). */
  d?: number;
  D?: number;
  /** The TRADE_PREVENTION report's fields (self-trade prevention, as the reference's user-data-stream.md shows them): trade group, counter order, prevented quantities, counter symbol. */
  u?: number;
  U?: number;
  A?: string;
  B?: string;
  Cs?: string;
  /** Expiry reason, when the order expired for one. */
  eR?: string;
}

/**
 * `listStatus`: an order list changed (placed, one order triggered or filled, cancelled), sent
 * after its orders' executionReports (`order_types = "reference"`).
 * @example
 * const user = await client.userData();
 * const list: ListStatusEvent = await user.next('listStatus');
 */
export interface ListStatusEvent {
  e: 'listStatus';
  E: number;
  s: string;
  /** orderListId */
  g: number;
  /** contingencyType */
  c: 'OCO' | 'OTO';
  /** listStatusType */
  l: 'RESPONSE' | 'EXEC_STARTED' | 'UPDATED' | 'ALL_DONE';
  /** listOrderStatus */
  L: 'EXECUTING' | 'ALL_DONE' | 'REJECT';
  /** listRejectReason */
  r: string;
  /** listClientOrderId */
  C: string;
  /** transactionTime */
  T: number;
  O: { s: string; i: number; c: string }[];
}

/**
 * The user-data event after a balance change: the changed assets' free and locked amounts (`B`).
 * @example
 * const user = await client.userData();
 * const position: AccountPositionEvent = await user.next('outboundAccountPosition');
 */
export interface AccountPositionEvent {
  e: 'outboundAccountPosition';
  E: number;
  u: number;
  B: { a: string; f: string; l: string }[];
}

/**
 * The last event of a legacy `/ws/<listenKey>` stream whose key expired
 * (`sim.faults.expireListenKeys()`).
 * @example
 * import WebSocket from 'ws';
 * const { listenKey } = await client.rest.startUserDataStream();
 * const socket = new WebSocket(`${sim.urls.ws}/ws/${listenKey}`);
 * socket.on('message', (data) => {
 *   const event = JSON.parse(String(data)) as UserEvent;
 *   if (event.e === 'listenKeyExpired') console.log((event satisfies ListenKeyExpiredEvent).listenKey);
 * });
 */
export interface ListenKeyExpiredEvent {
  e: 'listenKeyExpired';
  E: number;
  listenKey: string;
}

/**
 * The last event of a WS API user-data subscription (after `userDataStream.unsubscribe` or a logout).
 * @example
 * const api = await client.wsApi();
 * const user = await api.subscribeUserData();
 * await api.unsubscribeUserData();
 * const ended: StreamTerminatedEvent = await user.next('eventStreamTerminated');
 */
export interface StreamTerminatedEvent {
  e: 'eventStreamTerminated';
  E: number;
}

/**
 * Every user-data event, told apart by `e`.
 * @example
 * for await (const event of await client.userData()) {
 *   if (event.e === 'executionReport') console.log(event.X);
 * }
 */
export type UserEvent = ExecutionReportEvent | ListStatusEvent | AccountPositionEvent | ListenKeyExpiredEvent | StreamTerminatedEvent;
/**
 * Every stream payload: depth, trade and bookTicker here; klines, tickers and the rest in
 * market-types.ts.
 * @example
 * const stream = await client.streams('btcusdt@trade', 'btcusdt@depth');
 * const { data }: { data: MarketEvent } = await stream.next();
 */
export type MarketEvent = DepthUpdateEvent | TradeEvent | BookTickerEvent | MarketDataEvent;

/**
 * The payload type of a market stream by its name (`btcusdt@trade` -> TradeEvent); `unknown`
 * for a name this client does not describe.
 * @example
 * const trade: StreamEventOf<'btcusdt@trade'> = await (await client.streams('btcusdt@trade')).nextOf('btcusdt@trade');   // a TradeEvent
 */
export type StreamEventOf<N extends string> = N extends `${string}@trade`
  ? TradeEvent
  : N extends `${string}@bookTicker`
    ? BookTickerEvent
    : N extends `${string}@depth` | `${string}@depth@${number}ms`
      ? DepthUpdateEvent
      : MarketDataEventOf<N>;
