// Fault and market calls made through the fixture show as steps of the test in the report
// (API.md section 8: `spot-sim: faults.dropMarketDataConnections()`). A report is what a
// reporter receives, so this runs a tiny suite of its own in a nested Playwright run with the
// JSON reporter and reads the steps from it: the titles with their arguments, the result an
// awaited call gives, the effect of a call that is not awaited, and a refused call failing the
// test at its step.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

const INNER_SPEC = `
import { test, expect } from 'spot-sim/fixture';
test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test('calls', async ({ sim, faults, market }) => {
  faults.rejectNextOrders(2); // not awaited: in force at once, as sim.faults.rejectNextOrders is
  expect(sim.service.faults.armed('rejectOrder')).toBe(2);
  expect(await faults.dropMarketDataConnections()).toBe(0);
  const id = await market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  expect(await market.cancel('BTCUSDT', id)).toBe(true);
  await test.step('my own step', async () => {
    await faults.setUserStreamMuted(true);
  });
});

test('a refused call', async ({ market }) => {
  await market.cancelAll('NOPEUSDT');
});
`;

const INNER_CONFIG = `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  testMatch: 'inner.spec.ts',
  outputDir: './test-results',
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['json', { outputFile: './report.json' }]],
});
`;

interface JsonStep {
  title: string;
  error?: { message?: string };
  steps?: JsonStep[];
}
interface JsonResult {
  status: string;
  errors: { message?: string }[];
  steps: JsonStep[];
}
interface JsonReport {
  suites: { specs: { title: string; tests: { results: JsonResult[] }[] }[] }[];
}

/** Runs the inner suite in its own Playwright process; resolves with its JSON report. */
async function runInner(dir: string): Promise<JsonReport> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'inner.spec.ts'), INNER_SPEC);
  writeFileSync(join(dir, 'playwright.config.ts'), INNER_CONFIG);
  // The outer worker's variables (worker index, loader settings) must not leak into the inner run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TEST_|PW_|PLAYWRIGHT_)/.test(k) && k !== 'NODE_OPTIONS'));
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, 'test', '-c', join(dir, 'playwright.config.ts')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  // One inner test fails on purpose: exit code 1, with a report.
  expect(code, `inner run output:\n${output}`).toBe(1);
  return JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as JsonReport;
}

test('fault and market calls through the fixture are report steps titled with their arguments', async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  const report = await runInner(testInfo.outputPath('inner'));
  const specs = report.suites.flatMap((s) => s.specs);
  const result = (title: string) => specs.find((s) => s.title === title)!.tests[0]!.results[0]!;

  const calls = result('calls');
  expect(calls.status).toBe('passed');
  const titles = (steps: JsonStep[]): unknown[] => steps.map((s) => (s.steps && s.steps.length > 0 ? { [s.title]: titles(s.steps) } : s.title));
  expect(titles(calls.steps)).toEqual([
    'spot-sim: faults.rejectNextOrders(2)',
    'spot-sim: faults.dropMarketDataConnections()',
    'spot-sim: market.place({symbol: "BTCUSDT", side: "SELL", type: "LIMIT", timeInForce: "GTC", price: "60010", quantity: "0.5"})',
    'spot-sim: market.cancel("BTCUSDT", 1)',
    { 'my own step': ['spot-sim: faults.setUserStreamMuted(true)'] },
  ]);

  const refused = result('a refused call');
  expect(refused.status).toBe('failed');
  expect(refused.steps.map((s) => s.title)).toEqual(['spot-sim: market.cancelAll("NOPEUSDT")']);
  expect(refused.steps[0]!.error?.message).toContain('400 -1121: Invalid symbol.');
  expect(refused.errors[0]?.message).toContain('400 -1121: Invalid symbol.');
});
