// The same calls a fixture test makes, through connectSimulator: each returns a Promise.
import { afterAll, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { connectSimulator, SpotSimError, type RemoteSimulator } from 'spot-sim';

let sim: RemoteSimulator;

beforeAll(async () => {
  sim = await connectSimulator(inject('simUrl'));
});
afterAll(async () => {
  await sim.close();
});
beforeEach(async () => {
  await sim.reset(); // every test starts from the configured exchange
});

test('a resting order is filled by a fault', async () => {
  const order = await sim.client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  expect(await sim.faults.fillOpenOrder(order.orderId, '0.001')).toBe('0.001');
  const filled = await sim.client.rest.getOrder({ symbol: 'BTCUSDT', orderId: order.orderId }).catch((e: unknown) => e);
  // A filled order is forgotten by default (ended_orders = "forget"): -2013.
  expect(filled).toBeInstanceOf(SpotSimError);
  expect((filled as SpotSimError).code).toBe(-2013);
});

test('the scripted market sets the touch, and a rejection fault refuses the next order', async () => {
  await sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  expect((await sim.client.rest.bookTicker({ symbol: 'BTCUSDT' })).askPrice).toBe('60010.00000000');
  await sim.faults.rejectNextOrders(1);
  await expect(sim.client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' })).rejects.toMatchObject({ code: -2010 });
});
