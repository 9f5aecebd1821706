// Placements with `[sim] order_types = "reference"` (API.md 11): the reference's types, their
// mandatory parameter combinations (rest-api.md "New order": which type takes timeInForce,
// quantity or quoteOrderQty, price, stopPrice and/or trailingDelta, icebergQty) and the
// stateless filters of the new parameters: PRICE_FILTER on stopPrice, LOT_SIZE on icebergQty,
// ICEBERG_PARTS, TRAILING_DELTA, NOTIONAL on quoteOrderQty. The same parser reads the legs of
// order lists, whose parameters have other names (`abovePrice`, `pendingQuantity`): `names`
// gives each field's wire name for the refusals. What the matching engine refuses without
// looking at state ("... orders are not supported for this symbol.", "IcebergQty exceeds
// QTY.": -2010) is `engineRefusal`, which order/test does not run (API.md 11: never -2010).

import type { PlaceOrder } from '../core/commands.ts';
import { apiError, ApiError, type ErrorName } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import type { OrderType, Side, TimeInForce } from '../core/types.ts';
import { parseScaled, parseScaledBig, ScaledParse, DECIMAL_PATTERN } from '../core/units.ts';
import { exceedsAssetPrecision, notionalError, parseOrderTail, parsePrice, parseQuantity, SIDES, TIME_IN_FORCE, type PlaceOrderFields } from './order-fields.ts';
import { orderRules } from './order-rules.ts';

/** What each type takes (rest-api.md "New order", the table of additional mandatory parameters). */
interface TypeShape {
  /** A limit price (and then timeInForce, except LIMIT_MAKER). */
  readonly price: boolean;
  readonly timeInForce: boolean;
  /** stopPrice and/or trailingDelta. */
  readonly stop: boolean;
  /** May be an iceberg (icebergQty, GTC). */
  readonly iceberg: boolean;
}

const SHAPES: Readonly<Record<OrderType, TypeShape>> = {
  LIMIT: { price: true, timeInForce: true, stop: false, iceberg: true },
  LIMIT_MAKER: { price: true, timeInForce: false, stop: false, iceberg: true },
  MARKET: { price: false, timeInForce: false, stop: false, iceberg: false },
  STOP_LOSS: { price: false, timeInForce: false, stop: true, iceberg: false },
  STOP_LOSS_LIMIT: { price: true, timeInForce: true, stop: true, iceberg: true },
  TAKE_PROFIT: { price: false, timeInForce: false, stop: true, iceberg: false },
  TAKE_PROFIT_LIMIT: { price: true, timeInForce: true, stop: true, iceberg: true },
};

/** Pegged orders stay out (API.md 11): their parameters answer -1014 as with "spec". */
const PEG_PARAMS = ['pegPriceType', 'pegOffsetValue', 'pegOffsetType'] as const;

/** The name of a field a placement form does not take (a list leg has no quoteOrderQty). */
export const NO_PARAM = '';

/** The wire name of each placement field (a list leg's are prefixed: `aboveStopPrice`). */
export type ParamNames = { readonly [K in keyof PlaceOrderFields]-?: string };

export const ORDER_PARAM_NAMES: ParamNames = {
  symbol: 'symbol',
  side: 'side',
  type: 'type',
  timeInForce: 'timeInForce',
  quantity: 'quantity',
  price: 'price',
  newClientOrderId: 'newClientOrderId',
  selfTradePreventionMode: 'selfTradePreventionMode',
  quoteOrderQty: 'quoteOrderQty',
  stopPrice: 'stopPrice',
  icebergQty: 'icebergQty',
  trailingDelta: 'trailingDelta',
  pegPriceType: 'pegPriceType',
  pegOffsetValue: 'pegOffsetValue',
  pegOffsetType: 'pegOffsetType',
  strategyType: 'strategyType',
};

const TRAILING_DELTA_RE = /^[0-9]{1,20}$/;

export function isOrderType(type: string): type is OrderType {
  return Object.hasOwn(SHAPES, type);
}

/** A reference-mode placement (or list leg) as a PlaceOrder, or the first refusal found. */
export function parseReferenceOrder(f: PlaceOrderFields, inst: Instrument, now: number, names: ParamNames = ORDER_PARAM_NAMES): PlaceOrder | ApiError {
  if (!f.side) return apiError('MANDATORY_PARAM', names.side);
  if (!SIDES.has(f.side)) return apiError('INVALID_SIDE');
  if (!f.type) return apiError('MANDATORY_PARAM', names.type);
  if (!isOrderType(f.type)) return apiError('INVALID_ORDER_TYPE');
  for (const name of PEG_PARAMS) if (f[name] !== undefined) return apiError('UNSUPPORTED_ORDER');
  const type = f.type;
  const side = f.side as Side;
  const shape = SHAPES[type];
  // A symbol without LIMIT or LIMIT_MAKER: the reference has no "not supported" text for them.
  if ((type === 'LIMIT' || type === 'LIMIT_MAKER') && !orderRules(inst).orderTypes.has(type)) return apiError('UNSUPPORTED_ORDER');

  let timeInForce: TimeInForce = 'GTC';
  if (shape.timeInForce) {
    if (!f.timeInForce) return apiError('MANDATORY_PARAM', names.timeInForce);
    if (!TIME_IN_FORCE.has(f.timeInForce)) return apiError('INVALID_TIF');
    timeInForce = f.timeInForce as TimeInForce;
  } else if (f.timeInForce !== undefined) {
    return apiError('PARAM_NOT_REQUIRED', names.timeInForce);
  }

  const byQuote = type === 'MARKET' && f.quoteOrderQty !== undefined;
  if (f.quoteOrderQty !== undefined && (type !== 'MARKET' || f.quantity !== undefined)) return apiError('PARAM_NOT_REQUIRED', names.quoteOrderQty);
  if (!byQuote && !f.quantity) return type === 'MARKET' && names.quoteOrderQty !== NO_PARAM ? apiError('EITHER_PARAM', names.quantity, names.quoteOrderQty) : apiError('MANDATORY_PARAM', names.quantity);
  if (shape.price && !f.price) return apiError('MANDATORY_PARAM', names.price);
  if (!shape.price && f.price !== undefined) return apiError('PARAM_NOT_REQUIRED', names.price);
  if (shape.stop && f.stopPrice === undefined && f.trailingDelta === undefined) return apiError('EITHER_PARAM', names.stopPrice, names.trailingDelta);
  if (!shape.stop && f.stopPrice !== undefined) return apiError('PARAM_NOT_REQUIRED', names.stopPrice);
  if (!shape.stop && f.trailingDelta !== undefined) return apiError('PARAM_NOT_REQUIRED', names.trailingDelta);
  // rest-api.md: icebergQty only on the types that can rest, and only with GTC (errors.md -1014).
  if (f.icebergQty !== undefined && (!shape.iceberg || timeInForce !== 'GTC')) return apiError('UNSUPPORTED_ORDER');

  const price = shape.price ? parsePrice(f.price!, inst, names.price) : 0;
  if (price instanceof ApiError) return price;
  const stopPrice = f.stopPrice === undefined ? 0 : parsePrice(f.stopPrice, inst, names.stopPrice);
  if (stopPrice instanceof ApiError) return stopPrice;
  const quantity = byQuote ? 0 : parseQuantity(f.quantity!, inst, names.quantity);
  if (quantity instanceof ApiError) return quantity;
  const icebergQty = f.icebergQty === undefined ? 0 : parseQuantity(f.icebergQty, inst, names.icebergQty);
  if (icebergQty instanceof ApiError) return icebergQty;
  const trailingDelta = f.trailingDelta === undefined ? 0 : parseTrailingDelta(f.trailingDelta, inst, type, side, names.trailingDelta);
  if (trailingDelta instanceof ApiError) return trailingDelta;
  const quoteOrderQty = byQuote ? parseQuoteOrderQty(f.quoteOrderQty!, inst, names.quoteOrderQty) : 0n;
  if (quoteOrderQty instanceof ApiError) return quoteOrderQty;

  if (shape.price) {
    const notional = notionalError(inst, price, quantity);
    if (notional !== null) return notional;
  }
  // ICEBERG_PARTS (filters.md): CEIL(quantity / icebergQty) parts at most.
  if (icebergQty > 0 && Math.ceil(quantity / icebergQty) > orderRules(inst).icebergParts) return apiError('FILTER_FAILURE', 'ICEBERG_PARTS');
  const tail = parseOrderTail(f, names.newClientOrderId);
  if (tail instanceof ApiError) return tail;
  return {
    type: 'place',
    now,
    symbolIndex: inst.index,
    side,
    orderType: type,
    timeInForce,
    price,
    quantity,
    clientOrderId: tail.clientOrderId,
    ...(stopPrice > 0 ? { stopPrice } : {}),
    ...(trailingDelta > 0 ? { trailingDelta } : {}),
    ...(icebergQty > 0 ? { icebergQty } : {}),
    ...(byQuote ? { quoteOrderQty } : {}),
  };
}

/**
 * trailingDelta in BIPS within TRAILING_DELTA (filters.md): the "above" bounds for STOP_LOSS BUY
 * and TAKE_PROFIT SELL forms (their trigger lies above the market), the "below" ones otherwise.
 */
function parseTrailingDelta(text: string, inst: Instrument, type: OrderType, side: Side, name: string): number | ApiError {
  if (!TRAILING_DELTA_RE.test(text)) return apiError('ILLEGAL_CHARS', name, '^[0-9]{1,20}$');
  const delta = Number(text);
  const above = type.startsWith('STOP_LOSS') === (side === 'BUY');
  const t = orderRules(inst).trailing;
  const [min, max] = above ? [t.minAbove, t.maxAbove] : [t.minBelow, t.maxBelow];
  if (delta < min || delta > max) return apiError('FILTER_FAILURE', 'TRAILING_DELTA');
  return delta;
}

/**
 * quoteOrderQty in quote atoms: a decimal of at most 8 significant decimals (the quote asset's
 * precision), its notional within NOTIONAL (applyMinToMarket / applyMaxToMarket); zero never passes.
 */
function parseQuoteOrderQty(text: string, inst: Instrument, name: string): bigint | ApiError {
  if (parseScaled(text, 0) === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', name, DECIMAL_PATTERN);
  if (exceedsAssetPrecision(text)) return apiError('BAD_PRECISION', name);
  const atoms = parseScaledBig(text, inst.quoteDecimals);
  if (atoms === null || atoms === 0n || atoms < inst.minNotional || (inst.maxNotional !== null && atoms > inst.maxNotional)) return apiError('FILTER_FAILURE', 'NOTIONAL');
  return atoms;
}

/** The "... orders are not supported for this symbol." row of each type (errors.md). */
const TYPE_NOT_SUPPORTED: Partial<Record<OrderType, ErrorName>> = {
  MARKET: 'MARKET_NOT_SUPPORTED',
  STOP_LOSS: 'STOP_LOSS_NOT_SUPPORTED',
  STOP_LOSS_LIMIT: 'STOP_LOSS_LIMIT_NOT_SUPPORTED',
  TAKE_PROFIT: 'TAKE_PROFIT_NOT_SUPPORTED',
  TAKE_PROFIT_LIMIT: 'TAKE_PROFIT_LIMIT_NOT_SUPPORTED',
};

/**
 * What the matching engine refuses of a parsed order without looking at the book or the
 * account (-2010): a type or feature the symbol does not allow, an iceberg part not below the
 * quantity. Not run by order/test.
 */
export function engineRefusal(cmd: Omit<PlaceOrder, 'type' | 'now' | 'symbolIndex'>, inst: Instrument): ApiError | null {
  const rules = orderRules(inst);
  const notSupported = TYPE_NOT_SUPPORTED[cmd.orderType];
  if (notSupported !== undefined && !rules.orderTypes.has(cmd.orderType)) return apiError(notSupported);
  if (cmd.quoteOrderQty !== undefined && !rules.quoteOrderQtyMarketAllowed) return apiError('QUOTE_ORDER_QTY_NOT_SUPPORTED');
  if ((cmd.trailingDelta ?? 0) > 0 && !rules.allowTrailingStop) return apiError('TRAILING_NOT_SUPPORTED');
  const iceberg = cmd.icebergQty ?? 0;
  if (iceberg > 0 && !rules.icebergAllowed) return apiError('ICEBERG_NOT_SUPPORTED');
  if (iceberg > 0 && iceberg >= cmd.quantity) return apiError('ICEBERG_EXCEEDS_QTY');
  return null;
}
