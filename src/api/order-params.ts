// The edge of the account's commands: wire strings -> the core's typed commands (ticks, lots,
// instrument index), with the reference exchange's answers for bad input: missing (-1102),
// malformed (-1100), too precise (-1111), bad enums (-1115..-1117), unknown symbol (-1121),
// unsupported features (-1014) and the symbol filters that need no book (spec 2.2, 7;
// binance-facts §3.6, §9). Pure: it reads only the instruments, so order/test and cancelReplace
// run it before anything changes; the core checks what needs its state.

import type { AmendOrder, CancelOrder, CancelReplace, CancelRestriction, PlaceOrder } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { OrderTypesMode } from '../config/types.ts';
import type { Instrument } from '../core/markets.ts';
import type { OrderType, Side, TimeInForce } from '../core/types.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from '../core/units.ts';
import {
  CLIENT_ORDER_ID_PATTERN,
  exceedsAssetPrecision,
  isValidClientOrderId,
  notionalError,
  parseOrderTail,
  parsePrice,
  parseQuantity,
  SIDES,
  TIME_IN_FORCE,
  type InstrumentLookup,
  type PlaceOrderFields,
} from './order-fields.ts';
import { parseReferenceOrder } from './reference-order-params.ts';

export { CLIENT_ORDER_ID_PATTERN, exceedsAssetPrecision, isValidClientOrderId, type InstrumentLookup, type PlaceOrderFields } from './order-fields.ts';

const SUPPORTED_TYPES = new Set(['LIMIT', 'LIMIT_MAKER', 'MARKET']);
const UNSUPPORTED_TYPES = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
/** Spec 1.10: the reference's other features answer -1014 with order_types = "spec". */
const UNSUPPORTED_PARAMS = [
  'quoteOrderQty',
  'stopPrice',
  'icebergQty',
  'trailingDelta',
  'pegPriceType',
  'pegOffsetValue',
  'pegOffsetType',
] as const;

/**
 * A placement's wire fields as a PlaceOrder. `mode` is `[sim] order_types`: "spec" refuses every
 * feature beyond LIMIT, LIMIT_MAKER and MARKET with -1014 (spec 1.10); "reference" parses them
 * (reference-order-params.ts).
 */
export function parsePlaceOrder(cmd: PlaceOrderFields, lookup: InstrumentLookup, now: number, mode: OrderTypesMode = 'spec'): PlaceOrder | ApiError {
  if (!cmd.symbol) return apiError('MANDATORY_PARAM', 'symbol');
  const instrument = lookup(cmd.symbol);
  if (instrument === undefined) return apiError('BAD_SYMBOL');
  if (mode === 'reference') return parseReferenceOrder(cmd, instrument, now);
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
    const ticks = parsePrice(cmd.price, instrument, 'price');
    if (ticks instanceof ApiError) return ticks;
    price = ticks;
  }
  const quantity = parseQuantity(cmd.quantity, instrument, 'quantity');
  if (quantity instanceof ApiError) return quantity;

  if (type !== 'MARKET') {
    const notional = notionalError(instrument, price, quantity);
    if (notional !== null) return notional;
  }
  const tail = parseOrderTail(cmd, 'newClientOrderId');
  if (tail instanceof ApiError) return tail;
  return { type: 'place', now, symbolIndex: instrument.index, side: cmd.side as Side, orderType: type, timeInForce, price, quantity, clientOrderId: tail.clientOrderId };
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
export function parseCancelReplace(f: CancelReplaceFields, lookup: InstrumentLookup, now: number, orderTypes: OrderTypesMode = 'spec'): CancelReplace | ApiError {
  const mode = f.cancelReplaceMode;
  if (!mode) return apiError('MANDATORY_PARAM', 'cancelReplaceMode');
  if (mode !== 'STOP_ON_FAILURE' && mode !== 'ALLOW_FAILURE') return apiError('INVALID_PARAMETER', 'cancelReplaceMode');
  if (f.cancelOrderId === undefined && f.cancelOrigClientOrderId === undefined) {
    return apiError('EITHER_PARAM', 'cancelOrderId', 'cancelOrigClientOrderId');
  }
  const place = parsePlaceOrder(f, lookup, now, orderTypes);
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
