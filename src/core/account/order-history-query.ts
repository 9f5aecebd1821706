// allOrders (API.md section 10; rest-api.md and web-socket-api.md "All orders" / "Account order
// history"): the account's orders of one symbol, open and (with ended_orders = "keep") kept,
// oldest orderId first. The rules, as the reference documents them:
// - `startTime` and/or `endTime`: `orderId` is ignored; orders whose last status update
//   (`updateTime`) falls in the window; from `startTime` on the oldest, else the most recent.
// - `orderId`: the orders with an id >= it, the oldest first.
// - nothing: the most recent orders.
// The edge has already checked the span (-1127) and capped `limit`.

import { AccountOrder as AccountOrderClass, type AccountBookOrder, type AccountOrder } from './account-order.ts';
import type { OrderHistory } from './order-history.ts';
import type { OrderView } from '../types.ts';

export const ALL_ORDERS_DEFAULT_LIMIT = 500;
export const ALL_ORDERS_MAX_LIMIT = 1000;

export interface OrderHistoryQuery {
  readonly orderId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  /** Already capped to 1..1000. */
  readonly limit: number;
}

/** An open order, or a kept one's row. */
interface KeptRow {
  readonly orderId: number;
  readonly row: number;
}
type Candidate = AccountOrder | KeptRow;
const isKept = (c: Candidate): c is KeptRow => !(c instanceof AccountOrderClass);

/** What allOrders reads: the open orders by client id and the kept ended orders. */
export interface AccountOrdersView {
  readonly clientIds: readonly ReadonlyMap<string, AccountBookOrder>[];
  readonly history: Pick<OrderHistory, 'updateTime' | 'view' | 'forward' | 'backward'>;
}

export function allOrders(s: AccountOrdersView, symbolIndex: number, q: OrderHistoryQuery): OrderView[] {
  const history = s.history;
  const open = openBySymbol(s.clientIds[symbolIndex]!);
  const hasWindow = q.startTime !== undefined || q.endTime !== undefined;
  const updateTime = (c: Candidate) => (isKept(c) ? history.updateTime(c.row) : c.updateTime);
  const inWindow = (c: Candidate) => {
    if (!hasWindow) return true;
    const t = updateTime(c);
    return (q.startTime === undefined || t >= q.startTime) && (q.endTime === undefined || t <= q.endTime);
  };
  const out: Candidate[] = [];
  if (q.startTime !== undefined || (!hasWindow && q.orderId !== undefined)) {
    const fromId = hasWindow ? 0 : q.orderId!;
    for (const c of mergeForward(open, history.forward(symbolIndex, fromId), fromId)) {
      if (out.length >= q.limit) break;
      if (inWindow(c)) out.push(c);
    }
  } else {
    for (const c of mergeBackward(open, history.backward(symbolIndex))) {
      if (out.length >= q.limit) break;
      if (inWindow(c)) out.push(c);
    }
    out.reverse();
  }
  return out.map((c) => (isKept(c) ? history.view(c.row) : c.view()));
}

/** The symbol's open orders by ascending orderId (at most MAX_NUM_ORDERS of them). */
function openBySymbol(clientIds: ReadonlyMap<string, AccountBookOrder>): AccountOrder[] {
  const open: AccountOrder[] = [];
  for (const order of clientIds.values()) open.push(order.account!);
  return open.sort((a, b) => a.orderId - b.orderId);
}

/** Open and kept orders with ids >= fromId, ascending (an order is open or kept, never both). */
function* mergeForward(open: readonly AccountOrder[], kept: Iterator<KeptRow>, fromId: number): Generator<Candidate> {
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
function* mergeBackward(open: readonly AccountOrder[], kept: Iterator<KeptRow>): Generator<Candidate> {
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
