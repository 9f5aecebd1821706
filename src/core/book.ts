// One side of one symbol's book: price levels kept sorted with the best level LAST (so taking
// the touch is an O(1) pop), each level a FIFO doubly linked list with O(1) removal by order and
// a running quantity (ARCHITECTURE "Data structures").

import type { Side } from './types.ts';
import type { AccountOrder } from './account-order.ts';
import { PagedTable } from './paged-table.ts';

/** A resting (or matching) order. Account orders carry `account`; the generator's do not. */
export class Order {
  prev: Order | null = null;
  next: Order | null = null;
  level: Level | null = null;
  /** Open quantity (lots): what is left after fills and self-trade prevention. */
  remaining: number;
  /** Position in the generator's own order index (counterparty orders only). */
  slot = -1;

  constructor(
    /** Book key: the orderId (> 0) for the account, a negative number for the counterparty. */
    public id: number,
    public symbolIndex: number,
    public side: Side,
    /** Ticks (0 for MARKET). */
    public price: number,
    quantity: number,
    readonly account: AccountOrder | null,
  ) {
    this.remaining = quantity;
  }

  /** Makes a finished counterparty order (off the book, unindexed) a new one. */
  reuse(id: number, symbolIndex: number, side: Side, price: number, quantity: number): this {
    this.id = id;
    this.symbolIndex = symbolIndex;
    this.side = side;
    this.price = price;
    this.remaining = quantity;
    this.prev = this.next = null;
    this.level = null;
    this.slot = -1;
    return this;
  }
}

export class Level {
  head: Order | null = null;
  tail: Order | null = null;
  /** Sum of `remaining` over the level's orders, kept on every change. */
  qty = 0;
  count = 0;
  /**
   * The depth batch in which the depth aggregator last noted this level as changed: a change to
   * a level already noted costs one comparison (depth-aggregator.ts).
   */
  notedInBatch = 0;

  constructor(
    readonly price: number,
    /** Sort key: ascending keys put the best level last (bids: price, asks: -price). */
    readonly key: number,
  ) {}
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

  constructor(readonly side: Side) {}

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

  /** Appends the order at the back of its price level; returns the level's new quantity. */
  add(order: Order): number {
    let level = this.byPrice.get(order.price);
    if (level === undefined) {
      level = new Level(order.price, this.keyOf(order.price));
      this.byPrice.set(order.price, level);
    }
    if (level.count === 0) this.insertLevel(level);
    order.level = level;
    order.prev = level.tail;
    order.next = null;
    if (level.tail) level.tail.next = order;
    else level.head = order;
    level.tail = order;
    level.qty += order.remaining;
    level.count++;
    return level.qty;
  }

  /** Unlinks the order (any position); returns its level's new quantity (0 = level removed). */
  remove(order: Order): number {
    const level = order.level!;
    if (order.prev) order.prev.next = order.next;
    else level.head = order.next;
    if (order.next) order.next.prev = order.prev;
    else level.tail = order.prev;
    order.prev = order.next = null;
    order.level = null;
    level.qty -= order.remaining;
    level.count--;
    if (level.count === 0) this.removeLevel(level);
    return level.qty;
  }

  /** Reduces a resting order's open quantity in place (fills, amends): keeps its position. */
  reduce(order: Order, lots: number): number {
    order.remaining -= lots;
    const level = order.level!;
    level.qty -= lots;
    return level.qty;
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
    if (level.count === 0) this.byPrice.delete(level.price);
  }

  private insertLevel(level: Level): void {
    const key = level.key;
    const levels = this.levels;
    // New levels land near the touch most of the time: check the end before searching.
    const n = levels.length;
    if (n === 0 || levels[n - 1]!.key < key) levels.push(level);
    else levels.splice(this.searchKey(key), 0, level);
  }

  /** Takes an emptied level off `levels`; it stays in `byPrice` until the flush drops it. */
  private removeLevel(level: Level): void {
    const levels = this.levels;
    const n = levels.length;
    if (levels[n - 1] === level) levels.pop();
    else levels.splice(this.searchKey(level.key), 1);
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

export class SymbolBook {
  readonly bids = new BookSide('BUY');
  readonly asks = new BookSide('SELL');

  sideOf(side: Side): BookSide {
    return side === 'BUY' ? this.bids : this.asks;
  }

  oppositeOf(side: Side): BookSide {
    return side === 'BUY' ? this.asks : this.bids;
  }
}
