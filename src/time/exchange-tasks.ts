// The exchange's own timed work, as a scheduler task (./scheduler.ts), in the order a stop runs
// it (the order of the old driver tick): timed faults, the counterparty generator, listen-key
// expiry, then the depth batch, so a batch carries the generator's changes of its own instant.

import type { Exchange } from '../core/exchange.ts';
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
}

/**
 * The exchange's timed work as one task (one call per stop instead of four: a generator step
 * every 2 ms is the busiest path of a manual clock). In the order of the old driver tick: timed
 * faults, the generator, listen-key expiry, then a depth batch, due on the grid
 * `origin + k * depth_update_ms` (spec 1.6) when levels changed.
 */
export class ExchangeTask implements TimedTask {
  readonly name = 'exchange: timed faults, counterparty generator, listen-key expiry, depth batch';
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
    let due = core.nextCounterpartyStepAt();
    const fault = host.faults.nextTimedAt() + host.offsetMs();
    if (fault < due) due = fault;
    const expiry = host.listenKeys.nextExpiry();
    if (expiry < due) due = expiry;
    if (!core.depthPending) this.depthDue = Infinity;
    // An instant already answered stays the answer until it runs: no grid instant lies between
    // the time it was asked for and it (and an overdue one stays due).
    else if (this.depthDue === Infinity) this.depthDue = gridAfter(after, this.origin, host.depthUpdateMs);
    return this.depthDue < due ? this.depthDue : due;
  }

  run(now: number): void {
    const host = this.host;
    host.faults.tick(now - host.offsetMs());
    const core = host.core();
    if (core.nextCounterpartyStepAt() <= now) host.publish(core.submit({ type: 'advance', now, maxSteps: host.maxCatchUpSteps }).events);
    if (host.listenKeys.nextExpiry() <= now) {
      const expired = host.listenKeys.expire(now);
      if (expired.length > 0) host.expireListenKeys(expired, now);
    }
    // A change made earlier in this same stop (a generator step at a grid instant) is in this
    // instant's batch, as a tick would have it; otherwise the batch waits for its instant.
    if (now < this.depthDue && (now - this.origin) % host.depthUpdateMs !== 0) return;
    if (!core.depthPending) return;
    this.depthDue = Infinity;
    const batch = core.submit({ type: 'flushDepth', now });
    if (batch.ok) host.publishBatch(batch.value.diffs, batch.value.touches);
  }
}
