// The user's own test and expect (./fixtures.ts: test.extend(spotSimFixtures), and mergeExpects
// of their own matcher with spotSimMatchers). Every matcher passes once; then each fails once (on purpose),
// and consumer.test.ts reads the messages from the report.
import { test, expect } from './fixtures.js';

test('every matcher passes', async ({ client, market, faults, symbol }) => {
  expect(2).toBeEven();
  const user = await client.userData();
  const order = await client.rest.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  await expect(client).toHaveOpenOrder({ symbol, orderId: order.orderId });
  await expect(client).toHaveBalance('USDT', { locked: '59' });
  const rule = faults.use({ on: 'time', action: { delayMs: 1 } });
  await client.rest.time();
  await expect(rule).toHaveBeenHit(1);
  market.place({ symbol, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: 59000, quantity: 0.001 });
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'FILLED' });
  await expect(client).not.toHaveOpenOrder({ orderId: order.orderId });
  await expect(client).toHaveBalance('BTC', { locked: '0' });
});

test('toReceive fails', async ({ client, symbol }) => {
  const user = await client.userData();
  const order = await client.rest.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'FILLED' }, { timeout: 300 });
});

test('toHaveOpenOrder fails', async ({ client, symbol }) => {
  await client.rest.newOrder({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  await expect(client).toHaveOpenOrder({ symbol, price: '58000' }, { timeout: 300 });
});

test('toHaveBalance fails', async ({ client }) => {
  await expect(client).toHaveBalance('BTC', { free: '1' }, { timeout: 300 });
});

test('toHaveBeenHit fails', async ({ faults }) => {
  const rule = faults.use({ on: 'time', action: { delayMs: 1 } });
  await expect(rule).toHaveBeenHit(1, { timeout: 300 });
});
