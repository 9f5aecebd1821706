// Example: a bot that places over the WS API and, when the reply does not come, reconciles by
// its own newClientOrderId instead of placing a duplicate (bots/reconciling-placer.ts).
import { test, expect } from 'spot-sim/fixture';
import { ReconcilingPlacer, type PlaceParams } from './bots/reconciling-placer.ts';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

/** A client order id of this test only (1-36 of [A-Za-z0-9_-]). */
function clientOrderId(prefix: string): string {
  return `${prefix}-${test.info().testId.slice(0, 12)}-${test.info().repeatEachIndex}`;
}

function restingBuy(newClientOrderId: string): PlaceParams {
  return { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', newClientOrderId };
}

test('a swallowed reply: the bot times out, finds its order by client id, and places no duplicate', async ({ sim, client, faults }) => {
  const api = await client.wsApi();
  const bot = new ReconcilingPlacer(api, { replyTimeoutMs: 300 });
  const id = clientOrderId('swallow');
  faults.swallowNextWsApiResponses(1);

  const placed = await bot.place(restingBuy(id));

  expect(placed.via).toBe('reconciled');
  expect(placed.placements).toBe(1);
  expect(placed.order).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: id, status: 'NEW' });
  expect(bot.journal).toEqual([`place ${id}`, 'no reply within 300 ms', `found ${id}: order ${placed.order.orderId} NEW`]);
  expect(sim.openClientOrderIds().filter((c) => c === id)).toEqual([id]);
  expect(sim.stats().sinceMark.orders).toBe(1);
  const open = await client.rest.openOrders({ symbol: 'BTCUSDT' });
  expect(open.filter((o) => o.clientOrderId === id).map((o) => o.orderId)).toEqual([placed.order.orderId]);
});

test('a late reply: the bot reconciles by client id instead of placing again', async ({ sim, client, faults }) => {
  const api = await client.wsApi();
  const bot = new ReconcilingPlacer(api, { replyTimeoutMs: 200 });
  const id = clientOrderId('late');
  // Order replies come 600 ms late; the WS API answers in request order, so the status query
  // is answered right after the late reply.
  faults.setAckDelayMs(600);

  const placed = await bot.place(restingBuy(id));

  expect(placed.via).toBe('reconciled');
  expect(placed.placements).toBe(1);
  expect(placed.order).toMatchObject({ clientOrderId: id, status: 'NEW' });
  expect(bot.journal).toEqual([`place ${id}`, 'no reply within 200 ms', `found ${id}: order ${placed.order.orderId} NEW`]);
  expect(sim.openClientOrderIds().filter((c) => c === id)).toEqual([id]);
  expect(sim.stats().sinceMark.orders).toBe(1);
});

test('the reply in time: no reconciliation needed', async ({ sim, client }) => {
  const api = await client.wsApi();
  const bot = new ReconcilingPlacer(api, { replyTimeoutMs: 2_000 });
  const id = clientOrderId('prompt');
  const placed = await bot.place(restingBuy(id));
  expect(placed.via).toBe('reply');
  expect(bot.journal).toEqual([`place ${id}`, `reply: order ${placed.order.orderId} NEW`]);
  expect(sim.openClientOrderIds().filter((c) => c === id)).toEqual([id]);
  expect(sim.stats().sinceMark.orders).toBe(1);
});
