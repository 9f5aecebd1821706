// Typed shapes of the simulator's REST / WS API results and stream events (the reference
// exchange's fields, binance-facts §3, §5, §7). Decimals are strings; ids and times numbers.
// The replies' types come from the server's own field lists (src/api/wire-types.ts), so the
// client cannot describe a field the server does not write.

import type {
  AccountWire,
  AmendedOrderWire,
  BalanceWire,
  BookTickerWire,
  CancelledWire,
  ExchangeInfoWire,
  FillWire,
  MyTradeWire,
  OrderAckWire,
  OrderFullWire,
  OrderResultWire,
  OrderStatus,
  OrderType,
  OrderWire,
  RateLimitCountWire,
  Side,
  SymbolInfo,
  TimeInForce,
} from '../api/wire-types.ts';

export type { OrderStatus, OrderType, Side, TimeInForce };
export type Decimal = string | number;

export interface NewOrderParams {
  symbol: string;
  side: Side;
  type: OrderType;
  timeInForce?: TimeInForce;
  quantity?: Decimal;
  quoteOrderQty?: Decimal;
  price?: Decimal;
  newClientOrderId?: string;
  newOrderRespType?: 'ACK' | 'RESULT' | 'FULL';
  selfTradePreventionMode?: string;
  recvWindow?: number;
}

export interface OrderRef {
  symbol: string;
  orderId?: number;
  origClientOrderId?: string;
}

/**
 * allOrders filters (docs/order-history.md): `orderId` gives the orders with ids >= it; a time window
 * (at most 24 h, by each order's last update) takes precedence over it; limit 1..1000, default 500.
 */
export interface AllOrdersParams {
  symbol: string;
  orderId?: number;
  startTime?: number;
  endTime?: number;
  limit?: number;
}

export interface Fill extends FillWire {}

export interface OrderAck extends OrderAckWire {}

/** A RESULT reply; a FULL reply adds `fills`. */
export interface OrderResult extends OrderResultWire {
  fills?: OrderFullWire['fills'];
}

export interface Order extends OrderWire {}

export interface CancelledOrder extends CancelledWire {}

export interface CancelReplaceResult {
  cancelResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  newOrderResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  cancelResponse: CancelledOrder | { code: number; msg: string };
  newOrderResponse: OrderResult | OrderAck | { code: number; msg: string } | null;
}

export interface AmendResult {
  transactTime: number;
  executionId: number;
  amendedOrder: Record<string, unknown> & AmendedOrderWire;
}

export interface Balance extends BalanceWire {}

export interface Account extends AccountWire {}

export interface Depth {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

export interface BookTicker extends BookTickerWire {}

export interface MyTrade extends MyTradeWire {}

/** Symbols keep an open index (fields the reference may add read as `unknown`). */
export interface ExchangeInfo extends Omit<ExchangeInfoWire, 'symbols'> {
  symbols: (Record<string, unknown> & SymbolInfo)[];
}

export interface RateLimitCount extends RateLimitCountWire {}

// ------------------------------------------------------------------ stream events

export interface DepthUpdateEvent {
  e: 'depthUpdate';
  E: number;
  s: string;
  U: number;
  u: number;
  b: [string, string][];
  a: [string, string][];
}

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

export interface BookTickerEvent {
  u: number;
  s: string;
  b: string;
  B: string;
  a: string;
  A: string;
}

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
  [field: string]: unknown;
}

export interface AccountPositionEvent {
  e: 'outboundAccountPosition';
  E: number;
  u: number;
  B: { a: string; f: string; l: string }[];
}

export interface ListenKeyExpiredEvent {
  e: 'listenKeyExpired';
  E: number;
  listenKey: string;
}

export interface StreamTerminatedEvent {
  e: 'eventStreamTerminated';
  E: number;
}

export type UserEvent = ExecutionReportEvent | AccountPositionEvent | ListenKeyExpiredEvent | StreamTerminatedEvent;
export type MarketEvent = DepthUpdateEvent | TradeEvent | BookTickerEvent;
