// The order replies' field lists (binance-facts §3.6 POST order ACK/RESULT/FULL, §3.8 GET order,
// §3.9 DELETE order, §3.11 amend, myTrades): field names, order and spelling as the reference
// exchange writes them (`cummulativeQuoteQty` in order responses, `cumulativeQuoteQty` in the
// amend response). Decimals are strings with 8 decimals (more only when exactness needs them);
// ids and times are numbers. The server's serializers (wire.ts) and the typed client's types
// (src/client/types.ts) both come from these tables.

import type { AmendResult, CancelResult, PlaceResult } from '../core/commands.ts';
import type { Instrument } from '../core/markets.ts';
import { STP_MODE, type AccountTrade, type Fill, type OrderType, type OrderView, type PreventedMatch, type Touch } from '../core/types.ts';
import { formatScaled } from '../core/units.ts';
import { fieldsOf, shape, type WireOf } from './shape.ts';

export type { OrderStatus, OrderType, Side, TimeInForce } from '../core/types.ts';

export const ZERO = '0.00000000';

export const price = (inst: Instrument, ticks: number): string => formatScaled(ticks, inst.tickDecimals);
export const qty = (inst: Instrument, lots: number): string => formatScaled(lots, inst.lotDecimals);
export const quote = (inst: Instrument, atoms: bigint): string => formatScaled(atoms, inst.quoteDecimals);

/** Conditional types (API.md 11): they wait for their stop price or trailing delta. */
export function isConditional(type: OrderType): boolean {
  return type !== 'LIMIT' && type !== 'LIMIT_MAKER' && type !== 'MARKET';
}

/**
 * The conditional fields of order responses (rest-api.md "Conditional fields in Order
 * Responses"): `stopPrice` for the conditional types, `trailingDelta` and `trailingTime` for a
 * trailing stop, `icebergQty` for an iceberg. Orders of the spec's types never have them.
 */
function conditionalFields<S>(of: (s: S) => OrderView) {
  const f = fieldsOf<S, Instrument>();
  return {
    stopPrice: f.optional(f.text((s, inst) => price(inst, of(s).stopPrice)), (s) => isConditional(of(s).type)),
    trailingDelta: f.optional(f.num((s) => of(s).trailingDelta), (s) => of(s).trailingDelta > 0),
    trailingTime: f.optional(f.num((s) => of(s).trailingTime), (s) => of(s).trailingDelta > 0),
    icebergQty: f.optional(f.text((s, inst) => qty(inst, of(s).icebergQty)), (s) => of(s).icebergQty > 0),
  };
}

/** The fields every order reply shows of its order (`of` picks the order out of the reply's source). */
function orderFields<S>(of: (s: S) => OrderView) {
  const f = fieldsOf<S, Instrument>();
  return {
    price: f.text((s, inst) => price(inst, of(s).price)),
    origQty: f.text((s, inst) => qty(inst, of(s).origQty)),
    executedQty: f.text((s, inst) => qty(inst, of(s).executedQty)),
    // Zero on every order but a quoteOrderQty MARKET one: the constant, not formatted each time.
    origQuoteOrderQty: f.text((s, inst) => (of(s).quoteOrderQty === 0n ? ZERO : quote(inst, of(s).quoteOrderQty))),
    cummulativeQuoteQty: f.text((s, inst) => quote(inst, of(s).cumQuote)),
    status: f.text((s) => of(s).status),
    timeInForce: f.text((s) => of(s).timeInForce),
    type: f.text((s) => of(s).type),
    side: f.text((s) => of(s).side),
  };
}

const fill = fieldsOf<Fill, Instrument>();
export const FILL = shape({
  price: fill.text((f, inst) => price(inst, f.price)),
  qty: fill.text((f, inst) => qty(inst, f.qty)),
  commission: fill.text((f, inst) => quote(inst, f.commission)),
  commissionAsset: fill.text((f) => f.commissionAsset),
  tradeId: fill.num((f) => f.tradeId),
});

const prevented = fieldsOf<PreventedMatch, Instrument>();
/** One item of `preventedMatches` (binance-facts §8; makerPreventedQuantity: EXPIRE_MAKER). */
export const PREVENTED_MATCH = shape({
  preventedMatchId: prevented.num((m) => m.preventedMatchId),
  makerOrderId: prevented.num((m) => m.makerOrderId),
  price: prevented.text((m, inst) => price(inst, m.price)),
  makerPreventedQuantity: prevented.text((m, inst) => qty(inst, m.makerPreventedQty)),
});

const placed = fieldsOf<PlaceResult, Instrument>();
const ACK_FIELDS = {
  symbol: placed.text((r) => r.order.symbol),
  orderId: placed.num((r) => r.order.orderId),
  orderListId: placed.num((r) => r.order.orderListId),
  clientOrderId: placed.str((r) => r.order.clientOrderId),
  transactTime: placed.num((r) => r.transactTime),
};
const { price: p, origQty, executedQty, origQuoteOrderQty, cummulativeQuoteQty, status, timeInForce, type, side } = orderFields((r: PlaceResult) => r.order);
const placedConditional = conditionalFields((r: PlaceResult) => r.order);
const RESULT_FIELDS = {
  ...ACK_FIELDS,
  price: p,
  origQty,
  executedQty,
  origQuoteOrderQty,
  cummulativeQuoteQty,
  status,
  timeInForce,
  type,
  side,
  // The reference's examples: stopPrice (and a trailing stop's fields) before workingTime, icebergQty after it.
  stopPrice: placedConditional.stopPrice,
  trailingDelta: placedConditional.trailingDelta,
  trailingTime: placedConditional.trailingTime,
  workingTime: placed.num((r) => r.order.workingTime),
  icebergQty: placedConditional.icebergQty,
  selfTradePreventionMode: placed.text<string>(() => STP_MODE),
  // Conditional fields of RESULT/FULL: they appear only when they apply.
  expiryReason: placed.optional(placed.text<string>((r) => r.order.expiryReason), (r) => r.order.expiryReason !== 'NONE'),
  preventedQuantity: placed.optional(placed.text((r, inst) => qty(inst, r.order.preventedQty)), (r) => r.order.preventedQty > 0),
};

/** The taker's prevented matches, after everything else (binance-facts §8's example), when there are any. */
const preventedMatches = placed.optional(placed.list(PREVENTED_MATCH, (r) => r.preventedMatches), (r) => r.preventedMatches.length > 0);

/** POST order replies by `newOrderRespType`. */
export const ORDER_ACK = shape(ACK_FIELDS);
export const ORDER_RESULT = shape({ ...RESULT_FIELDS, preventedMatches });
export const ORDER_FULL = shape({ ...RESULT_FIELDS, fills: placed.list(FILL, (r) => r.fills), preventedMatches });

const cancel = fieldsOf<CancelResult, Instrument>();
/** DELETE order: the cancelled order, with the cancel request's own client id. */
export const CANCELLED = shape({
  symbol: cancel.text((c) => c.order.symbol),
  origClientOrderId: cancel.str((c) => c.origClientOrderId),
  orderId: cancel.num((c) => c.order.orderId),
  orderListId: cancel.num((c) => c.order.orderListId),
  clientOrderId: cancel.str((c) => c.clientOrderId),
  transactTime: cancel.num((c) => c.transactTime),
  ...orderFields((c: CancelResult) => c.order),
  ...conditionalFields((c: CancelResult) => c.order),
  selfTradePreventionMode: cancel.text<string>(() => STP_MODE),
});

const view = fieldsOf<OrderView, Instrument>();
const viewed = orderFields((o: OrderView) => o);
const viewedConditional = conditionalFields((o: OrderView) => o);
/** GET order / openOrders. */
export const ORDER = shape({
  symbol: view.text((o) => o.symbol),
  orderId: view.num((o) => o.orderId),
  orderListId: view.num((o) => o.orderListId),
  clientOrderId: view.str((o) => o.clientOrderId),
  price: viewed.price,
  origQty: viewed.origQty,
  executedQty: viewed.executedQty,
  cummulativeQuoteQty: viewed.cummulativeQuoteQty,
  status: viewed.status,
  timeInForce: viewed.timeInForce,
  type: viewed.type,
  side: viewed.side,
  // Always present in queries (the reference's query example), "0.00000000" when unused.
  stopPrice: view.text((o, inst) => price(inst, o.stopPrice)),
  trailingDelta: viewedConditional.trailingDelta,
  trailingTime: viewedConditional.trailingTime,
  icebergQty: view.text((o, inst) => qty(inst, o.icebergQty)),
  time: view.num((o) => o.time),
  updateTime: view.num((o) => o.updateTime),
  isWorking: view.bool((o) => o.isWorking),
  workingTime: view.num((o) => o.workingTime),
  origQuoteOrderQty: viewed.origQuoteOrderQty,
  selfTradePreventionMode: view.text<string>(() => STP_MODE),
  preventedQuantity: view.optional(view.text((o, inst) => qty(inst, o.preventedQty)), (o) => o.preventedQty > 0),
});

const amend = fieldsOf<AmendResult, Instrument>();
/** PUT order/amend/keepPriority: the amended order (note `qty`, `cumulativeQuoteQty`). */
export const AMENDED_ORDER = shape({
  symbol: amend.text((a) => a.order.symbol),
  orderId: amend.num((a) => a.order.orderId),
  orderListId: amend.num((a) => a.order.orderListId),
  origClientOrderId: amend.str((a) => a.origClientOrderId),
  clientOrderId: amend.str((a) => a.order.clientOrderId),
  price: amend.text((a, inst) => price(inst, a.order.price)),
  qty: amend.text((a, inst) => qty(inst, a.order.origQty)),
  executedQty: amend.text((a, inst) => qty(inst, a.order.executedQty)),
  preventedQty: amend.text((a, inst) => qty(inst, a.order.preventedQty)),
  quoteOrderQty: amend.text((a, inst) => quote(inst, a.order.quoteOrderQty)),
  cumulativeQuoteQty: amend.text((a, inst) => quote(inst, a.order.cumQuote)),
  status: amend.text((a) => a.order.status),
  timeInForce: amend.text((a) => a.order.timeInForce),
  type: amend.text((a) => a.order.type),
  side: amend.text((a) => a.order.side),
  workingTime: amend.num((a) => a.order.workingTime),
  selfTradePreventionMode: amend.text<string>(() => STP_MODE),
});

const trade = fieldsOf<AccountTrade, Instrument>();
/** GET myTrades rows. */
export const MY_TRADE = shape({
  symbol: trade.text((t) => t.symbol),
  id: trade.num((t) => t.tradeId),
  orderId: trade.num((t) => t.orderId),
  orderListId: trade.num((t) => t.orderListId),
  price: trade.text((t, inst) => price(inst, t.price)),
  qty: trade.text((t, inst) => qty(inst, t.qty)),
  quoteQty: trade.text((t, inst) => quote(inst, t.quoteQty)),
  commission: trade.text((t, inst) => quote(inst, t.commission)),
  commissionAsset: trade.text((t) => t.commissionAsset),
  time: trade.num((t) => t.time),
  isBuyer: trade.bool((t) => t.isBuyer),
  isMaker: trade.bool((t) => t.isMaker),
  isBestMatch: trade.bool(() => true),
});

const touch = fieldsOf<Touch, Instrument>();
/** GET ticker/bookTicker. */
export const BOOK_TICKER = shape({
  symbol: touch.text((t) => t.symbol),
  bidPrice: touch.text((t, inst) => price(inst, t.bidPrice)),
  bidQty: touch.text((t, inst) => qty(inst, t.bidQty)),
  askPrice: touch.text((t, inst) => price(inst, t.askPrice)),
  askQty: touch.text((t, inst) => qty(inst, t.askQty)),
});

export type BookTickerWire = WireOf<typeof BOOK_TICKER.fields>;
export type FillWire = WireOf<typeof FILL.fields>;
export type OrderAckWire = WireOf<typeof ORDER_ACK.fields>;
export type OrderResultWire = WireOf<typeof ORDER_RESULT.fields>;
export type OrderFullWire = WireOf<typeof ORDER_FULL.fields>;
export type CancelledWire = WireOf<typeof CANCELLED.fields>;
export type OrderWire = WireOf<typeof ORDER.fields>;
export type AmendedOrderWire = WireOf<typeof AMENDED_ORDER.fields>;
export type MyTradeWire = WireOf<typeof MY_TRADE.fields>;
