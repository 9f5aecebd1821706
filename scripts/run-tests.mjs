// Runs every test runner of the project (node:test for unit tests beside the code,
// Playwright for e2e/, node:test for the packed-package consumer test in consumer/) and
// prints one closing line `N passed, M failed` computed from their real results. Exits non-zero when any test failed or a runner broke.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });

function findFiles(dir, pattern) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findFiles(path, pattern));
    else if (pattern.test(name)) out.push(path);
  }
  return out.sort();
}

let passed = 0;
let failed = 0;
let runnerBroke = false;

/** Runs node:test files through tsx: spec output on the console, TAP to a file to count. */
function runNodeTests(label, files) {
  if (files.length === 0) return;
  const tapFile = join(tmp, `${label}.tap`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [
    '--import', 'tsx', '--test',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tapFile}`,
    ...files,
  ], { cwd: root, stdio: 'inherit' });
  const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : '';
  const pass = Number(/^# pass (\d+)$/m.exec(tap)?.[1] ?? NaN);
  const fail = Number(/^# fail (\d+)$/m.exec(tap)?.[1] ?? NaN);
  const cancelled = Number(/^# cancelled (\d+)$/m.exec(tap)?.[1] ?? 0);
  if (Number.isNaN(pass) || Number.isNaN(fail)) {
    console.error(`${label} test runner produced no summary`);
    runnerBroke = true;
  } else {
    passed += pass;
    failed += fail + cancelled;
    console.log(`${label} runner: ${pass} of ${pass + fail + cancelled} tests passed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
  if (run.status !== 0 && fail + cancelled === 0) runnerBroke = true;
}

// 1. Unit tests beside the code (src/, bench/, and test/ for what tests share).
runNodeTests('unit', ['src', 'bench', 'test'].flatMap((dir) => findFiles(join(root, dir), /\.test\.ts$/)));

// 2. End-to-end tests (Playwright), counted from its JSON report.
const e2eFiles = findFiles(join(root, 'e2e'), /\.spec\.ts$/);
if (e2eFiles.length > 0) {
  const jsonFile = join(tmp, 'e2e.json');
  const e2e = spawnSync(join(root, 'node_modules/.bin/playwright'), ['test'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, PW_JSON_OUTPUT: jsonFile },
  });
  if (existsSync(jsonFile)) {
    const stats = JSON.parse(readFileSync(jsonFile, 'utf8')).stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += stats.unexpected ?? 0;
    if (e2e.status !== 0 && !stats.unexpected) runnerBroke = true;
  } else {
    console.error('Playwright produced no report');
    runnerBroke = true;
  }
}

// 3. The package as a consumer installs it (consumer/): packed, installed into scratch projects
// outside the repository, used there through its entries, bin and types.
runNodeTests('consumer', findFiles(join(root, 'consumer'), /\.test\.ts$/));

if (runnerBroke) failed = Math.max(failed, 1);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
