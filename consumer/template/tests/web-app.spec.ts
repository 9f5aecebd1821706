// API.md section 8, as written: the app under test started per worker, its Binance traffic
// routed to the worker's exchange, the book scripted by the test.
import { test, expect } from 'spot-sim/fixture';

test.use({
  routeBinanceHosts: true,                        // the page's Binance traffic goes to this worker's exchange
  appServer: { command: 'npm run dev -- --port {port} --strictPort', url: 'http://127.0.0.1:{port}' },
});

test('the book renders and an order fills', async ({ page, sim, faults, market }) => {
  await page.goto('/');                           // baseURL = this worker's app server
  market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  await expect(page.getByTestId('best-ask')).toHaveText('60,010.00');
});

test('each test starts from the configured book (simIsolation "test"): the scripted ask is gone', async ({ page, client }) => {
  await page.goto('/');
  const depth = await client.rest.depth({ symbol: 'BTCUSDT', limit: 1 });
  expect(depth.asks[0]![0]).not.toBe('60010.00000000');
  await expect(page.getByTestId('best-ask')).not.toHaveText('…');
  await expect(page.getByTestId('best-ask')).not.toHaveText('60,010.00');
});
