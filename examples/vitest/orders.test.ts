// The code a fixture test would write, against a running server: the same names, awaited.
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { connectSimulator, FaultRangeError, SpotSimError, type RemoteSimulator } from 'spot-sim';

let sim: RemoteSimulator;

beforeAll(async () => {
  sim = await connectSimulator(process.env.SPOT_SIM_URL ?? 'http://127.0.0.1:9080');
});
beforeEach(async () => {
  await sim.reset();
});
afterAll(async () => {
  await sim.close();
});

const buy = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '59000' } as const;

test('a resting order is filled by the scripted market', async () => {
  const user = await sim.client.userData();
  const order = await sim.client.rest.newOrder(buy);
  await sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.002' });
  let report = await user.next('executionReport');
  while (report.X !== 'FILLED') report = await user.next('executionReport');
  expect([report.i, report.z]).toEqual([order.orderId, '0.00200000']);
  await user.close();
});

test('faults: a refused order, then one that goes through', async () => {
  await sim.faults.rejectNextOrders(1);
  await expect(sim.client.rest.newOrder(buy)).rejects.toBeInstanceOf(SpotSimError);
  expect((await sim.client.rest.newOrder(buy)).status).toBe('NEW');
  await expect(sim.faults.rejectNextOrders(-1)).rejects.toBeInstanceOf(FaultRangeError);
});

test('the manual clock moves only when the test says so', async () => {
  const before = await sim.now();
  await sim.advanceTime(60_000);
  expect((await sim.client.rest.time()).serverTime).toBe(before + 60_000);
});
