// One symbol's public trades, oldest first, in compact typed columns (API.md section 9): the
// immutable history (shared by every core of a simulator, never copied) followed by the live
// trades in fixed-size chunks of rows, allocated as trades arrive (never copied: the order path
// writes one 32-byte row in sequence) and recycled when the oldest chunk leaves. Together they keep at
// most that many trades: live trades push the oldest history out first, then the oldest live
// ones. Trade ids are one contiguous per-symbol sequence (history starts at 1; the matcher
// numbers live ones after it), so a trade's id is its position plus the first kept id.
// Appending is a handful of array writes: the order path pays nothing for the queries.

import { MINUTE_MS } from './kline-time.ts';
import type { MinuteBars } from './minute-bars.ts';

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

const EMPTY_ROW = new Float64Array(0);

/** Live trades are rows of ROW numbers: time, price, qty, and aggGap * 2 + buyerIsMaker. */
const ROW = 4;
const FLAGS = 3;

export class TradeTape {
  /** Chunks of live rows, oldest first; `start`: the oldest kept live trade's slot in chunk 0. */
  private chunks: Float64Array[] = [];
  private start = 0;
  /** The newest chunk and the offset of its next free row. */
  private tail: Float64Array = EMPTY_ROW;
  private tailAt = 0;
  /** A chunk that left, reused for the next one (no allocation at steady state). */
  private spare: Float64Array | null = null;
  /** Trades per chunk (a power of two: 2^shift, at most 4096 and no more than the cap needs). */
  private readonly shift: number;
  private readonly mask: number;
  /** Live trades kept (at most `cap`). */
  private liveCount = 0;
  /** Live trades ever appended (the market data folds minute bars up to a count of these). */
  private appendedCount = 0;
  /** Id of the latest trade / aggregate (history's last before any live one). */
  lastId: number;
  lastAggId: number;

  constructor(
    private readonly history: TradeHistory,
    private readonly cap: number,
  ) {
    this.shift = Math.max(4, Math.min(12, Math.ceil(Math.log2(cap))));
    this.mask = (1 << this.shift) - 1;
    this.lastId = history.idsBefore + history.count;
    this.lastAggId = history.lastAggId;
  }

  /** History trades still kept (live ones push the oldest out). */
  private get historyKept(): number {
    return Math.max(0, Math.min(this.history.count, this.cap - this.appendedCount));
  }

  /** Trades kept. */
  get size(): number {
    return this.historyKept + this.liveCount;
  }

  /** Id of the oldest kept trade (ids are contiguous). */
  get firstId(): number {
    return this.lastId - this.size + 1;
  }

  /** Live trades ever appended (the market data folds minute bars up to a count of these). */
  get appended(): number {
    return this.appendedCount;
  }

  /**
   * Appends one trade with id `lastId + 1`. `newAggregate`: it starts a new aggregate (a new
   * taker order, or another price of the same one).
   */
  append(time: number, price: number, qty: number, buyerIsMaker: boolean, newAggregate: boolean): void {
    let at = this.tailAt;
    if (at === this.tail.length) at = this.openChunk();
    const row = this.tail;
    const id = ++this.lastId;
    if (newAggregate) this.lastAggId++;
    row[at] = time;
    row[at + 1] = price;
    row[at + 2] = qty;
    row[at + FLAGS] = (id - this.lastAggId) * 2 + (buyerIsMaker ? 1 : 0);
    this.tailAt = at + ROW;
    this.appendedCount++;
    if (this.liveCount < this.cap) this.liveCount++;
    else if (++this.start > this.mask) {
      // The oldest chunk has no kept trade left: it becomes the next one.
      this.spare = this.chunks.shift()!;
      this.start = 0;
    }
  }

  /** Starts the next chunk (the spare one when a chunk left); its first row's offset. */
  private openChunk(): number {
    this.tail = this.spare ?? new Float64Array(ROW << this.shift);
    this.spare = null;
    this.chunks.push(this.tail);
    this.tailAt = 0;
    return 0;
  }

  /**
   * Folds the live trades appended as number `fromAppended` (0-based) on into `bars`, oldest
   * first; each must still be kept. One tight loop over the rows: the fold of a whole tape of
   * trades costs a few nanoseconds a trade.
   */
  foldLiveSince(fromAppended: number, bars: MinuteBars): void {
    const skip = fromAppended - (this.appendedCount - this.liveCount);
    if (skip < 0) throw new RangeError('trades already overwritten');
    let id = this.lastId - (this.appendedCount - fromAppended) + 1;
    // Times are past 2^31, so `%` is a floating-point remainder: computed once per minute.
    let minute = NaN;
    let minuteEnd = NaN;
    const end = this.start + this.liveCount;
    for (let k = this.start + skip; k < end; k++) {
      const row = this.chunks[k >>> this.shift]!;
      const at = (k & this.mask) * ROW;
      const time = row[at]!;
      if (!(time >= minute && time < minuteEnd)) {
        minute = time - (((time % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
        minuteEnd = minute + MINUTE_MS;
      }
      bars.addTrade(minute, row[at + 1]!, row[at + 2]!, (row[at + FLAGS]! & 1) === 0, id++);
    }
  }

  /** Kept trade `i` (0 = oldest kept) is history's: its index there; else -1 and `row`/`at` point at it. */
  private row: Float64Array = EMPTY_ROW;
  private at = 0;

  private locate(i: number): number {
    const h = this.historyKept;
    if (i < h) return this.history.count - h + i;
    const k = this.start + i - h;
    this.row = this.chunks[k >>> this.shift]!;
    this.at = (k & this.mask) * ROW;
    return -1;
  }

  time(i: number): number {
    const j = this.locate(i);
    return j >= 0 ? this.history.columns.time[j]! : this.row[this.at]!;
  }

  price(i: number): number {
    const j = this.locate(i);
    return j >= 0 ? this.history.columns.price[j]! : this.row[this.at + 1]!;
  }

  qty(i: number): number {
    const j = this.locate(i);
    return j >= 0 ? this.history.columns.qty[j]! : this.row[this.at + 2]!;
  }

  buyerIsMaker(i: number): boolean {
    const j = this.locate(i);
    return j >= 0 ? this.history.columns.buyerIsMaker[j] === 1 : (this.row[this.at + FLAGS]! & 1) === 1;
  }

  id(i: number): number {
    return this.firstId + i;
  }

  aggId(i: number): number {
    const j = this.locate(i);
    const gap = j >= 0 ? this.history.columns.aggGap[j]! : Math.floor(this.row[this.at + FLAGS]! / 2);
    return this.firstId + i - gap;
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
