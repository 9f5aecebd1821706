// The replay counterparty (API.md section 12): one replayed symbol's recorded day of public
// trades, printed in file order at their published times, `start + floor((t - from) / speed)`
// on the simulator's clock, with the synthetic book rebuilt around each print. A sibling of the
// generator: it acts only through the counterparty commands any client could send
// (`counterpartyPrint`, `counterpartyRebuild`) and reads nothing of the core's rooms; what a print
// does to the account's resting orders (the fill rule) is the print command's. The rows before
// `from` are the symbol's history (market/replay-history.ts); this prints the rest. The recording
// is shared, read-only, by every core of a simulator: a reset makes a new one of these at `from`.

import type { ReplayConfig } from '../../config/types.ts';
import type { Command, Outcome, ResultOf } from '../commands.ts';
import type { Instrument } from '../markets.ts';
import type { Recording } from '../recording.ts';
import { parseScaled } from '../units.ts';

/** What the replay needs of the exchange: the one entry every client uses. */
export interface ReplayVenue {
  submit<C extends Command>(cmd: C): Outcome<ResultOf<C>>;
}

export class ReplayCounterparty {
  /** The next row to print (count: the recording has ended; the book stays around the last print). */
  private next: number;
  /** The trade id of the last print, whose aggregate the next row may continue (the last history trade's at first). */
  private lastPrintId: number;
  private readonly fromUs: number;
  /** Microseconds of recorded time per published millisecond. */
  private readonly usPerMs: number;
  private readonly levelLots: number;

  constructor(
    private readonly recording: Recording,
    private readonly config: ReplayConfig,
    private readonly instrument: Instrument,
    /** The simulator's start: `from` is published at it. */
    private start: number,
    /** The first row at or after `from` (the rows before it are history) and `from` in µs. */
    live: { readonly index: number; readonly fromUs: number },
  ) {
    this.next = live.index;
    this.fromUs = live.fromUs;
    this.usPerMs = 1000 * config.speed;
    this.levelLots = parseScaled(config.level_qty, instrument.lotDecimals);
    this.lastPrintId = instrument.lastTradeId;
  }

  get symbolIndex(): number {
    return this.instrument.index;
  }

  get depthLevels(): number {
    return this.config.depth_levels;
  }

  get levelQty(): number {
    return this.levelLots;
  }

  /** Builds the synthetic book around the last history print, if there is history. */
  seed(venue: ReplayVenue): void {
    if (this.next > 0) this.rebuild(venue, this.recording.price[this.next - 1]!, this.start);
  }

  /** The published time of the next print; Infinity once the recording has ended. */
  nextPrintAt(): number {
    return this.next < this.recording.count ? this.publishedAt(this.next) : Infinity;
  }

  /**
   * Prints every row whose published time is at or before `now`, each at its own time, then asks
   * for the synthetic book around the last of them. Between the prints of one call nothing can
   * read the book (a print meets only the account's resting orders, and no command comes
   * between), so the book after each print is the book after the last.
   */
  advance(venue: ReplayVenue, now: number): void {
    const rec = this.recording;
    const { price, qty, buyerIsMaker, newAggregate } = rec;
    const symbolIndex = this.instrument.index;
    const fillAtTouch = this.config.fill_at_touch;
    let i = this.next;
    let time = 0;
    for (; i < rec.count; i++) {
      const at = this.publishedAt(i);
      if (at > now) break;
      time = at;
      const joins = newAggregate[i] === 1 ? 0 : this.lastPrintId;
      const printed = venue.submit({ type: 'counterpartyPrint', now: time, symbolIndex, price: price[i]!, lots: qty[i]!, buyerIsMaker: buyerIsMaker[i] === 1, joins, fillAtTouch });
      if (printed.ok) this.lastPrintId = printed.value;
    }
    if (i === this.next) return;
    this.next = i;
    this.rebuild(venue, price[i - 1]!, time);
  }

  /**
   * The recorded time (µs) the rows must be loaded through before `advance(now)`: every row it
   * prints was recorded before it, and the first row at or past it (where the printing stops,
   * and whose time `nextPrintAt` reads) must be loaded too. `publishedAt(i) <= now` exactly when
   * timeUs[i] < fromUs + (now - start + 1) * usPerMs; one published millisecond more covers a
   * speed whose µs per ms is not a whole number (the division and this product may round apart).
   */
  recordedTimeNeeded(now: number): number {
    return this.fromUs + (now - this.start + 2) * this.usPerMs;
  }

  get symbol(): string {
    return this.recording.symbol;
  }

  /** The server clock jumped by `deltaMs` (clock offset): the published times move with it. */
  shiftTime(deltaMs: number): void {
    this.start += deltaMs;
  }

  private publishedAt(i: number): number {
    return this.start + Math.floor((this.recording.timeUs[i]! - this.fromUs) / this.usPerMs);
  }

  private rebuild(venue: ReplayVenue, center: number, now: number): void {
    venue.submit({ type: 'counterpartyRebuild', now, symbolIndex: this.instrument.index, center, levels: this.config.depth_levels, lots: this.levelLots });
  }
}
