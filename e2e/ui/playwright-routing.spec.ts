// routeBinanceHosts for browsers without host mapping (Firefox, WebKit) uses Playwright routing
// (src/fixture/route-binance.ts). Only Chromium is installed here, so the same routing is
// installed on a Chromium context directly: the trading UI, unchanged, must work through it
// as it does through host mapping (REST with signatures, market streams, the WS API user
// stream, and closes made by faults).
import { routeBinanceThroughPlaywright } from '../../src/fixture/route-binance.ts';
import { expect, openUi, QUOTING_ONLY, test, TRADING_UI } from './support.ts';

test.use({ appServer: TRADING_UI.appServer, routeBinanceHosts: false, simConfig: QUOTING_ONLY });

test.beforeEach(async ({ context, sim }) => {
  await routeBinanceThroughPlaywright(context, sim.urls);
});

test('the page trades through Playwright routing: book, signed order, user stream, fill', async ({ page, faults }) => {
  await openUi(page);
  await expect(page.getByTestId('bid-level')).toHaveCount(10);
  await page.getByTestId('order-price').fill('50000.00');
  await page.getByTestId('order-quantity').fill('0.00100');
  await page.getByTestId('order-submit').click();
  await expect(page.getByTestId('order-result')).toHaveText(/^Order \d+ NEW$/);
  const orderId = Number(/\d+/.exec((await page.getByTestId('order-result').textContent())!)![0]);
  await faults.fillOpenOrder(orderId, '0.001');
  await expect(page.locator(`[data-testid="fill"][data-order-id="${orderId}"]`)).toContainText(`order ${orderId} FILLED`);
});

test('a server-side drop reaches the page as a close with its code, and the page reconnects through the route', async ({ page, faults }) => {
  await openUi(page);
  await faults.dropMarketDataConnections();
  await expect(page.getByTestId('conn-state')).toHaveText('reconnecting');
  await expect(page.getByTestId('conn-detail')).toContainText('connection closed (code 1006)');
  await expect(page.getByTestId('conn-state')).toHaveText('live', { timeout: 10_000 });
});
