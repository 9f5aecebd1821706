// A failing call fails the test that made it, at its line, awaited or not (API.md section 4.1),
// and every call through the fixture is a report step located at the test's line: fault and
// market calls, and the client's requests (`spot-sim: POST /api/v3/order`) unless
// `simClientSteps` is off. What a user sees is the report, so a nested Playwright run of a small
// suite is read back: its JSON report (status, error location and code frame per test, errors
// outside any test) and the steps with their locations.
import { test, expect } from '@playwright/test';
import { nestedConfig, reportedSteps, runNestedPlaywright, STEPS_REPORTER, type JsonReport, type JsonResult } from './support/nested-run.ts';

const INNER_SPEC = `
import { test, expect } from 'spot-sim/fixture';
test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test('an unawaited bad call', async ({ faults }) => {
  faults.rejectNextOrders(-1);
  await new Promise((resolve) => setTimeout(resolve, 200));
});

test('the next test', async ({ faults, sim }) => {
  faults.rejectNextOrders(1);
  expect(sim.faults.rules()).toHaveLength(1);
});

test('an awaited unknown rule', async ({ faults }) => {
  await faults.use({ on: 'order.nope', action: { error: -2011 } });
});

test('an unawaited bad scripted order', async ({ market }) => {
  market.place({ symbol: 'NOPEUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '1', quantity: '1' });
});

test('a refused order', async ({ client }) => {
  await client.rest.time();
  await client.rest.newOrder({ symbol: 'NOPEUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '1' });
});

test.describe('without client steps', () => {
  test.use({ simClientSteps: false });
  test('client calls are not steps', async ({ client, faults }) => {
    await client.rest.time();
    faults.skipNextDepthUpdate();
  });
});
`;

/** The 1-based line of the inner spec that contains `text`. */
function lineOf(text: string): number {
  const index = INNER_SPEC.split('\n').findIndex((l) => l.includes(text));
  if (index < 0) throw new Error(`no line with ${text}`);
  return index + 1;
}

test('a failing fixture call fails its own test at its own line, awaited or not; calls are steps at the caller', async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  const dir = testInfo.outputPath('inner');
  const run = await runNestedPlaywright(dir, {
    'inner.spec.ts': INNER_SPEC,
    'steps-reporter.ts': STEPS_REPORTER,
    'playwright.config.ts': nestedConfig({ testMatch: 'inner.spec.ts', stepsReporter: true }),
  });
  const report: JsonReport = run.report!;
  expect(report, run.output).toBeTruthy();
  const results = new Map(report.suites.flatMap((s) => [...s.specs, ...((s as { suites?: { specs: JsonReport['suites'][0]['specs'] }[] }).suites ?? []).flatMap((d) => d.specs)]).map((spec) => [spec.title, spec.tests[0]!.results[0]!]));
  const result = (title: string): JsonResult => results.get(title)!;
  // Nothing is reported outside a test ("1 error was not a part of any test").
  expect(report.errors ?? [], run.output).toEqual([]);

  const failedAt = (title: string, marker: string, message: RegExp) => {
    const r = result(title);
    expect.soft(r.status, title).toBe('failed');
    expect.soft(r.errors, title).toHaveLength(1);
    expect.soft(r.error?.message, title).toMatch(message);
    expect.soft(r.error?.location?.file, title).toMatch(/inner\.spec\.ts$/);
    expect.soft(r.error?.location?.line, title).toBe(lineOf(marker));
    // The code frame points at the caller's line.
    expect.soft(r.error?.snippet?.replace(/\u001b\[[0-9;]*m/g, ''), title).toMatch(new RegExp(`> +${lineOf(marker)} \\|.*${marker.replace(/[()[\]{}.*+?^$|\\]/g, '\\$&')}`));
  };
  failedAt('an unawaited bad call', 'faults.rejectNextOrders(-1)', /FaultRangeError/);
  expect(result('the next test').status).toBe('passed');
  failedAt('an awaited unknown rule', "faults.use({ on: 'order.nope'", /FaultRuleError: unknown endpoint 'order.nope'/);
  failedAt('an unawaited bad scripted order', "market.place({ symbol: 'NOPEUSDT'", /SpotSimError: 400 -1121: Invalid symbol\./);
  failedAt('a refused order', "client.rest.newOrder({ symbol: 'NOPEUSDT'", /SpotSimError: 400 -1121: Invalid symbol\./);
  expect(result('client calls are not steps').status).toBe('passed');

  // Every step is located at the line of the test that made the call (no box hides it).
  const steps = reportedSteps(dir).filter((s) => s.title.startsWith('spot-sim:'));
  const stepOf = (testTitle: string) => steps.filter((s) => s.test === testTitle).map((s) => ({ title: s.title, line: s.line, file: s.file?.replace(/.*[\\/]/, ''), error: s.error !== undefined }));
  expect(stepOf('an unawaited bad call')).toEqual([{ title: 'spot-sim: faults.rejectNextOrders(-1)', line: lineOf('faults.rejectNextOrders(-1)'), file: 'inner.spec.ts', error: true }]);
  expect(stepOf('a refused order')).toEqual([
    { title: 'spot-sim: GET /api/v3/time', line: lineOf('client.rest.time();'), file: 'inner.spec.ts', error: false },
    { title: 'spot-sim: POST /api/v3/order', line: lineOf("client.rest.newOrder({ symbol: 'NOPEUSDT'"), file: 'inner.spec.ts', error: true },
  ]);
  expect(stepOf('client calls are not steps').map((s) => s.title)).toEqual(['spot-sim: faults.skipNextDepthUpdate()']);
});
