// Loading a recorded day (issue 35 item 6): a full day of a liquid symbol, 2.5 million aggregate
// trades of BTCUSDT (synthetic, scripts/replay/synthetic-trades.ts) as a .zip like the public
// data's, generated into a temporary directory at bench time (the package ships no market data):
//   cold      loadRecordings with an empty cache: read, hash, inflate, parse, write the cache
//             (target < 2 s); each in a fresh process, like a worker's first start
//   bytes     memory per print once loaded (after gc: array buffers and RSS growth over the count;
//             target < 64 B)
//   cache     loadRecordings of a later worker or run: the file's hash remembered, the columns
//             read from the cache (target: adds < 50 ms to a worker's start); also a copy of the
//             file at another path (hashed again, then the same entry)
//   phases    the cold load's parts, timed one by one in a process of their own
//
//   node --expose-gc --import tsx bench/replay-load.bench.ts [--aggregates=N] [--no-json]

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { aggregates, aggTradesCsv } from '../scripts/replay/synthetic-trades.ts';
import { writeZip } from '../scripts/replay/zip-writer.ts';
import { resolveConfig } from '../src/config/index.ts';
import { contentHashOf, writeEntry } from '../src/replay/cache.ts';
import { loadRecordings } from '../src/replay/index.ts';
import { readTradesCsv } from '../src/replay/trades-file.ts';
import { readSingleCsvEntry } from '../src/replay/zip.ts';
import { FileProblems } from '../src/file-problems.ts';
import { flag, median, runInfo, writeResults } from './support.ts';

const DAY_US = 86_400_000_000;
const JAN_1_US = Date.UTC(2025, 0, 1) * 1000;

function config(file: string, cacheDir: string) {
  return resolveConfig({ sim: { replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: cacheDir } });
}

/** Child: one loadRecordings, timed; `laterMs` moves "now" past the racy window so the hash is remembered. */
function childLoad(file: string, cacheDir: string, laterMs: number): string {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const r = loadRecordings(config(file, cacheDir), Date.now() + laterMs).get('BTCUSDT')!;
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  gc?.();
  const after = process.memoryUsage();
  return JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000, count: r.count, arrayBuffers: after.arrayBuffers - before.arrayBuffers, rss: after.rss - before.rss, heap: after.heapUsed - before.heapUsed });
}

/** Child: the cold load's parts one by one. */
function childPhases(file: string, cacheDir: string): string {
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
  const zip = readSingleCsvEntry(bytes, 2 ** 31);
  if (!zip.ok) throw new Error(zip.problem);
  const inflateMs = lap();
  const problems = new FileProblems();
  const r = readTradesCsv(zip.data, file, 'aggTrades', 'BTCUSDT', { tick: '0.01', lot: '0.00001', tickDecimals: 2, lotDecimals: 5 }, problems)!;
  const parseMs = lap();
  writeEntry(cacheDir, { contentHash: hash, format: 'aggTrades', tickDecimals: 2, lotDecimals: 5 }, r);
  const writeMs = lap();
  return JSON.stringify({ readMs, hashMs, inflateMs, parseMs, writeMs, csvBytes: zip.data.length });
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

function main(): void {
  const count = Number(flag('aggregates') ?? 2_500_000);
  const load = loadavg();
  const dir = mkdtempSync(join(tmpdir(), 'spot-sim-replay-bench-'));
  try {
    const day = generateDay(dir, count);
    const mib = (b: number) => (b / 2 ** 20).toFixed(1);
    console.log(`a day of ${count.toLocaleString('en-US')} aggregate trades: ${mib(day.csvBytes)} MiB of CSV, ${mib(day.zipBytes)} MiB zipped (generated in ${(day.generateMs / 1000).toFixed(1)} s)`);

    const cold = Array.from({ length: 3 }, (_, i) => inChild(['load', day.file, join(dir, `cold-${i}`), '0']));
    const coldMs = median(cold.map((c) => c.ms!));
    const coldCpuMs = median(cold.map((c) => c.cpuMs!));
    const bytesPerPrint = median(cold.map((c) => c.arrayBuffers! / c.count!));
    const rssPerPrint = median(cold.map((c) => c.rss! / c.count!));
    console.log(`cold load (empty cache), median of 3 processes: ${coldMs.toFixed(0)} ms wall, ${coldCpuMs.toFixed(0)} ms CPU (target < 2000 ms; wall ${cold.map((c) => c.ms!.toFixed(0)).join(', ')})`);
    console.log(`memory once loaded, after gc: ${bytesPerPrint.toFixed(1)} B a print in array buffers, RSS +${rssPerPrint.toFixed(1)} B a print (target < 64 B)`);

    // A primed cache: the entry, and the file's hash remembered by its identity.
    const cache = join(dir, 'cache');
    inChild(['load', day.file, cache, '60000']);
    const warm = Array.from({ length: 7 }, () => inChild(['load', day.file, cache, '60000']));
    const warmMs = median(warm.map((w) => w.ms!));
    const warmCpuMs = median(warm.map((w) => w.cpuMs!));
    const warmBytes = median(warm.map((w) => w.arrayBuffers! / w.count!));
    console.log(`a later worker's load from the cache, median of 7 processes: ${warmMs.toFixed(1)} ms wall, ${warmCpuMs.toFixed(1)} ms CPU (target < 50 ms; wall ${warm.map((w) => w.ms!.toFixed(1)).join(', ')}); ${warmBytes.toFixed(1)} B a print`);
    const copy = join(dir, 'copy', 'BTCUSDT-aggTrades-2025-01-01.zip');
    mkdirSync(join(dir, 'copy'));
    copyFileSync(day.file, copy);
    const copied = Array.from({ length: 3 }, () => inChild(['load', copy, cache, '0']));
    const copiedMs = median(copied.map((c) => c.ms!));
    console.log(`the same bytes at another path (hashed, then the same entry), median of 3: ${copiedMs.toFixed(1)} ms`);

    const phases = inChild(['phases', day.file, join(dir, 'phases')]);
    const f = (k: string) => `${phases[k]!.toFixed(0)} ms`;
    console.log(`cold load's parts: read ${f('readMs')}, SHA-256 ${f('hashMs')}, inflate ${f('inflateMs')}, parse ${f('parseMs')}, write the cache ${f('writeMs')}`);

    if (flag('no-json') === undefined) {
      writeResults(new URL('results/replay-load.json', import.meta.url).pathname, {
        ...runInfo('replay-load'),
        loadAverage: load,
        day: { aggregates: count, csvBytes: day.csvBytes, zipBytes: day.zipBytes },
        cold: { medianMs: coldMs, medianCpuMs: coldCpuMs, runsMs: cold.map((c) => c.ms) },
        memory: { bytesPerPrint, rssBytesPerPrint: rssPerPrint },
        cache: { medianMs: warmMs, medianCpuMs: warmCpuMs, runsMs: warm.map((w) => w.ms), otherPathMedianMs: copiedMs },
        phases,
        targets: {
          cold: { target: '< 2 s', met: coldMs < 2000 },
          bytesPerPrint: { target: '< 64 B', met: bytesPerPrint < 64 },
          cache: { target: '< 50 ms', met: warmMs < 50 },
        },
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [mode, file, cacheDir, later] = process.argv.slice(3) as [string, string, string, string];
  console.log(mode === 'phases' ? childPhases(file, cacheDir) : childLoad(file, cacheDir, Number(later)));
} else {
  main();
}
