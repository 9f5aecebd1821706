// The waiting matchers of spot-sim/fixture (API.md section 4.1): each passes once what it
// expects is there (retrying to the timeout), `.not` works, and a failure says what was seen.
import { test, expect, type ReceivingStream } from 'spot-sim/fixture';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

const SYMBOL = 'BTCUSDT';
const buy = (price: string, quantity = '0.001') => ({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }) as const;

/** The message of the assertion error `assertion` rejects with (it must reject). */
async function failureOf(assertion: Promise<unknown>): Promise<string> {
  const outcome = await assertion.then(() => null, (error: Error) => error.message);
  if (outcome === null) throw new Error('the assertion passed');
  return outcome.replace(/\u001b\[[0-9;]*m/g, '');
}

test('toReceive: a user event with these fields, one that came before the call included; .not waits out its timeout', async ({ client, market }) => {
  const user = await client.userData();
  const order = await client.rest.newOrder(buy('59000'));
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'NEW' });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.0004' });
  // Decimal strings compare as decimals: '0.0004' is the event's '0.00040000'.
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'PARTIALLY_FILLED', l: '0.0004' });
  await expect(user).not.toReceive('executionReport', { i: order.orderId, X: 'FILLED' }, { timeout: 300 });

  const missing = await failureOf(expect(user).toReceive('executionReport', { i: order.orderId, X: 'FILLED' }, { timeout: 300 }));
  expect(missing).toContain('expect(received).toReceive(expected)');
  expect(missing).toContain(`Expected: executionReport with {i: ${order.orderId}, X: "FILLED"}`);
  expect(missing).toMatch(/Received: 2 executionReport events \(and \d+ others?\), the last:/);
  expect(missing).toContain(`  {i: ${order.orderId}, X: "NEW"}\n  {i: ${order.orderId}, X: "PARTIALLY_FILLED"}`);
  expect(missing).toContain('(waited up to 300 ms)');

  const present = await failureOf(expect(user).not.toReceive('executionReport', { X: 'PARTIALLY_FILLED' }, { timeout: 300 }));
  expect(present).toContain('expect(received).not.toReceive(expected)');
  expect(present).toContain('Expected: no executionReport with {X: "PARTIALLY_FILLED"}');
  expect(present).toContain(`  {X: "PARTIALLY_FILLED"}`);
});

test('toReceive: a market stream message by stream name and payload fields', async ({ client, market }) => {
  const trades = await client.streams('btcusdt@trade');
  await client.rest.newOrder(buy('59000'));
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.001' });
  await expect(trades).toReceive('btcusdt@trade', { p: '59000', q: '0.001' });
  const wrong = await failureOf(expect(trades).toReceive('btcusdt@trade', { p: '1' }, { timeout: 200 }));
  expect(wrong).toContain('Received: 1 btcusdt@trade event, the last:\n  {p: "59000.00000000"}');
});

test('toHaveOpenOrder: waits until the order is open, .not until it is gone; a failure lists the open orders', async ({ client }) => {
  const order = await client.rest.newOrder(buy('59000'));
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId: order.orderId, price: '59000' });
  const other = await failureOf(expect(client).toHaveOpenOrder({ symbol: SYMBOL, price: '58000' }, { timeout: 300 }));
  expect(other).toContain('Expected: open order with {symbol: "BTCUSDT", price: "58000"}');
  expect(other).toContain(`Received: 1 open order of BTCUSDT:\n  {symbol: "BTCUSDT", orderId: ${order.orderId}, clientOrderId: "${order.clientOrderId}", side: "BUY", type: "LIMIT", price: "59000.00000000", origQty: "0.00100000", executedQty: "0.00000000", status: "NEW"}`);

  const cancelled = client.rest.cancelOrder({ symbol: SYMBOL, orderId: order.orderId });
  await expect(client).not.toHaveOpenOrder({ orderId: order.orderId });
  await cancelled;
  const none = await failureOf(expect(client).toHaveOpenOrder({ orderId: order.orderId }, { timeout: 200 }));
  expect(none).toContain('Received: 0 open orders');
});

test('toHaveBalance: free and locked amounts compared as decimals; a failure shows the balance', async ({ client }) => {
  await client.rest.newOrder(buy('59000'));
  await expect(client).toHaveBalance('USDT', { locked: '59', free: 9_999_941 });
  await expect(client).not.toHaveBalance('USDT', { locked: '0' });
  const wrong = await failureOf(expect(client).toHaveBalance('USDT', { locked: '60' }, { timeout: 200 }));
  expect(wrong).toContain('Expected: USDT {locked: "60"}');
  expect(wrong).toContain('Received: USDT {free: "9999941.00000000", locked: "59.00000000"}');
  const unknown = await failureOf(expect(client).toHaveBalance('DOGE', { free: '1' }, { timeout: 100 }));
  expect(unknown).toContain('Received: no DOGE balance');
});

test('toHaveBeenHit: waits for the rule hits; a failure shows how many there were', async ({ client, faults }) => {
  const rule = faults.use({ on: 'time', times: 0, action: { delayMs: 1 } });
  await expect(rule).not.toHaveBeenHit();
  await Promise.all([client.rest.time(), client.rest.time()]);
  await expect(rule).toHaveBeenHit();
  await expect(rule).toHaveBeenHit(2);
  const more = await failureOf(expect(rule).toHaveBeenHit(3, { timeout: 200 }));
  expect(more).toContain('Expected: 3 hits\nReceived: 2 hits');
});

test('a matcher given the wrong subject says what it expects', async () => {
  const message = await failureOf(expect({ nope: true } as unknown as ReceivingStream).toReceive('executionReport', {}, { timeout: 50 }));
  expect(message).toContain('expect() must be given an event stream (client.userData(), client.streams(...)); received {nope: true}');
});
