// The trading UI's Stop-Limit tab and OCO form (examples/trading-ui/order-tabs.js) and the
// working state of its open orders (open-orders.js), in Chromium against a simulator configured
// by the example's own spot-sim.toml (`order_types = "reference"`, `ended_orders = "keep"`).
// The generator is off: only the scripted market (`market.place`)
// trades, so the last price moves exactly where a test sends it, and the page follows each
// order from the user data stream (executionReport, listStatus) without a reload.
import type { Page } from '@playwright/test';
import type { FixtureMarket } from 'spot-sim/fixture';
import { loadConfig } from 'spot-sim';
import { expect, openUi, SYMBOL, test, TRADING_UI } from './support.ts';

const EXAMPLE_CONFIG = loadConfig({ configFile: 'examples/trading-ui/spot-sim.toml', config: { sim: { generator: { enabled: false } } } });
test.use({ ...TRADING_UI, simConfig: EXAMPLE_CONFIG });

const openOrderRow = (page: Page, orderId: number) => page.locator(`[data-testid="open-order"][data-order-id="${orderId}"]`);
const fillsOf = (page: Page, orderId: number) => page.locator(`[data-testid="fill"][data-order-id="${orderId}"]`);
const historyRow = (page: Page, orderId: number) => page.locator(`[data-testid="history-order"][data-order-id="${orderId}"]`);

/** A public trade at `price` between two orders of the scripted market: the last price moves there. */
function tradeAt(market: FixtureMarket, price: string): void {
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price, quantity: '0.001' });
}

/** Opens the app and makes `price` the last price: the page shows the trade. */
async function openWithLastPrice(page: Page, market: FixtureMarket, price: string): Promise<void> {
  await openUi(page);
  tradeAt(market, price);
  await expect(page.getByTestId('trade').first()).toContainText(`${price}.00`);
}

/**
 * Clicks a form's submit button and waits for the exchange's answer in the result line (a new
 * text, not the previous placement's); a refusal fails the test with the page's message.
 */
async function submitAndWait(page: Page, submit: string) {
  const result = page.getByTestId('order-result');
  const before = (await result.textContent()) ?? '';
  await page.getByTestId(submit).click();
  const error = page.getByTestId('order-error');
  const answered = async () => (await error.isVisible()) || !['', before, 'placing…'].includes((await result.textContent()) ?? '');
  await expect.poll(answered).toBe(true);
  await expect(error, `the page shows: ${await error.textContent()}`).toBeHidden();
  return result;
}

/** Places a stop-limit from its tab; returns the order id and the type the page chose. */
async function placeStopLimit(page: Page, side: 'BUY' | 'SELL', stopPrice: string, limitPrice: string, quantity: string): Promise<{ orderId: number; type: string }> {
  await page.getByRole('tab', { name: 'Stop-Limit' }).click();
  await page.getByTestId('stop-side').selectOption(side);
  await page.getByTestId('stop-stop-price').fill(stopPrice);
  await page.getByTestId('stop-limit-price').fill(limitPrice);
  await page.getByTestId('stop-quantity').fill(quantity);
  const result = await submitAndWait(page, 'stop-submit');
  await expect(result).toHaveText(/^Order \d+ NEW · (STOP_LOSS|TAKE_PROFIT)_LIMIT, stop /);
  const [, orderId, type] = /^Order (\d+) NEW · (\w+),/.exec((await result.textContent())!)!;
  return { orderId: Number(orderId), type: type! };
}

/** Places an OCO from its form; returns the list id and its two order ids (the stop leg first). */
async function placeOco(page: Page, side: 'BUY' | 'SELL', prices: { limit: string; stop: string; stopLimit: string }, quantity: string): Promise<{ listId: number; stopLeg: number; makerLeg: number }> {
  await page.getByRole('tab', { name: 'OCO' }).click();
  await page.getByTestId('oco-side').selectOption(side);
  await page.getByTestId('oco-quantity').fill(quantity);
  await page.getByTestId('oco-limit-price').fill(prices.limit);
  await page.getByTestId('oco-stop-price').fill(prices.stop);
  await page.getByTestId('oco-stop-limit-price').fill(prices.stopLimit);
  const result = await submitAndWait(page, 'oco-submit');
  await expect(result).toHaveText(/^OCO \d+ EXECUTING · orders \d+, \d+$/);
  const [listId, stopLeg, makerLeg] = ((await result.textContent())!.match(/\d+/g) ?? []).map(Number);
  return { listId: listId!, stopLeg: stopLeg!, makerLeg: makerLeg! };
}

test('a stop-limit from the tab waits, triggers when the market trades through its stop, then fills', async ({ page, client, market }) => {
  await openWithLastPrice(page, market, '60000');

  // A SELL with its stop below the last price is a stop-loss.
  const { orderId, type } = await placeStopLimit(page, 'SELL', '59000', '58900', '0.01');
  expect(type).toBe('STOP_LOSS_LIMIT');
  const row = openOrderRow(page, orderId);
  await expect(row.getByTestId('open-order-type')).toHaveText('STOP_LOSS_LIMIT');
  await expect(row.getByTestId('open-order-state')).toHaveText('Waiting');
  await expect(row.getByTestId('open-order-trigger')).toHaveText('≤ 59000.00');
  await expect(row.getByTestId('open-order-status')).toHaveText('NEW');
  await expect(row).toContainText('58900.00');
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId, type: 'STOP_LOSS_LIMIT', isWorking: false });
  await expect(page.getByTestId('ask-level')).toHaveCount(0); // a waiting stop is off the book

  // The market trades down to the stop: the order triggers and rests as a LIMIT sell at 58900.
  tradeAt(market, '59000');
  await expect(row.getByTestId('open-order-state')).toHaveText('Triggered');
  await expect(row.getByTestId('open-order-status')).toHaveText('NEW');
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId, isWorking: true });
  await expect(page.getByTestId('ask-level')).toHaveCount(1);
  await expect(page.getByTestId('ask-level').locator('td').first()).toHaveText('58900.00');

  // A counterparty bid through its price fills it at its own price.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58950', quantity: '0.01' });
  await expect(row).toHaveCount(0);
  await expect(fillsOf(page, orderId)).toHaveText(/SELL 0\.01000 @ 58900\.00 · order \d+ FILLED \(filled 0\.01000 of 0\.01000\)/);
  await expect(client).not.toHaveOpenOrder({ orderId });
  await expect(historyRow(page, orderId).getByTestId('history-order-type')).toHaveText('STOP_LOSS_LIMIT');
  await expect(historyRow(page, orderId).getByTestId('history-order-status')).toHaveText('FILLED');
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId })).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', isWorking: true });
});

test('the Stop-Limit tab places a stop-loss or a take-profit by where the stop is against the last price', async ({ page, client, market }) => {
  await openWithLastPrice(page, market, '60000');
  const cases = [
    { side: 'BUY', stop: '61000', limit: '61100', type: 'STOP_LOSS_LIMIT', trigger: '≥ 61000.00' },
    { side: 'BUY', stop: '59000', limit: '59100', type: 'TAKE_PROFIT_LIMIT', trigger: '≤ 59000.00' },
    { side: 'SELL', stop: '61000', limit: '60900', type: 'TAKE_PROFIT_LIMIT', trigger: '≥ 61000.00' },
  ] as const;
  for (const c of cases) {
    const { orderId, type } = await placeStopLimit(page, c.side, c.stop, c.limit, '0.001');
    expect(type).toBe(c.type);
    const row = openOrderRow(page, orderId);
    await expect(row.getByTestId('open-order-type')).toHaveText(c.type);
    await expect(row.getByTestId('open-order-trigger')).toHaveText(c.trigger);
    await expect(row.getByTestId('open-order-state')).toHaveText('Waiting');
    await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId, side: c.side, type: c.type, stopPrice: c.stop, isWorking: false });
  }
});

test('a SELL OCO from the form shows its two legs; the limit leg trades and the stop leg leaves the open orders', async ({ page, client, market }) => {
  await openWithLastPrice(page, market, '60000');

  const { listId, stopLeg, makerLeg } = await placeOco(page, 'SELL', { limit: '61000', stop: '59000', stopLimit: '58900' }, '0.01');
  const stop = openOrderRow(page, stopLeg);
  const maker = openOrderRow(page, makerLeg);
  await expect(page.getByTestId('open-order')).toHaveCount(2);
  await expect(stop.getByTestId('open-order-type')).toHaveText('STOP_LOSS_LIMIT');
  await expect(stop.getByTestId('open-order-state')).toHaveText('Waiting');
  await expect(stop.getByTestId('open-order-trigger')).toHaveText('≤ 59000.00');
  await expect(stop).toContainText('58900.00');
  await expect(maker.getByTestId('open-order-type')).toHaveText('LIMIT_MAKER');
  await expect(maker.getByTestId('open-order-state')).toHaveText('Working');
  await expect(maker).toContainText('61000.00');
  for (const leg of [stop, maker]) await expect(leg.getByTestId('open-order-list')).toHaveText(`OCO ${listId} · EXECUTING`);
  expect((await client.rest.openOrderLists()).map((l) => l.orderListId)).toEqual([listId]);

  // After a reload the panel rebuilds the list from openOrders and openOrderList.
  await page.reload();
  await expect(page.getByTestId('user-state')).toHaveText('live');
  await expect(stop.getByTestId('open-order-list')).toHaveText(`OCO ${listId} · EXECUTING`);
  await expect(stop.getByTestId('open-order-state')).toHaveText('Waiting');
  await expect(maker.getByTestId('open-order-list')).toHaveText(`OCO ${listId} · EXECUTING`);

  // The market rises into the limit leg: part of it trades, the stop leg expires with it, the
  // list is done (listStatus) and the rest of the limit leg keeps working until it fills.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.004' });
  await expect(maker.getByTestId('open-order-status')).toHaveText('PARTIALLY_FILLED');
  await expect(maker.getByTestId('open-order-filled')).toHaveText('0.00400');
  await expect(stop).toHaveCount(0);
  await expect(maker.getByTestId('open-order-list')).toHaveText(`OCO ${listId} · ALL_DONE`);
  await expect(page.getByTestId('open-order')).toHaveCount(1);
  await expect(historyRow(page, stopLeg).getByTestId('history-order-status')).toHaveText('EXPIRED');
  expect(await client.rest.openOrderLists()).toEqual([]);
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: stopLeg })).toMatchObject({ status: 'EXPIRED', orderListId: listId });
  expect(await client.rest.getOrderList({ orderListId: listId })).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.006' });
  await expect(maker).toHaveCount(0);
  await expect(fillsOf(page, makerLeg).first()).toContainText('SELL 0.00600 @ 61000.00');
  await expect(fillsOf(page, stopLeg)).toHaveCount(0);
  await expect(page.getByTestId('no-open-orders')).toBeVisible();
});

test('a BUY OCO from the form: its stop leg triggers above the market, the limit leg disappears, the stop leg fills', async ({ page, client, market }) => {
  await openWithLastPrice(page, market, '60000');

  const { listId, stopLeg, makerLeg } = await placeOco(page, 'BUY', { limit: '59000', stop: '61000', stopLimit: '61100' }, '0.01');
  const stop = openOrderRow(page, stopLeg);
  const maker = openOrderRow(page, makerLeg);
  await expect(stop.getByTestId('open-order-type')).toHaveText('STOP_LOSS_LIMIT');
  await expect(stop.getByTestId('open-order-trigger')).toHaveText('≥ 61000.00');
  await expect(stop.getByTestId('open-order-state')).toHaveText('Waiting');
  await expect(maker.getByTestId('open-order-type')).toHaveText('LIMIT_MAKER');
  await expect(maker).toContainText('59000.00');
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId: makerLeg, orderListId: listId, price: '59000', isWorking: true });

  // The market trades up to the stop: the stop leg triggers (a BUY at 61100 with no ask to take,
  // so it rests), the limit leg expires and the list is done.
  tradeAt(market, '61000');
  await expect(stop.getByTestId('open-order-state')).toHaveText('Triggered');
  await expect(maker).toHaveCount(0);
  await expect(stop.getByTestId('open-order-list')).toHaveText(`OCO ${listId} · ALL_DONE`);
  await expect(page.getByTestId('bid-level').locator('td').first()).toHaveText('61100.00');
  await expect(historyRow(page, makerLeg).getByTestId('history-order-status')).toHaveText('EXPIRED');
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId: stopLeg, isWorking: true });
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: makerLeg })).toMatchObject({ status: 'EXPIRED', orderListId: listId });
  expect(await client.rest.getOrderList({ orderListId: listId })).toMatchObject({ listOrderStatus: 'ALL_DONE' });

  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61050', quantity: '0.01' });
  await expect(stop).toHaveCount(0);
  await expect(fillsOf(page, stopLeg)).toHaveText(/BUY 0\.01000 @ 61100\.00 · order \d+ FILLED/);
  await expect(fillsOf(page, makerLeg)).toHaveCount(0);
  await expect(historyRow(page, stopLeg).getByTestId('history-order-status')).toHaveText('FILLED');
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: stopLeg })).toMatchObject({ status: 'FILLED', executedQty: '0.01000000' });
});
