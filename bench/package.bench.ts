// Package benchmark (issue 12's figures): the packed tarball's size and file count, the install
// time of the tarball into an empty project (npm's cache warm, as on a developer's machine
// after the first install), and the time from `import 'spot-sim/fixture'` to the first test
// body of a consumer's Playwright run (the fixture module, the worker's simulator and a client:
// what every click in VS Code pays), median of 5 runs.
//
//   npm run bench:package
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProject, pack, removeScratch, run, scratchRoot } from '../consumer/scratch.ts';
import { median, runInfo, writeResults } from './support.ts';

const RUNS = 5;
const root = scratchRoot();
try {
  const packed = pack(join(root, 'pack'));
  const installs = [1, 2, 3].map((i) => createProject(join(root, `install-${i}`), 'esm', packed.tarball).installMs);
  const project = createProject(root, 'esm', packed.tarball);
  const firstTestMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const timingFile = join(project.dir, `timing-${i}.txt`);
    const result = run('npx', ['playwright', 'test', '-c', 'timing/playwright.config.ts'], project.dir, { env: { TIMING_FILE: timingFile }, timeoutMs: 60_000 });
    if (result.status !== 0) throw new Error(`timing run failed:\n${result.stdout}\n${result.stderr}`);
    firstTestMs.push(Number(readFileSync(timingFile, 'utf8')));
  }
  const results = {
    ...runInfo('package'),
    tarball: { bytes: packed.bytes, files: packed.files.length },
    installMs: { median: median(installs), runs: installs },
    importToFirstTestMs: { median: median(firstTestMs), runs: firstTestMs },
  };
  console.log(`tarball: ${(packed.bytes / 1024).toFixed(1)} KiB, ${packed.files.length} files`);
  console.log(`install of the tarball (+ @playwright/test, typescript, @types/node) into an empty project: median ${median(installs).toFixed(0)} ms of ${installs.map((x) => x.toFixed(0)).join(', ')}`);
  console.log(`import 'spot-sim/fixture' -> first test body: median ${median(firstTestMs).toFixed(1)} ms of ${firstTestMs.map((x) => x.toFixed(1)).join(', ')}`);
  writeResults(join(import.meta.dirname, 'results', 'package.json'), results);
} finally {
  removeScratch(root);
}
