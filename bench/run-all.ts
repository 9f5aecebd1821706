// Runs every bench/*.bench.ts in sequence, each in its own node process with --expose-gc (so
// heap figures are measured after full collections), and passes their output through. The
// network benchmarks (e.g. ws.bench.ts) fork their own load processes from bench/*-client.ts;
// those are not benchmarks of their own and are not run here.
//
//   npm run bench            (extra arguments are handed to every benchmark)
//   npm run bench:<name>     (one of them: bench:engine, bench:ws, ...)

import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .map((f) => join(dir, f));

const failed: string[] = [];
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const started = Date.now();
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SPOT_SIM_BENCH_CHILD: '1' },
  });
  const status = child.status ?? 1;
  console.log(`=== ${file}: exit ${status}${child.signal ? ` (${child.signal})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`);
  if (status !== 0) failed.push(file);
}
if (files.length === 0) console.log('no bench/*.bench.ts found');
// The report table of every figure (bench/REPORT.md), from the results just written.
spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'report.ts')], { stdio: 'inherit' });
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
