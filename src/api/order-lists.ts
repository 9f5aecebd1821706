// The account's order-list operations at the edge (API.md 11), shared by the endpoint table's
// REST and WS API rows: parse (order-list-params.ts), refuse what the engine refuses without
// state, then one command to the core; or read the lists (core/queries.ts). Only with
// `[sim] order_types = "reference"`: the rows that call these do not exist otherwise.

import type { CancelOrderListResult, OrderListResult, Outcome } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { ALL_ORDER_LISTS_DEFAULT_LIMIT, ALL_ORDER_LISTS_MAX_LIMIT, allOrderLists as allOrderListViews, openOrderLists as openOrderListViews, orderList } from '../core/queries.ts';
import type { OrderListView } from '../core/types.ts';
import { listEngineRefusal, parseCancelOrderList, parseOrderList, type OrderListKind, type ParamReader } from './order-list-params.ts';
import { cappedLimit, historyWindow } from './orders.ts';

function refused<T>(error: ApiError): Outcome<T> {
  return { ok: false, error, events: [] };
}

/** POST orderList/oco|oto|otoco, order/oco; orderList.place*. */
export function placeOrderList(core: Exchange, kind: OrderListKind, get: ParamReader, now: number): Outcome<OrderListResult> {
  const cmd = parseOrderList(kind, get, (symbol) => core.instrument(symbol), now);
  if (cmd instanceof ApiError) return refused(cmd);
  const refusal = listEngineRefusal(cmd, core.markets.instruments[cmd.symbolIndex]!);
  return refusal === null ? core.submit(cmd) : refused(refusal);
}

/** DELETE orderList; orderList.cancel. */
export function cancelOrderList(core: Exchange, get: ParamReader, orderListId: number | undefined, now: number): Outcome<CancelOrderListResult> {
  const cmd = parseCancelOrderList(get, orderListId, (symbol) => core.instrument(symbol), now);
  return cmd instanceof ApiError ? refused(cmd) : core.submit(cmd);
}

/** GET orderList; orderList.status: by `orderListId` or `origClientOrderId` (the list's client id). */
export function getOrderList(core: Exchange, orderListId: number | undefined, origClientOrderId: string | undefined): OrderListView | ApiError {
  if (orderListId === undefined && origClientOrderId === undefined) return apiError('EITHER_PARAM', 'orderListId', 'origClientOrderId');
  return orderList(core.state, { orderListId, origClientOrderId });
}

/** GET openOrderList; openOrderLists.status: every open list, oldest first. */
export function openOrderLists(core: Exchange): OrderListView[] {
  return openOrderListViews(core.state);
}

export interface AllOrderListsFields {
  readonly fromId?: number;
  /** As sent: milliseconds or microseconds. */
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

/**
 * GET allOrderList; allOrderLists (rest-api.md "Query all Order lists"): `fromId` takes no time
 * window (-1128); a window spans at most 24 hours (-1127); limit 1..1000, default 500.
 */
export function allOrderLists(core: Exchange, q: AllOrderListsFields): OrderListView[] | ApiError {
  if (q.fromId !== undefined && (q.startTime !== undefined || q.endTime !== undefined)) return apiError('BAD_PARAM_COMBINATION');
  const window = historyWindow(q.startTime, q.endTime);
  if (window instanceof ApiError) return window;
  const limit = cappedLimit(q.limit, ALL_ORDER_LISTS_DEFAULT_LIMIT, ALL_ORDER_LISTS_MAX_LIMIT);
  if (limit instanceof ApiError) return limit;
  return allOrderListViews(core.state, { fromId: q.fromId, ...window, limit });
}
