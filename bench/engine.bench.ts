// Engine benchmark: one seeded op stream (about 70% limit place, 25% cancel, 5% market) replayed
// through spot-sim's core (Exchange.submit of counterparty commands: no account ledger) and through the npm
// package `nodejs-order-book`, in one process. Reports the median ops/s of 5 interleaved runs
// for a shallow book (~1k resting orders) and a deep one (~250k resting orders), the ratio, and
// the heap bytes per resting order. The stop-heavy streams (issue 33) replay the shallow stream
// with 100k STOP_LOSS_LIMIT orders of the account placed after the pre-fill: `stops` far from
// the touch, so none triggers and the flow must run as fast as without them; `stops-trigger`
// within a few ticks of the mid, so the flow's trades trigger them all (spot-sim only: each
// triggered one rests far away, a book nodejs-order-book does not hold). It only prints (and
// writes bench/results/engine.json): it never asserts a time.
//
//   npx tsx bench/engine.bench.ts            (re-spawns itself with --expose-gc)
//   npm run bench:engine
//   flags: --runs=5  --scale=1 (ops multiplier)  --only=shallow|deep|stops|stops-trigger|heap (or several: --only=shallow,stops)  --engine=spot-sim|nodejs-order-book
//          --no-heap  --no-json  --same-process
//
// Each timed run (either engine) happens in a fresh process of its own (same flags, the stream
// regenerated from the seed): a run right after the other engine's deep book otherwise inherits
// its grown, fragmented heap, and whichever engine ran second lost 10-20%. --same-process runs
// them all here instead (as a profile wants).
//   profile: node --cpu-prof --cpu-prof-dir=.tmp/prof --import tsx bench/engine.bench.ts --engine=spot-sim --no-heap --no-json
//            npx tsx bench/profile-summary.ts .tmp/prof
//
// How the stream is built (before any timing, so both engines replay exactly the same ops):
// a generator draws each op from a xoroshiro128plus stream with a fixed seed and runs it through
// an oracle book (a spot-sim Exchange, public counterparty API only) to know which orders rest.
// A cancel targets a random order from the list of those that rested and have not been
// cancelled; an entry found already filled is dropped and another drawn (up to 8 draws; if all
// are gone the op stays a not-found cancel, which both engines just report). Limits are either
// passive (non-crossing, uniformly spread over `spread` ticks on their side of a fixed mid) or
// aggressive (a few ticks through the mid, so they cross and fill); the share of aggressive
// limits follows the oracle's resting count so the book stays near its target size. Ids: op
// index i <-> our book key (the counterpartyLimit command's result) <-> their string id String(i).

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEAP_ORDERS, HEAP_SPREAD, heapOurs, heapTheirs } from './engine-heap.ts';
import { runOurs, runTheirs, type RunResult } from './engine-replay.ts';
import { generate, HAS_STOPS, scenarios, SEED, stopScenarios, type OpStream, type Scenario } from './engine-stream.ts';
import { runInfo, flag, median, table, yesNo } from './support.ts';

const THIS_FILE = fileURLToPath(import.meta.url);
const RESULTS_FILE = join(dirname(THIS_FILE), 'results', 'engine.json');

// ------------------------------------------------------------------ gc: re-spawn with --expose-gc

if (typeof globalThis.gc !== 'function' && process.env.SPOT_SIM_BENCH_CHILD !== '1') {
  // `npx tsx file` already runs node with tsx's loader in execArgv; keep those flags (and e.g.
  // --cpu-prof) and add --expose-gc. Without any tsx flag (plain node), import tsx explicitly.
  const execArgv = process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
  const child = spawnSync(process.execPath, ['--expose-gc', ...execArgv, THIS_FILE, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SPOT_SIM_BENCH_CHILD: '1' },
  });
  process.exit(child.status ?? 1);
}

const gc: (() => void) | null = typeof globalThis.gc === 'function' ? () => globalThis.gc!() : null;

// ------------------------------------------------------------------ options


const RUNS = Number(flag('runs') ?? 5);
const SCALE = Number(flag('scale') ?? 1);
const ONLY = flag('only') ?? (flag('heap-only') !== undefined ? 'heap' : '');
/** `--only` names one part or several, comma-separated (e.g. --only=shallow,stops). */
const ONLY_PARTS = new Set(ONLY.split(',').filter((p) => p !== ''));
const ENGINE = flag('engine') ?? 'both';
const DO_HEAP = flag('no-heap') === undefined && (ONLY === '' || ONLY_PARTS.has('heap'));
const WRITE_JSON = flag('no-json') === undefined;
const RUN_OURS = ENGINE === 'both' || ENGINE === 'spot-sim';
const RUN_THEIRS = ENGINE === 'both' || ENGINE === 'nodejs-order-book';
const SAME_PROCESS = flag('same-process') !== undefined;
/** Child mode: `<scenario>:<engine>`, one timed run, its RunResult printed as `RESULT <json>`. */
const RUN_ONE = flag('run-one');


// ------------------------------------------------------------------ formatting

function fmtOps(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(0)}k`;
  return x.toFixed(0);
}

// ------------------------------------------------------------------ main

/** The two books, then issue 33's stop-heavy streams (the shallow stream with 100k stops of the account). */
const SCENARIOS = [...scenarios(SCALE), ...stopScenarios(SCALE)];

interface ScenarioReport {
  scenario: Scenario;
  stream: Omit<OpStream, 'kind' | 'side' | 'price' | 'qty' | 'target' | 'ids' | 'scenario'>;
  ours: RunResult[];
  theirs: RunResult[];
  oursMedian: number;
  theirsMedian: number;
  ratio: number;
  agree: boolean;
}

if (RUN_ONE !== undefined) {
  const [name, engine] = RUN_ONE.split(':');
  const sc = SCENARIOS.find((x) => x.name === name);
  if (sc === undefined || (engine !== 'spot-sim' && engine !== 'nodejs-order-book')) throw new Error(`bad --run-one=${RUN_ONE}`);
  const st = generate(sc);
  console.log(`RESULT ${JSON.stringify(engine === 'spot-sim' ? runOurs(st) : runTheirs(st))}`);
  process.exit(0);
}

/** One timed run in a fresh process (see the header). */
function runIsolated(sc: Scenario, engine: 'spot-sim' | 'nodejs-order-book'): RunResult {
  const child = spawnSync(process.execPath, [...process.execArgv, THIS_FILE, `--run-one=${sc.name}:${engine}`, `--scale=${SCALE}`], {
    encoding: 'utf8',
    env: { ...process.env, SPOT_SIM_BENCH_CHILD: '1' },
    maxBuffer: 1 << 20,
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (child.status !== 0 || line === undefined) throw new Error(`run of ${engine} on ${sc.name} failed (${child.status}): ${child.stderr}`);
  return JSON.parse(line.slice(7)) as RunResult;
}

const wallStart = process.hrtime.bigint();
const log = (msg: string) => console.log(msg);
log(`engine bench — node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, gc ${gc ? 'exposed' : 'NOT exposed'}, runs ${RUNS} (${SAME_PROCESS ? 'all in this process' : 'each in a fresh process'}), seed 0x${SEED.toString(16)}`);

// Heap first, on a fresh heap: measured after the scenarios, the pre-generated streams they
// leave behind (a dead value can stay referenced from a stack slot until it is overwritten) get
// collected during the measurement and spoil the delta.
let heap: { ours: number; theirs: number } | null = null;
if (DO_HEAP) {
  if (gc === null) {
    log('\n[heap] skipped: global.gc is not exposed (run with node --expose-gc --import tsx bench/engine.bench.ts)');
  } else {
    const ours = RUN_OURS ? heapOurs() : NaN;
    const theirs = RUN_THEIRS ? heapTheirs() : NaN;
    heap = { ours, theirs };
    log(`\n[heap] ${HEAP_ORDERS.toLocaleString('en-US')} non-crossing resting orders over ${2 * HEAP_SPREAD} price levels, heapUsed + arrayBuffers after gc: spot-sim ${ours.toFixed(0)} B/order, nodejs-order-book ${theirs.toFixed(0)} B/order`);
  }
}

function runScenario(sc: Scenario): ScenarioReport {
  const g0 = process.hrtime.bigint();
  const st = generate(sc);
  const genSec = Number(process.hrtime.bigint() - g0) / 1e9;
  log(
    `\n[${sc.name}] ${sc.ops.toLocaleString('en-US')} timed ops after ${st.prefill.toLocaleString('en-US')} pre-fill limits (generated in ${genSec.toFixed(1)} s): ` +
      `limit ${(st.mix.limit * 100).toFixed(1)}% (aggressive ${(st.mix.aggressive * 100).toFixed(1)}% of them), cancel ${(st.mix.cancel * 100).toFixed(1)}% ` +
      `(${(st.mix.cancelsOfGone * 100).toFixed(1)}% of them not found), market ${(st.mix.market * 100).toFixed(1)}%; ` +
      `resting orders during the stream min ${st.resting.min} / mean ${st.resting.mean.toFixed(0)} / max ${st.resting.max}`,
  );
  const ours: RunResult[] = [];
  const theirs: RunResult[] = [];
  for (let run = 0; run < RUNS; run++) {
    if (RUN_OURS) {
      const r = SAME_PROCESS ? runOurs(st) : runIsolated(sc, 'spot-sim');
      ours.push(r);
      const stops = r.stops === undefined ? '' : `  stops placed ${r.stops.placed}, triggered ${r.stops.triggered}`;
      log(`  run ${run + 1} spot-sim          ${fmtOps(r.opsPerSec).padStart(7)} ops/s (${fmtOps(r.opsPerCpuSec)} per CPU-s)  ${r.seconds.toFixed(3)} s  trades ${r.fills}  events ${r.events}  taker lots ${r.takerLots}  book ${r.bookDigest}${stops}`);
    }
    if (RUN_THEIRS && sc.spotSimOnly !== true) {
      const r = SAME_PROCESS ? runTheirs(st) : runIsolated(sc, 'nodejs-order-book');
      theirs.push(r);
      log(`  run ${run + 1} nodejs-order-book ${fmtOps(r.opsPerSec).padStart(7)} ops/s  ${r.seconds.toFixed(3)} s  makers hit ${r.fills}  taker lots ${r.takerLots}  book ${r.bookDigest}`);
    }
  }
  if (sc.stops !== undefined && !HAS_STOPS) log('  (this core has no conditional orders: the stream ran without its stops)');
  const all = [...ours, ...theirs];
  const agree = all.every((r) => r.takerLots === all[0]!.takerLots && r.bookDigest === all[0]!.bookDigest);
  if (!agree) log('  WARNING: the engines disagree on traded lots or on the final book');
  const oursMedian = median(ours.map((r) => r.opsPerSec));
  const theirsMedian = median(theirs.map((r) => r.opsPerSec));
  const { kind: _k, side: _s, price: _p, qty: _q, target: _t, ids: _i, scenario: _sc, ...stream } = st;
  return { scenario: sc, stream, ours, theirs, oursMedian, theirsMedian, ratio: oursMedian / theirsMedian, agree };
}

const reports: ScenarioReport[] = [];
for (const sc of SCENARIOS) {
  if (ONLY === '' || ONLY_PARTS.has(sc.name)) reports.push(runScenario(sc));
}

// ------------------------------------------------------------------ summary

const rows: string[][] = [['metric', 'spot-sim', 'nodejs-order-book', 'ratio', 'target', 'met']];
const targets: Record<string, unknown> = {};
for (const r of reports) {
  const ratio = Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}x` : '-';
  if (r.scenario.name === 'shallow') {
    const met = r.ratio >= 5 && r.oursMedian >= 3e6;
    targets.shallow = { ratio: r.ratio >= 5, opsPerSec: r.oursMedian >= 3e6, met };
    rows.push([`${r.scenario.label} ops/s, median of ${RUNS}`, fmtOps(r.oursMedian), fmtOps(r.theirsMedian), ratio, '>= 5x and >= 3M ops/s', `${yesNo(met)} (ratio ${yesNo(r.ratio >= 5)}, ops/s ${yesNo(r.oursMedian >= 3e6)})`]);
  } else if (r.scenario.name === 'deep') {
    const met = r.ratio >= 20;
    targets.deep = { ratio: met, met };
    rows.push([`${r.scenario.label} ops/s, median of ${RUNS}`, fmtOps(r.oursMedian), fmtOps(r.theirsMedian), ratio, '>= 20x', yesNo(met)]);
  } else {
    // Issue 33: no target of its own; the figure is read against the shallow book's (same stream).
    const shallow = reports.find((x) => x.scenario.name === 'shallow');
    const vsShallow = shallow === undefined ? '' : ` (${((100 * r.oursMedian) / shallow.oursMedian).toFixed(1)}% of shallow)`;
    rows.push([`${r.scenario.label} ops/s, median of ${RUNS}`, `${fmtOps(r.oursMedian)}${vsShallow}`, fmtOps(r.theirsMedian), ratio, '-', '-']);
  }
}
if (heap !== null) {
  const met = heap.ours <= 250;
  targets.heap = { met };
  rows.push(['heap bytes per resting order', heap.ours.toFixed(0), heap.theirs.toFixed(0), `${(heap.ours / heap.theirs).toFixed(2)}x`, '<= 250 B (spot-sim)', yesNo(met)]);
}
const wallSec = Number(process.hrtime.bigint() - wallStart) / 1e9;
log(`\n${table(rows)}`);
for (const r of reports) {
  const o = r.ours[0];
  log(
    `${r.scenario.name}: engines agree on taker lots and final book: ${r.agree ? 'yes' : 'NO'}` +
      (o ? `; spot-sim per run: ${o.fills} trades, ${o.events} events (${(o.events / r.scenario.ops).toFixed(2)} per op)` : ''),
  );
}
log(`total wall time ${wallSec.toFixed(1)} s`);

if (WRITE_JSON) {
  mkdirSync(dirname(RESULTS_FILE), { recursive: true });
  const out = {
    ...runInfo('engine'),
    seed: SEED,
    runs: RUNS,
    scale: SCALE,
    scenarios: reports.map((r) => ({
      name: r.scenario.name,
      targetResting: r.scenario.target,
      timedOps: r.scenario.ops,
      prefill: r.stream.prefill,
      mix: r.stream.mix,
      resting: r.stream.resting,
      spotSim: { medianOpsPerSec: r.oursMedian, medianOpsPerCpuSec: median(r.ours.map((x) => x.opsPerCpuSec)), runs: r.ours },
      nodejsOrderBook: { medianOpsPerSec: r.theirsMedian, medianOpsPerCpuSec: median(r.theirs.map((x) => x.opsPerCpuSec)), runs: r.theirs },
      ratio: r.ratio,
      enginesAgree: r.agree,
    })),
    heapBytesPerRestingOrder: heap && { orders: HEAP_ORDERS, spotSim: heap.ours, nodejsOrderBook: heap.theirs },
    targets,
    wallSeconds: wallSec,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
  log(`results written to ${RESULTS_FILE}`);
}
