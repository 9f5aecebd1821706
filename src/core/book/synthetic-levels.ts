// The replay counterparty's synthetic book (API.md section 12): in a replayed symbol, bids at
// center - k ticks and asks at center + k ticks for k = 1..levels, `lots` each, rebuilt around
// every print. They are counterparty orders like any other (the account's takers meet them in
// price-time priority), kept apart only by their keys here. A rebuild is owed at each print and
// made when something next looks at the book (`settle`: the exchange calls it before any command
// but the prints' and before any read of the book), so a day of prints that nobody looks at
// between costs no level at all. A rebuild gives all its level changes one book update id (so a
// depth diff or a bookTicker shows one id per rebuild) and changes only what differs: one tick
// from the last center, one level a side moves; when nothing else touched the symbol's book
// since the last rebuild (its update id is unchanged), only the prices entering the range are
// looked at. The synthetic levels never cross another
// order: a level at or through the best other order of the opposite side (a scripted order
// resting beside them) is left out.
//
// Each side keeps its orders in a ring of `levels` cells, a price in cell `price mod levels`: a
// range of consecutive prices fills each cell once, and a price entering the range takes the
// cell of the one leaving it.

import type { SymbolBook, BookSide } from './book.ts';
import type { DepthAggregator } from './depth-aggregator.ts';
import type { Instrument } from '../markets.ts';
import { NONE } from './order-store.ts';
import type { RestingOrders } from './resting-orders.ts';
import type { Side } from '../types.ts';

/** One side's ring: the book key (0: none) and price of the synthetic order in each cell. */
class Ring {
  readonly keys: Float64Array;
  readonly prices: Float64Array;

  constructor(readonly size: number) {
    this.keys = new Float64Array(size);
    this.prices = new Float64Array(size);
  }

  cellOf(price: number): number {
    return ((price % this.size) + this.size) % this.size;
  }
}

class SymbolLevels {
  center = 0;
  /** The rebuild owed: its center (0: none), levels a side and lots a level. */
  owedCenter = 0;
  owedLevels = 0;
  owedLots = 0;
  /** The symbol's book update id right after the last rebuild: unchanged means nothing touched the book since. */
  updateIdAfter = -1;
  /** Other counterparty orders (scripted ones) resting in the symbol at the last full rebuild. */
  others = 0;

  constructor(
    readonly bids: Ring,
    readonly asks: Ring,
    readonly lots: number,
  ) {}
}

export class SyntheticLevels<A = unknown> {
  /** By instrument index; undefined for a symbol that is not replayed. */
  private readonly symbols: (SymbolLevels | undefined)[];
  /** The update id of the rebuild running now (0: none taken yet). */
  private updateId = 0;
  /** Whether a symbol owes a rebuild. */
  owed = false;

  constructor(
    private readonly instruments: readonly Instrument[],
    private readonly books: readonly SymbolBook[],
    private readonly resting: RestingOrders<A>,
    private readonly depth: readonly DepthAggregator[],
  ) {
    this.symbols = instruments.map(() => undefined);
  }

  /** Whether the symbol has a synthetic book (it is replayed). */
  has(symbolIndex: number): boolean {
    return this.symbols[symbolIndex] !== undefined;
  }

  /** Makes `symbolIndex` a replayed symbol: its synthetic book is empty until the first rebuild. */
  declare(symbolIndex: number): void {
    this.symbols[symbolIndex] = new SymbolLevels(new Ring(0), new Ring(0), 0);
  }

  /** The symbol's synthetic book is to be rebuilt around `center` (ticks): `levels` a side of `lots` each. */
  rebuild(symbolIndex: number, center: number, levels: number, lots: number): void {
    const s = this.symbols[symbolIndex]!;
    s.owedCenter = center;
    s.owedLevels = levels;
    s.owedLots = lots;
    this.owed = true;
  }

  /** Makes every rebuild owed: the synthetic books as the prints left them. */
  settle(): void {
    if (!this.owed) return;
    this.owed = false;
    for (let i = 0; i < this.symbols.length; i++) {
      const s = this.symbols[i];
      if (s === undefined || s.owedCenter === 0) continue;
      const center = s.owedCenter;
      s.owedCenter = 0;
      this.build(i, center, s.owedLevels, s.owedLots);
    }
  }

  private build(symbolIndex: number, center: number, levels: number, lots: number): void {
    const inst = this.instruments[symbolIndex]!;
    const book = this.books[symbolIndex]!;
    this.updateId = 0;
    let s = this.symbols[symbolIndex]!;
    if (s.bids.size !== levels || s.lots !== lots) s = this.resize(inst, s, levels, lots);
    const previous = s.center;
    s.center = center;
    if (inst.updateId === s.updateIdAfter && s.others === 0 && previous !== 0) {
      if (center === previous) return;
      // Nothing touched the book since the last rebuild: only the prices entering the range
      // change (each takes the cell of one leaving it). Up: the nearest bids, the farthest asks.
      const n = s.bids.size;
      const up = center > previous;
      const moved = Math.min(up ? center - previous : previous - center, n);
      // k from `far` to n are the farthest `moved` levels, k from 1 to `moved` the nearest.
      const far = n - moved + 1;
      for (let k = up ? 1 : far, last = up ? moved : n; k <= last; k++) this.place(inst, book.bids, s.bids, s.lots, center - k, Infinity);
      for (let k = up ? far : 1, last = up ? n : moved; k <= last; k++) this.place(inst, book.asks, s.asks, s.lots, center + k, -Infinity);
    } else {
      // A full pass, capped by the other orders' best prices so the book never crosses.
      const bidCap = this.bestOther(book.asks, s.asks);
      const askCap = this.bestOther(book.bids, s.bids);
      for (let k = 1; k <= s.bids.size; k++) this.place(inst, book.bids, s.bids, s.lots, center - k, bidCap);
      for (let k = 1; k <= s.asks.size; k++) this.place(inst, book.asks, s.asks, s.lots, center + k, askCap);
      const counterparty = this.resting.counterpartyResting[symbolIndex]!.length + this.resting.scriptedResting[symbolIndex]!.length;
      s.others = counterparty - this.alive(s.bids) - this.alive(s.asks);
    }
    s.updateIdAfter = inst.updateId;
  }

  /** A new shape of synthetic book (the first rebuild): what rests of the old one goes. */
  private resize(inst: Instrument, old: SymbolLevels, levels: number, lots: number): SymbolLevels {
    const book = this.books[inst.index]!;
    for (const [side, ring] of [[book.bids, old.bids], [book.asks, old.asks]] as const) {
      for (let cell = 0; cell < ring.size; cell++) {
        const slot = this.slotIn(ring, cell);
        if (slot !== NONE) this.cancel(inst, side, ring, cell, slot);
      }
    }
    const s = new SymbolLevels(new Ring(levels), new Ring(levels), lots);
    this.symbols[inst.index] = s;
    return s;
  }

  /**
   * The best price of a counterparty order on `side` of a replayed symbol that is not a synthetic
   * one (a scripted order); undefined when there is none.
   */
  bestScripted(symbolIndex: number, side: Side): number | undefined {
    this.settle();
    const s = this.symbols[symbolIndex]!;
    const bookSide = this.books[symbolIndex]!.sideOf(side);
    const ring = side === 'BUY' ? s.bids : s.asks;
    const levels = bookSide.levels;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (level.count - level.accountCount > this.ownAt(ring, level.price)) return level.price;
    }
    return undefined;
  }

  /**
   * A scripted order of `side` rests at `price` in a replayed symbol: the synthetic levels it
   * would cross step back (they are not there to trade with it), with one update id.
   */
  stepBack(symbolIndex: number, side: Side, price: number): void {
    this.settle();
    const s = this.symbols[symbolIndex]!;
    const inst = this.instruments[symbolIndex]!;
    const book = this.books[symbolIndex]!;
    this.updateId = 0;
    const opposite = side === 'BUY' ? book.asks : book.bids;
    const ring = side === 'BUY' ? s.asks : s.bids;
    for (let cell = 0; cell < ring.size; cell++) {
      const slot = this.slotIn(ring, cell);
      if (slot === NONE) continue;
      const p = ring.prices[cell]!;
      if (side === 'BUY' ? p <= price : p >= price) this.cancel(inst, opposite, ring, cell, slot);
    }
  }

  /**
   * Makes the cell of `price` hold a synthetic order at `price` of `lots` (none when `price` is
   * not positive, or at or through `cap`: bids below it, asks above it), cancelling the order of
   * a price that left the range and topping up one the account took from.
   */
  private place(inst: Instrument, side: BookSide, ring: Ring, lots: number, price: number, cap: number): void {
    const cell = ring.cellOf(price);
    let slot = this.slotIn(ring, cell);
    if (slot !== NONE && ring.prices[cell] !== price) {
      this.cancel(inst, side, ring, cell, slot);
      slot = NONE;
    }
    const wanted = price > 0 && (side.isBid ? price < cap : price > cap);
    const store = this.resting.orders;
    if (slot === NONE) {
      if (!wanted) return;
      const added = this.resting.addCounterparty(inst.index);
      const level = side.add(added, price, lots);
      this.record(inst, side, level);
      ring.keys[cell] = store.keyAt(added);
      ring.prices[cell] = price;
    } else if (!wanted) {
      this.cancel(inst, side, ring, cell, slot);
    } else {
      const have = store.remaining(slot);
      if (have === lots) return;
      const level = store.levelOf(slot);
      side.reduce(slot, level, have - lots); // a negative reduction: back up to `lots`, in its place
      this.record(inst, side, level);
    }
  }

  private cancel(inst: Instrument, side: BookSide, ring: Ring, cell: number, slot: number): void {
    const level = side.remove(slot);
    this.record(inst, side, level);
    this.resting.retireCounterparty(inst.index, slot);
    ring.keys[cell] = 0;
  }

  /** The slot of the cell's order if it still rests (a fill or a cancel may have taken it), else NONE. */
  private slotIn(ring: Ring, cell: number): number {
    const key = ring.keys[cell]!;
    if (key === 0) return NONE;
    const slot = this.resting.orders.slotOf(key);
    if (slot === NONE) ring.keys[cell] = 0;
    return slot;
  }

  /** Synthetic orders resting in the ring. */
  private alive(ring: Ring): number {
    let n = 0;
    for (let cell = 0; cell < ring.size; cell++) if (this.slotIn(ring, cell) !== NONE) n++;
    return n;
  }

  /** The best price of an order on `side` that is not one of the ring's (±Infinity: none). */
  private bestOther(side: BookSide, ring: Ring): number {
    const levels = side.levels;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (level.count > this.ownAt(ring, level.price)) return level.price;
    }
    return side.isBid ? -Infinity : Infinity;
  }

  /** 1 when the ring's order at `price` rests (a level holds at most one synthetic order), else 0. */
  private ownAt(ring: Ring, price: number): number {
    if (ring.size === 0) return 0;
    const cell = ring.cellOf(price);
    return ring.prices[cell] === price && this.slotIn(ring, cell) !== NONE ? 1 : 0;
  }

  /** A level of the rebuild changed: the rebuild's one update id, taken at its first change. */
  private record(inst: Instrument, side: BookSide, level: Parameters<DepthAggregator['record']>[1]): void {
    if (this.updateId === 0) this.updateId = ++inst.updateId;
    this.depth[inst.index]!.record(side.side, level, this.updateId);
  }
}
