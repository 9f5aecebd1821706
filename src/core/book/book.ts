// One side of one symbol's book: price levels kept sorted with the best level LAST (so taking
// the touch is an O(1) pop), each level a FIFO doubly linked list of OrderStore slots with O(1)
// removal by slot and a running quantity (ARCHITECTURE "Data structures").

import type { Side } from '../types.ts';
import { NONE, type OrderStore } from './order-store.ts';
import { PagedTable } from './paged-table.ts';

/**
 * Every resting order's record, by slot (order-store.ts), over this file's Level and Order; `A`
 * is what an account order carries (the account room's record, which the book never reads).
 */
export type BookStore<A = unknown> = OrderStore<Level, Order<A>>;

/**
 * An order as an object: an account order (open or matching) or a taker while it matches. A
 * resting order's book entry is its slot in the OrderStore; the counterparty's resting orders
 * have only that (no object each: see order-store.ts). `account` is the account room's record of
 * the order, opaque here: the book only asks whether there is one (self-trade prevention).
 */
export class Order<A = unknown> {
  /** Its slot in the OrderStore while it rests (account orders), else NONE. */
  slot = NONE;
  /** Open quantity (lots): what is left after fills and self-trade prevention. */
  remaining: number;
  /**
   * An iceberg's visible part (lots): the book shows at most this much of it, and when that is
   * filled the next part goes to the back of its level (issue 33). 0: all of it shows.
   */
  display = 0;

  constructor(
    /** The orderId (> 0) for the account; 0 for a counterparty taker. */
    public id: number,
    public symbolIndex: number,
    public side: Side,
    /** Ticks (0 for MARKET). */
    public price: number,
    quantity: number,
    readonly account: A | null,
  ) {
    this.remaining = quantity;
  }

  /** Makes a finished counterparty taker a new one. */
  reuse(symbolIndex: number, side: Side, price: number, quantity: number): this {
    this.symbolIndex = symbolIndex;
    this.side = side;
    this.price = price;
    this.remaining = quantity;
    return this;
  }
}

export class Level {
  /** First and last slot of the FIFO (NONE: empty). */
  head = NONE;
  tail = NONE;
  /** Sum of the open lots of the level's orders, kept on every change. */
  qty = 0;
  count = 0;
  /** Account orders among them: 0 lets matching skip the account check per maker. */
  accountCount = 0;
  /**
   * The depth batch in which the depth aggregator last noted this level as changed: a change to
   * a level already noted costs one comparison (depth-aggregator.ts).
   */
  notedInBatch = 0;
  /** Its quantity in the book as last published (the depth aggregator's; 0 before its first batch). */
  publishedQty = 0;
  /** Its id in the OrderStore (records name their level by it). */
  readonly id: number;

  constructor(
    readonly price: number,
    /** Sort key: ascending keys put the best level last (bids: price, asks: -price). */
    readonly key: number,
    /** The side it belongs to: a cancel by key finds its book (and symbol) from the level. */
    readonly bookSide: BookSide,
    store: BookStore,
  ) {
    this.id = store.addLevel(this);
  }
}

export class BookSide {
  /** Levels sorted by ascending key: the best level is last. */
  readonly levels: Level[] = [];
  /**
   * Levels by price (ticks > 0), addressed directly: see PagedTable. A level that empties stays
   * here, off `levels`, until the depth flush that publishes it (`dropIfEmpty`): an order at
   * that price before then reopens the same Level, so the depth batch holds each price once.
   */
  private readonly byPrice = new PagedTable<Level>();

  constructor(
    readonly side: Side,
    readonly symbolIndex: number,
    private readonly store: BookStore,
  ) {}

  get isBid(): boolean {
    return this.side === 'BUY';
  }

  best(): Level | undefined {
    return this.levels[this.levels.length - 1];
  }

  /** The level at `price` if it has orders. */
  level(price: number): Level | undefined {
    const level = this.byPrice.get(price);
    return level !== undefined && level.count > 0 ? level : undefined;
  }

  /** Appends the slot's order (`lots` open) at the back of the level at `price`. */
  add(slot: number, price: number, lots: number): Level {
    const store = this.store;
    let level = this.byPrice.get(price);
    if (level === undefined) {
      level = new Level(price, this.keyOf(price), this, store);
      this.byPrice.set(price, level);
    }
    if (level.count === 0) this.insertLevel(level);
    const tail = level.tail;
    store.link(slot, level.id, tail, lots);
    if (tail !== NONE) store.setNext(tail, slot);
    else level.head = slot;
    level.tail = slot;
    level.qty += lots;
    level.count++;
    if (store.isAccount(slot)) level.accountCount++;
    return level;
  }

  /** Unlinks the slot's order (any position); returns its level (count 0: off the book). */
  remove(slot: number): Level {
    const store = this.store;
    const level = store.levelOf(slot);
    const prev = store.prev(slot);
    const next = store.next(slot);
    if (prev !== NONE) store.setNext(prev, next);
    else level.head = next;
    if (next !== NONE) store.setPrev(next, prev);
    else level.tail = prev;
    level.qty -= store.remaining(slot);
    level.count--;
    if (store.isAccount(slot)) level.accountCount--;
    if (level.count === 0) this.removeLevel(level);
    return level;
  }

  /** Reduces a resting order's open lots in place (fills, amends): keeps its position. */
  reduce(slot: number, level: Level, lots: number): void {
    const store = this.store;
    store.setRemaining(slot, store.remaining(slot) - lots);
    level.qty -= lots;
  }

  /** The best `limit` levels, best first, as [price, qty] pairs. */
  top(limit: number): [number, number][] {
    const out: [number, number][] = [];
    const levels = this.levels;
    for (let i = levels.length - 1; i >= 0 && out.length < limit; i--) out.push([levels[i]!.price, levels[i]!.qty]);
    return out;
  }

  get levelCount(): number {
    return this.levels.length;
  }

  private keyOf(price: number): number {
    return this.side === 'BUY' ? price : -price;
  }

  /**
   * After the depth flush published a changed level: forgets it if it is empty. It is its
   * price's only level (an emptied one is reopened, never replaced, until this call).
   */
  dropIfEmpty(level: Level): void {
    if (level.count !== 0) return;
    this.byPrice.delete(level.price);
    this.store.dropLevel(level.id);
  }

  private insertLevel(level: Level): void {
    const key = level.key;
    const levels = this.levels;
    // New levels land near the touch most of the time: check the end before searching.
    const n = levels.length;
    if (n === 0 || levels[n - 1]!.key < key) levels.push(level);
    else insertAt(levels, this.searchKey(key), level);
  }

  /** Takes an emptied level off `levels`; it stays in `byPrice` until the flush drops it. */
  private removeLevel(level: Level): void {
    const levels = this.levels;
    const n = levels.length;
    if (levels[n - 1] === level) levels.pop();
    else removeAt(levels, this.searchKey(level.key));
  }

  /** First index whose key is >= `key`. */
  private searchKey(key: number): number {
    const levels = this.levels;
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (levels[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * `splice` for one level, moving a few levels by hand: splice allocates the array of removed
 * items every time. A replayed symbol's synthetic book adds and drops its farthest level at every
 * tick the price moves (index 0 of a side of 20), where splice cost a sixth of a print (issue
 * 35's replay bench); a long move (a deep book) stays with splice's memmove.
 */
const MOVE_BY_HAND = 64;

function insertAt(levels: Level[], at: number, level: Level): void {
  let i = levels.length;
  if (i - at > MOVE_BY_HAND) return void levels.splice(at, 0, level);
  levels.push(level);
  for (; i > at; i--) levels[i] = levels[i - 1]!;
  levels[at] = level;
}

function removeAt(levels: Level[], at: number): void {
  const n = levels.length - 1;
  if (n - at > MOVE_BY_HAND) return void levels.splice(at, 1);
  for (let i = at; i < n; i++) levels[i] = levels[i + 1]!;
  levels.pop();
}

export class SymbolBook {
  readonly bids: BookSide;
  readonly asks: BookSide;

  constructor(symbolIndex: number, store: BookStore) {
    this.bids = new BookSide('BUY', symbolIndex, store);
    this.asks = new BookSide('SELL', symbolIndex, store);
  }

  sideOf(side: Side): BookSide {
    return side === 'BUY' ? this.bids : this.asks;
  }

  oppositeOf(side: Side): BookSide {
    return side === 'BUY' ? this.asks : this.bids;
  }
}
