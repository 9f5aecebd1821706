// Conditional orders with `[sim] order_types = "reference"` (docs/orders.md), through the
// fixture over real sockets: a stop waits off the book, the scripted market's trades move the
// last price, the trade at its stop price triggers it and it trades; the user-data events in
// their order (NEW waiting, NEW on trigger with `w`/`W`, TRADE), the trailing stop's `d`/`D`,
// the queries' `stopPrice`, `toHaveOpenOrder` on working state, `stats().triggers` in process
// and over the control API.
import { test, expect } from 'spot-sim/fixture';
import type { ExecutionReportEvent } from 'spot-sim';
import { REFERENCE, reportsOf, SYMBOL, tradeAt } from './support/reference-orders.ts';

test.use({ simConfig: REFERENCE });

const isReport = (orderId: number, x: string, X: string) => (e: { e: string }): e is ExecutionReportEvent =>
  e.e === 'executionReport' && (e as ExecutionReportEvent).i === orderId && (e as ExecutionReportEvent).x === x && (e as ExecutionReportEvent).X === X;

test('STOP_LOSS_LIMIT: it waits off the book, the trade at its stop price triggers it, it fills; its events in order', async ({ sim, client, market }) => {
  const user = await client.userData();
  const triggersBefore = sim.stats().triggers;
  tradeAt(market, '60000');
  const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '58990', stopPrice: '59000' });
  // A stop's reply defaults to ACK (rest-api.md: MARKET and LIMIT default to FULL, the others to ACK).
  expect(Object.keys(placed)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
  await expect(client).toHaveOpenOrder({ orderId: placed.orderId, type: 'STOP_LOSS_LIMIT', status: 'NEW', isWorking: false, workingTime: -1, stopPrice: '59000', icebergQty: '0' });
  expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([]);

  // The market falls: a bid below the stop, then a trade at the stop price.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58995', quantity: '0.02' });
  tradeAt(market, '59000');
  const filled = await user.next(isReport(placed.orderId, 'TRADE', 'FILLED'));
  expect(filled).toMatchObject({ o: 'STOP_LOSS_LIMIT', p: '58990.00000000', P: '59000.00000000', L: '58995.00000000', l: '0.01000000', g: -1 });
  expect(reportsOf(user.all(), placed.orderId)).toEqual(['NEW/NEW w=false', 'NEW/NEW w=true', 'TRADE/FILLED w=false']);
  const [waiting, triggered] = user.all().filter(isReport(placed.orderId, 'NEW', 'NEW'));
  expect(waiting!.W).toBeUndefined();
  expect(triggered!.W).toBe(triggered!.E);
  expect(sim.stats().triggers).toBe(triggersBefore + 1);
  await expect(client).not.toHaveOpenOrder({ orderId: placed.orderId });
});

test('a stop price at the last price would trigger immediately: -2010, nothing placed; with no trade yet every stop price is taken', async ({ sim, client, market }) => {
  const stop = { symbol: SYMBOL, side: 'BUY', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '61000' } as const;
  const triggersBefore = sim.stats().triggers;
  const first = await client.rest.newOrder(stop);
  tradeAt(market, '61000');
  // The trade at 61000 triggered the first (a BUY stop triggers at or above); the second is refused.
  expect(sim.stats().triggers).toBe(triggersBefore + 1);
  const refused = await client.rest.newOrder(stop).catch((e: unknown) => e);
  expect(refused).toMatchObject({ status: 400, code: -2010, msg: 'Order would trigger immediately.' });
  expect(sim.openOrders(SYMBOL).map((o) => o.orderId)).not.toContain(first.orderId + 1);
});

test('a trailing STOP_LOSS tracks the highest price since placement and triggers 1% below it; d and D in its events', async ({ sim, client, market }) => {
  const user = await client.userData();
  const triggersBefore = sim.stats().triggers;
  tradeAt(market, '60000');
  // The bid the triggered market form sells into.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.05' });
  const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', trailingDelta: 100, newOrderRespType: 'RESULT' });
  expect(placed).toMatchObject({ type: 'STOP_LOSS', stopPrice: '0.00000000', trailingDelta: 100, price: '0.00000000', workingTime: -1 });
  // Tracking starts at placement (the last trade its first reference): the reply, GET order and
  // the NEW report all show the placement time as trailingTime.
  expect(placed.trailingTime).toBe(placed.transactTime);
  expect((await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId })).trailingTime).toBe(placed.transactTime);
  expect(await user.next(isReport(placed.orderId, 'NEW', 'NEW'))).toMatchObject({ d: 100, D: placed.transactTime });
  const taker = () => market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '61000', quantity: '0.001' });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.001' });
  taker(); // the peak: 61000
  tradeAt(market, '60400'); // 1% below 61000 is 60390: not yet
  expect(sim.openOrders(SYMBOL).find((o) => o.orderId === placed.orderId)).toMatchObject({ isWorking: false, trailingDelta: 100 });
  tradeAt(market, '60390');
  const filled = await user.next(isReport(placed.orderId, 'TRADE', 'FILLED'));
  expect(filled).toMatchObject({ o: 'STOP_LOSS', L: '60000.00000000', d: 100 });
  const triggered = user.all().filter(isReport(placed.orderId, 'NEW', 'NEW'))[1]!;
  expect(triggered).toMatchObject({ w: true, d: 100, D: placed.transactTime });
  expect(sim.stats().triggers).toBe(triggersBefore + 1);
});

test('toHaveOpenOrder waits for working state: a stop until its trigger has isWorking false, then true', async ({ client, market }) => {
  tradeAt(market, '60000');
  const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '58500', stopPrice: '59000' });
  await expect(client).toHaveOpenOrder({ orderId: placed.orderId, isWorking: false });
  // A failure shows the waiting order's working state and stop price.
  const failure = await expect(client)
    .toHaveOpenOrder({ orderId: placed.orderId, isWorking: true }, { timeout: 200 })
    .then(() => 'passed', (e: unknown) => String(e));
  expect(failure).toContain('type: "TAKE_PROFIT_LIMIT", price: "58500.00000000", origQty: "0.01000000", executedQty: "0.00000000", status: "NEW", isWorking: false, stopPrice: "59000.');
  const working = expect(client).toHaveOpenOrder({ orderId: placed.orderId, isWorking: true, price: '58500' });
  tradeAt(market, '59000'); // TAKE_PROFIT BUY triggers at or below its stop price; 58500 rests
  await working;
});

test('stats().triggers counts each trigger (sinceMark.triggers those since mark()), and the control API reports the same figures', async ({ sim, client, market }) => {
  const before = sim.stats();
  sim.mark();
  tradeAt(market, '60000');
  for (const stopPrice of ['59500', '59000']) await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', stopPrice });
  expect(sim.stats().triggers).toBe(before.triggers);
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '1' });
  tradeAt(market, '59000'); // one trade crosses both stop prices
  expect(sim.stats().triggers).toBe(before.triggers + 2);
  expect(sim.stats().sinceMark.triggers).toBe(2);
  const over = await (await fetch(`${sim.urls.http}/sim/v1/stats`)).json();
  expect(over.result.triggers).toBe(before.triggers + 2);
  expect(over.result.sinceMark.triggers).toBe(2);
  // A trigger reports NEW again: it is not a new order.
  expect(sim.stats().orders).toBe(before.orders + 2);
});
