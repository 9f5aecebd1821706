// Loading a recorded day (issue 35 item 6): a full day of a liquid symbol, 2.5 million aggregate
// trades of BTCUSDT (synthetic, scripts/replay/synthetic-trades.ts) as a .zip like the public
// data's, generated into a temporary directory at bench time (the package ships no market data):
//   cold      openRecordings with an empty cache, what a first start waits for: read, hash,
//             inflate while parsing (target < 2 s); then the cache entry written in the
//             background; each in a fresh process, like a worker's first start, alternating
//             with a process that only reads and inflates the .zip (the floor of any loader)
//   bytes     memory per print once loaded (after gc: array buffers and RSS growth over the count;
//             target < 64 B)
//   cache     a later worker or run (the file's hash remembered, the entry in the cache):
//             startSimulator with the replayed symbol against startSimulator without it, alternating
//             in fresh processes (target: adds < 50 ms to a worker's start); what a start reads of
//             the entry (openRecordings: the rows through `from`, here the first piece) and how long
//             the background takes to read the rest; reading every row at once (loadRecordings)
//             against reading the entry's bytes alone; a copy of the file at another path (hashed
//             again, then the same entry)
// Times are wall and CPU time of the loading process: on a shared machine the CPU time holds up.
//   phases    the cold load's parts, timed one by one in a process of their own
//
//   node --expose-gc --import tsx bench/replay-load.bench.ts [--aggregates=N] [--no-json]

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { aggregates, aggTradesCsv } from '../scripts/replay/synthetic-trades.ts';
import { writeZip } from '../scripts/replay/zip-writer.ts';
import { resolveConfig } from '../src/config/index.ts';
import { contentHashOf, writeEntry } from '../src/replay/cache.ts';
import { loadRecordings, openRecordings } from '../src/replay/index.ts';
import { startSimulator } from '../src/index.ts';
import { TradesCsvParser } from '../src/replay/trades-file.ts';
import { locateSingleCsvEntry } from '../src/replay/zip.ts';
import { inflateEntry } from '../src/replay/zip-stream.ts';
import { FileProblems } from '../src/file-problems.ts';
import { flag, median, runInfo, writeResults } from './support.ts';

const DAY_US = 86_400_000_000;
const JAN_1_US = Date.UTC(2025, 0, 1) * 1000;

function config(file: string, cacheDir: string) {
  return resolveConfig({ sim: { replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: cacheDir } });
}

/** Memory held from now on, measured after gc (twice: the inflated text is external memory a single collection may leave for the next). */
function memorySince(): () => { arrayBuffers: number; rss: number; heap: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  return () => {
    gc?.();
    gc?.();
    const after = process.memoryUsage();
    return { arrayBuffers: after.arrayBuffers - before.arrayBuffers, rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed };
  };
}

/** Wall and CPU time (every thread of the process) from now on. */
function stopwatch(): () => { ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const t = performance.now();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
  };
}

/** Child: one loadRecordings (every row), timed; `laterMs` moves "now" past the racy window so the hash is remembered. */
async function childLoad(file: string, cacheDir: string, laterMs: number): Promise<string> {
  // The configuration is resolved before (a start does that anyway, replay or not).
  const resolved = config(file, cacheDir);
  const held = memorySince();
  const time = stopwatch();
  const r = (await loadRecordings(resolved, Date.now() + laterMs)).get('BTCUSDT')!;
  return JSON.stringify({ ...time(), count: r.count, ...held() });
}

/**
 * Child: what a start waits for of the recordings (openRecordings: a parse, or the rows through
 * `from` from the cache), then the background reading the rest and the cache written (close);
 * memory held once all is loaded.
 */
async function childOpen(file: string, cacheDir: string, laterMs: number): Promise<string> {
  const resolved = config(file, cacheDir);
  const held = memorySince();
  const time = stopwatch();
  const open = await openRecordings(resolved, Date.now() + laterMs);
  const started = time();
  const r = open.recordings.get('BTCUSDT')!;
  const loadedAtStart = r.loadedRows;
  open.loadRestInBackground();
  await open.backgroundEnded();
  const allLoadedMs = time().ms;
  await open.close();
  const closedMs = time().ms;
  return JSON.stringify({ ...started, loadedAtStart, allLoadedMs, closedMs, count: r.loadedRows, ...held() });
}

/** Child: one startSimulator (ports 0, manual clock), with the replayed symbol or without; its time to resolve. */
async function childStart(file: string, cacheDir: string, replay: string): Promise<string> {
  const sim = { clock: 'manual', port: 0, tls_port: 0, replay_cache_dir: cacheDir, replay: replay === 'yes' ? [{ symbol: 'BTCUSDT', file }] : [] } as const;
  // One start before, unmeasured: module loading and the first TLS context are every start's, replay or not.
  await (await startSimulator({ config: { sim: { ...sim, replay: [] } } })).stop();
  const time = stopwatch();
  const started = await startSimulator({ config: { sim } });
  const figures = time();
  await started.stop();
  return JSON.stringify(figures);
}

/** Child: the cold load's parts one by one. */
async function childPhases(file: string, cacheDir: string): Promise<string> {
  // CPU time of this process for each part (the wall clock of a shared machine says little).
  const lap = (() => {
    let cpu = process.cpuUsage();
    return () => {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      return (used.user + used.system) / 1000;
    };
  })();
  const bytes = readFileSync(file);
  const readMs = lap();
  const hash = contentHashOf(bytes);
  const hashMs = lap();
  const entry = locateSingleCsvEntry(bytes, 2 ** 31);
  if (!entry.ok) throw new Error(entry.problem);
  const pieces: Buffer[] = [];
  const zip = await inflateEntry(entry, (piece) => pieces.push(piece));
  if (!zip.ok) throw new Error(zip.problem);
  const inflateMs = lap();
  const problems = new FileProblems();
  const parser = new TradesCsvParser(file, 'aggTrades', 'BTCUSDT', { tick: '0.01', lot: '0.00001', tickDecimals: 2, lotDecimals: 5 }, problems, () => 2_600_000);
  for (const piece of pieces) parser.push(piece, false);
  parser.push(new Uint8Array(0), true);
  const r = parser.finish()!;
  const parseMs = lap();
  await writeEntry(cacheDir, { contentHash: hash, format: 'aggTrades', tickDecimals: 2, lotDecimals: 5 }, r);
  const writeMs = lap();
  return JSON.stringify({ readMs, hashMs, inflateMs, parseMs, writeMs, csvBytes: zip.size });
}

function inChild(args: string[]): Record<string, number> {
  const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--child', ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

function generateDay(dir: string, count: number): { file: string; generateMs: number; csvBytes: number; zipBytes: number } {
  const t = performance.now();
  const tape = aggregates({ seed: 2025, startUs: JAN_1_US, aggregates: count, meanGapUs: Math.floor(DAY_US / count), resolutionUs: 1, startPriceTicks: 9_350_000, volatilityTicks: 130 });
  const pieces: Buffer[] = [];
  for (const chunk of aggTradesCsv(tape, { unit: 'us', header: false, crlf: false })) pieces.push(Buffer.from(chunk, 'latin1'));
  const csv = Buffer.concat(pieces);
  const file = join(dir, 'BTCUSDT-aggTrades-2025-01-01.zip');
  writeFileSync(file, writeZip([{ name: 'BTCUSDT-aggTrades-2025-01-01.csv', data: csv }]));
  return { file, generateMs: performance.now() - t, csvBytes: csv.length, zipBytes: statSync(file).size };
}

/** Child: the floor any loader of the .zip pays (read it, inflate its entry: zlib's stream, its fastest way here), or of the cache (read the entry's bytes). */
async function childBare(kind: string, file: string): Promise<string> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const bytes = readFileSync(file);
  if (kind === 'inflate') {
    const entry = locateSingleCsvEntry(bytes, 2 ** 31);
    if (!entry.ok) throw new Error(entry.problem);
    const zip = await inflateEntry(entry, () => undefined);
    if (!zip.ok) throw new Error(zip.problem);
  }
  const used = process.cpuUsage(cpu);
  // Then one pass over the bytes read (a sum of float64s): what first touching them costs, which
  // the floor above leaves out and any use of them pays (the cache's checks do it).
  const touch = process.cpuUsage();
  // A file this large has an ArrayBuffer of its own (no pool), from offset 0.
  const words = new Float64Array(bytes.buffer, 0, Math.floor(bytes.buffer.byteLength / 8));
  let sum = 0;
  for (let i = 0; i < words.length; i++) sum += words[i]!;
  const touched = process.cpuUsage(touch);
  return JSON.stringify({ ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, touchCpuMs: (touched.user + touched.system) / 1000, sum: sum === 0.5 ? 1 : 0 });
}

interface Pair {
  readonly ms: number;
  readonly cpuMs: number;
  readonly bareMs: number;
  readonly bareCpuMs: number;
  /** One pass over the bytes the floor read: their first touch. */
  readonly touchCpuMs: number;
  readonly runs: readonly Record<string, number>[];
}

/** `rounds` x (the bare floor, then the load), alternating in fresh processes: medians of each. */
function alternate(rounds: number, bare: () => Record<string, number>, measured: (round: number) => Record<string, number>): Pair {
  const bares: Record<string, number>[] = [];
  const runs: Record<string, number>[] = [];
  for (let round = 0; round < rounds; round++) {
    bares.push(bare());
    runs.push(measured(round));
  }
  const m = (xs: Record<string, number>[], k: string) => median(xs.map((x) => x[k]!));
  return { ms: m(runs, 'ms'), cpuMs: m(runs, 'cpuMs'), bareMs: m(bares, 'ms'), bareCpuMs: m(bares, 'cpuMs'), touchCpuMs: m(bares, 'touchCpuMs'), runs };
}

function main(): void {
  const count = Number(flag('aggregates') ?? 2_500_000);
  const load = loadavg();
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'spot-sim-replay-bench-'));
  try {
    const day = generateDay(dir, count);
    const mib = (b: number) => (b / 2 ** 20).toFixed(1);
    console.log(`a day of ${count.toLocaleString('en-US')} aggregate trades: ${mib(day.csvBytes)} MiB of CSV, ${mib(day.zipBytes)} MiB zipped (generated in ${(day.generateMs / 1000).toFixed(1)} s)`);
    const f = (ms: number) => ms.toFixed(ms < 100 ? 1 : 0);
    const line = (what: string, p: Pair, bare: string, target: string) =>
      console.log(`${what}: ${f(p.ms)} ms wall, ${f(p.cpuMs)} ms CPU (${target}); ${bare}: ${f(p.bareMs)} ms wall, ${f(p.bareCpuMs)} ms CPU; ratio ${(p.cpuMs / p.bareCpuMs).toFixed(2)}x in CPU`);

    const cold = alternate(5, () => inChild(['bare', 'inflate', day.file]), (round) => inChild(['open', day.file, join(dir, `cold-${round}`), '0']));
    line('cold load (empty cache: what a first start waits for), median of 5 processes', cold, 'reading and inflating the .zip alone', 'target < 2000 ms');
    console.log(`  the cache entry written in the background by ${f(median(cold.runs.map((c) => c.closedMs!)))} ms (median)`);
    const bytesPerPrint = median(cold.runs.map((c) => c.arrayBuffers! / c.count!));
    const rssPerPrint = median(cold.runs.map((c) => c.rss! / c.count!));
    console.log(`memory once loaded, after gc: ${bytesPerPrint.toFixed(1)} B a print in array buffers, RSS +${rssPerPrint.toFixed(1)} B a print (target < 64 B)`);

    // A primed cache: the entry, and the file's hash remembered by its identity (as for a file downloaded before).
    const cache = join(dir, 'cache');
    inChild(['load', day.file, cache, '60000']);
    const entry = join(cache, readdirSync(cache).find((name) => name.endsWith('.bin'))!);
    const starts = alternate(7, () => inChild(['start', day.file, cache, 'no']), () => inChild(['start', day.file, cache, 'yes']));
    const added = starts.ms - starts.bareMs;
    console.log(`a later worker's startSimulator, median of 7 processes each: with the replayed day ${f(starts.ms)} ms wall, ${f(starts.cpuMs)} ms CPU; without ${f(starts.bareMs)} ms wall, ${f(starts.bareCpuMs)} ms CPU; the replay adds ${f(added)} ms wall, ${f(starts.cpuMs - starts.bareCpuMs)} ms CPU (target < 50 ms)`);
    const opened = median(Array.from({ length: 7 }, () => inChild(['open', day.file, cache, '60000'])).map((o) => o.ms!));
    const openRuns = Array.from({ length: 5 }, () => inChild(['open', day.file, cache, '60000']));
    console.log(`  what a start reads of the entry (openRecordings, median of 7): ${f(opened)} ms wall, ${openRuns[0]!.loadedAtStart!.toLocaleString('en-US')} of ${openRuns[0]!.count!.toLocaleString('en-US')} rows; the background reads the rest by ${f(median(openRuns.map((o) => o.allLoadedMs!)))} ms (median of 5)`);
    const warm = alternate(7, () => inChild(['bare', 'read', entry]), () => inChild(['load', day.file, cache, '60000']));
    line('  every row from the cache at once (loadRecordings), median of 7 processes', warm, `reading the entry's ${mib(statSync(entry).size)} MiB alone`, 'what a start paid before the rows were read lazily');
    console.log(`  (one pass over the entry's bytes just read, as the cache's checks make: ${f(warm.touchCpuMs)} ms CPU more; read + pass ${f(warm.bareCpuMs + warm.touchCpuMs)} ms, ratio ${(warm.cpuMs / (warm.bareCpuMs + warm.touchCpuMs)).toFixed(2)}x)`);
    const warmRssPerPrint = median(warm.runs.map((w) => w.rss! / w.count!));
    console.log(`memory once loaded from the cache, after gc: ${median(warm.runs.map((w) => w.arrayBuffers! / w.count!)).toFixed(1)} B a print in array buffers, RSS +${warmRssPerPrint.toFixed(1)} B a print`);
    const copy = join(dir, 'copy', 'BTCUSDT-aggTrades-2025-01-01.zip');
    mkdirSync(join(dir, 'copy'));
    copyFileSync(day.file, copy);
    const copied = median(Array.from({ length: 3 }, () => inChild(['load', copy, cache, '0']).cpuMs!));
    console.log(`the same bytes at another path (hashed, then the same entry), median of 3: ${f(copied)} ms CPU`);

    const phases = inChild(['phases', day.file, join(dir, 'phases')]);
    const part = (k: string) => `${phases[k]!.toFixed(0)} ms`;
    console.log(`cold load's parts one after another (CPU): read ${part('readMs')}, SHA-256 ${part('hashMs')}, inflate ${part('inflateMs')}, parse ${part('parseMs')}, write the cache ${part('writeMs')} (a start overlaps the inflate and the parse, and writes the cache after it)`);
    console.log(`load average at start ${load.map((x) => x.toFixed(2)).join(' / ')}, ${((performance.now() - started) / 1000).toFixed(0)} s`);

    if (flag('no-json') === undefined) {
      const figures = (p: Pair) => ({ medianMs: p.ms, medianCpuMs: p.cpuMs, bareMedianMs: p.bareMs, bareMedianCpuMs: p.bareCpuMs, bareTouchMedianCpuMs: p.touchCpuMs, runsMs: p.runs.map((r) => r.ms) });
      writeResults(new URL('results/replay-load.json', import.meta.url).pathname, {
        ...runInfo('replay-load'),
        loadAverage: { atStart: load },
        wallSeconds: (performance.now() - started) / 1000,
        day: { aggregates: count, csvBytes: day.csvBytes, zipBytes: day.zipBytes },
        cold: figures(cold),
        memory: { bytesPerPrint, rssBytesPerPrint: rssPerPrint, rssBytesPerPrintFromCache: warmRssPerPrint },
        cache: { startWithReplayMs: starts.ms, startWithoutReplayMs: starts.bareMs, addedMs: added, openMedianMs: opened, allLoadedMedianMs: median(openRuns.map((o) => o.allLoadedMs!)), everyRow: figures(warm), entryBytes: statSync(entry).size, otherPathMedianCpuMs: copied },
        phases,
        targets: {
          cold: { target: '< 2 s', met: cold.ms < 2000 },
          bytesPerPrint: { target: '< 64 B', met: bytesPerPrint < 64 },
          cache: { target: '< 50 ms', met: added < 50 },
        },
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [mode, a, b, c] = process.argv.slice(3) as [string, string, string, string];
  if (mode === 'open') console.log(await childOpen(a, b, Number(c)));
  else if (mode === 'start') console.log(await childStart(a, b, c));
  else console.log(mode === 'phases' ? await childPhases(a, b) : mode === 'bare' ? await childBare(a, b) : await childLoad(a, b, Number(c)));
} else {
  main();
}
