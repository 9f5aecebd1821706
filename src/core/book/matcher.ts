// The book and the matcher: every symbol's two sides, its depth aggregator, and price-time
// matching. It moves orders on and off the book (RestingOrders), numbers trades and levels
// (per-symbol trade and update ids, spec 2.5, 2.7), hands each public trade to the tape
// (PublicTrades), and emits each fill that involves the account to the account's side
// (FillSink), which settles balances, writes reports and forgets an order's ids once it has left
// the book. It never touches a balance itself. `A` is the account's record of an order, opaque.

import type { BookSide, Level, Order } from './book.ts';
import { SymbolBook } from './book.ts';
import type { FlushResult } from '../commands.ts';
import { DepthAggregator } from './depth-aggregator.ts';
import type { EventQueue } from '../event-queue.ts';
import type { Instrument } from '../markets.ts';
import { NONE } from './order-store.ts';
import type { RestingOrders } from './resting-orders.ts';
import type { DepthDiff, Fill, Side, Touch } from '../types.ts';

/**
 * The account's side of matching: what a fill or a prevented self-trade does to the account. A
 * maker whose open quantity reaches 0 here has left the book (its slot is freed after the call).
 */
export interface FillSink<A> {
  /** One fill of an account order (maker or taker) at `price` for `qty` lots. */
  settleFill(inst: Instrument, order: Order<A>, qty: number, price: number, tradeId: number, isMaker: boolean, now: number, fills: Fill[] | null): void;
  /** The account's taker met its own resting `maker`, already off the book (EXPIRE_MAKER). */
  makerPrevented(inst: Instrument, maker: Order<A>, qty: number, taker: Order<A>, now: number): void;
}

/**
 * Who waits for a symbol's trades (the account's conditional orders, issue 33): told of a public
 * trade, after it settled, when its price reaches the instrument's trigger window.
 */
export interface TradeWatch {
  traded(inst: Instrument, price: number, now: number): void;
}

/** Where each public trade goes: the symbol's tape and bars (the market room's MarketData). */
export interface PublicTrades {
  of(symbolIndex: number): { record(price: number, qty: number, time: number, buyerIsMaker: boolean, newAggregate: boolean): void };
}

export class Matcher<A = unknown> {
  readonly books: SymbolBook[];
  readonly depth: DepthAggregator[];
  private account: FillSink<A> | null = null;
  private watch: TradeWatch | null = null;

  constructor(
    private readonly instruments: readonly Instrument[],
    private readonly resting: RestingOrders<A>,
    private readonly events: EventQueue,
    /** Public market data: every trade goes to its tape and bars (API.md section 9). */
    private readonly marketData: PublicTrades,
  ) {
    this.books = instruments.map((inst) => new SymbolBook(inst.index, resting.orders));
    this.depth = instruments.map((inst, i) => new DepthAggregator(inst.symbol, this.books[i]!));
  }

  /** The account's side, built after the matcher (it needs the matcher to put orders on the book). */
  connect(account: FillSink<A>, watch: TradeWatch | null = null): void {
    this.account = account;
    this.watch = watch;
  }

  /**
   * Matches `taker` against the opposite side in price-time priority up to `limit` (null: any
   * price). Self-trade prevention is EXPIRE_MAKER (spec 1.4): an own resting order the account's
   * taker would meet expires, and matching goes on.
   */
  match(inst: Instrument, taker: Order<A>, limit: number | null, now: number, fills: Fill[] | null): void {
    const opposite = this.books[inst.index]!.oppositeOf(taker.side);
    const store = this.resting.orders;
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
  private trade(inst: Instrument, opposite: BookSide, level: Level, slot: number, account: Order<A> | null, taker: Order<A>, now: number, fills: Fill[] | null, newAggregate: boolean): void {
    const open = this.resting.orders.remaining(slot);
    const qty = open < taker.remaining ? open : taker.remaining;
    const price = level.price;
    const tradeId = ++inst.lastTradeId;
    opposite.reduce(slot, level, qty);
    if (open === qty) {
      opposite.remove(slot);
      if (account === null) this.resting.retireCounterparty(inst.index, slot);
    }
    this.levelChanged(inst, opposite.side, level);
    taker.remaining -= qty;
    this.publicTrade(inst, tradeId, price, qty, opposite.side === 'BUY', now, newAggregate);
    if (account !== null) {
      account.remaining -= qty;
      this.account!.settleFill(inst, account, qty, price, tradeId, true, now, null);
      if (account.remaining === 0) this.resting.orders.removeAccount(account);
      else if (open === qty) this.refill(inst, opposite, account);
    }
    if (taker.account !== null) this.account!.settleFill(inst, taker, qty, price, tradeId, false, now, fills);
    if (price >= inst.triggerAbove || price <= inst.triggerBelow) this.watch!.traded(inst, price, now);
  }

  /**
   * An iceberg's visible part was filled and it has more: the next part goes to the back of its
   * level, in the same slot (a refill sends no event; the depth shows it). Matching goes on
   * through the level and meets it again there.
   */
  private refill(inst: Instrument, side: BookSide, order: Order<A>): void {
    const level = side.add(order.slot, order.price, visiblePart(order));
    this.levelChanged(inst, side.side, level);
  }

  /** Every public trade, a match's or a recorded print's: its event, the symbol's tape and bars. */
  private publicTrade(inst: Instrument, tradeId: number, price: number, qty: number, buyerIsMaker: boolean, now: number, newAggregate: boolean): void {
    this.events.push({ type: 'trade', symbol: inst.symbol, tradeId, price, qty, time: now, buyerIsMaker });
    this.marketData.of(inst.index).record(price, qty, now, buyerIsMaker, newAggregate);
    inst.lastPrice = price;
  }

  /**
   * A taker of `side` that meets the account's resting orders only (the replay's prints and a
   * replayed symbol's scripted orders, API.md section 12): up to `limit` (inclusive; null: any
   * price), best price then oldest first, at each order's own price, until `lots` are filled;
   * every other order is passed over. Returns the lots filled.
   */
  fillAccountMakers(inst: Instrument, side: Side, limit: number | null, lots: number, now: number): number {
    const opposite = this.books[inst.index]!.oppositeOf(side);
    const levels = opposite.levels;
    const store = this.resting.orders;
    const taker = this.resting.newCounterpartyTaker(inst.index, side, limit ?? 0, lots);
    let aggregatePrice = -1;
    // From the best level down; a level that empties is level i itself, so the ones below keep their index.
    for (let i = levels.length - 1; i >= 0 && taker.remaining > 0; i--) {
      const level = levels[i]!;
      if (limit !== null && !crosses(side, limit, level.price)) break;
      if (level.accountCount === 0) continue;
      let maker = level.head;
      while (maker !== NONE && taker.remaining > 0) {
        const next = store.next(maker);
        const account = store.accountAt(maker);
        if (account !== null) {
          this.trade(inst, opposite, level, maker, account, taker, now, null, level.price !== aggregatePrice);
          aggregatePrice = level.price;
        }
        maker = next;
      }
    }
    const filled = lots - taker.remaining;
    this.resting.spare(taker);
    return filled;
  }

  /** A recorded print (API.md section 12): a public trade with the symbol's next id, touching no order; its id. */
  print(inst: Instrument, price: number, qty: number, buyerIsMaker: boolean, now: number, newAggregate: boolean): number {
    const tradeId = ++inst.lastTradeId;
    this.publicTrade(inst, tradeId, price, qty, buyerIsMaker, now, newAggregate);
    // A print triggers the account's waiting stops like any public trade (they run after the print's command).
    if (price >= inst.triggerAbove || price <= inst.triggerBelow) this.watch!.traded(inst, price, now);
    return tradeId;
  }

  private preventSelfTrade(inst: Instrument, opposite: BookSide, maker: Order<A>, taker: Order<A>, now: number): void {
    const qty = maker.remaining;
    const level = opposite.remove(maker.slot);
    this.levelChanged(inst, maker.side, level);
    maker.remaining = 0;
    this.account!.makerPrevented(inst, maker, qty, taker, now);
    this.resting.orders.removeAccount(maker);
  }

  /** Puts an account order at the back of its level, in a slot of its own (order.slot). */
  rest(inst: Instrument, order: Order<A>): void {
    this.resting.orders.addAccount(order);
    const level = this.books[inst.index]!.sideOf(order.side).add(order.slot, order.price, visiblePart(order));
    this.levelChanged(inst, order.side, level);
  }

  /** Rests a counterparty order of `lots` at `price` (`scripted`: a test's, out of the generator's picks); its book key. */
  restCounterparty(inst: Instrument, side: Side, price: number, lots: number, scripted = false): number {
    const slot = this.resting.addCounterparty(inst.index, scripted);
    const level = this.books[inst.index]!.sideOf(side).add(slot, price, lots);
    this.levelChanged(inst, side, level);
    return this.resting.orders.keyAt(slot);
  }

  /** Takes a resting account order off the book (cancel); not for fills. */
  unrest(inst: Instrument, order: Order<A>): void {
    const level = this.books[inst.index]!.sideOf(order.side).remove(order.slot);
    this.levelChanged(inst, order.side, level);
    this.resting.orders.removeAccount(order);
  }

  /** Cancels the resting counterparty order in `slot`. */
  cancelCounterparty(slot: number): void {
    const side = this.resting.orders.levelOf(slot).bookSide;
    const inst = this.instruments[side.symbolIndex]!;
    const level = side.remove(slot);
    this.levelChanged(inst, side.side, level);
    this.resting.retireCounterparty(inst.index, slot);
  }

  /**
   * Reduces a resting account order in place, keeping its priority (amend). An iceberg's visible
   * part shrinks only when what is left falls below it (API.md 11).
   */
  reduce(inst: Instrument, order: Order<A>, lots: number): void {
    const side = this.books[inst.index]!.sideOf(order.side);
    const store = this.resting.orders;
    const level = store.levelOf(order.slot);
    order.remaining -= lots;
    const shown = store.remaining(order.slot);
    if (shown > order.remaining) {
      side.reduce(order.slot, level, shown - order.remaining);
      this.levelChanged(inst, order.side, level);
    }
  }

  /** Whether a taker of `side` at `price` would meet the opposite best. */
  crossesBest(inst: Instrument, side: Side, price: number): boolean {
    const best = this.books[inst.index]!.oppositeOf(side).best();
    return best !== undefined && crosses(side, price, best.price);
  }

  /** Lots a taker could fill now up to `price`; `counterpartyOnly` leaves out the account's own. */
  fillable(inst: Instrument, side: Side, price: number, counterpartyOnly: boolean, enough: number): number {
    const levels = this.books[inst.index]!.oppositeOf(side).levels;
    const store = this.resting.orders;
    let total = 0;
    for (let i = levels.length - 1; i >= 0 && total < enough; i--) {
      const level = levels[i]!;
      if (!crosses(side, price, level.price)) break;
      if (!counterpartyOnly) total += level.qty;
      else for (let o = level.head; o !== NONE; o = store.next(o)) if (!store.isAccount(o)) total += store.remaining(o);
    }
    return total;
  }

  /**
   * The counterparty's makers a taker of `side` for `lots` would meet, best first, each with the
   * lots it would give (the account's own are skipped: self-trade prevention expires them):
   * `visit(priceTicks, lots)`, which may stop the walk by answering false. What a MARKET order's
   * balance check prices, and what a `quoteOrderQty` MARKET order sizes itself by.
   */
  forEachCounterpartyFill(inst: Instrument, side: Side, lots: number, visit: (price: number, lots: number) => boolean | void): void {
    const levels = this.books[inst.index]!.oppositeOf(side).levels;
    const store = this.resting.orders;
    let need = lots;
    for (let i = levels.length - 1; i >= 0 && need > 0; i--) {
      const level = levels[i]!;
      for (let o = level.head; o !== NONE && need > 0; o = store.next(o)) {
        if (store.isAccount(o)) continue;
        const q = Math.min(need, store.remaining(o));
        if (visit(level.price, q) === false) return;
        need -= q;
      }
    }
  }

  /** Lots resting ahead of a resting account order in price-time priority (its own side). */
  lotsAhead(inst: Instrument, order: Order<A>): number {
    const levels = this.books[inst.index]!.sideOf(order.side).levels;
    const store = this.resting.orders;
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

/** What the book shows of an order: all of it, or an iceberg's visible part. */
function visiblePart(order: Order): number {
  return order.display !== 0 && order.display < order.remaining ? order.display : order.remaining;
}

/** Whether a taker of `side` limited at `price` meets a level at `levelPrice`. */
export function crosses(side: Side, price: number, levelPrice: number): boolean {
  return side === 'BUY' ? levelPrice <= price : levelPrice >= price;
}
