// An app with a backend of its own (examples/order-backend): the browser talks only to the
// app; the app's server holds the secret and signs orders for the exchange whose URL it reads
// from SPOT_SIM_HTTP_URL. `appServer` starts one copy per worker, so each worker's app talks
// to that worker's simulator, and its output is attached to a failed test.
import { test, expect } from 'spot-sim/fixture';

test.use({
  appServer: { command: 'node examples/order-backend/server.mjs', url: 'http://127.0.0.1:{port}/' },
  simConfig: { sim: { generator: { enabled: false } } },
});

test('an order placed in the page goes through the backend to this worker\'s exchange', async ({ page, client, sim }) => {
  await page.goto('/');
  await page.getByTestId('price').fill('59000');
  await page.getByTestId('quantity').fill('0.001');
  await page.getByTestId('submit').click();
  await expect(page.getByTestId('result')).toHaveText(/^Order \d+ NEW$/);
  const orderId = Number(/\d+/.exec((await page.getByTestId('result').textContent())!)![0]);
  await expect(page.getByTestId('open-order')).toHaveText([`${orderId} BUY 0.00100000 @ 59000.00000000 NEW`]);
  // On this worker's simulator: the backend signed it with the simulator's credentials.
  expect((await client.rest.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).toEqual([orderId]);
  expect(sim.openClientOrderIds()).toHaveLength(1);
});

test('a refusal travels back through the backend with the reference code', async ({ page, faults }) => {
  await page.goto('/');
  await faults.rejectNextOrders(1);
  await page.getByTestId('price').fill('59000');
  await page.getByTestId('quantity').fill('0.001');
  await page.getByTestId('submit').click();
  await expect(page.getByTestId('result')).toHaveText('Rejected: Market is closed. (code -2010)');
  await expect(page.getByTestId('open-order')).toHaveCount(0);
});

test('the backend of this worker talks to this worker\'s simulator (baseURL is the app)', async ({ request, sim, baseURL }) => {
  expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  // Each worker's backend reaches its own simulator: an order made here is seen only here.
  const placed = await (await request.post('/api/orders', { data: { side: 'SELL', price: '61000', quantity: '0.002' } })).json();
  expect(placed).toMatchObject({ symbol: 'BTCUSDT', side: 'SELL', status: 'NEW' });
  expect(sim.openClientOrderIds()).toEqual([placed.clientOrderId]);
});
