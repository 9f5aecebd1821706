// The edge of the account's commands: wire strings -> the core's typed commands (ticks, lots,
// instrument index), with the reference exchange's answers for bad input: missing (-1102),
// malformed (-1100), too precise (-1111), bad enums (-1115..-1117), unknown symbol (-1121),
// unsupported features (-1014) and the symbol filters that need no book (spec 2.2, 7;
// binance-facts §3.6, §9). Pure: it reads only the instruments, so order/test and cancelReplace
// run it before anything changes; the core checks what needs its state.

import type { AmendOrder, CancelOrder, CancelReplace, CancelRestriction, PlaceOrder } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import { STP_MODE, type OrderType, type Side, type TimeInForce } from '../core/types.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from '../core/units.ts';

export type InstrumentLookup = (symbol: string) => Instrument | undefined;

/** An order placement as it arrives from either transport (values still strings). */
export interface PlaceOrderFields {
  readonly symbol?: string;
  readonly side?: string;
  readonly type?: string;
  readonly timeInForce?: string;
  readonly quantity?: string;
  readonly price?: string;
  readonly newClientOrderId?: string;
  readonly selfTradePreventionMode?: string;
  // Features the simulator does not implement (spec 1.10): their presence answers -1014.
  readonly quoteOrderQty?: string;
  readonly stopPrice?: string;
  readonly icebergQty?: string;
  readonly trailingDelta?: string;
  readonly pegPriceType?: string;
  readonly pegOffsetValue?: string;
  readonly pegOffsetType?: string;
  /** Accepted and not echoed; below 1000000 is -1134 (errors.md). */
  readonly strategyType?: string;
}

const SIDES = new Set(['BUY', 'SELL']);
const SUPPORTED_TYPES = new Set(['LIMIT', 'LIMIT_MAKER', 'MARKET']);
const UNSUPPORTED_TYPES = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
const TIME_IN_FORCE = new Set(['GTC', 'IOC', 'FOK']);
const STP_MODES = new Set(['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER']);
const UNSUPPORTED_PARAMS = [
  'quoteOrderQty',
  'stopPrice',
  'icebergQty',
  'trailingDelta',
  'pegPriceType',
  'pegOffsetValue',
  'pegOffsetType',
] as const;

/** The reference exchange's client order id form (binance-facts §3.6). */
export const CLIENT_ORDER_ID_PATTERN = '^[\\.A-Z\\:/a-z0-9_-]{1,36}$';
const CLIENT_ORDER_ID_RE = /^[.A-Z:/a-z0-9_-]{1,36}$/;

export function isValidClientOrderId(id: string): boolean {
  return CLIENT_ORDER_ID_RE.test(id);
}

/** Decimals of every asset (exchangeInfo baseAssetPrecision / quotePrecision). */
const ASSET_PRECISION = 8;

/**
 * binance-facts §2.2 -1111 "Parameter '%s' has too much precision.": a non-zero digit beyond
 * the asset precision. Digits beyond the tick or lot but within it are a filter failure (-1013).
 */
export function exceedsAssetPrecision(text: string): boolean {
  const dot = text.indexOf('.');
  return dot >= 0 && /[1-9]/.test(text.slice(dot + 1 + ASSET_PRECISION));
}

export function parsePlaceOrder(cmd: PlaceOrderFields, lookup: InstrumentLookup, now: number): PlaceOrder | ApiError {
  if (!cmd.symbol) return apiError('MANDATORY_PARAM', 'symbol');
  const instrument = lookup(cmd.symbol);
  if (instrument === undefined) return apiError('BAD_SYMBOL');
  if (!cmd.side) return apiError('MANDATORY_PARAM', 'side');
  if (!SIDES.has(cmd.side)) return apiError('INVALID_SIDE');
  if (!cmd.type) return apiError('MANDATORY_PARAM', 'type');
  if (UNSUPPORTED_TYPES.has(cmd.type)) return apiError('UNSUPPORTED_ORDER');
  if (!SUPPORTED_TYPES.has(cmd.type)) return apiError('INVALID_ORDER_TYPE');
  for (const name of UNSUPPORTED_PARAMS) if (cmd[name] !== undefined) return apiError('UNSUPPORTED_ORDER');
  const type = cmd.type as OrderType;

  let timeInForce: TimeInForce = 'GTC';
  if (type === 'LIMIT') {
    if (!cmd.timeInForce) return apiError('MANDATORY_PARAM', 'timeInForce');
    if (!TIME_IN_FORCE.has(cmd.timeInForce)) return apiError('INVALID_TIF');
    timeInForce = cmd.timeInForce as TimeInForce;
  } else if (cmd.timeInForce !== undefined) {
    return apiError('PARAM_NOT_REQUIRED', 'timeInForce');
  }

  if (!cmd.quantity) return apiError('MANDATORY_PARAM', 'quantity');
  let price = 0;
  if (type === 'MARKET') {
    if (cmd.price !== undefined) return apiError('PARAM_NOT_REQUIRED', 'price');
  } else {
    if (!cmd.price) return apiError('MANDATORY_PARAM', 'price');
    price = parseScaled(cmd.price, instrument.tickDecimals);
    if (price === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'price', DECIMAL_PATTERN);
    if (exceedsAssetPrecision(cmd.price)) return apiError('BAD_PRECISION', 'price');
    if (price <= 0 || !Number.isFinite(price)) return apiError('FILTER_FAILURE', 'PRICE_FILTER');
  }
  const quantity = parseScaled(cmd.quantity, instrument.lotDecimals);
  if (quantity === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'quantity', DECIMAL_PATTERN);
  if (exceedsAssetPrecision(cmd.quantity)) return apiError('BAD_PRECISION', 'quantity');
  if (quantity < instrument.minQty || quantity > instrument.maxQty) return apiError('FILTER_FAILURE', 'LOT_SIZE');

  if (type !== 'MARKET') {
    const notional = instrument.notional(price, quantity);
    if (notional < instrument.minNotional || (instrument.maxNotional !== null && notional > instrument.maxNotional)) {
      return apiError('FILTER_FAILURE', 'NOTIONAL');
    }
  }

  if (cmd.selfTradePreventionMode !== undefined) {
    if (!STP_MODES.has(cmd.selfTradePreventionMode)) return apiError('INVALID_PARAMETER', 'selfTradePreventionMode');
    if (cmd.selfTradePreventionMode !== STP_MODE) return apiError('STP_MODE_NOT_ALLOWED');
  }
  if (cmd.strategyType !== undefined) {
    if (!/^-?[0-9]{1,10}$/.test(cmd.strategyType)) return apiError('ILLEGAL_CHARS', 'strategyType', '^[0-9]{1,10}$');
    if (Number(cmd.strategyType) < 1_000_000) return apiError('BAD_STRATEGY_TYPE');
  }
  const clientOrderId = cmd.newClientOrderId ?? null;
  if (clientOrderId !== null && !isValidClientOrderId(clientOrderId)) {
    return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
  }
  return { type: 'place', now, symbolIndex: instrument.index, side: cmd.side as Side, orderType: type, timeInForce, price, quantity, clientOrderId };
}

/** A symbol parameter: -1102 when missing, -1121 when no instrument has it. */
export function parseSymbol(symbol: string | undefined, lookup: InstrumentLookup): Instrument | ApiError {
  if (!symbol) return apiError('MANDATORY_PARAM', 'symbol');
  return lookup(symbol) ?? apiError('BAD_SYMBOL');
}

export interface OrderRefFields {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly origClientOrderId?: string;
}

/** Which open order (GET/DELETE/PUT order): symbol, then orderId or origClientOrderId. */
export function parseOrderRef(f: OrderRefFields, lookup: InstrumentLookup): { symbolIndex: number; orderId: number | undefined; origClientOrderId: string | undefined } | ApiError {
  const inst = parseSymbol(f.symbol, lookup);
  if (inst instanceof ApiError) return inst;
  if (f.orderId === undefined && f.origClientOrderId === undefined) return apiError('EITHER_PARAM', 'orderId', 'origClientOrderId');
  return { symbolIndex: inst.index, orderId: f.orderId, origClientOrderId: f.origClientOrderId };
}

export interface CancelFields extends OrderRefFields {
  /** The cancel's own id (`c` of the CANCELED report); generated when absent. */
  readonly newClientOrderId?: string;
  /** `ONLY_NEW` or `ONLY_PARTIALLY_FILLED` (rest-api.md "Regarding cancelRestrictions"). */
  readonly cancelRestrictions?: string;
}

const CANCEL_RESTRICTIONS: ReadonlySet<string> = new Set<CancelRestriction>(['ONLY_NEW', 'ONLY_PARTIALLY_FILLED']);

export function parseCancel(f: CancelFields, lookup: InstrumentLookup, now: number): CancelOrder | ApiError {
  if (f.newClientOrderId !== undefined && !isValidClientOrderId(f.newClientOrderId)) {
    return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
  }
  const restriction = f.cancelRestrictions;
  if (restriction !== undefined && !CANCEL_RESTRICTIONS.has(restriction)) return apiError('INVALID_CANCEL_RESTRICTIONS');
  const ref = parseOrderRef(f, lookup);
  if (ref instanceof ApiError) return ref;
  return { type: 'cancel', now, ...ref, cancelClientOrderId: f.newClientOrderId ?? null, restriction: (restriction as CancelRestriction | undefined) ?? null };
}

export interface AmendFields extends OrderRefFields {
  readonly newClientOrderId?: string;
  readonly newQty?: string;
}

/** PUT order/amend/keepPriority: the new quantity on the lot grid and within LOT_SIZE. */
export function parseAmend(f: AmendFields, lookup: InstrumentLookup, now: number): AmendOrder | ApiError {
  if (!f.newQty) return apiError('MANDATORY_PARAM', 'newQty');
  const ref = parseOrderRef(f, lookup);
  if (ref instanceof ApiError) return ref;
  const inst = lookup(f.symbol!)!;
  const newQty = parseScaled(f.newQty, inst.lotDecimals);
  if (newQty === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'newQty', DECIMAL_PATTERN);
  if (exceedsAssetPrecision(f.newQty)) return apiError('BAD_PRECISION', 'newQty');
  if (newQty <= 0 || newQty < inst.minQty) return apiError('FILTER_FAILURE', 'LOT_SIZE');
  const newClientOrderId = f.newClientOrderId ?? null;
  if (newClientOrderId !== null && !isValidClientOrderId(newClientOrderId)) return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
  return { type: 'amend', now, ...ref, newClientOrderId, newQty };
}

export interface CancelReplaceFields extends PlaceOrderFields {
  readonly cancelReplaceMode?: string;
  readonly cancelOrderId?: number;
  readonly cancelOrigClientOrderId?: string;
  readonly cancelNewClientOrderId?: string;
  readonly cancelRestrictions?: string;
}

/** cancelReplace (spec 4.1 rule 3): the mode, which order, and the new order's parameters. */
export function parseCancelReplace(f: CancelReplaceFields, lookup: InstrumentLookup, now: number): CancelReplace | ApiError {
  const mode = f.cancelReplaceMode;
  if (!mode) return apiError('MANDATORY_PARAM', 'cancelReplaceMode');
  if (mode !== 'STOP_ON_FAILURE' && mode !== 'ALLOW_FAILURE') return apiError('INVALID_PARAMETER', 'cancelReplaceMode');
  if (f.cancelOrderId === undefined && f.cancelOrigClientOrderId === undefined) {
    return apiError('EITHER_PARAM', 'cancelOrderId', 'cancelOrigClientOrderId');
  }
  const place = parsePlaceOrder(f, lookup, now);
  if (place instanceof ApiError) return place;
  const cancel = parseCancelLeg(f, lookup, now);
  if (cancel instanceof ApiError) return cancel;
  return { type: 'cancelReplace', now, mode, cancel, place };
}

/** cancelReplace's cancel leg (also alone, under orderRateLimitExceededMode=CANCEL_ONLY). */
export function parseCancelLeg(f: CancelReplaceFields, lookup: InstrumentLookup, now: number): CancelOrder | ApiError {
  return parseCancel(
    { symbol: f.symbol, orderId: f.cancelOrderId, origClientOrderId: f.cancelOrigClientOrderId, newClientOrderId: f.cancelNewClientOrderId, cancelRestrictions: f.cancelRestrictions },
    lookup,
    now,
  );
}

/** A quantity in lots of the instrument (the fault fillOpenOrder's `qty`). */
export function parseLots(text: string, inst: Instrument, name: string): number | ApiError {
  const lots = parseScaled(text, inst.lotDecimals);
  if (lots === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', name, DECIMAL_PATTERN);
  if (lots <= 0) return apiError('FILTER_FAILURE', 'LOT_SIZE');
  return lots;
}
