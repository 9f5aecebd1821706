// The account's operations at the edge, one function each, shared by the endpoint table (REST
// and WS API), the fault controller and tests: parse the wire fields (order-params.ts), then
// submit one command to the core, or read its state (core/queries.ts). A refusal found while
// parsing changes nothing and causes no events.

import type { AmendResult, CancelReplaceResult, CancelResult, CommandResults, Outcome, PlaceResult } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { accountTrades, allOrders as allOrderViews, findOrder, placementError, openOrders as openOrderViews, openOrderSymbolIndex } from '../core/queries.ts';
import { ALL_ORDERS_DEFAULT_LIMIT, ALL_ORDERS_MAX_LIMIT, MY_TRADES_DEFAULT_LIMIT, MY_TRADES_MAX_LIMIT } from '../core/account/index.ts';
import type { AccountTrade, OrderView } from '../core/types.ts';
import type { OrderTypesMode } from '../config/types.ts';
import { orderRules } from './order-rules.ts';
import { engineRefusal } from './reference-order-params.ts';
import {
  parseAmend,
  parseCancel,
  parseCancelReplace,
  parseLots,
  parseOrderRef,
  parsePlaceOrder,
  parseSymbol,
  type AmendFields,
  type CancelFields,
  type CancelReplaceFields,
  type InstrumentLookup,
  type PlaceOrderFields,
} from './order-params.ts';
import { timeWindow } from './time-unit.ts';

const DAY_US = 24 * 60 * 60 * 1000 * 1000;

function lookupOf(core: Exchange): InstrumentLookup {
  return (symbol) => core.instrument(symbol);
}

function refused<T>(error: ApiError): Outcome<T> {
  return { ok: false, error, events: [] };
}

/** A placement; `mode` is `[sim] order_types` (with "reference" the engine's stateless refusals run here). */
export function placeOrder(core: Exchange, fields: PlaceOrderFields, now: number, mode: OrderTypesMode = 'spec'): Outcome<PlaceResult> {
  const cmd = parsePlaceOrder(fields, lookupOf(core), now, mode);
  if (cmd instanceof ApiError) return refused(cmd);
  const refusal = mode === 'reference' ? engineRefusal(cmd, core.markets.instruments[cmd.symbolIndex]!) : null;
  return refusal === null ? core.submit(cmd) : refused(refusal);
}

/**
 * order/test: every check that does not need the matching engine (null: it would be accepted).
 * A quoteOrderQty MARKET order has no quantity yet: its NOTIONAL was checked on the amount.
 */
export function testOrder(core: Exchange, fields: PlaceOrderFields, mode: OrderTypesMode = 'spec'): ApiError | null {
  const cmd = parsePlaceOrder(fields, lookupOf(core), 0, mode);
  if (cmd instanceof ApiError) return cmd;
  return cmd.quoteOrderQty === undefined ? placementError(core.state, cmd) : null;
}

export function cancelOrder(core: Exchange, fields: CancelFields, now: number): Outcome<CancelResult> {
  const cmd = parseCancel(fields, lookupOf(core), now);
  return cmd instanceof ApiError ? refused(cmd) : core.submit(cmd);
}

/** DELETE openOrders: every open order of the symbol, oldest first; -2011 if none. */
export function cancelAllOrders(core: Exchange, symbol: string | undefined, now: number): Outcome<CommandResults['cancelAll']> {
  const inst = parseSymbol(symbol, lookupOf(core));
  return inst instanceof ApiError ? refused(inst) : core.submit({ type: 'cancelAll', now, symbolIndex: inst.index });
}

/** order.amend.keepPriority; with "reference" a symbol may not allow it (amendAllowed, -2038). */
export function amendOrder(core: Exchange, fields: AmendFields, now: number, mode: OrderTypesMode = 'spec'): Outcome<AmendResult> {
  const cmd = parseAmend(fields, lookupOf(core), now);
  if (cmd instanceof ApiError) return refused(cmd);
  if (mode === 'reference' && !orderRules(core.markets.instruments[cmd.symbolIndex]!).amendAllowed) return refused(apiError('AMEND_NOT_SUPPORTED'));
  return core.submit(cmd);
}

/**
 * cancelReplace with `orderRateLimitExceededMode=CANCEL_ONLY` once the unfilled order count is
 * spent (rest-api.md, binance-facts §2.5): the cancel leg alone, the new order failing with the
 * count's refusal. -2021 when the cancel worked, -2022 when it did not; 429 under STOP_ON_FAILURE
 * (the reference's table), 409/400 under ALLOW_FAILURE.
 */
export function cancelOnly(core: Exchange, fields: CancelReplaceFields, countRefusal: ApiError, now: number, mode: OrderTypesMode = 'spec'): Outcome<CancelReplaceResult> {
  const cmd = parseCancelReplace(fields, lookupOf(core), now, mode);
  if (cmd instanceof ApiError) return refused(cmd);
  const cancel = core.submit(cmd.cancel);
  const result: CancelReplaceResult = cancel.ok
    ? { cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', cancelResponse: cancel.value, newOrderResponse: countRefusal }
    : { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: cancel.error, newOrderResponse: null };
  const row = apiError(cancel.ok ? 'CANCEL_REPLACE_PARTIAL' : 'CANCEL_REPLACE_FAILED');
  const http = cmd.mode === 'STOP_ON_FAILURE' ? 429 : row.http;
  return { ok: false, error: new ApiError(row.name, row.msg, result, http), events: cancel.events };
}

/**
 * cancelReplace. With "reference" the symbol must allow it (cancelReplaceAllowed), and a new
 * order the engine refuses without state (engineRefusal) fails as the engine's refusal would:
 * the cancel runs, the new order fails (-2021), or both fail (-2022; under ALLOW_FAILURE the new
 * order was attempted, under STOP_ON_FAILURE not).
 */
export function cancelReplace(core: Exchange, fields: CancelReplaceFields, now: number, mode: OrderTypesMode = 'spec'): Outcome<CancelReplaceResult> {
  const cmd = parseCancelReplace(fields, lookupOf(core), now, mode);
  if (cmd instanceof ApiError) return refused(cmd);
  if (mode === 'spec') return core.submit(cmd);
  const inst = core.markets.instruments[cmd.place.symbolIndex]!;
  if (!orderRules(inst).cancelReplaceAllowed) return refused(apiError('CANCEL_REPLACE_NOT_SUPPORTED'));
  const refusal = engineRefusal(cmd.place, inst);
  if (refusal === null) return core.submit(cmd);
  const cancel = core.submit(cmd.cancel);
  const attempted = cancel.ok || cmd.mode === 'ALLOW_FAILURE';
  const result: CancelReplaceResult = {
    cancelResult: cancel.ok ? 'SUCCESS' : 'FAILURE',
    newOrderResult: attempted ? 'FAILURE' : 'NOT_ATTEMPTED',
    cancelResponse: cancel.ok ? cancel.value : cancel.error,
    newOrderResponse: attempted ? refusal : null,
  };
  const row = apiError(cancel.ok ? 'CANCEL_REPLACE_PARTIAL' : 'CANCEL_REPLACE_FAILED');
  return { ok: false, error: new ApiError(row.name, row.msg, result), events: cancel.events };
}

/** Fault `fill_open_order` (spec 4.5): `qty` in the order's symbol's lots. */
export function fillOpenOrder(core: Exchange, orderId: number, qty: string, now: number): Outcome<{ symbol: string; filled: number }> {
  const symbolIndex = openOrderSymbolIndex(core.state, orderId);
  if (symbolIndex === undefined) return refused(apiError('NO_SUCH_ORDER'));
  const lots = parseLots(qty, core.markets.instruments[symbolIndex]!, 'qty');
  return lots instanceof ApiError ? refused(lots) : core.submit({ type: 'fillOpenOrder', now, orderId, lots });
}

/** The account's open orders (of one symbol: -1121 if unknown), oldest id first. */
export function openOrders(core: Exchange, symbol?: string): OrderView[] | ApiError {
  if (symbol !== undefined && core.instrument(symbol) === undefined) return apiError('BAD_SYMBOL');
  return openOrderViews(core.state, symbol);
}

/** GET order: an open order by id or client id; an ended one with ended_orders = "keep", else -2013. */
export function getOrder(core: Exchange, symbol: string | undefined, orderId?: number, origClientOrderId?: string): OrderView | ApiError {
  const ref = parseOrderRef({ symbol, orderId, origClientOrderId }, lookupOf(core));
  return ref instanceof ApiError ? ref : findOrder(core.state, ref);
}

export interface AllOrdersQueryFields {
  readonly symbol?: string;
  readonly orderId?: number;
  /** startTime and endTime as sent: milliseconds or microseconds. */
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

/**
 * allOrders (API.md section 10): open and kept orders of the symbol. `orderId` goes with a time
 * window without -1128: the reference ignores it then (web-socket-api.md "Account order history").
 */
export function allOrders(core: Exchange, query: AllOrdersQueryFields): OrderView[] | ApiError {
  const inst = parseSymbol(query.symbol, lookupOf(core));
  if (inst instanceof ApiError) return inst;
  const window = historyWindow(query.startTime, query.endTime);
  if (window instanceof ApiError) return window;
  const limit = cappedLimit(query.limit, ALL_ORDERS_DEFAULT_LIMIT, ALL_ORDERS_MAX_LIMIT);
  if (limit instanceof ApiError) return limit;
  return allOrderViews(core.state, inst.index, { orderId: query.orderId, ...window, limit });
}

/**
 * startTime / endTime of the history queries (myTrades, allOrders), each in ms or µs as sent:
 * end not before start, at most 24 hours apart (-1127), both as sent.
 */
export function historyWindow(startTime: number | undefined, endTime: number | undefined): { startTime?: number; endTime?: number } | ApiError {
  const window = timeWindow(startTime, endTime);
  if (window.spanUs !== undefined) {
    if (window.spanUs < 0) return apiError('INVALID_PARAMETER', 'endTime');
    if (window.spanUs > DAY_US) return apiError('LOOKUP_INTERVAL_TOO_BIG', 24);
  }
  return { startTime: window.startTime, endTime: window.endTime };
}

/** `limit`: at least 1, the default when absent, capped at the maximum. */
export function cappedLimit(limit: number | undefined, defaultLimit: number, maxLimit: number): number | ApiError {
  if (limit !== undefined && limit < 1) return apiError('INVALID_PARAMETER', 'limit');
  return Math.min(limit ?? defaultLimit, maxLimit);
}

export interface TradesQueryFields {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly fromId?: number;
  /** startTime and endTime as sent: milliseconds or microseconds. */
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

/** myTrades (spec 4.1 rule 1, binance-facts §3.14). */
export function myTrades(core: Exchange, query: TradesQueryFields): AccountTrade[] | ApiError {
  const inst = parseSymbol(query.symbol, lookupOf(core));
  if (inst instanceof ApiError) return inst;
  const hasRange = query.startTime !== undefined || query.endTime !== undefined;
  if (query.fromId !== undefined && hasRange) return apiError('BAD_PARAM_COMBINATION');
  if (query.orderId !== undefined && hasRange) return apiError('BAD_PARAM_COMBINATION');
  const window = historyWindow(query.startTime, query.endTime);
  if (window instanceof ApiError) return window;
  const limit = cappedLimit(query.limit, MY_TRADES_DEFAULT_LIMIT, MY_TRADES_MAX_LIMIT);
  if (limit instanceof ApiError) return limit;
  return accountTrades(core.state, inst.symbol, { ...query, ...window, limit });
}
