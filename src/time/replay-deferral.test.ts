// On a manual clock a replayed print may wait for the next depth instant (exchange-tasks.ts,
// `deferredPrint`): one stop and one book rebuild per depth batch. What a client can see must not
// change: two copies of the same world (a replayed symbol, a generator-free book, listen keys,
// timed faults, a periodic task that reads the tape as the kline pushes do) go through the same
// random story of advances and account orders, one deferring, one stopping at every print; every
// event (trades, execution reports, balance updates, with their times and ids), every expiry,
// fault and periodic read, the book and the klines at the end must be the same. Only the depth
// batches may differ (fewer rebuilds take fewer update ids); they end on the same book.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ManualClock } from '../core/clock.ts';
import { ListenKeys } from '../api/listen-keys.ts';
import { KLINE_INTERVALS } from '../core/market/index.ts';
import { depthSnapshot } from '../core/queries.ts';
import { recordingOf, replayExchange, T0, toJson, type RecordedRow } from '../core/test-support.ts';
import type { Recording } from '../core/recording.ts';
import { periodicTask, Scheduler } from './scheduler.ts';
import { ExchangeTask } from './exchange-tasks.ts';

const L = 9_400_000;
const REC = Date.UTC(2025, 0, 1);

interface Story {
  readonly gaps: readonly { ms: number; step: number; m: boolean }[];
  readonly depthMs: number;
  /** Whether someone follows the depth (a replayed book is then rebuilt at depth instants, else when read). */
  readonly followed: boolean;
  readonly faultTimes: readonly number[];
  readonly steps: readonly ({ kind: 'advance'; ms: number } | { kind: 'order'; side: 'BUY' | 'SELL'; offset: number } | { kind: 'cancelAll' } | { kind: 'listenKey' })[];
}

/**
 * The rows as a recording read from the cache is (src/replay/lazy-entry.ts): a row holds its
 * values only once loaded, three rows at a time, and before that a time of 0 and a price of 1 (a
 * core reading ahead of the loader would print them at once).
 */
function lazyRecording(rows: readonly RecordedRow[]): { recording: Recording; loadThroughUs(us: number): void } {
  const source = recordingOf('BTCUSDT', rows);
  const empty = recordingOf('BTCUSDT', rows.map(() => ({ us: 0, price: 1, lots: 1 })));
  let loaded = 0;
  const recording = Object.defineProperty({ ...empty }, 'loadedRows', { get: () => loaded });
  const copy = (from: number, to: number) => {
    for (const column of ['timeUs', 'price', 'qty', 'buyerIsMaker', 'newAggregate'] as const) recording[column].set(source[column].subarray(from, to), from);
  };
  const loadThroughUs = (us: number) => {
    while (loaded < source.count && (loaded === 0 || recording.timeUs[loaded - 1]! < us)) {
      const to = Math.min(source.count, loaded + 3);
      copy(loaded, to);
      loaded = to;
    }
  };
  // As a start does (src/replay/index.ts): the first piece, then two published ms past `from` (speed 1).
  loadThroughUs(-Infinity);
  loadThroughUs(recording.timeUs[0]! + 2000);
  return { recording, loadThroughUs };
}

function world(story: Story, deferPrints: boolean, lazy = false): string[] {
  let t = REC * 1000;
  let price = L;
  const rows: RecordedRow[] = story.gaps.map((g) => ({ us: (t += g.ms * 1000), price: (price += g.step), lots: 2_000, m: g.m }));
  const loader = lazy ? lazyRecording(rows) : undefined;
  const core = replayExchange(rows, {}, { sim: { depth_update_ms: story.depthMs } }, T0, loader?.recording);
  const clock = new ManualClock(T0);
  const log: string[] = [];
  const listenKeys = new ListenKeys(700);
  const names = new Map<string, number>();
  const timed = [...story.faultTimes].sort((a, b) => a - b).map((f) => T0 + f);
  const task = new ExchangeTask(
    {
      core: () => core,
      offsetMs: () => 0,
      // Each event on its own line: how many a publication carried is not seen on the wire.
      publish: (events) => void log.push(...events.map((e) => `event ${toJson(e)}`)),
      publishBatch: () => undefined,
      faults: { nextTimedAt: () => timed[0] ?? Infinity, tick: (now) => void (timed.length > 0 && timed[0]! <= now && log.push(`fault ${timed.shift()} at ${now}`)) },
      listenKeys,
      expireListenKeys: (keys, now) => log.push(`expired ${keys.map((k) => names.get(k)).join(',')} at ${now}`),
      depthUpdateMs: story.depthMs,
      maxCatchUpSteps: Infinity,
      deferPrints,
      depthFollowed: () => story.followed,
      loadRecorded: (now) => {
        for (const need of core.recordedTimeNeeded(now)) loader?.loadThroughUs(need.throughUs);
      },
    },
    T0,
  );
  const scheduler = new Scheduler();
  scheduler.register(task);
  // A reader of public market data on its own grid, after the exchange's task (as kline pushes are).
  scheduler.register(periodicTask({ name: 'reads', periodMs: 170, origin: () => 0, active: () => true, run: (now) => log.push(`read at ${now}: last trade ${core.marketData.of(0).lastTradeId}`) }));
  for (const step of story.steps) {
    const now = clock.now();
    if (step.kind === 'advance') {
      scheduler.advance(clock, step.ms);
      if (deferPrints) task.settle(clock.now());
    } else if (step.kind === 'order') {
      const last = core.marketData.of(0).lastTrade()?.price ?? L;
      const out = core.submit({ type: 'place', now, symbolIndex: 0, side: step.side, orderType: 'LIMIT', timeInForce: 'GTC', price: last + step.offset, quantity: 1_000, clientOrderId: null });
      log.push(`order ${toJson(out)}`);
    } else if (step.kind === 'cancelAll') {
      log.push(`cancelAll ${toJson(core.submit({ type: 'cancelAll', now, symbolIndex: 0 }))}`);
    } else {
      const key = listenKeys.create(now);
      if (!names.has(key)) names.set(key, names.size + 1);
    }
  }
  const { bids, asks } = depthSnapshot(core.state, 'BTCUSDT', 100, 'live') as { bids: unknown; asks: unknown };
  const klines = core.marketData.of(0).klines({ interval: KLINE_INTERVALS.get('1s')!, tz: 0, limit: 1000, now: clock.now() });
  log.push(`book ${toJson({ bids, asks })}`, `klines ${toJson(klines)}`);
  stops.push(scheduler.stops);
  return log;
}

/** Scheduler stops of each world run, in order (the saving the second test measures). */
const stops: number[] = [];

const story: fc.Arbitrary<Story> = fc.record({
  gaps: fc.array(fc.record({ ms: fc.integer({ min: 0, max: 120 }), step: fc.integer({ min: -3, max: 3 }), m: fc.boolean() }), { minLength: 1, maxLength: 80 }),
  depthMs: fc.oneof(fc.constantFrom(10, 20, 50, 100), fc.integer({ min: 1, max: 250 })),
  followed: fc.boolean(),
  // Faults on round instants too, where they meet depth instants (the deferral must stop short of them).
  faultTimes: fc.array(fc.oneof(fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 200 }).map((k) => k * 10)), { maxLength: 3 }),
  steps: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 1500 })) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('order' as const), side: fc.constantFrom('BUY' as const, 'SELL' as const), offset: fc.integer({ min: -4, max: 4 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('listenKey' as const) }) },
    ),
    { maxLength: 30 },
  ),
});

test('prints waiting for the depth instant publish the same events, reads, book and klines as stopping at each', () => {
  fc.assert(
    fc.property(story, (s) => {
      assert.deepEqual(world(s, true), world(s, false));
    }),
    { numRuns: 200 },
  );
});

test('rows loaded as the clock reaches them (a start from the cache) give the same world as every row loaded', () => {
  fc.assert(
    fc.property(story, fc.boolean(), (s, deferPrints) => {
      assert.deepEqual(world(s, deferPrints, true), world(s, deferPrints));
    }),
    { numRuns: 200 },
  );
});

test('a timed fault on a depth instant: the prints before it come before it', () => {
  const s: Story = { gaps: [{ ms: 0, step: 0, m: false }, { ms: 5, step: 1, m: true }, { ms: 3, step: 1, m: false }, { ms: 9, step: -1, m: false }], depthMs: 10, followed: true, faultTimes: [10], steps: [{ kind: 'advance', ms: 30 }] };
  const log = world(s, true);
  assert.deepEqual(log, world(s, false));
  const fault = log.indexOf(`fault ${T0 + 10} at ${T0 + 10}`);
  assert.ok(fault > 0 && log.slice(0, fault).filter((l) => l.includes('"type":"trade"')).length === 2, log.join('\n'));
});

test('the deferral saves stops: with a quiet account, one stop per depth batch and per read', () => {
  const s: Story = { gaps: Array.from({ length: 200 }, (_, i) => ({ ms: 7, step: (i % 5) - 2, m: i % 2 === 0 })), depthMs: 100, followed: true, faultTimes: [], steps: [{ kind: 'advance', ms: 2_000 }] };
  stops.length = 0;
  assert.deepEqual(world(s, true), world(s, false));
  const [deferring, each] = stops as [number, number];
  // 200 prints 7 ms apart over 1.4 s: 14 depth instants and 8 reads, against 200 prints and the rest.
  assert.ok(deferring <= 30 && each >= 200, `stops: deferring ${deferring}, at each print ${each}`);
});
