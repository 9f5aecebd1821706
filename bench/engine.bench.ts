// Engine benchmark: one seeded op stream (about 70% limit place, 25% cancel, 5% market) replayed
// through spot-sim's core (Exchange.submit of counterparty commands: no account ledger) and through the npm
// package `nodejs-order-book`, in one process. Reports the median ops/s of 5 interleaved runs
// for a shallow book (~1k resting orders) and a deep one (~250k resting orders), the ratio, and
// the heap bytes per resting order. It only prints (and writes bench/results/engine.json): it
// never asserts a time.
//
//   npx tsx bench/engine.bench.ts            (re-spawns itself with --expose-gc)
//   npm run bench:engine
//   flags: --runs=5  --scale=1 (ops multiplier)  --only=shallow|deep|heap  --engine=spot-sim|nodejs-order-book
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
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { OrderBook, Side as TheirSide } from 'nodejs-order-book';
import { resolveConfig } from '../src/config/index.ts';
import { Exchange } from '../src/core/exchange.ts';
import { depthSnapshot } from '../src/core/queries.ts';
import { runInfo, flag, median } from './support.ts';

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

const argv = process.argv.slice(2);

const RUNS = Number(flag('runs') ?? 5);
const SCALE = Number(flag('scale') ?? 1);
const ONLY = flag('only') ?? (flag('heap-only') !== undefined ? 'heap' : '');
const ENGINE = flag('engine') ?? 'both';
const DO_HEAP = flag('no-heap') === undefined && (ONLY === '' || ONLY === 'heap');
const WRITE_JSON = flag('no-json') === undefined;
const RUN_OURS = ENGINE === 'both' || ENGINE === 'spot-sim';
const RUN_THEIRS = ENGINE === 'both' || ENGINE === 'nodejs-order-book';
const SAME_PROCESS = flag('same-process') !== undefined;
/** Child mode: `<scenario>:<engine>`, one timed run, its RunResult printed as `RESULT <json>`. */
const RUN_ONE = flag('run-one');

const T0 = 1_700_000_000_000;
const SEED = 0x5eed_2024;

// ------------------------------------------------------------------ engines under test

const config = resolveConfig({ sim: { generator: { enabled: false } } });
const SYMBOL = 'BTCUSDT';

function newExchange(): { ex: Exchange; sym: number; mid: number } {
  const ex = new Exchange(config, T0);
  const inst = ex.instrument(SYMBOL);
  if (inst === undefined) throw new Error(`${SYMBOL} is not configured`);
  return { ex, sym: inst.index, mid: inst.startMid };
}

/** Cancels a counterparty order by book key; whether it was still resting. */
function cancelled(ex: Exchange, key: number, now: number): boolean {
  const outcome = ex.submit({ type: 'counterpartyCancel', now, key });
  return outcome.ok && outcome.value;
}

// ------------------------------------------------------------------ seeded op stream

const LIMIT = 0;
const CANCEL = 1;
const MARKET = 2;
const BUY = 0;
const SELL = 1;

class Rand {
  private readonly g: ReturnType<typeof xoroshiro128plus>;
  constructor(seed: number) {
    this.g = xoroshiro128plus(seed);
  }
  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(((this.g.next() >>> 0) * n) / 4294967296);
  }
  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }
  chance(p: number): boolean {
    return (this.g.next() >>> 0) < p * 4294967296;
  }
}

interface Scenario {
  readonly name: 'shallow' | 'deep';
  readonly label: string;
  /** Resting orders the stream keeps the book around (and the untimed pre-fill size). */
  readonly target: number;
  /** Passive limits land 1..spread ticks from the mid on their own side. */
  readonly spread: number;
  /** Aggressive limits land 1..cross ticks through the mid. */
  readonly cross: number;
  /** Share of aggressive limits when the book is at its target size (found by trial). */
  readonly aggressiveBase: number;
  /** Timed ops per run. */
  readonly ops: number;
  readonly seed: number;
}

interface OpStream {
  readonly scenario: Scenario;
  /** Ops [0, prefill) build the starting book (untimed); [prefill, length) are timed. */
  readonly prefill: number;
  readonly length: number;
  readonly kind: Uint8Array;
  readonly side: Uint8Array;
  readonly price: Int32Array;
  readonly qty: Int32Array;
  /** CANCEL: the op index of the LIMIT it cancels. */
  readonly target: Int32Array;
  /** LIMIT: nodejs-order-book's id (String(op index)); '' for other ops. */
  readonly ids: string[];
  readonly mix: { limit: number; cancel: number; market: number; aggressive: number; cancelsOfGone: number };
  /** Oracle's resting count over the timed part. */
  readonly resting: { min: number; max: number; mean: number; end: number };
}

function generate(s: Scenario): OpStream {
  const rnd = new Rand(s.seed);
  const { ex: oracle, sym, mid } = newExchange();
  const prefill = s.target;
  const length = prefill + s.ops;
  const kind = new Uint8Array(length);
  const side = new Uint8Array(length);
  const price = new Int32Array(length);
  const qty = new Int32Array(length);
  const target = new Int32Array(length).fill(-1);
  const ids: string[] = new Array<string>(length).fill('');
  const keyOf = new Int32Array(length); // oracle's book key per LIMIT op (0: did not rest)
  const live: number[] = []; // op indices of limits that rested and were not cancelled (may have filled since)
  const now = T0;
  let nLimit = 0;
  let nCancel = 0;
  let nMarket = 0;
  let nAggressive = 0;
  let nGone = 0;
  let rMin = Infinity;
  let rMax = 0;
  let rSum = 0;

  const placeLimit = (i: number, sd: number, px: number, q: number): void => {
    kind[i] = LIMIT;
    side[i] = sd;
    price[i] = px;
    qty[i] = q;
    ids[i] = String(i);
    const placed = oracle.submit({ type: 'counterpartyLimit', now, symbolIndex: sym, side: sd === BUY ? 'BUY' : 'SELL', price: px, lots: q });
    const key = placed.ok ? placed.value : 0;
    keyOf[i] = key;
    if (key !== 0) live.push(i);
  };

  for (let i = 0; i < prefill; i++) {
    const sd = rnd.below(2);
    const d = 1 + rnd.below(s.spread);
    placeLimit(i, sd, sd === BUY ? mid - d : mid + d, rnd.range(1, 10));
  }

  for (let i = prefill; i < length; i++) {
    const resting = oracle.state.counterpartyResting[sym]!.length;
    const u = rnd.below(100);
    if (u < 70) {
      nLimit++;
      // Feedback: more aggressive (crossing) limits when the book is above its target size.
      const pAggressive = Math.min(0.8, Math.max(0.02, s.aggressiveBase + (2 * (resting - s.target)) / s.target));
      const sd = rnd.below(2);
      if (rnd.chance(pAggressive)) {
        nAggressive++;
        const d = 1 + rnd.below(s.cross);
        placeLimit(i, sd, sd === BUY ? mid + d : mid - d, rnd.range(1, 40));
      } else {
        const d = 1 + rnd.below(s.spread);
        placeLimit(i, sd, sd === BUY ? mid - d : mid + d, rnd.range(1, 10));
      }
    } else if (u < 95) {
      nCancel++;
      kind[i] = CANCEL;
      let t = -1;
      let hit = false;
      for (let attempt = 0; attempt < 8 && live.length > 0; attempt++) {
        const j = rnd.below(live.length);
        t = live[j]!;
        live[j] = live[live.length - 1]!;
        live.pop();
        if (cancelled(oracle, keyOf[t]!, now)) {
          hit = true;
          break;
        }
      }
      if (t < 0) t = rnd.below(prefill); // nothing to pick from: a (likely) not-found cancel
      if (!hit) {
        nGone++;
        cancelled(oracle, keyOf[t]!, now); // no-op unless it still rests
      }
      target[i] = t;
    } else {
      nMarket++;
      kind[i] = MARKET;
      side[i] = rnd.below(2);
      qty[i] = rnd.range(1, 50);
      oracle.submit({ type: 'counterpartyTake', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: null, lots: qty[i]! });
    }
    if (resting < rMin) rMin = resting;
    if (resting > rMax) rMax = resting;
    rSum += resting;
  }
  const n = s.ops;
  return {
    scenario: s,
    prefill,
    length,
    kind,
    side,
    price,
    qty,
    target,
    ids,
    mix: { limit: nLimit / n, cancel: nCancel / n, market: nMarket / n, aggressive: nAggressive / Math.max(1, nLimit), cancelsOfGone: nGone / Math.max(1, nCancel) },
    resting: { min: rMin, max: rMax, mean: rSum / n, end: oracle.state.counterpartyResting[sym]!.length },
  };
}

// ------------------------------------------------------------------ replays

interface RunResult {
  readonly opsPerSec: number;
  /**
   * Ops per second of this process's CPU time (user + system, GC threads included): on a shared
   * machine it moves far less than the wall-clock figure when other work takes the cores.
   */
  readonly opsPerCpuSec: number;
  readonly seconds: number;
  /** Lots traded by takers (must agree between the engines). */
  readonly takerLots: number;
  /** spot-sim: public trades / all events taken; nodejs-order-book: filled makers reported in `done` + partials. */
  readonly fills: number;
  readonly events: number;
  /** Resting lots per [side, price] at the end, as a string, to compare the engines' books. */
  readonly bookDigest: string;
}

function digest(bids: ReadonlyArray<readonly [number, number]>, asks: ReadonlyArray<readonly [number, number]>): string {
  let h = 0;
  let lots = 0;
  for (const [p, q] of bids) {
    h = (Math.imul(h, 31) + p * 7 + q) | 0;
    lots += q;
  }
  h = (Math.imul(h, 31) + 1) | 0;
  for (const [p, q] of asks) {
    h = (Math.imul(h, 31) + p * 7 + q) | 0;
    lots += q;
  }
  return `${bids.length}b/${asks.length}a levels, ${lots} lots, #${(h >>> 0).toString(16)}`;
}

function runOurs(st: OpStream): RunResult {
  const { ex, sym } = newExchange();
  const keys = new Int32Array(st.length);
  const { kind, side, price, qty, target } = st;
  const replay = (from: number, to: number, count: boolean) => {
    let events = 0;
    let trades = 0;
    let lots = 0;
    for (let i = from; i < to; i++) {
      const now = T0 + i;
      const k = kind[i];
      let evs;
      if (k === LIMIT) {
        const placed = ex.submit({ type: 'counterpartyLimit', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: price[i]!, lots: qty[i]! });
        if (placed.ok) keys[i] = placed.value;
        evs = placed.events;
      } else if (k === CANCEL) evs = ex.submit({ type: 'counterpartyCancel', now, key: keys[target[i]!]! }).events;
      else evs = ex.submit({ type: 'counterpartyTake', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: null, lots: qty[i]! }).events;
      if (count) {
        events += evs.length;
        for (let e = 0; e < evs.length; e++) {
          const ev = evs[e]!;
          if (ev.type === 'trade') {
            trades++;
            lots += ev.qty;
          }
        }
      }
    }
    return { events, trades, lots };
  };
  replay(0, st.prefill, false);
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = replay(st.prefill, st.length, true);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const snap = depthSnapshot(ex.state, SYMBOL, Number.MAX_SAFE_INTEGER, 'live');
  if ('code' in snap) throw new Error('depth snapshot failed');
  return {
    opsPerSec: (st.length - st.prefill) / seconds,
    opsPerCpuSec: ((st.length - st.prefill) * 1e6) / (cpu.user + cpu.system),
    seconds,
    takerLots: r.lots,
    fills: r.trades,
    events: r.events,
    bookDigest: digest(snap.bids, snap.asks),
  };
}

function runTheirs(st: OpStream): RunResult {
  const ob = new OrderBook();
  const { kind, side, price, qty, target, ids } = st;
  const replay = (from: number, to: number) => {
    let lots = 0;
    let fills = 0;
    for (let i = from; i < to; i++) {
      const k = kind[i];
      if (k === LIMIT) {
        const size = qty[i]!;
        const r = ob.limit({ id: ids[i]!, side: side[i] === BUY ? TheirSide.BUY : TheirSide.SELL, size, price: price[i]! });
        lots += size - r.quantityLeft;
        fills += r.done.length + (r.partial !== null && r.partial.id !== ids[i] ? 1 : 0);
      } else if (k === CANCEL) {
        ob.cancel(ids[target[i]!]!);
      } else {
        const size = qty[i]!;
        const r = ob.market({ side: side[i] === BUY ? TheirSide.BUY : TheirSide.SELL, size });
        lots += size - r.quantityLeft;
        fills += r.done.length + (r.partial !== null ? 1 : 0);
      }
    }
    return { lots, fills };
  };
  replay(0, st.prefill);
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = replay(st.prefill, st.length);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const [asks, bids] = ob.depth(); // asks ascending, bids descending
  return {
    opsPerSec: (st.length - st.prefill) / seconds,
    opsPerCpuSec: ((st.length - st.prefill) * 1e6) / (cpu.user + cpu.system),
    seconds,
    takerLots: r.lots,
    fills: r.fills,
    events: 0,
    bookDigest: digest(bids, asks),
  };
}

// ------------------------------------------------------------------ heap per resting order

const HEAP_ORDERS = 200_000;
const HEAP_SPREAD = 2_500;

/** heapUsed after full collections, repeated until it settles (one gc() right after a big
 * phase can leave garbage behind that a later collection reclaims, skewing the delta). */
function heapUsed(): number {
  let last = Infinity;
  for (let i = 0; i < 20; i++) {
    gc!();
    const used = process.memoryUsage().heapUsed;
    if (Math.abs(last - used) < 64 * 1024) return used;
    last = used;
  }
  return last;
}

function heapOurs(): number {
  const { ex, sym, mid } = newExchange();
  const rnd = new Rand(SEED ^ 0x4ea9);
  const before = heapUsed();
  for (let i = 0; i < HEAP_ORDERS; i++) {
    const buy = rnd.below(2) === 0;
    const d = 1 + rnd.below(HEAP_SPREAD);
    ex.submit({ type: 'counterpartyLimit', now: T0, symbolIndex: sym, side: buy ? 'BUY' : 'SELL', price: buy ? mid - d : mid + d, lots: rnd.range(1, 10) });
  }
  const after = heapUsed();
  if (ex.state.counterpartyResting[sym]!.length !== HEAP_ORDERS) throw new Error('heap test: some orders did not rest');
  return (after - before) / HEAP_ORDERS;
}

function heapTheirs(): number {
  const ob = new OrderBook();
  const rnd = new Rand(SEED ^ 0x4ea9);
  const mid = newExchange().mid;
  const before = heapUsed();
  for (let i = 0; i < HEAP_ORDERS; i++) {
    const buy = rnd.below(2) === 0;
    const d = 1 + rnd.below(HEAP_SPREAD);
    // The id string is created here: it counts only if the book keeps it.
    ob.limit({ id: String(i), side: buy ? TheirSide.BUY : TheirSide.SELL, size: rnd.range(1, 10), price: buy ? mid - d : mid + d });
  }
  const after = heapUsed();
  const [asks, bids] = ob.depth();
  if (asks.length + bids.length === 0) throw new Error('heap test: empty book');
  return (after - before) / HEAP_ORDERS;
}

// ------------------------------------------------------------------ formatting

function fmtOps(x: number): string {
  if (!Number.isFinite(x)) return '-';
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)}M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(0)}k`;
  return x.toFixed(0);
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ');
  const sep = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(rows[0]!), sep, ...rows.slice(1).map(line)].join('\n');
}

// ------------------------------------------------------------------ main

const SCENARIOS: Scenario[] = [
  { name: 'shallow', label: 'shallow (~1k resting)', target: 1_000, spread: 50, cross: 5, aggressiveBase: 0.4, ops: Math.round(2_000_000 * SCALE), seed: SEED },
  { name: 'deep', label: 'deep (~250k resting)', target: 250_000, spread: 2_500, cross: 20, aggressiveBase: 0.4, ops: Math.round(1_000_000 * SCALE), seed: SEED + 1 },
];

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
    log(`\n[heap] ${HEAP_ORDERS.toLocaleString('en-US')} non-crossing resting orders over ${2 * HEAP_SPREAD} price levels, heapUsed after gc: spot-sim ${ours.toFixed(0)} B/order, nodejs-order-book ${theirs.toFixed(0)} B/order`);
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
      log(`  run ${run + 1} spot-sim          ${fmtOps(r.opsPerSec).padStart(7)} ops/s  ${r.seconds.toFixed(3)} s  trades ${r.fills}  events ${r.events}  taker lots ${r.takerLots}  book ${r.bookDigest}`);
    }
    if (RUN_THEIRS) {
      const r = SAME_PROCESS ? runTheirs(st) : runIsolated(sc, 'nodejs-order-book');
      theirs.push(r);
      log(`  run ${run + 1} nodejs-order-book ${fmtOps(r.opsPerSec).padStart(7)} ops/s  ${r.seconds.toFixed(3)} s  makers hit ${r.fills}  taker lots ${r.takerLots}  book ${r.bookDigest}`);
    }
  }
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
  if (ONLY === '' || ONLY === sc.name) reports.push(runScenario(sc));
}

// ------------------------------------------------------------------ summary

const yesNo = (b: boolean) => (b ? 'yes' : 'NO');
const rows: string[][] = [['metric', 'spot-sim', 'nodejs-order-book', 'ratio', 'target', 'met']];
const targets: Record<string, unknown> = {};
for (const r of reports) {
  const ratio = Number.isFinite(r.ratio) ? `${r.ratio.toFixed(1)}x` : '-';
  if (r.scenario.name === 'shallow') {
    const met = r.ratio >= 5 && r.oursMedian >= 3e6;
    targets.shallow = { ratio: r.ratio >= 5, opsPerSec: r.oursMedian >= 3e6, met };
    rows.push([`${r.scenario.label} ops/s, median of ${RUNS}`, fmtOps(r.oursMedian), fmtOps(r.theirsMedian), ratio, '>= 5x and >= 3M ops/s', `${yesNo(met)} (ratio ${yesNo(r.ratio >= 5)}, ops/s ${yesNo(r.oursMedian >= 3e6)})`]);
  } else {
    const met = r.ratio >= 20;
    targets.deep = { ratio: met, met };
    rows.push([`${r.scenario.label} ops/s, median of ${RUNS}`, fmtOps(r.oursMedian), fmtOps(r.theirsMedian), ratio, '>= 20x', yesNo(met)]);
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
