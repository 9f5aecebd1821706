// API.md section 4, as written.
import { test, expect } from 'spot-sim/fixture';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });   // worker option

test('a resting order is filled', async ({ sim, client, faults }) => {
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT',
    timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  const user = await client.userData();              // WS API subscription, typed events
  faults.fillOpenOrder(order.orderId, '0.001');
  await expect.poll(() => user.last('executionReport')?.X).toBe('FILLED');
});
