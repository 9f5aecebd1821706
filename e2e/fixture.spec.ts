// The fixture as a user's suite meets it (API.md section 4): `import { test } from
// 'spot-sim/fixture'`, a quiet book via `test.use`, the typed client and the fault handle.
import { test, expect } from 'spot-sim/fixture';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test('a resting order is filled through fillOpenOrder and the user stream reports it', async ({ client, faults }) => {
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  const user = await client.userData();
  expect(await faults.fillOpenOrder(order.orderId, '0.001')).toBe('0.00100000');
  const filled = await user.next((e) => e.e === 'executionReport' && e.X === 'FILLED');
  expect(filled).toMatchObject({ i: order.orderId, x: 'TRADE', l: '0.00100000', L: '59000.00000000' });
  const position = await user.next('outboundAccountPosition');
  expect(position.e).toBe('outboundAccountPosition');
});

test('stats since mark count this test only', async ({ sim, client }) => {
  const before = sim.stats().sinceMark;
  expect(before.orders).toBe(0);
  await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '70000' });
  await client.rest.openOrders({ symbol: 'BTCUSDT' });
  await client.rest.cancelOpenOrders({ symbol: 'BTCUSDT' });
  expect(sim.stats().sinceMark).toMatchObject({ orders: 1, cancels: 1, cancelAlls: 1, openOrderQueries: 1, minOpenOrders: 0 });
  expect(sim.openClientOrderIds()).toEqual([]);
});
