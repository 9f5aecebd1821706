// The exchange's own timed work, as a scheduler task (./scheduler.ts), in the order a stop runs
// it (the order of the old driver tick): timed faults, the counterparty generator and the
// replayed symbols' prints, listen-key expiry, then the depth batch, so a batch carries the
// counterparty's changes of its own instant.

import type { Exchange } from '../core/exchange.ts';
import { openOrderCount } from '../core/queries.ts';
import type { CoreEvent, DepthDiff, Touch } from '../core/types.ts';
import { gridAfter, type TimedTask } from './scheduler.ts';

/** What the tasks act on (wired at the composition root, src/simulator.ts). */
export interface ExchangeTaskHost {
  /** The current core (a reset puts a fresh one in). */
  core(): Exchange;
  /** Server time minus the clock offset: the time timed faults are scheduled on. */
  offsetMs(): number;
  publish(events: readonly CoreEvent[]): void;
  publishBatch(diffs: readonly DepthDiff[], touches: readonly Touch[]): void;
  /** Timed faults (`[sim.faults]`), on server time without the offset. */
  readonly faults: { nextTimedAt(): number; tick(baseNow: number): void };
  readonly listenKeys: { nextExpiry(): number; expire(now: number): string[] };
  /** Sends `listenKeyExpired` to the streams of these keys and ends them. */
  expireListenKeys(keys: readonly string[], now: number): void;
  readonly depthUpdateMs: number;
  /**
   * Generator steps one stop may run: Infinity on a manual clock (it stops at every step); on the
   * wall clock a long stall (a suspended laptop) is skipped, not replayed.
   */
  readonly maxCatchUpSteps: number;
  /**
   * A manual clock: a replayed print may wait for the next depth instant (see `nextDue`), and
   * whoever moves the clock calls `settle` at the end of each move.
   */
  readonly deferPrints: boolean;
  /**
   * Whether anyone follows the books' changes (a depth or bookTicker stream, flushed depth
   * snapshots): a replayed book owing a rebuild is then rebuilt and published at depth instants.
   */
  depthFollowed(): boolean;
  /** Loads the replayed rows an `advance` to `now` may print (a recording read from the cache fills as the replay goes). */
  loadRecorded(now: number): void;
}

/**
 * The exchange's timed work as one task (one call per stop instead of four: a generator step
 * every 2 ms is the busiest path of a manual clock). In the order of the old driver tick: timed
 * faults, the generator, listen-key expiry, then a depth batch, due on the grid
 * `origin + k * depth_update_ms` (spec 1.6) when levels changed.
 */
export class ExchangeTask implements TimedTask {
  readonly name = 'exchange: timed faults, counterparty generator and replayed prints, listen-key expiry, depth batch';
  private origin: number;
  /** The depth instant last answered by nextDue and not yet run (Infinity: none). */
  private depthDue = Infinity;

  constructor(
    private readonly host: ExchangeTaskHost,
    origin: number,
  ) {
    this.origin = origin;
  }

  /** The depth grid starts again at `origin` (start, reset). */
  restart(origin: number): void {
    this.origin = origin;
    this.depthDue = Infinity;
  }

  /** The server clock jumped by `deltaMs` (clock offset): the depth grid moves with it. */
  shift(deltaMs: number): void {
    this.origin += deltaMs;
    if (this.depthDue !== Infinity) this.depthDue += deltaMs;
  }

  nextDue(after: number): number {
    const host = this.host;
    const core = host.core();
    let due = core.nextGeneratorStepAt();
    const fault = host.faults.nextTimedAt() + host.offsetMs();
    if (fault < due) due = fault;
    const expiry = host.listenKeys.nextExpiry();
    if (expiry < due) due = expiry;
    const print = core.nextPrintAt();
    if (print < due) due = this.deferredPrint(print, due);
    if (!this.depthOwed(core)) this.depthDue = Infinity;
    // An instant already answered stays the answer until it runs: no grid instant lies between
    // the time it was asked for and it (and an overdue one stays due).
    else if (this.depthDue === Infinity) this.depthDue = gridAfter(after, this.origin, host.depthUpdateMs);
    return this.depthDue < due ? this.depthDue : due;
  }

  /**
   * When to run the prints due from `print` on, the rest of this task being due at `others`. On a
   * manual clock nothing can see a print between depth instants but this task and the tasks
   * after it, whose every stop runs this one first (and with it every print due by then), so the
   * prints wait for the next depth instant when nothing of this task comes before it: one stop
   * and one rebuild per depth batch, not per print (issue 35's replay speed). Not while the
   * account has an open order: a print may fill it, and its balance update is the print's
   * instant's. The clock's move ends with `settle`, which runs what is due by then.
   */
  private deferredPrint(print: number, others: number): number {
    if (!this.host.deferPrints || openOrderCount(this.host.core().state) > 0) return print;
    const depthInstant = gridAfter(print - 1, this.origin, this.host.depthUpdateMs);
    return depthInstant < others ? depthInstant : print;
  }

  /** Level changes to publish, or a replayed book's rebuild that someone follows. */
  private depthOwed(core: Exchange): boolean {
    return core.depthPending || (core.bookRebuildOwed && this.host.depthFollowed());
  }

  /** The end of a manual clock's move: the prints due by `now` that waited for a later depth instant. */
  settle(now: number): void {
    const core = this.host.core();
    if (core.nextPrintAt() > now) return;
    this.host.loadRecorded(now);
    this.host.publish(core.submit({ type: 'advance', now, maxSteps: this.host.maxCatchUpSteps }).events);
  }

  run(now: number): void {
    const host = this.host;
    host.faults.tick(now - host.offsetMs());
    const core = host.core();
    const printsDue = core.nextPrintAt() <= now;
    if (printsDue) host.loadRecorded(now);
    if (printsDue || core.nextGeneratorStepAt() <= now) host.publish(core.submit({ type: 'advance', now, maxSteps: host.maxCatchUpSteps }).events);
    if (host.listenKeys.nextExpiry() <= now) {
      const expired = host.listenKeys.expire(now);
      if (expired.length > 0) host.expireListenKeys(expired, now);
    }
    // A change made earlier in this same stop (a generator step at a grid instant) is in this
    // instant's batch, as a tick would have it; otherwise the batch waits for its instant.
    if (now < this.depthDue && (now - this.origin) % host.depthUpdateMs !== 0) return;
    if (!this.depthOwed(core)) return;
    this.depthDue = Infinity;
    const batch = core.submit({ type: 'flushDepth', now });
    if (batch.ok) host.publishBatch(batch.value.diffs, batch.value.touches);
  }
}
