// The replayed symbols of one core (API.md section 12), wired beside the generator: each one's
// replay counterparty (counterparty/replay.ts), the synthetic books (book/synthetic-levels.ts),
// and what the counterparty commands do in a replayed symbol: a print fills the account's
// resting orders by the fill rule then prints whole, a rebuild moves the synthetic levels, and
// a scripted order trades only with the account, resting beside the synthetic levels (which
// step back from it). exchange.ts hands these commands here.

import type { Config } from '../config/types.ts';
import type { AccountOrder } from './account/index.ts';
import { crosses, SyntheticLevels, type Matcher, type RestingOrders } from './book/index.ts';
import type { CounterpartyLimit, CounterpartyPrint, CounterpartyRebuild, CounterpartyTake } from './commands.ts';
import { ReplayCounterparty, type ReplayVenue } from './counterparty/index.ts';
import { firstLiveRow, type MarketHistory } from './market/index.ts';
import { apiError, type ApiError } from './errors.ts';
import type { Instrument } from './markets.ts';

/** "Completely": a budget no order reaches. */
const ALL = Number.MAX_SAFE_INTEGER;
const SCRIPTED_CROSS = 'In a replayed symbol a scripted order trades only with the account: this one would cross another scripted order.';

export class Replays {
  private readonly replays: ReplayCounterparty[] = [];
  private readonly synthetic: SyntheticLevels<AccountOrder>;

  constructor(
    config: Config,
    private readonly instruments: readonly Instrument[],
    private readonly matcher: Matcher<AccountOrder>,
    resting: RestingOrders<AccountOrder>,
    history: MarketHistory | undefined,
    startTime: number,
  ) {
    this.synthetic = new SyntheticLevels(instruments, matcher.books, resting, matcher.depth);
    for (const entry of config.sim.replay) {
      const inst = instruments.find((i) => i.symbol === entry.symbol);
      const recording = inst === undefined ? undefined : history?.recordings[inst.index];
      if (inst === undefined || recording === undefined) continue;
      this.synthetic.declare(inst.index);
      this.replays.push(new ReplayCounterparty(recording, entry, inst, startTime, firstLiveRow(recording, entry.from)));
    }
  }

  /** The replayed symbols' instrument indexes (the generator leaves them alone). */
  get symbolIndexes(): ReadonlySet<number> {
    return new Set(this.replays.map((r) => r.symbolIndex));
  }

  isReplayed(symbolIndex: number): boolean {
    return this.synthetic.has(symbolIndex);
  }

  /** At start: each synthetic book around its last history print, then every print due at `now`. */
  seed(venue: ReplayVenue, now: number): void {
    for (const r of this.replays) r.seed(venue);
    this.advance(venue, now);
  }

  /** The published time of the next print of any replayed symbol (Infinity: none left). */
  nextPrintAt(): number {
    let next = Infinity;
    for (const r of this.replays) {
      const at = r.nextPrintAt();
      if (at < next) next = at;
    }
    return next;
  }

  /** Per replayed symbol, the recorded time (µs) its rows must be loaded through before `advance(now)`. */
  recordedTimeNeeded(now: number): { symbol: string; throughUs: number }[] {
    return this.replays.map((r) => ({ symbol: r.symbol, throughUs: r.recordedTimeNeeded(now) }));
  }

  /** Every print due at or before `now`, in published-time order across the symbols. */
  advance(venue: ReplayVenue, now: number): void {
    const replays = this.replays;
    if (replays.length === 1) return replays[0]!.advance(venue, now);
    for (;;) {
      let first: ReplayCounterparty | undefined;
      let at = Infinity;
      for (const r of replays) {
        const next = r.nextPrintAt();
        if (next < at) [first, at] = [r, next];
      }
      if (first === undefined || at > now) return;
      first.advance(venue, at);
    }
  }

  shiftTime(deltaMs: number): void {
    for (const r of this.replays) r.shiftTime(deltaMs);
  }

  /** A recorded print: the fill rule on the account's resting orders, then the print, whole; its trade id. */
  print(cmd: CounterpartyPrint): number {
    const inst = this.instruments[cmd.symbolIndex]!;
    const { price, now } = cmd;
    if (inst.accountOpenOrders > 0) {
      // Through: the account's BUYs above the print and SELLs below it, completely, at their prices.
      this.matcher.fillAccountMakers(inst, 'SELL', price + 1, ALL, now);
      this.matcher.fillAccountMakers(inst, 'BUY', price - 1, ALL, now);
      // At the touch (fill_at_touch): the side the print's taker hit, sharing the print's quantity.
      if (cmd.fillAtTouch) this.matcher.fillAccountMakers(inst, cmd.buyerIsMaker ? 'SELL' : 'BUY', price, cmd.lots, now);
    }
    // A trades file's row continues its aggregate only when nothing printed since the row before.
    const joins = cmd.joins !== 0 && cmd.joins === inst.lastTradeId;
    return this.matcher.print(inst, price, cmd.lots, cmd.buyerIsMaker, now, !joins);
  }

  rebuild(cmd: CounterpartyRebuild): null {
    this.synthetic.rebuild(cmd.symbolIndex, cmd.center, cmd.levels, cmd.lots);
    return null;
  }

  /**
   * The synthetic book around `cmd`'s print, owed from now: the stops that print triggered are
   * about to trade, and they meet the book as it stands after this print (the rebuild `advance`
   * asks for comes only after its last print).
   */
  rebuildAround(cmd: CounterpartyPrint): void {
    const replay = this.replays.find((r) => r.symbolIndex === cmd.symbolIndex);
    if (replay !== undefined) this.synthetic.rebuild(cmd.symbolIndex, cmd.price, replay.depthLevels, replay.levelQty);
  }

  /** Whether a synthetic book owes a rebuild (made when something looks at the book: `settle`). */
  get bookOwed(): boolean {
    return this.synthetic.owed;
  }

  /** Makes the rebuilds owed, before anything reads or changes a replayed symbol's book. */
  settle(): void {
    this.synthetic.settle();
  }

  /**
   * A scripted limit order in a replayed symbol: it takes from the account's orders only, then
   * rests; its book key or 0. One that would cross another scripted order is refused: it may
   * not trade with it, and resting through it would cross the book.
   */
  scriptedLimit(cmd: CounterpartyLimit): number | ApiError {
    const inst = this.instruments[cmd.symbolIndex]!;
    const other = this.synthetic.bestScripted(cmd.symbolIndex, cmd.side === 'BUY' ? 'SELL' : 'BUY');
    if (other !== undefined && crosses(cmd.side, cmd.price, other)) return apiError('ORDER_REJECTED', SCRIPTED_CROSS);
    const left = cmd.lots - this.matcher.fillAccountMakers(inst, cmd.side, cmd.price, cmd.lots, cmd.now);
    if (left === 0) return 0;
    this.synthetic.stepBack(cmd.symbolIndex, cmd.side, cmd.price);
    return this.matcher.restCounterparty(inst, cmd.side, cmd.price, left, cmd.scripted === true);
  }

  /** A scripted IOC, FOK or MARKET order in a replayed symbol: it takes from the account's orders only. */
  scriptedTake(cmd: CounterpartyTake): null {
    this.matcher.fillAccountMakers(this.instruments[cmd.symbolIndex]!, cmd.side, cmd.price, cmd.lots, cmd.now);
    return null;
  }
}
