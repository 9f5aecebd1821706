// Reads over the core's state view (state.ts): balances, open orders, depth, the touch, the
// account's trades, the latent mid. They change nothing, so the edge may call them between
// commands at any time. A symbol the markets do not know gives -1121 (depth, touch) or nothing.

import type { OrderRef } from './commands.ts';
import { apiError, ApiError } from './errors.ts';
import { findAccountOrder, type TradeQuery } from './account/index.ts';
import { crosses, NONE } from './book/index.ts';
import type { CoreState } from './state.ts';
import type { AccountTrade, AssetBalance, DepthSnapshot, OrderView, Side, Touch } from './types.ts';
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
  const found = findAccountOrder(s.orders, s.clientIds, ref, 'NO_SUCH_ORDER');
  if (!(found instanceof ApiError)) return found.account!.view();
  if (found.name !== 'NO_SUCH_ORDER' || !s.history.keeps) return found;
  const { orderId, origClientOrderId } = ref;
  const kept = orderId !== undefined ? s.history.byId(ref.symbolIndex, orderId) : s.history.byClientOrderId(ref.symbolIndex, origClientOrderId!);
  if (kept === undefined) return found;
  // binance-facts §3.8: with both ids the id decides and a client id that does not match is -2039.
  if (orderId !== undefined && origClientOrderId !== undefined && kept.clientOrderId !== origClientOrderId) return apiError('CLIENT_ORDER_ID_MISMATCH');
  return kept;
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

/** How many counterparty orders rest in the symbol's book. */
export function counterpartyRestingCount(s: Pick<CoreState, 'counterpartyResting'>, symbolIndex: number): number {
  return s.counterpartyResting[symbolIndex]!.length;
}
