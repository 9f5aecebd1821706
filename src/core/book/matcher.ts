// The book and the matcher: every symbol's two sides, its depth aggregator, and price-time
// matching. It moves orders on and off the book (telling the registry), numbers trades and
// levels (per-symbol trade and update ids, spec 2.5, 2.7), records public trades, and emits
// each fill that involves the account to the account desk (FillSink), which settles balances
// and writes reports. It never touches a balance itself.

import type { BookSide, Level, Order } from './book.ts';
import { SymbolBook } from './book.ts';
import type { FlushResult } from '../commands.ts';
import type { MarketData } from '../market/market-data.ts';
import { DepthAggregator } from './depth-aggregator.ts';
import type { EventQueue } from '../event-queue.ts';
import type { Instrument } from '../markets.ts';
import { NONE } from './order-store.ts';
import type { OrderRegistry } from './order-registry.ts';
import type { DepthDiff, Fill, Side, Touch } from '../types.ts';

/** The account's side of matching: what a fill or a prevented self-trade does to the account. */
export interface FillSink {
  /** One fill of an account order (maker or taker) at `price` for `qty` lots. */
  settleFill(inst: Instrument, order: Order, qty: number, price: number, tradeId: number, isMaker: boolean, now: number, fills: Fill[] | null): void;
  /** The account's taker met its own resting `maker`, already off the book (EXPIRE_MAKER). */
  makerPrevented(inst: Instrument, maker: Order, qty: number, taker: Order, now: number): void;
}

export class Matcher {
  readonly books: SymbolBook[];
  readonly depth: DepthAggregator[];
  private account: FillSink | null = null;

  constructor(
    private readonly instruments: readonly Instrument[],
    private readonly registry: OrderRegistry,
    private readonly events: EventQueue,
    /** Public market data: every trade goes to its tape and bars (API.md section 9). */
    private readonly marketData: MarketData,
  ) {
    this.books = instruments.map((inst) => new SymbolBook(inst.index, registry.orders));
    this.depth = instruments.map((inst, i) => new DepthAggregator(inst.symbol, this.books[i]!));
  }

  /** The account desk, built after the matcher (it needs the matcher to put orders on the book). */
  connect(account: FillSink): void {
    this.account = account;
  }

  /**
   * Matches `taker` against the opposite side in price-time priority up to `limit` (null: any
   * price). Self-trade prevention is EXPIRE_MAKER (spec 1.4): an own resting order the account's
   * taker would meet expires, and matching goes on.
   */
  match(inst: Instrument, taker: Order, limit: number | null, now: number, fills: Fill[] | null): void {
    const opposite = this.books[inst.index]!.oppositeOf(taker.side);
    const store = this.registry.orders;
    const isBuy = taker.side === 'BUY';
    // One taker order, one price, one time: one aggregate trade (aggTrades, @aggTrade).
    let aggregatePrice = -1;
    while (taker.remaining > 0) {
      const level = opposite.best();
      if (level === undefined) break;
      if (limit !== null && (isBuy ? level.price > limit : level.price < limit)) break;
      let maker = level.head;
      while (maker !== NONE && taker.remaining > 0) {
        const next = store.next(maker);
        // Most levels hold no account order: then no maker needs the account lookup.
        const account = level.accountCount > 0 ? store.accountAt(maker) : null;
        if (account !== null && taker.account !== null) this.preventSelfTrade(inst, opposite, account, taker, now);
        else {
          this.trade(inst, opposite, level, maker, account, taker, now, fills, level.price !== aggregatePrice);
          aggregatePrice = level.price;
        }
        maker = next;
      }
    }
  }

  /** One fill of the maker in `slot` (`account`: its Order if it is the account's). */
  private trade(inst: Instrument, opposite: BookSide, level: Level, slot: number, account: Order | null, taker: Order, now: number, fills: Fill[] | null, newAggregate: boolean): void {
    const open = this.registry.orders.remaining(slot);
    const qty = open < taker.remaining ? open : taker.remaining;
    const price = level.price;
    const tradeId = ++inst.lastTradeId;
    opposite.reduce(slot, level, qty);
    if (open === qty) {
      opposite.remove(slot);
      if (account === null) this.registry.retireCounterparty(inst.index, slot);
    }
    this.levelChanged(inst, opposite.side, level);
    taker.remaining -= qty;
    const buyerIsMaker = opposite.side === 'BUY';
    this.events.push({ type: 'trade', symbol: inst.symbol, tradeId, price, qty, time: now, buyerIsMaker });
    this.marketData.of(inst.index).record(price, qty, now, buyerIsMaker, newAggregate);
    if (account !== null) {
      account.remaining -= qty;
      this.account!.settleFill(inst, account, qty, price, tradeId, true, now, null);
      if (account.remaining === 0) this.registry.forgetAccount(inst, account);
    }
    if (taker.account !== null) this.account!.settleFill(inst, taker, qty, price, tradeId, false, now, fills);
  }

  private preventSelfTrade(inst: Instrument, opposite: BookSide, maker: Order, taker: Order, now: number): void {
    const qty = maker.remaining;
    const level = opposite.remove(maker.slot);
    this.levelChanged(inst, maker.side, level);
    maker.remaining = 0;
    this.account!.makerPrevented(inst, maker, qty, taker, now);
    this.registry.forgetAccount(inst, maker);
  }

  /** Puts an account order at the back of its level (registry.addAccount gave it its slot). */
  rest(inst: Instrument, order: Order): void {
    const level = this.books[inst.index]!.sideOf(order.side).add(order.slot, order.price, order.remaining);
    this.levelChanged(inst, order.side, level);
  }

  /** Rests a counterparty order of `lots` at `price`; its book key. */
  restCounterparty(inst: Instrument, side: Side, price: number, lots: number): number {
    const slot = this.registry.addCounterparty(inst.index);
    const level = this.books[inst.index]!.sideOf(side).add(slot, price, lots);
    this.levelChanged(inst, side, level);
    return this.registry.orders.keyAt(slot);
  }

  /** Takes a resting account order off the book (cancel); not for fills. */
  unrest(inst: Instrument, order: Order): void {
    const level = this.books[inst.index]!.sideOf(order.side).remove(order.slot);
    this.levelChanged(inst, order.side, level);
    this.registry.forgetAccount(inst, order);
  }

  /** Cancels the resting counterparty order in `slot`. */
  cancelCounterparty(slot: number): void {
    const side = this.registry.orders.levelOf(slot).bookSide;
    const inst = this.instruments[side.symbolIndex]!;
    const level = side.remove(slot);
    this.levelChanged(inst, side.side, level);
    this.registry.retireCounterparty(inst.index, slot);
  }

  /** Reduces a resting account order in place, keeping its priority (amend). */
  reduce(inst: Instrument, order: Order, lots: number): void {
    const side = this.books[inst.index]!.sideOf(order.side);
    const level = this.registry.orders.levelOf(order.slot);
    side.reduce(order.slot, level, lots);
    order.remaining -= lots;
    this.levelChanged(inst, order.side, level);
  }

  /** Whether a taker of `side` at `price` would meet the opposite best. */
  crossesBest(inst: Instrument, side: Side, price: number): boolean {
    const best = this.books[inst.index]!.oppositeOf(side).best();
    return best !== undefined && crosses(side, price, best.price);
  }

  /** Lots a taker could fill now up to `price`; `counterpartyOnly` leaves out the account's own. */
  fillable(inst: Instrument, side: Side, price: number, counterpartyOnly: boolean, enough: number): number {
    const levels = this.books[inst.index]!.oppositeOf(side).levels;
    const store = this.registry.orders;
    let total = 0;
    for (let i = levels.length - 1; i >= 0 && total < enough; i--) {
      const level = levels[i]!;
      if (!crosses(side, price, level.price)) break;
      if (!counterpartyOnly) total += level.qty;
      else for (let o = level.head; o !== NONE; o = store.next(o)) if (!store.isAccount(o)) total += store.remaining(o);
    }
    return total;
  }

  /** Lots resting ahead of a resting account order in price-time priority (its own side). */
  lotsAhead(inst: Instrument, order: Order): number {
    const levels = this.books[inst.index]!.sideOf(order.side).levels;
    const store = this.registry.orders;
    const own = store.levelOf(order.slot);
    let ahead = 0;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (level === own) {
        for (let o = level.head; o !== order.slot && o !== NONE; o = store.next(o)) ahead += store.remaining(o);
        break;
      }
      ahead += level.qty;
    }
    return ahead;
  }

  /** Publishes the pending depth batch of every symbol (spec 6.1: one diff per symbol). */
  flushDepth(now: number): FlushResult {
    const diffs: DepthDiff[] = [];
    const touches: Touch[] = [];
    for (const agg of this.depth) {
      if (!agg.hasPending) continue;
      const diff = agg.flush(now);
      if (diff !== null) diffs.push(diff);
      const touch = agg.touchIfChanged();
      if (touch !== null) touches.push(touch);
    }
    return { diffs, touches };
  }

  /**
   * A level's quantity changed: a new book update id, and the level joins the depth batch (the
   * aggregator reads its quantity from the book at the flush, so nothing else is recorded). A
   * level that just emptied is passed too: it is off the book, and its price publishes 0.
   */
  private levelChanged(inst: Instrument, side: Side, level: Level): void {
    this.depth[inst.index]!.record(side, level, ++inst.updateId);
  }
}

/** Whether a taker of `side` limited at `price` meets a level at `levelPrice`. */
export function crosses(side: Side, price: number, levelPrice: number): boolean {
  return side === 'BUY' ? levelPrice <= price : levelPrice >= price;
}
