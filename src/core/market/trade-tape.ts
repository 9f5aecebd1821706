// One symbol's public trades, oldest first, in compact typed columns (API.md section 9): the
// immutable history (shared by every core of a simulator, never copied) followed by the live
// trades in fixed-size chunks of rows, allocated as trades arrive (never copied: the order path
// writes one 32-byte row in sequence and nothing else) and recycled when the oldest chunk
// leaves. Together they keep at most `cap` trades: live trades push the oldest history out
// first, then the oldest live ones. Trade ids are one contiguous per-symbol sequence (history
// starts at 1; the matcher numbers live ones after it), so a trade's id is its position plus
// the first kept id.

import { MINUTE_MS } from './kline-time.ts';
import { MinuteBars } from './minute-bars.ts';
import { lowerBound } from '../lower-bound.ts';

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

/** The minute bars of a history's trades (built once, when something first reads candles). */
export function barsOfTrades(h: TradeHistory): MinuteBars {
  const bars = new MinuteBars(Math.min(h.count, 4096));
  const c = h.columns;
  for (let i = 0; i < h.count; i++) {
    const time = c.time[i]!;
    const price = c.price[i]!;
    const qty = c.qty[i]!;
    const quote = price * qty;
    const takerBuys = c.buyerIsMaker[i] === 0;
    const id = h.idsBefore + i + 1;
    bars.add(time - (((time % MINUTE_MS) + MINUTE_MS) % MINUTE_MS), price, price, price, price, qty, quote, takerBuys ? qty : 0, takerBuys ? quote : 0, id, id);
  }
  return bars;
}

const EMPTY_ROW = new Float64Array(0);

/**
 * Live trades are rows of ROW numbers: time, price, qty, flags. The order path writes a row and
 * nothing else (flags: 2 if it starts an aggregate, + 1 if the buyer is the maker); `settle`
 * turns the flags into aggGap * 2 + buyerIsMaker and keeps times in order, a chunk at a time or
 * before a read. Numbering each trade as it came and folding minute bars every 1024 trades on
 * the order path cost 3-6 % of the engine bench's ops (bench:ab against this design).
 */
const ROW = 4;
const FLAGS = 3;
const NEW_AGGREGATE = 2;

export class TradeTape {
  /** Chunks of live rows, oldest first (chunk number k holds live trades k * size ...). */
  private chunks: Float64Array[] = [];
  /** The chunk number of chunks[0]. */
  private firstChunk = 0;
  /** The newest chunk, the offset of its next free row, and the number of its first trade. */
  private tail: Float64Array = EMPTY_ROW;
  private tailAt = 0;
  private tailFirst = 0;
  /** A chunk that left, reused for the next one (no allocation at steady state). */
  private spare: Float64Array | null = null;
  /** Trades per chunk (a power of two: 2^shift, at most 4096 and no more than the cap needs). */
  private readonly shift: number;
  private readonly mask: number;
  /** Live trades settled (flags numbered, times in order), and the state after the last one. */
  private settled = 0;
  private settledAggId: number;
  private settledTime = -Infinity;
  /** Id of the last trade before any live one (history's). */
  private readonly idsBefore: number;

  constructor(
    private readonly history: TradeHistory,
    private readonly cap: number,
    /** Told before the live trades numbered below `upTo` (0-based) leave: fold them now. */
    private readonly beforeLeave: (upTo: number) => void,
  ) {
    this.shift = Math.max(4, Math.min(12, Math.ceil(Math.log2(cap))));
    this.mask = (1 << this.shift) - 1;
    this.idsBefore = history.idsBefore + history.count;
    this.settledAggId = history.lastAggId;
  }

  /** Live trades ever appended (the market data folds minute bars up to a count of these). */
  get appended(): number {
    return this.tailFirst + this.tailAt / ROW;
  }

  /** Live trades kept (at most `cap`). */
  private get liveCount(): number {
    return Math.min(this.appended, this.cap);
  }

  /** History trades still kept (live ones push the oldest out). */
  private get historyKept(): number {
    return Math.max(0, Math.min(this.history.count, this.cap - this.appended));
  }

  /** Trades kept. */
  get size(): number {
    return this.historyKept + this.liveCount;
  }

  /** Id of the latest trade (history's last before any live one); 0: none ever. */
  get lastId(): number {
    return this.idsBefore + this.appended;
  }

  /** Id of the latest aggregate trade. */
  get lastAggId(): number {
    this.settle();
    return this.settledAggId;
  }

  /** Id of the oldest kept trade (ids are contiguous). */
  get firstId(): number {
    return this.lastId - this.size + 1;
  }

  /**
   * Appends one trade with id `lastId + 1`. `newAggregate`: it starts a new aggregate (a new
   * taker order, or another price of the same one). A time before the previous trade's is kept
   * as that time (a clock-offset fault can move time back; the tape stays in time order).
   */
  append(time: number, price: number, qty: number, buyerIsMaker: boolean, newAggregate: boolean): void {
    let at = this.tailAt;
    if (at === this.tail.length) at = this.openChunk();
    const row = this.tail;
    row[at] = time;
    row[at + 1] = price;
    row[at + 2] = qty;
    row[at + FLAGS] = (newAggregate ? NEW_AGGREGATE : 0) + (buyerIsMaker ? 1 : 0);
    this.tailAt = at + ROW;
  }

  /**
   * Starts the next chunk; its first row's offset. The chunks whose trades all fall out of the
   * cap with this append leave (told first), the last of them becoming the new chunk.
   */
  private openChunk(): number {
    this.settle();
    const appended = this.appended;
    const size = this.mask + 1;
    // Chunk number k holds the trades numbered k * size to (k + 1) * size - 1.
    const firstKept = appended + 1 - this.cap;
    let leaving = 0;
    while (leaving < this.chunks.length && (this.firstChunk + leaving + 1) * size <= firstKept) leaving++;
    if (leaving > 0) {
      this.beforeLeave((this.firstChunk + leaving) * size);
      this.spare = this.chunks.splice(0, leaving)[leaving - 1]!;
      this.firstChunk += leaving;
    }
    const tail = this.spare ?? new Float64Array(ROW << this.shift);
    this.spare = null;
    if (this.chunks.length === 0) this.firstChunk = appended / size;
    this.chunks.push(tail);
    this.tail = tail;
    this.tailFirst = appended;
    this.tailAt = 0;
    return 0;
  }

  /**
   * Numbers the aggregates of the trades appended since the last call and keeps times in order:
   * a chunk at a time, the gap (trade id - aggregate id) growing by one for each trade that
   * does not start an aggregate.
   */
  private settle(): void {
    const end = this.appended;
    let k = this.settled;
    if (k === end) return;
    let gap = this.idsBefore + k - this.settledAggId;
    let time = this.settledTime;
    const size = this.mask + 1;
    while (k < end) {
      const inChunk = k & this.mask;
      const count = Math.min(end - k, size - inChunk);
      const row = this.chunks[(k - inChunk) / size - this.firstChunk]!;
      for (let at = inChunk * ROW, stop = at + count * ROW; at < stop; at += ROW) {
        const t = row[at]!;
        if (t < time) row[at] = time;
        else time = t;
        const flags = row[at + FLAGS]!;
        if (flags < NEW_AGGREGATE) gap++;
        row[at + FLAGS] = gap * 2 + (flags & 1);
      }
      k += count;
    }
    this.settled = end;
    this.settledAggId = this.idsBefore + end - gap;
    this.settledTime = time;
  }

  /**
   * Folds the live trades numbered `fromAppended` to `end` - 1 (0-based) into `bars`, oldest
   * first; their chunk must still be here. One tight loop over the rows: the fold of a whole
   * tape of trades costs a few nanoseconds a trade.
   */
  foldLiveSince(fromAppended: number, end: number, bars: MinuteBars): void {
    if (fromAppended < this.firstChunk * (this.mask + 1)) throw new RangeError('trades already overwritten');
    this.settle();
    let id = this.idsBefore + fromAppended + 1;
    // Times are past 2^31, so `%` is a floating-point remainder: computed once per minute.
    let minute = NaN;
    let minuteEnd = NaN;
    for (let k = fromAppended; k < end; k++) {
      const row = this.chunks[(k >>> this.shift) - this.firstChunk]!;
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
    this.settle();
    const k = this.appended - this.liveCount + i - h;
    this.row = this.chunks[(k >>> this.shift) - this.firstChunk]!;
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
    return lowerBound(this.size, (i) => this.time(i), time);
  }

  /** First index whose aggregate id is >= `aggId` (size when none). */
  lowerBoundAggId(aggId: number): number {
    return lowerBound(this.size, (i) => this.aggId(i), aggId);
  }
}
