// The fixture composes like any Playwright fixture (API.md section 4.1): merged into a
// repository-wide `test`, a test that uses none of spot-sim's fixtures starts, resets and marks
// nothing; `base.extend(spotSimFixtures)` and `mergeExpects` with `spotSimMatchers` work; a
// file's `simConfig` is deep-merged over the config's. Nested Playwright runs, because what is
// checked (which listeners a worker opened, the options of a config file) is a whole run's.
import { test, expect } from '@playwright/test';
import { nestedConfig, runNestedPlaywright, type JsonReport } from './support/nested-run.ts';

const MERGED_SPEC = `
import { test as base, expect, mergeTests } from '@playwright/test';
import { test as simTest, type Simulator } from 'spot-sim/fixture';

const own = base.extend<{ greeting: string }>({ greeting: async ({}, use) => use('hello') });
const test = mergeTests(simTest, own);
const listeners = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
let statsOf: Simulator['stats'];

test('a test with only its own fixture opens no listener', ({ greeting }) => {
  expect(greeting).toBe('hello');
  expect(listeners()).toBe(0);
});

test('a test with the client gets the exchange', async ({ client, sim }) => {
  expect(listeners()).toBe(2);
  await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' });
  statsOf = sim.stats;
  expect(statsOf().openOrders).toBe(1);
});

test('a later test without spot-sim fixtures resets and marks nothing', ({ greeting }) => {
  expect(greeting).toBe('hello');
  expect(statsOf().openOrders).toBe(1);
  expect(statsOf().sinceMark.orders).toBe(1);
});

test('a test that uses only sim starts from the configured state', ({ sim }) => {
  expect(sim.stats().openOrders).toBe(0);
  expect(sim.stats().sinceMark.orders).toBe(0);
});
`;

const EXTENDED_SPEC = `
import { test as base, expect as baseExpect, mergeExpects } from '@playwright/test';
import { spotSimFixtures, spotSimMatchers, type SpotSimFixtures, type SpotSimOptions } from 'spot-sim/fixture';

const test = base.extend<SpotSimFixtures, SpotSimOptions>(spotSimFixtures);
const own = baseExpect.extend({
  toBeEven(received: number) {
    return { pass: received % 2 === 0, message: () => \`\${received} is odd\` };
  },
});
const expect = mergeExpects(own, baseExpect.extend(spotSimMatchers));
test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test('extend with spotSimFixtures, mergeExpects with spotSimMatchers', async ({ client, market, sim }) => {
  expect(2).toBeEven();
  // The config's simConfig (clock = manual) survives the file's simConfig: the two are deep-merged.
  expect(sim.config.sim.clock).toBe('manual');
  expect(sim.config.sim.generator.enabled).toBe(false);
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  await expect(client).toHaveOpenOrder({ symbol: 'BTCUSDT', orderId: order.orderId });
  const user = await client.userData();
  market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: 59000, quantity: 0.001 });
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'FILLED' });
  await expect(client).not.toHaveOpenOrder({ orderId: order.orderId });
});
`;

test('merged into a repository-wide test, spot-sim starts and resets only for the tests that use it', async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  const run = await runNestedPlaywright(testInfo.outputPath('merged'), {
    'merged.spec.ts': MERGED_SPEC,
    'playwright.config.ts': nestedConfig({ testMatch: 'merged.spec.ts', use: "{ simConfig: { sim: { generator: { enabled: false } } } }" }),
  });
  expect(run.code, run.output).toBe(0);
  expectAllPassed(run.report!, 4);
});

test('test.extend(spotSimFixtures) and mergeExpects(spotSimMatchers) compose; the config simConfig merges with the file one', async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  const run = await runNestedPlaywright(testInfo.outputPath('extended'), {
    'extended.spec.ts': EXTENDED_SPEC,
    'playwright.config.ts': nestedConfig({ testMatch: 'extended.spec.ts', use: "{ simConfig: { sim: { clock: 'manual' } } }" }),
  });
  expect(run.code, run.output).toBe(0);
  expectAllPassed(run.report!, 1);
});

function expectAllPassed(report: JsonReport, count: number): void {
  const results = report.suites.flatMap((s) => s.specs).map((spec) => ({ title: spec.title, status: spec.tests[0]!.results[0]!.status, error: spec.tests[0]!.results[0]!.error?.message }));
  expect(results).toEqual(results.map((r) => ({ title: r.title, status: 'passed', error: undefined })));
  expect(results).toHaveLength(count);
}
