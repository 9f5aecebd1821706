// Stops on a replayed symbol over the wire: a recorded print through a waiting STOP_LOSS_LIMIT
// triggers it at that print's recorded time (manual clock, start_time_ms = from), and the
// triggered order sells into the synthetic book around that print. The trigger row is found by
// this test's own reading of the sample (e2e/support/replay.ts).
import { expect } from 'spot-sim/fixture';
import { Decimal } from 'decimal.js';
import { eight, HOUR, HOUR_FILE, readAggTrades } from './support/replay.ts';
import { withSimConfig } from './support/helpers.ts';

const SYMBOL = 'BTCUSDT';
const FROM = HOUR + 20 * 60_000;
const ROWS = readAggTrades(HOUR_FILE);
// The last price when the test places its order: the rows up to `from` have printed.
const LAST_AT_START = ROWS.filter((r) => r.time <= FROM).at(-1)!;
const LIVE = ROWS.filter((r) => r.time > FROM);
// The stop: the lowest price of the rest of the hour (a drop of about 170 USDT 40 minutes in);
// the first row at or under it triggers.
const STOP = Decimal.min(...LIVE.map((r) => r.price));
const TRIGGER = LIVE.find((r) => new Decimal(r.price).lte(STOP))!;

const test = withSimConfig({ sim: { clock: 'manual', start_time_ms: FROM, order_types: 'reference', account: { ended_orders: 'keep' }, replay: [{ symbol: SYMBOL, file: HOUR_FILE, from: FROM }] } });

test('a recorded drop triggers a STOP_LOSS_LIMIT at the print that reaches it, which then sells into the book around that print', async ({ sim, client }) => {
  expect(STOP.lt(LAST_AT_START.price), 'the stop waits at placement').toBe(true);
  const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.001', stopPrice: STOP.toFixed(2), price: STOP.minus(100).toFixed(2) });
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId })).toMatchObject({ status: 'NEW', isWorking: false, workingTime: -1 });

  sim.advanceTime(TRIGGER.time - FROM - 1);
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId }), 'one ms before the trigger row').toMatchObject({ status: 'NEW', isWorking: false });

  sim.advanceTime(1);
  const order = await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId });
  expect(order).toMatchObject({ status: 'FILLED', isWorking: true, workingTime: TRIGGER.time, executedQty: '0.00100000' });
  // The synthetic book's best bid one tick under the triggering print.
  const [fill] = await client.rest.myTrades({ symbol: SYMBOL, orderId: placed.orderId });
  expect([fill!.price, fill!.time, fill!.isMaker]).toEqual([eight(new Decimal(TRIGGER.price).minus('0.01')), TRIGGER.time, false]);
});
