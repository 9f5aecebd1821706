// allOrders (API.md section 10; rest-api.md and web-socket-api.md "All orders" / "Account order
// history"): the account's orders of one symbol, open and (with ended_orders = "keep") kept,
// oldest orderId first. The rules, as the reference documents them:
// - `startTime` and/or `endTime`: `orderId` is ignored; orders whose last status update
//   (`updateTime`) falls in the window; from `startTime` on the oldest, else the most recent.
// - `orderId`: the orders with an id >= it, the oldest first.
// - nothing: the most recent orders.
// The edge has already checked the span (-1127) and capped `limit`.

import type { Order } from './book.ts';
import type { AccountOrder } from './account-order.ts';
import type { CoreState } from './state.ts';
import type { OrderView } from './types.ts';

export const ALL_ORDERS_DEFAULT_LIMIT = 500;
export const ALL_ORDERS_MAX_LIMIT = 1000;

export interface OrderHistoryQuery {
  readonly orderId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  /** Already capped to 1..1000. */
  readonly limit: number;
}

export function allOrders(s: CoreState, symbolIndex: number, q: OrderHistoryQuery): OrderView[] {
  const open = openBySymbol(s.clientIds[symbolIndex]!);
  const hasWindow = q.startTime !== undefined || q.endTime !== undefined;
  const inWindow = (o: AccountOrder) => (q.startTime === undefined || o.updateTime >= q.startTime) && (q.endTime === undefined || o.updateTime <= q.endTime);
  const out: AccountOrder[] = [];
  if (q.startTime !== undefined || (!hasWindow && q.orderId !== undefined)) {
    const fromId = hasWindow ? 0 : q.orderId!;
    for (const o of mergeForward(open, s.history.forward(symbolIndex, fromId), fromId)) {
      if (out.length >= q.limit) break;
      if (inWindow(o)) out.push(o);
    }
    return out.map((o) => o.view());
  }
  for (const o of mergeBackward(open, s.history.backward(symbolIndex))) {
    if (out.length >= q.limit) break;
    if (inWindow(o)) out.push(o);
  }
  return out.reverse().map((o) => o.view());
}

/** The symbol's open orders by ascending orderId (at most MAX_NUM_ORDERS of them). */
function openBySymbol(clientIds: ReadonlyMap<string, Order>): AccountOrder[] {
  const open: AccountOrder[] = [];
  for (const order of clientIds.values()) open.push(order.account!);
  return open.sort((a, b) => a.orderId - b.orderId);
}

/** Open and kept orders with ids >= fromId, ascending (an order is in one of the two, never both). */
function* mergeForward(open: readonly AccountOrder[], kept: Iterator<AccountOrder>, fromId: number): Generator<AccountOrder> {
  let i = 0;
  while (i < open.length && open[i]!.orderId < fromId) i++;
  let next = kept.next();
  while (i < open.length || !next.done) {
    if (next.done || (i < open.length && open[i]!.orderId < next.value.orderId)) yield open[i++]!;
    else {
      yield next.value;
      next = kept.next();
    }
  }
}

/** Open and kept orders, descending ids. */
function* mergeBackward(open: readonly AccountOrder[], kept: Iterator<AccountOrder>): Generator<AccountOrder> {
  let i = open.length - 1;
  let next = kept.next();
  while (i >= 0 || !next.done) {
    if (next.done || (i >= 0 && open[i]!.orderId > next.value.orderId)) yield open[i--]!;
    else {
      yield next.value;
      next = kept.next();
    }
  }
}
