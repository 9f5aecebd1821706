// Time benchmark (issue 18 item 2: one scheduler for time). One simulator per scenario in this
// process, on random ports; figures are printed and written to bench/results/time.json.
//
//   day-idle    advanceTime(1 day) on a manual clock, generator off (target < 50 ms): the
//               scheduler stops only where something is due. A/B, same run: the old driver's
//               tick every driver_tick_ms (2 ms) over the same span, timed over one simulated
//               hour and scaled to a day (the whole day takes seconds)
//   generator   advanceTime with the default generator on (10 simulated minutes): simulated
//               seconds per wall second and events per second (core events, depth diffs and
//               tickers published); it costs what the generator does. A/B, same run: the old
//               driver's 2 ms tick over the same span
//   idle-cpu    a wall-clock simulator with the generator off, left alone: CPU over 5 s
//               (process.cpuUsage, user + system) as a share of one core, less the same
//               process before the simulator started (target < 0.1 %). A/B, same run: the
//               same process with the old driver's 2 ms interval added
//
//   wall-gen    a wall-clock simulator with the generator on and no client: CPU over 5 s with
//               the scheduler's timer, then with the old driver's 2 ms interval instead
//
//   npx tsx bench/time.bench.ts        npm run bench (with the others)
//   env:   BENCH_IDLE_S=5  BENCH_GENERATOR_MIN=10
//   flags: --no-json

import { join, dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../src/index.ts';
import { envNumber, flag, median, runInfo, writeResults } from './support.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'time.json');
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const IDLE_S = envNumber('BENCH_IDLE_S', 5);
const GENERATOR_MIN = envNumber('BENCH_GENERATOR_MIN', 10);
const ROUNDS = 5;
const T0 = 1_700_000_000_000;

async function manual(generator: boolean): Promise<Simulator> {
  return startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: T0, generator: { enabled: generator } } } });
}

/** The old driver's tick (src/simulator.ts before the scheduler), every driver_tick_ms. */
function oldTick(sim: Simulator, lastFlush: { at: number }): void {
  const outbox = (sim as unknown as { outbox: { publish(e: unknown): void; publishBatch(d: unknown, t: unknown): void } }).outbox;
  const now = sim.now();
  sim.faults.tick(now); // no clock offset in this benchmark
  outbox.publish(sim.exchange.submit({ type: 'advance', now, maxSteps: Infinity }).events);
  const expired = sim.service.listenKeys.expire(now);
  if (expired.length > 0) sim.gateway.expireListenKeys(expired, now);
  if (now - lastFlush.at >= sim.config.sim.depth_update_ms) {
    lastFlush.at = now;
    const batch = sim.exchange.submit({ type: 'flushDepth', now });
    if (batch.ok) outbox.publishBatch(batch.value.diffs, batch.value.touches);
  }
}

async function dayIdle() {
  const sim = await manual(false);
  try {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      sim.advanceTime(DAY_MS);
      times.push(performance.now() - t0);
    }
    // The old driver: one tick per driver_tick_ms, for one simulated hour (scaled to a day).
    const tick = sim.config.sim.driver_tick_ms;
    const clock = (sim as unknown as { clock: { advance(ms: number): void } }).clock;
    const lastFlush = { at: sim.now() };
    const t0 = performance.now();
    for (let left = HOUR_MS; left > 0; left -= tick) {
      clock.advance(tick);
      oldTick(sim, lastFlush);
    }
    const oldDayMs = (performance.now() - t0) * 24;
    const ms = median(times);
    return { advanceDayMs: ms, oldDriverDayMs: oldDayMs, speedup: oldDayMs / ms, targetMs: 50, met: ms < 50 };
  } finally {
    await sim.stop();
  }
}

async function generatorOn() {
  const sim = await manual(true);
  try {
    let events = 0;
    let diffs = 0;
    let tickers = 0;
    sim.onEvents((e) => (events += e.length));
    sim.onDepthBatch((b) => {
      diffs += b.diffs.length;
      tickers += b.touches.length;
    });
    const clock = (sim as unknown as { clock: { advance(ms: number): void } }).clock;
    const tick = sim.config.sim.driver_tick_ms;
    const span = (GENERATOR_MIN * 60_000) / ROUNDS;
    /** The old driver's tick every driver_tick_ms over the span (A/B, same run). */
    const oldSpan = () => {
      const lastFlush = { at: sim.now() };
      for (let left = span; left > 0; left -= tick) {
        clock.advance(tick);
        oldTick(sim, lastFlush);
      }
    };
    // Warm-up (the JIT): both paths, two minutes of simulated time each.
    sim.advanceTime(120_000);
    for (let left = 120_000; left > 0; left -= span) oldSpan();
    const fresh: number[] = [];
    const old: number[] = [];
    let published = 0;
    let counted = { events: 0, diffs: 0, tickers: 0 };
    // Alternate the two, ROUNDS spans each, so load on the machine falls on both alike.
    for (let i = 0; i < ROUNDS; i++) {
      events = diffs = tickers = 0;
      let t0 = performance.now();
      sim.advanceTime(span);
      fresh.push((performance.now() - t0) / 1000);
      published += events + diffs + tickers;
      counted = { events: counted.events + events, diffs: counted.diffs + diffs, tickers: counted.tickers + tickers };
      t0 = performance.now();
      oldSpan();
      old.push((performance.now() - t0) / 1000);
    }
    const seconds = fresh.reduce((a, b) => a + b, 0);
    const oldSeconds = old.reduce((a, b) => a + b, 0);
    // Under load from other processes the best span of each side is the steadiest comparison.
    const ratioOfBest = Math.min(...fresh) / Math.min(...old);
    const simulated = (ROUNDS * span) / 1000;
    return {
      simulatedSeconds: simulated,
      wallSeconds: seconds,
      simulatedPerWallSecond: simulated / seconds,
      events: counted.events,
      depthDiffs: counted.diffs,
      tickers: counted.tickers,
      publishedPerSecond: published / seconds,
      dayEstimateSeconds: (seconds * DAY_MS) / (ROUNDS * span),
      oldDriverWallSeconds: oldSeconds,
      ratioToOldDriver: seconds / oldSeconds,
      ratioOfBestSpans: ratioOfBest,
    };
  } finally {
    await sim.stop();
  }
}

async function cpuOver(seconds: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1e6 / seconds) * 100;
}

async function idleCpu() {
  // The floor: this process with no simulator (node, the loader, the sleep itself), after the
  // scenarios above have settled; the lower of a reading before and one after.
  await new Promise((r) => setTimeout(r, 1000));
  let baseline = await cpuOver(IDLE_S);
  const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
  try {
    await new Promise((r) => setTimeout(r, 500)); // settle after start
    const idle = await cpuOver(IDLE_S);
    // A/B: the old driver's interval (every driver_tick_ms, doing its tick) in the same process.
    const lastFlush = { at: sim.now() };
    const timer = setInterval(() => oldTick(sim, lastFlush), sim.config.sim.driver_tick_ms);
    const oldDriver = await cpuOver(IDLE_S);
    clearInterval(timer);
    await sim.stop();
    await new Promise((r) => setTimeout(r, 1000));
    baseline = Math.min(baseline, await cpuOver(IDLE_S));
    const added = idle - baseline;
    return { seconds: IDLE_S, baselineCorePercent: baseline, idleCorePercent: idle, addedCorePercent: added, oldDriverCorePercent: oldDriver, targetPercent: 0.1, met: added < 0.1 };
  } finally {
    await sim.stop();
  }
}

/** Wall clock, generator on: CPU of the new driver, then of the old 2 ms interval instead (A/B, same run). */
async function wallGeneratorCpu() {
  const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0 } } });
  try {
    await new Promise((r) => setTimeout(r, 1000));
    const driver = await cpuOver(IDLE_S);
    (sim as unknown as { driver: { stop(): void } }).driver.stop();
    const lastFlush = { at: sim.now() };
    const timer = setInterval(() => oldTick(sim, lastFlush), sim.config.sim.driver_tick_ms);
    await new Promise((r) => setTimeout(r, 1000));
    const oldDriver = await cpuOver(IDLE_S);
    clearInterval(timer);
    return { seconds: IDLE_S, driverCorePercent: driver, oldDriverCorePercent: oldDriver, ratio: driver / oldDriver };
  } finally {
    await sim.stop();
  }
}

const day = await dayIdle();
console.log(`advance 1 day, generator off: ${day.advanceDayMs.toFixed(2)} ms (target < 50 ms: ${day.met ? 'met' : 'NOT met'}); old driver ~${(day.oldDriverDayMs / 1000).toFixed(1)} s (${day.speedup.toFixed(0)}x)`);
const gen = await generatorOn();
console.log(
  `advance with the generator on: ${gen.simulatedPerWallSecond.toFixed(0)} simulated s per wall s; ${gen.publishedPerSecond.toFixed(0)} published/s (${gen.events} events, ${gen.depthDiffs} depth diffs, ${gen.tickers} tickers in ${gen.wallSeconds.toFixed(2)} s); one day ~${gen.dayEstimateSeconds.toFixed(0)} s; old driver over the same spans ${gen.oldDriverWallSeconds.toFixed(2)} s (new/old ${gen.ratioToOldDriver.toFixed(2)}x, best span against best span ${gen.ratioOfBestSpans.toFixed(2)}x)`,
);
const cpu = await idleCpu();
console.log(
  `idle CPU, wall clock, generator off: ${cpu.idleCorePercent.toFixed(3)} % of a core over ${cpu.seconds} s, the process without a simulator ${cpu.baselineCorePercent.toFixed(3)} %: the simulator adds ${cpu.addedCorePercent.toFixed(3)} % (target < 0.1 %: ${cpu.met ? 'met' : 'NOT met'}); with the old 2 ms driver: ${cpu.oldDriverCorePercent.toFixed(3)} %`,
);
const wallGen = await wallGeneratorCpu();
console.log(`wall clock, generator on, no client: ${wallGen.driverCorePercent.toFixed(2)} % of a core; the old 2 ms interval instead: ${wallGen.oldDriverCorePercent.toFixed(2)} % (new/old ${wallGen.ratio.toFixed(2)}x)`);
if (flag('no-json') === undefined) writeResults(RESULTS_FILE, { ...runInfo('time'), day, generator: gen, idleCpu: cpu, wallGeneratorCpu: wallGen });
