// The trading UI example's test setup, shared by its specs: Chromium, the app served per worker
// by `appServer`, its production hosts routed to the worker's simulator, and a page that fails
// the test on any error of its own.
import type { Page } from '@playwright/test';
import { test as simTest, expect } from 'spot-sim/fixture';
export { expect };

export const SYMBOL = 'BTCUSDT';

interface UiFixtures {
  /** The page's uncaught errors and console errors; the test fails if there are any. */
  pageProblems: string[];
}

export const test = simTest.extend<UiFixtures>({
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // A refused request (e.g. the injected -2010) is logged by Chromium as a failed
        // resource; the page handles it. Anything else (CORS, script errors) is a problem.
        if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
          problems.push(`console error: ${message.text()}`);
        }
      });
      await use(problems);
      expect(problems, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** The app and its routing, for `test.use` at the top of each spec. */
export const TRADING_UI = {
  routeBinanceHosts: true,
  appServer: { command: 'node examples/trading-ui/server.mjs', url: 'http://127.0.0.1:{port}/' },
} as const;

/** The generator quotes but sends no market orders (see the spec that uses it). */
export const QUOTING_ONLY = { sim: { generator: { market_rate_per_s: 0 } } };

/** Opens the app (baseURL: this worker's app server) and waits until market and user data are live. */
export async function openUi(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('symbol')).toHaveText(SYMBOL);
  await expect(page.getByTestId('conn-state')).toHaveText('live');
  await expect(page.getByTestId('user-state')).toHaveText('live');
}

