// Reads over the core's state view (state.ts): balances, open orders, depth, the touch, the
// account's trades, the latent mid. They change nothing, so the edge may call them between
// commands at any time. A symbol the markets do not know gives -1121 (depth, touch) or nothing.

import type { OrderRef } from './commands.ts';
import { apiError, ApiError } from './errors.ts';
import { findAccountOrder, type TradeQuery } from './account/index.ts';
import { crosses, NONE } from './book/index.ts';
import type { CoreState } from './state.ts';
import type { AccountTrade, AssetBalance, DepthSnapshot, OrderListView, OrderView, Side, Touch } from './types.ts';
export { allOrders, marketNotionalError as placementError, type OrderHistoryQuery } from './account/index.ts';

export function balances(s: CoreState): AssetBalance[] {
  return s.ledger.assets().map((asset) => s.ledger.snapshot(asset));
}

export function balance(s: CoreState, asset: string): AssetBalance {
  return s.ledger.snapshot(asset);
}

/** The account's open orders (of one symbol, or all), oldest id first. */
export function openOrders(s: CoreState, symbol?: string): OrderView[] {
  let views: OrderView[];
  if (symbol !== undefined) {
    const inst = s.markets.bySymbol.get(symbol);
    views = inst === undefined ? [] : [...s.clientIds[inst.index]!.values()].map((o) => o.account!.view());
  } else {
    views = s.clientIds.flatMap((m) => [...m.values()].map((o) => o.account!.view()));
  }
  return views.sort((a, b) => a.orderId - b.orderId);
}

/** The client order ids of the account's open orders, oldest first. */
export function openClientOrderIds(s: CoreState): string[] {
  return openOrders(s).map((o) => o.clientOrderId);
}

export function openOrderCount(s: CoreState): number {
  let n = 0;
  for (const inst of s.markets.instruments) n += inst.accountOpenOrders;
  return n;
}

/**
 * GET order / order.status: an open order by id or client id, else (ended_orders = "keep",
 * API.md section 10) a kept ended order; forgotten orders answer -2013 (spec 2.4). A client id
 * finds the most recent order that had it: the open one if any (an id is reused only once its
 * order ended), else the last kept one.
 */
export function findOrder(s: CoreState, ref: OrderRef): OrderView | ApiError {
  const found = findAccountOrder(s.openOrders, s.clientIds, ref, 'NO_SUCH_ORDER');
  if (!(found instanceof ApiError)) return found.account!.view();
  if (found.name !== 'NO_SUCH_ORDER' || !s.history.keeps) return found;
  const { orderId, origClientOrderId } = ref;
  const kept = orderId !== undefined ? s.history.byId(ref.symbolIndex, orderId) : s.history.byClientOrderId(ref.symbolIndex, origClientOrderId!);
  if (kept === undefined) return found;
  // binance-facts §3.8: with both ids the id decides and a client id that does not match is -2039.
  if (orderId !== undefined && origClientOrderId !== undefined && kept.clientOrderId !== origClientOrderId) return apiError('CLIENT_ORDER_ID_MISMATCH');
  return kept;
}

// ---------------------------------------------------------------- order lists (issue 33)

/** GET orderList / orderList.status: by `orderListId`, or by its list client id (`origClientOrderId`). */
export interface OrderListLookup {
  readonly orderListId?: number;
  readonly origClientOrderId?: string;
}

/** GET allOrderList / allOrderLists: `fromId`, or a `startTime`-`endTime` window, and `limit` (capped by the edge). */
export interface OrderListQuery {
  readonly fromId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  /** Already capped to 1..ALL_ORDER_LISTS_MAX_LIMIT. */
  readonly limit: number;
}

export const ALL_ORDER_LISTS_DEFAULT_LIMIT = 500;
export const ALL_ORDER_LISTS_MAX_LIMIT = 1000;

/**
 * An order list by id (the id decides; a client id that does not match it is -2013 too) or by
 * its list client id (the open one, else the most recent kept one). An ended list is kept with
 * `ended_orders = "keep"`; otherwise, like an unknown one, it is -2013 (API.md 11).
 */
export function orderList(s: CoreState, ref: OrderListLookup): OrderListView | ApiError {
  const list = ref.orderListId !== undefined ? s.orderLists.byId(ref.orderListId) : ref.origClientOrderId !== undefined ? s.orderLists.byClientId(ref.origClientOrderId, false) : undefined;
  if (list === undefined) return apiError('NO_SUCH_ORDER');
  if (ref.orderListId !== undefined && ref.origClientOrderId !== undefined && list.listClientOrderId !== ref.origClientOrderId) return apiError('NO_SUCH_ORDER');
  return list.view();
}

/** GET openOrderList / openOrderLists.status: the account's open lists, every symbol, oldest first. */
export function openOrderLists(s: CoreState): OrderListView[] {
  return [...s.orderLists.open.values()].map((list) => list.view());
}

/**
 * GET allOrderList / allOrderLists (rest-api.md "Query all Order lists"): open and kept lists,
 * oldest first. `fromId`: the lists with an id >= it; a window: the lists whose last change
 * (`transactionTime`) falls in it, from `startTime` on the oldest, else the most recent; nothing:
 * the most recent. The edge has already refused `fromId` with a window and a span over 24 h.
 */
export function allOrderLists(s: CoreState, q: OrderListQuery): OrderListView[] {
  const inWindow = (t: number) => (q.startTime === undefined || t >= q.startTime) && (q.endTime === undefined || t <= q.endTime);
  let lists = s.orderLists.all().filter((l) => inWindow(l.transactionTime));
  if (q.fromId !== undefined) {
    const fromId = q.fromId;
    lists = lists.filter((l) => l.orderListId >= fromId).slice(0, q.limit);
  } else if (q.startTime !== undefined) lists = lists.slice(0, q.limit);
  else lists = lists.slice(Math.max(0, lists.length - q.limit));
  return lists.map((l) => l.view());
}

/** The symbol index of an open account order (the fault `fillOpenOrder` parses its qty by it). */
export function openOrderSymbolIndex(s: CoreState, orderId: number): number | undefined {
  const order = s.orders.account(orderId);
  return order === undefined || order.account === null ? undefined : order.symbolIndex;
}

/** The book as it is (`live`) or as last published in a depth batch (`flushed`, spec 2.8). */
export function depthSnapshot(s: CoreState, symbol: string, limit: number, mode: 'live' | 'flushed'): DepthSnapshot | ApiError {
  const inst = s.markets.bySymbol.get(symbol);
  if (inst === undefined) return apiError('BAD_SYMBOL');
  if (mode === 'flushed') return s.depth[inst.index]!.publishedSnapshot(limit);
  const book = s.books[inst.index]!;
  return { lastUpdateId: inst.updateId, bids: book.bids.top(limit), asks: book.asks.top(limit) };
}

export function bookTicker(s: CoreState, symbol: string): Touch | ApiError {
  const inst = s.markets.bySymbol.get(symbol);
  return inst === undefined ? apiError('BAD_SYMBOL') : s.depth[inst.index]!.touch(inst.updateId);
}

/** myTrades (spec 4.1 rule 1, binance-facts §3.14), the query already checked at the edge. */
export function accountTrades(s: CoreState, symbol: string, query: TradeQuery): AccountTrade[] {
  return s.tradeLog.query(symbol, query);
}

/** Every trade of the account (of one symbol, or all), oldest first per symbol. */
export function allTrades(s: CoreState, symbol?: string): readonly AccountTrade[] {
  return s.tradeLog.all(symbol);
}

export function latentMid(s: CoreState, symbol: string): number | undefined {
  const inst = s.markets.bySymbol.get(symbol);
  return inst && s.latentMid(inst.index);
}

/** The best price a taker of `side` would meet in the symbol's book (ticks), if any. */
export function bestOpposite(s: Pick<CoreState, 'books'>, symbolIndex: number, side: Side): number | undefined {
  return s.books[symbolIndex]!.oppositeOf(side).best()?.price;
}

/** Whether a taker of `side` at `price` would meet the symbol's opposite best. */
export function wouldCross(s: Pick<CoreState, 'books'>, symbolIndex: number, side: Side, price: number): boolean {
  const best = bestOpposite(s, symbolIndex, side);
  return best !== undefined && crosses(side, price, best);
}

/**
 * Lots a taker of `side` limited at `price` would fill now: every resting order counts, or with
 * `accountOnly` the account's alone (a replayed symbol's scripted orders trade with nothing else).
 */
export function fillableLots(s: Pick<CoreState, 'books' | 'orders'>, symbolIndex: number, side: Side, price: number, accountOnly = false): number {
  const levels = s.books[symbolIndex]!.oppositeOf(side).levels;
  let total = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    if (!crosses(side, price, level.price)) break;
    if (!accountOnly) total += level.qty;
    else for (let o = level.head; o !== NONE; o = s.orders.next(o)) if (s.orders.isAccount(o)) total += s.orders.remaining(o);
  }
  return total;
}

/** Whether the symbol replays a recording (API.md section 12). */
export function isReplayed(s: Pick<CoreState, 'isReplayed'>, symbolIndex: number): boolean {
  return s.isReplayed(symbolIndex);
}

/** The symbol index of the resting counterparty order with book `key`, or undefined if it is gone. */
export function counterpartyOrderSymbol(s: Pick<CoreState, 'orders'>, key: number): number | undefined {
  const slot = s.orders.slotOf(key);
  return slot === NONE ? undefined : s.orders.levelOf(slot).bookSide.symbolIndex;
}

/** How many counterparty orders rest in the symbol's book: the generator's (or the replay's synthetic ones), and the scripted ones. */
export function counterpartyRestingCount(s: Pick<CoreState, 'counterpartyResting' | 'scriptedResting'>, symbolIndex: number): { generator: number; scripted: number } {
  return { generator: s.counterpartyResting[symbolIndex]!.length, scripted: s.scriptedResting[symbolIndex]!.length };
}
