// Typed shapes of the simulator's REST / WS API results and stream events (the reference
// exchange's fields, binance-facts §3, §5, §7). Decimals are strings; ids and times numbers.

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'LIMIT_MAKER' | 'MARKET';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED' | 'EXPIRED' | 'EXPIRED_IN_MATCH';
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

export interface Fill {
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  tradeId: number;
}

export interface OrderAck {
  symbol: string;
  orderId: number;
  orderListId: number;
  clientOrderId: string;
  transactTime: number;
}

export interface OrderResult extends OrderAck {
  price: string;
  origQty: string;
  executedQty: string;
  origQuoteOrderQty: string;
  cummulativeQuoteQty: string;
  status: OrderStatus;
  timeInForce: TimeInForce;
  type: OrderType;
  side: Side;
  workingTime: number;
  selfTradePreventionMode: string;
  expiryReason?: string;
  preventedQuantity?: string;
  fills?: Fill[];
}

export interface Order {
  symbol: string;
  orderId: number;
  orderListId: number;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: OrderStatus;
  timeInForce: TimeInForce;
  type: OrderType;
  side: Side;
  stopPrice: string;
  icebergQty: string;
  time: number;
  updateTime: number;
  isWorking: boolean;
  workingTime: number;
  origQuoteOrderQty: string;
  selfTradePreventionMode: string;
}

export interface CancelledOrder {
  symbol: string;
  origClientOrderId: string;
  orderId: number;
  orderListId: number;
  clientOrderId: string;
  transactTime: number;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: OrderStatus;
  timeInForce: TimeInForce;
  type: OrderType;
  side: Side;
  selfTradePreventionMode: string;
}

export interface CancelReplaceResult {
  cancelResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  newOrderResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  cancelResponse: CancelledOrder | { code: number; msg: string };
  newOrderResponse: OrderResult | OrderAck | { code: number; msg: string } | null;
}

export interface AmendResult {
  transactTime: number;
  executionId: number;
  amendedOrder: Record<string, unknown> & { orderId: number; origQty: string; clientOrderId: string };
}

export interface Balance {
  asset: string;
  free: string;
  locked: string;
}

export interface Account {
  makerCommission: number;
  takerCommission: number;
  commissionRates: { maker: string; taker: string; buyer: string; seller: string };
  canTrade: boolean;
  updateTime: number;
  accountType: string;
  balances: Balance[];
  permissions: string[];
  uid: number;
}

export interface Depth {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

export interface BookTicker {
  symbol: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

export interface MyTrade {
  symbol: string;
  id: number;
  orderId: number;
  orderListId: number;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  time: number;
  isBuyer: boolean;
  isMaker: boolean;
  isBestMatch: boolean;
}

export interface ExchangeInfo {
  timezone: string;
  serverTime: number;
  rateLimits: { rateLimitType: string; interval: string; intervalNum: number; limit: number }[];
  symbols: (Record<string, unknown> & { symbol: string; baseAsset: string; quoteAsset: string; filters: (Record<string, unknown> & { filterType: string })[] })[];
}

export interface RateLimitCount {
  rateLimitType: string;
  interval: string;
  intervalNum: number;
  limit: number;
  count: number;
}

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
