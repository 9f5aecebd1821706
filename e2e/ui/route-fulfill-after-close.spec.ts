// Playwright routing (routeBinanceThroughPlaywright) when the context closes between the route's
// fetch from the simulator and its fulfill. BrowserContext.close() first disposes the context's
// request context, which drops every fetched answer; a fulfill after that throws "Fetch response
// has been disposed". Seen once in CI as a failure of playwright-routing.spec.ts at teardown.
// Here a context whose routes dispose `context.request` right after each fetch (close's first
// step) makes the race certain.
import type { BrowserContext, Route } from '@playwright/test';
import { routeBinanceThroughPlaywright } from '../../src/fixture/route-binance.ts';
import { expect, test } from './support.ts';

test.use({ routeBinanceHosts: false, simConfig: { sim: { generator: { enabled: false } } } });

/** `context`, except that its routes' fetches dispose the request context before they return. */
function disposingAfterEachFetch(context: BrowserContext, handlerOutcomes: unknown[]): BrowserContext {
  const routeOf = (route: Route): Route =>
    new Proxy(route, {
      get(target, key) {
        if (key === 'fetch') {
          return async (options?: Parameters<Route['fetch']>[0]) => {
            const response = await target.fetch(options);
            await context.request.dispose();
            return response;
          };
        }
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(context, {
    get(target, key) {
      if (key !== 'route') return Reflect.get(target, key);
      return (url: Parameters<BrowserContext['route']>[0], handler: (route: Route) => Promise<unknown>) =>
        target.route(url, async (route) => {
          // What the handler does is what the test asserts on, so it is recorded, not rethrown.
          handlerOutcomes.push(await handler(routeOf(route)).then(() => 'returned', (error: unknown) => error));
        });
    },
  });
}

test('a fetched answer dropped by the closing context: the route callback does not throw, the page request fails', async ({ browser, sim }) => {
  const context = await browser.newContext();
  try {
    const handlerOutcomes: unknown[] = [];
    await routeBinanceThroughPlaywright(disposingAfterEachFetch(context, handlerOutcomes), sim.urls);
    const page = await context.newPage();
    const pageFetch = await page.evaluate(() =>
      fetch('https://api.binance.com/api/v3/time').then(
        (response) => `status ${response.status}`,
        (error: Error) => `rejected: ${error.message}`,
      ),
    );
    expect(pageFetch).toBe('rejected: Failed to fetch');
    expect(handlerOutcomes).toEqual(['returned']);
  } finally {
    await context.close();
  }
});
