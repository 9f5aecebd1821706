// Order lists at the edge (rest-api.md "Order lists"; API.md 11 "OCO", "OTO/OTOCO"): the wire
// parameters of OCO (new and deprecated), OTO and OTOCO as the core's PlaceOrderList, each leg
// read by the same parser as a single order (reference-order-params.ts) under its own parameter
// names (`abovePrice`, `pendingQuantity`, ...), so its refusals name what the client sent. The
// OCO rules that need no state are checked here: which types may be above or below (-1158),
// that one leg is contingent (-1168), the side of each kind of leg (-1165, -1166, -1196..-1199),
// an iceberg leg's timeInForce (-1160). The prices against the last trade are the core's.

import type { CancelOrderList, ListLeg, PlaceOrder, PlaceOrderList } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import type { OrderType, Side } from '../core/types.ts';
import { CLIENT_ORDER_ID_PATTERN, isValidClientOrderId, SIDES, type InstrumentLookup, type PlaceOrderFields } from './order-fields.ts';
import { orderRules } from './order-rules.ts';
import { engineRefusal, isOrderType, NO_PARAM, ORDER_PARAM_NAMES, parseReferenceOrder, type ParamNames } from './reference-order-params.ts';

/** Reads a request parameter (empty = absent). */
export type ParamReader = (name: string) => string | undefined;

export type OrderListKind = 'oco' | 'ocoDeprecated' | 'oto' | 'otoco';

/** Each field's wire name for a leg whose own parameters start with `prefix`; `shared` names the ones common to the list. */
function legNames(prefix: string, shared: Partial<ParamNames>): ParamNames {
  const named = (field: string) => `${prefix}${field[0]!.toUpperCase()}${field.slice(1)}`;
  const own = Object.fromEntries(Object.keys(ORDER_PARAM_NAMES).map((field) => [field, named(field)])) as Record<keyof ParamNames, string>;
  // No leg takes a quote amount (rest-api.md: "MARKET orders using quoteOrderQty are not supported").
  return { ...own, newClientOrderId: `${prefix}ClientOrderId`, symbol: 'symbol', selfTradePreventionMode: 'selfTradePreventionMode', quoteOrderQty: NO_PARAM, ...shared };
}

const OCO_NAMES = { above: legNames('above', { side: 'side', quantity: 'quantity' }), below: legNames('below', { side: 'side', quantity: 'quantity' }) };
const OTO_NAMES = { working: legNames('working', {}), pending: legNames('pending', {}) };
const OTOCO_NAMES = {
  above: legNames('pendingAbove', { side: 'pendingSide', quantity: 'pendingQuantity' }),
  below: legNames('pendingBelow', { side: 'pendingSide', quantity: 'pendingQuantity' }),
};
/** The deprecated `order/oco`: a LIMIT_MAKER leg and a STOP_LOSS(_LIMIT) leg (rest-api.md "New OCO - Deprecated"). */
const DEPRECATED_NAMES = {
  limit: { ...legNames('limit', { side: 'side', quantity: 'quantity', price: 'price' }), type: 'type' },
  stop: { ...legNames('stop', { side: 'side', quantity: 'quantity', stopPrice: 'stopPrice', trailingDelta: 'trailingDelta', price: 'stopLimitPrice', timeInForce: 'stopLimitTimeInForce' }), type: 'type' },
};

function fieldsOf(get: ParamReader, names: ParamNames): PlaceOrderFields {
  return Object.fromEntries(
    Object.entries(names)
      .filter(([, name]) => name !== NO_PARAM)
      .map(([field, name]) => [field, get(name)])
      .filter(([, value]) => value !== undefined),
  );
}

/** Which types an OCO leg may be (rest-api.md: aboveType / belowType; LIMIT_MAKER below for a BUY, API.md 11). */
const OCO_TYPES: ReadonlySet<OrderType> = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
const WORKING_TYPES: ReadonlySet<string> = new Set(['LIMIT', 'LIMIT_MAKER']);

type Kind = 'limit' | 'stop' | 'profit';
const kindOf = (type: OrderType): Kind => (type === 'LIMIT_MAKER' ? 'limit' : type.startsWith('STOP_LOSS') ? 'stop' : 'profit');

/**
 * The OCO pair's types and sides: a SELL takes its profit above and its stop below, a BUY the
 * reverse (rest-api.md "Price restrictions"); each misplaced kind has its own code (errors.md).
 */
function ocoPairRefusal(get: ParamReader, side: Side, names: { above: ParamNames; below: ParamNames }): ApiError | { above: OrderType; below: OrderType } {
  const types: OrderType[] = [];
  for (const names_ of [names.above, names.below]) {
    const type = get(names_.type);
    if (type === undefined) return apiError('MANDATORY_PARAM', names_.type);
    if (!isOrderType(type)) return apiError('INVALID_ORDER_TYPE');
    if (!OCO_TYPES.has(type)) return apiError('OCO_ORDER_TYPE_REJECTED');
    types.push(type);
  }
  const [above, below] = [kindOf(types[0]!), kindOf(types[1]!)];
  if (above === 'limit' && below === 'limit') return apiError('BOTH_OCO_ORDERS_CANNOT_BE_LIMIT');
  if (side === 'SELL') {
    if (above === 'stop') return apiError('SELL_OCO_STOP_LOSS_MUST_BE_BELOW');
    if (below === 'limit') return apiError('SELL_OCO_LIMIT_MUST_BE_ABOVE');
    if (below === 'profit') return apiError('SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE');
  } else {
    if (above === 'limit') return apiError('BUY_OCO_LIMIT_MUST_BE_BELOW');
    if (above === 'profit') return apiError('BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW');
    if (below === 'stop') return apiError('BUY_OCO_STOP_LOSS_MUST_BE_ABOVE');
  }
  // An iceberg leg must be GTC (errors.md -1160, which names the iceberg parameter).
  for (const n of [names.above, names.below]) {
    const tif = get(n.timeInForce);
    if (get(n.icebergQty) !== undefined && tif !== undefined && tif !== 'GTC') return apiError('OCO_ICEBERGQTY_TIMEINFORCE', n.icebergQty);
  }
  return { above: types[0]!, below: types[1]! };
}

function leg(get: ParamReader, inst: Instrument, now: number, names: ParamNames, type?: OrderType): ListLeg | ApiError {
  const fields = fieldsOf(get, names);
  const parsed = parseReferenceOrder(type === undefined ? fields : { ...fields, type }, inst, now, names);
  if (parsed instanceof ApiError) return parsed;
  const { type: _place, now: _now, symbolIndex: _symbol, quoteOrderQty: _quote, ...rest } = parsed as PlaceOrder;
  return rest;
}

function sideOf(get: ParamReader, name: string): Side | ApiError {
  const side = get(name);
  if (side === undefined) return apiError('MANDATORY_PARAM', name);
  return SIDES.has(side) ? (side as Side) : apiError('INVALID_SIDE');
}

/** The list's parameters as a PlaceOrderList (with "reference"; the edge offers no list otherwise). */
export function parseOrderList(kind: OrderListKind, get: ParamReader, lookup: InstrumentLookup, now: number): PlaceOrderList | ApiError {
  const symbol = get('symbol');
  if (symbol === undefined) return apiError('MANDATORY_PARAM', 'symbol');
  const inst = lookup(symbol);
  if (inst === undefined) return apiError('BAD_SYMBOL');
  const listClientOrderId = get('listClientOrderId') ?? null;
  if (listClientOrderId !== null && !isValidClientOrderId(listClientOrderId)) return apiError('ILLEGAL_CHARS', 'listClientOrderId', CLIENT_ORDER_ID_PATTERN);
  const base = { type: 'placeOrderList' as const, now, symbolIndex: inst.index, listClientOrderId };

  if (kind === 'oco' || kind === 'ocoDeprecated') {
    const side = sideOf(get, 'side');
    if (side instanceof ApiError) return side;
    const pair = kind === 'oco' ? ocoPair(get, inst, now, side, OCO_NAMES) : deprecatedPair(get, inst, now, side);
    return pair instanceof ApiError ? pair : { ...base, contingency: 'OCO', ...pair };
  }
  const workingType = get(OTO_NAMES.working.type);
  if (workingType === undefined) return apiError('MANDATORY_PARAM', OTO_NAMES.working.type);
  if (!WORKING_TYPES.has(workingType)) return apiError('INVALID_PARAMETER', OTO_NAMES.working.type);
  const working = leg(get, inst, now, OTO_NAMES.working);
  if (working instanceof ApiError) return working;
  if (kind === 'oto') {
    const pending = leg(get, inst, now, OTO_NAMES.pending);
    return pending instanceof ApiError ? pending : { ...base, contingency: 'OTO', working, pending };
  }
  const side = sideOf(get, 'pendingSide');
  if (side instanceof ApiError) return side;
  const pair = ocoPair(get, inst, now, side, OTOCO_NAMES);
  return pair instanceof ApiError ? pair : { ...base, contingency: 'OTOCO', working, pendingAbove: pair.above, pendingBelow: pair.below };
}

function ocoPair(get: ParamReader, inst: Instrument, now: number, side: Side, names: { above: ParamNames; below: ParamNames }): { above: ListLeg; below: ListLeg } | ApiError {
  const types = ocoPairRefusal(get, side, names);
  if (types instanceof ApiError) return types;
  const above = leg(get, inst, now, names.above);
  if (above instanceof ApiError) return above;
  const below = leg(get, inst, now, names.below);
  return below instanceof ApiError ? below : { above, below };
}

/** `order/oco`: the limit leg above a SELL's last price and below a BUY's, the stop leg opposite. */
function deprecatedPair(get: ParamReader, inst: Instrument, now: number, side: Side): { above: ListLeg; below: ListLeg } | ApiError {
  if (get('stopPrice') === undefined) return apiError('MANDATORY_PARAM', 'stopPrice');
  const limit = leg(get, inst, now, DEPRECATED_NAMES.limit, 'LIMIT_MAKER');
  if (limit instanceof ApiError) return limit;
  const stop = leg(get, inst, now, DEPRECATED_NAMES.stop, get('stopLimitPrice') === undefined ? 'STOP_LOSS' : 'STOP_LOSS_LIMIT');
  if (stop instanceof ApiError) return stop;
  return side === 'SELL' ? { above: limit, below: stop } : { above: stop, below: limit };
}

/**
 * What the matching engine refuses of a parsed list without state (-2010): OCO or OTO turned off
 * for the symbol (an OTOCO needs both), then each leg as engineRefusal refuses a single order.
 */
export function listEngineRefusal(cmd: PlaceOrderList, inst: Instrument): ApiError | null {
  const rules = orderRules(inst);
  const legs = cmd.contingency === 'OCO' ? [cmd.above, cmd.below] : cmd.contingency === 'OTO' ? [cmd.working, cmd.pending] : [cmd.working, cmd.pendingAbove, cmd.pendingBelow];
  if (cmd.contingency !== 'OCO' && !rules.otoAllowed) return apiError('OTO_NOT_SUPPORTED');
  if (cmd.contingency !== 'OTO' && !rules.ocoAllowed) return apiError('OCO_NOT_SUPPORTED');
  for (const l of legs) {
    const refusal = engineRefusal(l, inst);
    if (refusal !== null) return refusal;
  }
  return null;
}

/** DELETE orderList / orderList.cancel: the symbol, `orderListId` or `listClientOrderId`, the cancel's own id. */
export function parseCancelOrderList(get: ParamReader, orderListId: number | undefined, lookup: InstrumentLookup, now: number): CancelOrderList | ApiError {
  const symbol = get('symbol');
  if (symbol === undefined) return apiError('MANDATORY_PARAM', 'symbol');
  const inst = lookup(symbol);
  if (inst === undefined) return apiError('BAD_SYMBOL');
  const listClientOrderId = get('listClientOrderId');
  if (orderListId === undefined && listClientOrderId === undefined) return apiError('EITHER_PARAM', 'orderListId', 'listClientOrderId');
  const cancelClientOrderId = get('newClientOrderId') ?? null;
  if (cancelClientOrderId !== null && !isValidClientOrderId(cancelClientOrderId)) return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
  return { type: 'cancelOrderList', now, symbolIndex: inst.index, orderListId, listClientOrderId, cancelClientOrderId };
}
