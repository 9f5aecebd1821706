// Example: a bot following its order from user data that the exchange delivers at least once
// (bots/order-tracker.ts). The simulator sends the next user events twice; the raw stream has
// the duplicates, the bot acts on each event once and its view of the order is right.
import { test, expect } from 'spot-sim/fixture';
import { OrderTracker, eventIdentity as identity, fieldOf as field, fromUnits, toUnits, type UserEventLike } from './bots/order-tracker.ts';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });


test('duplicated user events are acted on once and the filled quantity is right', async ({ client, faults }) => {
  const user = await client.userData();
  const bot = new OrderTracker(user);
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.003', price: '59000' });
  const mine = (e: UserEventLike) => e.e === 'executionReport' && field(e, 'i') === order.orderId;
  await bot.nextProcessed((e) => mine(e) && field(e, 'x') === 'NEW');
  await bot.nextProcessed((e) => e.e === 'outboundAccountPosition');

  // Three fills of 0.001; the next 3 user events are sent twice: the first fill's report and
  // position, and the second fill's report. The third fill goes out once.
  faults.duplicateNextUserEvents(3);
  expect(await faults.fillOpenOrder(order.orderId, '0.001')).toBe('0.00100000');
  expect(await faults.fillOpenOrder(order.orderId, '0.001')).toBe('0.00100000');
  expect(await faults.fillOpenOrder(order.orderId, '0.001')).toBe('0.00100000');
  // Events arrive in order on the one connection: once the last fill's position is processed,
  // every duplicate before it has been received.
  const filled = await bot.nextProcessed((e) => mine(e) && field(e, 'X') === 'FILLED');
  await bot.nextProcessed((e) => e.e === 'outboundAccountPosition');

  // The raw stream: 3 events twice, among them two TRADE reports of this order.
  const raw: readonly UserEventLike[] = user.all();
  const counts = new Map<string, number>();
  for (const e of raw) counts.set(identity(e), (counts.get(identity(e)) ?? 0) + 1);
  const doubled = [...counts].filter(([, n]) => n > 1);
  expect(doubled.map(([, n]) => n)).toEqual([2, 2, 2]);
  const rawTrades = raw.filter((e) => mine(e) && field(e, 'x') === 'TRADE');
  expect(rawTrades).toHaveLength(5);
  expect(fromUnits(rawTrades.reduce((sum, e) => sum + toUnits(field(e, 'l') as string), 0n))).toBe('0.00500000'); // what a naive bot would count

  // The bot: each event once, the order as the exchange has it.
  expect(bot.duplicatesDropped).toBe(3);
  expect(bot.processed).toHaveLength(raw.length - 3);
  expect(new Set(bot.processed.map(identity)).size).toBe(bot.processed.length);
  expect(bot.orders.get(order.orderId)).toEqual({ orderId: order.orderId, clientOrderId: order.clientOrderId, status: 'FILLED', filledQty: '0.00300000', trades: 3 });
  expect(field(filled, 'z')).toBe('0.00300000');
});
