// Playwright routing (routeBinanceThroughPlaywright, the Firefox/WebKit path of
// routeBinanceHosts) when a test ends while a routed request is still being fetched from the
// simulator: the test must end cleanly. Before the fix, the route callback's route.fetch threw
// "route.fetch: Test ended." and failed the test (seen as a flake of playwright-routing.spec.ts
// whenever a page polled at the wrong moment); here a fault delays the answer so the request is
// always in flight at the end.
import { routeBinanceThroughPlaywright } from '../../src/fixture/route-binance.ts';
import { expect, test } from './support.ts';

test.use({ routeBinanceHosts: false, simConfig: { sim: { generator: { enabled: false } } } });

test('a test that ends while a routed request is in flight ends cleanly', async ({ context, page, sim }) => {
  await routeBinanceThroughPlaywright(context, sim.urls);
  sim.faults.use({ on: 'time', action: { delayMs: 3000 } });
  await page.goto('about:blank');
  const issued = page.waitForRequest('https://api.binance.com/api/v3/time');
  await page.evaluate(() => {
    void fetch('https://api.binance.com/api/v3/time').catch(() => undefined);
  });
  await issued;
  expect(sim.faults.rules()).toHaveLength(1);
});
