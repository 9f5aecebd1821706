// Order history A/B (issue 25): the account's place / match / cancel path through the core
// (Exchange.submit of account commands) with `ended_orders = "forget"` (A) and "keep" (B, the
// default max_ended_orders 100000, reached and passed within a run, so forgetting the oldest
// is part of what is timed). Same process, runs interleaved A B A B..., each on a fresh
// Exchange replaying the same seeded stream; prints the median ops/s of each and the ratio
// B/A. Then the memory of kept orders: heap after a GC with N ended orders kept minus the same
// stream with "forget", per order; and what an allOrders query costs with 100000 kept.
// It prints and writes bench/results/order-history.json (bench/report.ts puts it in
// bench/REPORT.md); it never asserts a time.
//
//   node --expose-gc --import tsx bench/order-history.bench.ts   [--runs=7] [--ops=300000] [--only=keep|forget] [--no-json]

import { loadavg } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../src/config/index.ts';
import type { PlaceOrder } from '../src/core/commands.ts';
import { Exchange } from '../src/core/exchange.ts';
import { allOrders } from '../src/core/queries.ts';
import { Rng } from '../src/core/rng.ts';
import { flag, median, runInfo, writeResults } from './support.ts';

const RUNS = Number(flag('runs') ?? 7);
/** --only=keep|forget: time one mode only (for a profile). */
const ONLY = flag('only');
const OPS = Number(flag('ops') ?? 300_000);
const T0 = 1_700_000_000_000;
const gc = typeof globalThis.gc === 'function' ? () => globalThis.gc!() : null;

type Mode = 'forget' | 'keep';

function exchange(mode: Mode, maxEnded = 100_000): Exchange {
  return new Exchange(
    resolveConfig({ sim: { generator: { enabled: false }, account: { ended_orders: mode, max_ended_orders: maxEnded, balances: { USDT: '100000000000', BTC: '1000000' } } } }),
    T0,
  );
}

/**
 * The stream: about 55% passive LIMIT BUYs (below the touch, they rest), 30% cancels of a
 * random resting one (or of the oldest when 150 rest: MAX_NUM_ORDERS is 200), 15% MARKET BUYs
 * filled by a counterparty ask placed just before. Decisions come from a seeded Rng and the
 * results (ids) are the same in both modes, so both modes do the same work but the history's.
 */
function run(ex: Exchange, ops: number): number {
  const rng = new Rng(0x25_2025);
  const resting: number[] = [];
  const place: { -readonly [K in keyof PlaceOrder]: PlaceOrder[K] } = {
    type: 'place', now: T0, symbolIndex: 0, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 0, quantity: 0, clientOrderId: null,
  };
  const mid = 6_000_000; // 60000.00 in ticks of 0.01
  let submitted = 0;
  for (let i = 0; i < ops; i++) {
    const now = T0 + i;
    const r = rng.float();
    if ((r < 0.55 && resting.length < 150) || resting.length === 0) {
      place.now = now;
      place.orderType = 'LIMIT';
      place.timeInForce = 'GTC';
      place.price = mid - 1000 - rng.int(0, 5000);
      place.quantity = rng.int(20, 60);
      const out = ex.submit(place);
      if (out.ok) resting.push(out.value.order.orderId);
    } else if (r < 0.85 || resting.length >= 150) {
      const at = resting.length >= 150 ? 0 : rng.int(0, resting.length - 1);
      const orderId = resting[at]!;
      resting[at] = resting[resting.length - 1]!;
      resting.pop();
      ex.submit({ type: 'cancel', now, symbolIndex: 0, orderId, origClientOrderId: undefined, cancelClientOrderId: null });
    } else {
      const lots = rng.int(20, 60);
      ex.submit({ type: 'counterpartyLimit', now, symbolIndex: 0, side: 'SELL', price: mid + 100, lots });
      place.now = now;
      place.orderType = 'MARKET';
      place.timeInForce = 'GTC';
      place.price = 0;
      place.quantity = lots;
      ex.submit(place);
      submitted++;
    }
    submitted++;
  }
  return submitted;
}

function timed(mode: Mode): number {
  const ex = exchange(mode);
  gc?.();
  // CPU time of this process (user + system), not wall time: the machine is shared, and time
  // spent waiting for a core is not the engine's.
  const start = process.cpuUsage();
  const commands = run(ex, OPS);
  const used = process.cpuUsage(start);
  return commands / ((used.user + used.system) / 1e6);
}

function heapAfter(mode: Mode, ops: number): { heap: number; kept: number } {
  gc?.();
  const ex = exchange(mode, 10_000_000);
  run(ex, ops);
  gc?.();
  gc?.();
  // The kept rows are typed arrays: their bytes are counted in arrayBuffers, not heapUsed.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  const heap = heapUsed + arrayBuffers;
  const kept = ex.state.history.size;
  // Keep `ex` alive across the measurement.
  if (ex.state.orders.size < 0) console.log('unreachable');
  return { heap, kept };
}

const loadAtStart = loadavg();
const wallStart = process.hrtime.bigint();
console.log(JSON.stringify(runInfo('order-history')));
if (gc === null) console.log('note: run with --expose-gc for steadier figures and the memory part');

if (ONLY === 'keep' || ONLY === 'forget') {
  const rates = Array.from({ length: RUNS }, () => timed(ONLY));
  console.log(`${ONLY} only: median ${Math.round(median(rates))} commands/s`);
  process.exit(0);
}

// Warm-up: one of each, untimed.
timed('forget');
timed('keep');
const rates: Record<Mode, number[]> = { forget: [], keep: [] };
for (let i = 0; i < RUNS; i++) {
  for (const mode of i % 2 === 0 ? (['forget', 'keep'] as const) : (['keep', 'forget'] as const)) rates[mode].push(timed(mode));
}
const a = median(rates.forget);
const b = median(rates.keep);
console.log(`place/match/cancel, ${OPS} ops per run, ${RUNS} interleaved runs each (median commands per CPU second):`);
console.log(`  A forget: ${Math.round(a)}   B keep: ${Math.round(b)}   B/A = ${(b / a).toFixed(3)}`);
console.log(`  runs A: ${rates.forget.map(Math.round).join(' ')}`);
console.log(`  runs B: ${rates.keep.map(Math.round).join(' ')}`);

let memory: { kept: number; bytesPerKeptOrder: number } | undefined;
let queries: { kept: number; firstQueryUs: number; recent500Us: number; fromOldest1000Us: number; hourWindowUs: number } | undefined;
if (gc !== null) {
  const memoryOps = 200_000;
  const forget = heapAfter('forget', memoryOps);
  const keep = heapAfter('keep', memoryOps);
  memory = { kept: keep.kept, bytesPerKeptOrder: (keep.heap - forget.heap) / keep.kept };
  console.log(`memory: ${memory.kept} ended orders kept; ${memory.bytesPerKeptOrder.toFixed(0)} bytes per kept order (JS heap + array buffers, keep minus forget, same stream)`);

  const ex = exchange('keep');
  run(ex, OPS);
  // The first query indexes every row that ended since the last one (order-history.ts catchUp).
  const first = process.cpuUsage();
  allOrders(ex.state, 0, { limit: 500 });
  const firstUs = process.cpuUsage(first);
  const time = (q: Parameters<typeof allOrders>[2], reps = 50) => {
    const start = process.cpuUsage();
    for (let i = 0; i < reps; i++) allOrders(ex.state, 0, q);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / reps;
  };
  queries = {
    kept: ex.state.history.size,
    firstQueryUs: firstUs.user + firstUs.system,
    recent500Us: time({ limit: 500 }),
    fromOldest1000Us: time({ orderId: 1, limit: 1000 }),
    hourWindowUs: time({ startTime: T0, endTime: T0 + 3_600_000, limit: 1000 }),
  };
  console.log(`allOrders with ${queries.kept} kept (core, CPU µs per query): first query (indexes them) ${queries.firstQueryUs.toFixed(0)}; then most recent 500 ${queries.recent500Us.toFixed(0)}, ` +
    `orderId from the oldest, 1000 rows ${queries.fromOldest1000Us.toFixed(0)}, a 1-hour window ${queries.hourWindowUs.toFixed(0)}`);
}

if (flag('no-json') === undefined) {
  writeResults(join(import.meta.dirname, 'results', 'order-history.json'), {
    ...runInfo('order-history'),
    loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
    wallSeconds: Number(process.hrtime.bigint() - wallStart) / 1e9,
    opsPerRun: OPS,
    runs: RUNS,
    forget: { commandsPerCpuSecond: a, runs: rates.forget },
    keep: { commandsPerCpuSecond: b, runs: rates.keep },
    keepOverForget: b / a,
    memory,
    allOrders: queries,
  });
}
