// The reply types the typed client (src/client/types.ts) exposes, all from the field lists the
// server writes with (one place per shape).

export type {
  AmendedOrderWire,
  BookTickerWire,
  CancelledWire,
  FillWire,
  MyTradeWire,
  OrderAckWire,
  OrderFullWire,
  OrderResultWire,
  OrderStatus,
  OrderType,
  OrderWire,
  Side,
  TimeInForce,
} from './order-shapes.ts';
export type { AccountWire, BalanceWire, ExchangeInfoWire, SymbolFilter, SymbolInfo } from './info-shapes.ts';
export type { RateLimitCountWire, RateLimitWire } from './rate-limit-shapes.ts';
