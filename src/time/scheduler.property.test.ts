// Jumping publishes exactly what ticking would (issue: one scheduler for time). Two copies of the
// same world (seed, configuration, generator, listen keys, timed faults) go through the same
// random story of advances and commands made between them: one on the scheduler, which stops
// only where something is due, the other on a reference driver that ticks every millisecond the
// way the old driver did (timed faults, generator, listen-key expiry, then a depth batch when
// `depth_update_ms` has passed since the last). What they publish (events with their times and
// ids, depth batches with U/u and times, touches, expiries, faults fired) must be identical.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { resolveConfig } from '../config/index.ts';
import { ManualClock } from '../core/clock.ts';
import { Exchange } from '../core/exchange.ts';
import { ListenKeys } from '../api/listen-keys.ts';
import { T0, toJson } from '../core/test-support.ts';
import { Scheduler } from './scheduler.ts';
import { ExchangeTask } from './exchange-tasks.ts';

interface Story {
  readonly seed: number;
  readonly generator: boolean;
  readonly stepMs: number;
  readonly depthMs: number;
  readonly validityMs: number;
  readonly faultTimes: readonly number[];
  readonly steps: readonly ({ kind: 'advance'; ms: number } | { kind: 'order'; symbol: number; side: 'BUY' | 'SELL'; offset: number; lots: number } | { kind: 'listenKey' })[];
}

/** One copy of the world, with a log of everything it publishes. */
function world(story: Story) {
  const config = resolveConfig({
    sim: {
      seed: story.seed,
      driver_tick_ms: story.stepMs,
      depth_update_ms: story.depthMs,
      generator: { enabled: story.generator, touch_offset_ticks: 20, depth_spread_ticks: 30, level_spacing_ticks: 1, market_rate_per_s: 40, limit_rate_per_s: 40 },
    },
  });
  const clock = new ManualClock(T0);
  const core = new Exchange(config, T0);
  const log: string[] = [];
  // listen keys are random strings: the log names them by creation order
  const names = new Map<string, number>();
  const listenKeys = new ListenKeys(story.validityMs);
  const timed = [...story.faultTimes].sort((a, b) => a - b).map((t) => T0 + t);
  const faults = {
    nextTimedAt: () => timed[0] ?? Infinity,
    tick: (now: number) => {
      while (timed.length > 0 && timed[0]! <= now) log.push(`fault ${timed.shift()} at ${now}`);
    },
  };
  const host = {
    core: () => core,
    offsetMs: () => 0,
    publish: (events: readonly unknown[]) => {
      if (events.length > 0) log.push(`events at ${clock.now()} ${toJson(events)}`);
    },
    publishBatch: (diffs: readonly unknown[], touches: readonly unknown[]) => {
      if (diffs.length > 0 || touches.length > 0) log.push(`batch at ${clock.now()} ${toJson({ diffs, touches })}`);
    },
    faults,
    listenKeys,
    expireListenKeys: (keys: readonly string[], now: number) => log.push(`expired ${keys.map((k) => names.get(k)).join(',')} at ${now}`),
    depthUpdateMs: story.depthMs,
    maxCatchUpSteps: Infinity,
    deferPrints: false,
    depthFollowed: () => true,
    loadRecorded: () => undefined, // recordings built in memory hold every row
  };
  const command = (step: Story['steps'][number]) => {
    const now = clock.now();
    if (step.kind === 'listenKey') {
      const key = listenKeys.create(now);
      if (!names.has(key)) names.set(key, names.size + 1);
      return;
    }
    if (step.kind === 'order') {
      const inst = core.instruments[step.symbol % core.instruments.length]!;
      const mid = core.state.latentMid(inst.index);
      const price = Math.max(1, step.side === 'BUY' ? mid - step.offset : mid + step.offset);
      const out = core.submit({ type: 'place', now, symbolIndex: inst.index, side: step.side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: step.lots, clientOrderId: null });
      host.publish(out.events);
    }
  };
  return { clock, core, log, host, command, listenKeys, faults };
}

/** The scheduler: one jump per advance. */
function jumping(story: Story): string[] {
  const w = world(story);
  const scheduler = new Scheduler();
  scheduler.register(new ExchangeTask(w.host, T0));
  for (const step of story.steps) {
    if (step.kind === 'advance') scheduler.advance(w.clock, step.ms);
    else w.command(step);
  }
  return w.log;
}

/** The reference: the old driver's tick, every millisecond. */
function ticking(story: Story): string[] {
  const w = world(story);
  let lastFlush = T0;
  const tick = () => {
    const now = w.clock.now();
    w.faults.tick(now);
    w.host.publish(w.core.submit({ type: 'advance', now, maxSteps: Infinity }).events);
    const expired = w.listenKeys.expire(now);
    if (expired.length > 0) w.host.expireListenKeys(expired, now);
    if (now - lastFlush >= story.depthMs) {
      lastFlush = now;
      const batch = w.core.submit({ type: 'flushDepth', now });
      if (batch.ok) w.host.publishBatch(batch.value.diffs, batch.value.touches);
    }
  };
  for (const step of story.steps) {
    if (step.kind !== 'advance') {
      w.command(step);
      continue;
    }
    for (let left = step.ms; left > 0; left--) {
      w.clock.advance(1);
      tick();
    }
  }
  return w.log;
}

const story: fc.Arbitrary<Story> = fc.record({
  seed: fc.nat(1000),
  generator: fc.boolean(),
  stepMs: fc.integer({ min: 1, max: 7 }),
  depthMs: fc.integer({ min: 1, max: 250 }),
  validityMs: fc.integer({ min: 1, max: 3000 }),
  faultTimes: fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 3 }),
  steps: fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 800 })) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('order' as const), symbol: fc.nat(1), side: fc.constantFrom('BUY' as const, 'SELL' as const), offset: fc.integer({ min: -30, max: 60 }), lots: fc.integer({ min: 1, max: 5000 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('listenKey' as const) }) },
    ),
    { maxLength: 25 },
  ),
});

test('jumping from due instant to due instant publishes exactly what ticking every millisecond would', () => {
  fc.assert(
    fc.property(story, (s) => {
      const jumped = jumping(s);
      const ticked = ticking(s);
      assert.deepEqual(jumped, ticked);
    }),
    { numRuns: 150 },
  );
});

test('the story is not empty: with the generator on, batches, events and expiries are published', () => {
  const log = jumping({ seed: 3, generator: true, stepMs: 2, depthMs: 100, validityMs: 500, faultTimes: [700], steps: [{ kind: 'listenKey' }, { kind: 'advance', ms: 1000 }] });
  assert.ok(log.some((l) => l.startsWith('batch at')));
  assert.ok(log.some((l) => l.startsWith('events at')));
  assert.ok(log.includes(`expired 1 at ${T0 + 500}`));
  assert.ok(log.includes(`fault ${T0 + 700} at ${T0 + 700}`));
  assert.deepEqual(log, ticking({ seed: 3, generator: true, stepMs: 2, depthMs: 100, validityMs: 500, faultTimes: [700], steps: [{ kind: 'listenKey' }, { kind: 'advance', ms: 1000 }] }));
});
