// Collects one symbol's level changes between publications and yields one diff per batch
// (spec 6.1): U..u span the batch's update ids, each touched level carries its final quantity
// (0 = deleted). It also keeps the book as last published, for `flushed` snapshots (spec 2.8):
// each level's quantity at its last batch (Level.publishedQty), so the published book is the
// live one but for the levels of the pending batch; and the last published touch, so bookTicker
// is sent only when the touch changed (spec 4.2).

import type { BookSide, Level, SymbolBook } from './book.ts';
import type { DepthDiff, DepthSnapshot, Side, Touch } from '../types.ts';

export class DepthAggregator {
  /**
   * The levels changed in the pending batch, each once: a level notes the batch it joined
   * (Level.notedInBatch), so a change to one already noted costs one comparison (a Set of
   * prices cost a tenth of the engine bench's time). An emptied level stays the level of its
   * price until this flush publishes it (BookSide.dropIfEmpty), so no price is noted twice.
   */
  private readonly touchedBids: Level[] = [];
  private readonly touchedAsks: Level[] = [];
  /** Numbers the batches from 1 (a new Level has 0). */
  private batch = 1;
  /** First update id of the pending batch; 0 when nothing is pending. */
  private firstPending = 0;
  private lastPending = 0;
  /** `lastUpdateId` of the book as last published. */
  publishedUpdateId = 0;
  private publishedTouch: Touch | null = null;
  private skipNext = false;

  constructor(
    readonly symbol: string,
    private readonly book: SymbolBook,
  ) {}

  /** `level`'s quantity changed (it may have just emptied). */
  record(side: Side, level: Level, updateId: number): void {
    if (level.notedInBatch !== this.batch) {
      level.notedInBatch = this.batch;
      (side === 'BUY' ? this.touchedBids : this.touchedAsks).push(level);
    }
    if (this.firstPending === 0) this.firstPending = updateId;
    this.lastPending = updateId;
  }

  get hasPending(): boolean {
    return this.firstPending !== 0;
  }

  /** The next flush updates the published book but does not return its diff (a gap). */
  skipNextDiff(skip = true): void {
    this.skipNext = skip;
  }

  /** Publishes the pending batch: returns its diff (or null: nothing pending, or skipped). */
  flush(eventTime: number): DepthDiff | null {
    if (this.firstPending === 0) return null;
    const diff = this.publishPending(eventTime);
    if (this.skipNext) {
      this.skipNext = false;
      return null;
    }
    return diff;
  }

  private publishPending(eventTime: number): DepthDiff {
    const bids = publish(this.touchedBids.sort(byPriceDescending), this.book.bids);
    const asks = publish(this.touchedAsks.sort(byPriceAscending), this.book.asks);
    this.batch++;
    const diff: DepthDiff = {
      symbol: this.symbol,
      eventTime,
      firstUpdateId: this.firstPending,
      lastUpdateId: this.lastPending,
      bids,
      asks,
    };
    this.publishedUpdateId = this.lastPending;
    this.firstPending = this.lastPending = 0;
    return diff;
  }

  /**
   * Right after a flush the published book equals the live one (every change since the last
   * publication was touched), so the live touch is the published touch. Returns it if it
   * changed since the previous call.
   */
  touchIfChanged(): Touch | null {
    const touch = this.touch(this.publishedUpdateId);
    const last = this.publishedTouch;
    if (
      last !== null &&
      last.bidPrice === touch.bidPrice &&
      last.bidQty === touch.bidQty &&
      last.askPrice === touch.askPrice &&
      last.askQty === touch.askQty
    ) {
      return null;
    }
    this.publishedTouch = touch;
    return touch;
  }

  /** The live touch (REST bookTicker); zeros for an empty side. */
  touch(updateId: number): Touch {
    const bid = this.book.bids.best();
    const ask = this.book.asks.best();
    return {
      symbol: this.symbol,
      updateId,
      bidPrice: bid?.price ?? 0,
      bidQty: bid?.qty ?? 0,
      askPrice: ask?.price ?? 0,
      askQty: ask?.qty ?? 0,
    };
  }

  /** The book as last published, best `limit` levels per side (spec 2.8 `flushed`). */
  publishedSnapshot(limit: number): DepthSnapshot {
    return {
      lastUpdateId: this.publishedUpdateId,
      bids: this.published(this.book.bids, this.touchedBids).sort((a, b) => b[0] - a[0]).slice(0, limit),
      asks: this.published(this.book.asks, this.touchedAsks).sort((a, b) => a[0] - b[0]).slice(0, limit),
    };
  }

  /**
   * One side as last published: the live levels at their quantities, but those of the pending
   * batch (`touched`, emptied ones included) at their quantities of the last batch.
   */
  private published(side: BookSide, touched: readonly Level[]): [number, number][] {
    const out: [number, number][] = [];
    for (const level of side.levels) if (level.notedInBatch !== this.batch) out.push([level.price, level.qty]);
    for (const level of touched) if (level.publishedQty > 0) out.push([level.price, level.publishedQty]);
    return out;
  }

  /** Marks the live book as published without emitting a diff (the state at start). */
  publishSilently(): void {
    if (this.firstPending !== 0) this.publishPending(0);
    this.publishedTouch = this.touch(this.publishedUpdateId);
  }
}

/**
 * The changed levels' quantities now (0: emptied), in the given order, now their published ones.
 * (A Map of published levels kept beside the book cost a quarter of a replayed print: issue 35.)
 */
function publish(touched: Level[], side: BookSide): [number, number][] {
  const out: [number, number][] = new Array(touched.length);
  for (let i = 0; i < touched.length; i++) {
    const level = touched[i]!;
    const qty = level.qty; // 0 once its last order left
    out[i] = [level.price, qty];
    level.publishedQty = qty;
    if (qty === 0) side.dropIfEmpty(level);
  }
  touched.length = 0;
  return out;
}

const byPriceAscending = (a: Level, b: Level): number => a.price - b.price;
const byPriceDescending = (a: Level, b: Level): number => b.price - a.price;
