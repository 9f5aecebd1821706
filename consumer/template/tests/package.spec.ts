// What a consumer relies on beyond the section-4 example: the worker's exchange on random
// ports with its shipped TLS pair (this project has a broken fixtures/tls/*.pem in its working
// directory, which must never be picked up), typed events, the fault handle, and one class
// identity between `spot-sim` and `spot-sim/fixture`.
import { test, expect, SpotSimError } from 'spot-sim/fixture';
import { SpotSimError as MainSpotSimError, SpotSimClient } from 'spot-sim';

test('the worker exchange serves https and wss with the certificate shipped in the package', async ({ sim }) => {
  expect(sim.ports.http).not.toBe(9080);
  const tls = new SpotSimClient(sim, { tls: true });
  try {
    expect((await tls.rest.time()).serverTime).toBeGreaterThan(0);
    // Market data from the packed package: the last one-minute candle of the history at start.
    const [candle] = await tls.rest.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 1 });
    expect(candle![0] % 60_000).toBe(0);
    expect(Number(candle![4])).toBeGreaterThan(0);
    const api = await tls.wsApi();
    expect(await api.depth({ symbol: 'BTCUSDT', limit: 5 })).toHaveProperty('lastUpdateId');
  } finally {
    await tls.close();
  }
});

test('a refusal is a SpotSimError from either entry, with the reference code', async ({ client }) => {
  expect(SpotSimError).toBe(MainSpotSimError);
  const error = await client.rest.depth({ symbol: 'NOPE' }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SpotSimError);
  expect((error as InstanceType<typeof SpotSimError>).code).toBe(-1121);
});

test('next() narrows to the event type and faults act on the worker exchange', async ({ client, faults }) => {
  const user = await client.userData();
  faults.rejectNextOrders(1);
  await expect(client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' })).rejects.toThrow();
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' });
  const report = await user.next('executionReport');
  expect(report.i).toBe(order.orderId);
  expect(report.x).toBe('NEW');
  // allOrders (API.md section 10) from the packed client: the open order is listed.
  expect((await client.rest.allOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).toContain(order.orderId);
});
