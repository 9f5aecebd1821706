// One symbol's public trades, oldest first, in compact typed columns (API.md section 9): the
// immutable history (shared by every core of a simulator, never copied) followed by the live
// trades in a ring that grows by doubling up to `max_trades_per_symbol`. Together they keep at
// most that many trades: live trades push the oldest history out first, then the oldest live
// ones. Trade ids are one contiguous per-symbol sequence (history starts at 1; the matcher
// numbers live ones after it), so a trade's id is its position plus the first kept id.
// Appending is a handful of array writes: the order path pays nothing for the queries.

/** Columns of trades; `aggGap` = trade id - aggregate id (non-decreasing, small). */
export class TradeColumns {
  time: Float64Array;
  price: Float64Array;
  qty: Float64Array;
  aggGap: Uint32Array;
  buyerIsMaker: Uint8Array;

  constructor(readonly capacity: number) {
    this.time = new Float64Array(capacity);
    this.price = new Float64Array(capacity);
    this.qty = new Float64Array(capacity);
    this.aggGap = new Uint32Array(capacity);
    this.buyerIsMaker = new Uint8Array(capacity);
  }
}

/**
 * The history part: `count` trades in `columns`, with ids `idsBefore + 1 ..` and aggregate ids
 * up to `lastAggId`. `idsBefore`: ids used by history without kept trades (CSV candles count
 * their trades, so live ids follow them).
 */
export interface TradeHistory {
  readonly columns: TradeColumns;
  readonly count: number;
  readonly idsBefore: number;
  readonly lastAggId: number;
}

export const EMPTY_TRADE_HISTORY: TradeHistory = { columns: new TradeColumns(0), count: 0, idsBefore: 0, lastAggId: 0 };

const FIRST_CAPACITY = 1024;

export class TradeTape {
  private live: TradeColumns;
  /** Physical index of the oldest kept live trade. */
  private head = 0;
  /** Live trades kept (at most `cap`). */
  private liveCount = 0;
  /** Live trades ever appended. */
  private appended = 0;
  /** Id of the latest trade / aggregate (history's last before any live one). */
  lastId: number;
  lastAggId: number;

  constructor(
    private readonly history: TradeHistory,
    private readonly cap: number,
  ) {
    this.live = new TradeColumns(0);
    this.lastId = history.idsBefore + history.count;
    this.lastAggId = history.lastAggId;
  }

  /** History trades still kept (live ones push the oldest out). */
  private get historyKept(): number {
    return Math.max(0, Math.min(this.history.count, this.cap - this.appended));
  }

  /** Trades kept. */
  get size(): number {
    return this.historyKept + this.liveCount;
  }

  /** Id of the oldest kept trade (ids are contiguous). */
  get firstId(): number {
    return this.lastId - this.size + 1;
  }

  /**
   * Appends one trade with id `lastId + 1`. `newAggregate`: it starts a new aggregate (a new
   * taker order, or another price of the same one).
   */
  append(time: number, price: number, qty: number, buyerIsMaker: boolean, newAggregate: boolean): void {
    if (this.liveCount === this.live.capacity && this.liveCount < this.cap) this.grow();
    const cols = this.live;
    let at: number;
    if (this.liveCount < cols.capacity) {
      at = (this.head + this.liveCount) % cols.capacity;
      this.liveCount++;
    } else {
      at = this.head;
      this.head = (this.head + 1) % cols.capacity;
    }
    this.appended++;
    const id = ++this.lastId;
    if (newAggregate) this.lastAggId++;
    cols.time[at] = time;
    cols.price[at] = price;
    cols.qty[at] = qty;
    cols.aggGap[at] = id - this.lastAggId;
    cols.buyerIsMaker[at] = buyerIsMaker ? 1 : 0;
  }

  private grow(): void {
    // Only while under the cap, so the ring has not wrapped yet: the kept trades are in order.
    const old = this.live;
    const next = new TradeColumns(Math.min(this.cap, Math.max(FIRST_CAPACITY, old.capacity * 2)));
    next.time.set(old.time);
    next.price.set(old.price);
    next.qty.set(old.qty);
    next.aggGap.set(old.aggGap);
    next.buyerIsMaker.set(old.buyerIsMaker);
    this.live = next;
  }

  /** Columns and physical index of the last `locate` (fields, not a tuple: folds call it often). */
  private cols: TradeColumns = EMPTY_TRADE_HISTORY.columns;
  private at = 0;

  /** Points `cols`/`at` at kept trade `i` (0 = oldest kept). */
  private locate(i: number): void {
    const h = this.historyKept;
    if (i < h) {
      this.cols = this.history.columns;
      this.at = this.history.count - h + i;
    } else {
      this.cols = this.live;
      this.at = (this.head + i - h) % this.live.capacity;
    }
  }

  time(i: number): number {
    this.locate(i);
    return this.cols.time[this.at]!;
  }

  price(i: number): number {
    this.locate(i);
    return this.cols.price[this.at]!;
  }

  qty(i: number): number {
    this.locate(i);
    return this.cols.qty[this.at]!;
  }

  buyerIsMaker(i: number): boolean {
    this.locate(i);
    return this.cols.buyerIsMaker[this.at] === 1;
  }

  id(i: number): number {
    return this.firstId + i;
  }

  aggId(i: number): number {
    this.locate(i);
    return this.firstId + i - this.cols.aggGap[this.at]!;
  }

  /** Index of the kept trade with this id, or -1. */
  indexOfId(id: number): number {
    const i = id - this.firstId;
    return i >= 0 && i < this.size ? i : -1;
  }

  /** First index whose time is >= `time` (size when none). */
  lowerBoundTime(time: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.time(mid) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose aggregate id is >= `aggId` (size when none). */
  lowerBoundAggId(aggId: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.aggId(mid) < aggId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
