// Fault and market calls made through the fixture show as steps of the test in the report
// (API.md section 8: `spot-sim: faults.dropMarketDataConnections()`). A report is what a
// reporter receives, so this runs a tiny suite of its own in a nested Playwright run with the
// JSON reporter and reads the steps from it: the titles with their arguments, the result an
// awaited call gives, the effect of a call that is not awaited, and a refused call failing the
// test at its step.
import { test, expect } from '@playwright/test';
import { nestedConfig, runNestedPlaywright, type JsonReport, type JsonStep } from './support/nested-run.ts';

const INNER_SPEC = `
import { test, expect } from 'spot-sim/fixture';
test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test('calls', async ({ sim, faults, market }) => {
  faults.rejectNextOrders(2); // not awaited: in force at once, as sim.faults.rejectNextOrders is
  expect(sim.faults.rules().find((r) => r.preset === 'rejectNextOrders')?.times).toBe(2);
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

/** Runs the inner suite in its own Playwright process; resolves with its JSON report. */
async function runInner(dir: string): Promise<JsonReport> {
  const run = await runNestedPlaywright(dir, { 'inner.spec.ts': INNER_SPEC, 'playwright.config.ts': nestedConfig({ testMatch: 'inner.spec.ts' }) });
  // One inner test fails on purpose: exit code 1, with a report.
  expect(run.code, `inner run output:\n${run.output}`).toBe(1);
  return run.report!;
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
