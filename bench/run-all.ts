// Runs every bench/*.bench.ts in sequence, each in its own node process with --expose-gc (so
// heap figures are measured after full collections), and passes their output through. The
// network benchmarks (e.g. ws.bench.ts) fork their own load processes from bench/*-client.ts;
// those are not benchmarks of their own and are not run here.
//
//   npm run bench            (extra arguments are handed to every benchmark)
//   npm run bench:<name>     (one of them: bench:engine, bench:ws, ...)
//   env: BENCH_RUNS=3        runs of each benchmark; the results written are the median of
//                            them, number by number (bench/merge-runs.ts). The engine bench
//                            runs once: it takes the median of its own 5 runs per engine.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeRuns } from './merge-runs.ts';
import { envNumber, SERVER_ENV, SERVER_NODE_FLAGS, writeResults } from './support.ts';

const dir = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .map((f) => join(dir, f));

const RUNS = Math.max(1, Math.round(envNumber('BENCH_RUNS', 3)));

const failed: string[] = [];
for (const file of files) {
  const name = basename(file, '.bench.ts');
  const resultsFile = join(dir, 'results', `${name}.json`);
  const runs = name === 'engine' ? 1 : RUNS;
  const results: unknown[] = [];
  for (let run = 1; run <= runs; run++) {
    console.log(`\n=== ${file}${runs > 1 ? ` (run ${run} of ${runs})` : ''} ===`);
    const started = Date.now();
    // The benchmarks that run a server run it as `npm start` does; the engine bench is the core
    // against another library in one process, on node's defaults.
    const server = name === 'engine' ? { flags: [], env: {} } : { flags: SERVER_NODE_FLAGS, env: SERVER_ENV };
    const child = spawnSync(process.execPath, ['--expose-gc', ...server.flags, '--import', 'tsx', file, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, ...server.env, SPOT_SIM_BENCH_CHILD: '1' },
    });
    const status = child.status ?? 1;
    console.log(`=== ${file}: exit ${status}${child.signal ? ` (${child.signal})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
    if (status !== 0) {
      failed.push(`${file} (run ${run})`);
      continue;
    }
    if (existsSync(resultsFile)) results.push(JSON.parse(readFileSync(resultsFile, 'utf8')));
  }
  if (results.length > 1) writeResults(resultsFile, mergeRuns(results));
}
if (files.length === 0) console.log('no bench/*.bench.ts found');
// The report table of every figure (bench/REPORT.md), from the results just written.
spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'report.ts')], { stdio: 'inherit' });
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
