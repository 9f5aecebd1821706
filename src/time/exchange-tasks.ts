// The exchange's own timed work, as scheduler tasks (./scheduler.ts), in the order a stop runs
// them (the order of the old driver tick): timed faults, the counterparty generator, listen-key
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

/** A depth batch is due on the grid `origin + k * depth_update_ms` (spec 1.6) when levels changed. */
export class DepthTask implements TimedTask {
  readonly name = 'depth batch';
  private origin: number;
  /** The instant last answered by nextDue and not yet run (Infinity: none). */
  private due = Infinity;

  constructor(
    private readonly host: ExchangeTaskHost,
    origin: number,
  ) {
    this.origin = origin;
  }

  /** The grid starts again at `origin` (start, reset). */
  restart(origin: number): void {
    this.origin = origin;
    this.due = Infinity;
  }

  /** The server clock jumped by `deltaMs` (clock offset): the grid moves with it. */
  shift(deltaMs: number): void {
    this.origin += deltaMs;
    if (this.due !== Infinity) this.due += deltaMs;
  }

  nextDue(after: number): number {
    if (!this.host.core().depthPending) return (this.due = Infinity);
    if (!(this.due <= after)) this.due = gridAfter(after, this.origin, this.host.depthUpdateMs);
    return this.due;
  }

  run(now: number): void {
    const core = this.host.core();
    if (!core.depthPending) return;
    // A change made earlier in this same stop (a generator step at a grid instant) is in this
    // instant's batch, as a tick would have it; otherwise the batch waits for its instant.
    const onGrid = (now - this.origin) % this.host.depthUpdateMs === 0;
    if (!onGrid && now < this.due) return;
    this.due = Infinity;
    const batch = core.submit({ type: 'flushDepth', now });
    if (batch.ok) this.host.publishBatch(batch.value.diffs, batch.value.touches);
  }
}

/** The exchange's tasks, in the order a stop runs them; the depth task is returned to be restarted and shifted. */
export function exchangeTasks(host: ExchangeTaskHost, origin: number): { tasks: TimedTask[]; depth: DepthTask } {
  const depth = new DepthTask(host, origin);
  const faults: TimedTask = {
    name: 'timed faults',
    nextDue: () => host.faults.nextTimedAt() + host.offsetMs(),
    run: (now) => host.faults.tick(now - host.offsetMs()),
  };
  const generator: TimedTask = {
    name: 'counterparty generator',
    nextDue: () => host.core().nextGeneratorStepAt(),
    run: (now) => {
      const core = host.core();
      if (core.nextGeneratorStepAt() > now) return;
      host.publish(core.submit({ type: 'advance', now, maxSteps: host.maxCatchUpSteps }).events);
    },
  };
  const listenKeys: TimedTask = {
    name: 'listen-key expiry',
    nextDue: () => host.listenKeys.nextExpiry(),
    run: (now) => {
      if (host.listenKeys.nextExpiry() > now) return;
      const expired = host.listenKeys.expire(now);
      if (expired.length > 0) host.expireListenKeys(expired, now);
    },
  };
  return { tasks: [faults, generator, listenKeys, depth], depth };
}
