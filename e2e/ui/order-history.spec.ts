// The trading UI's Order history panel (examples/trading-ui/order-history.js) in Chromium, on a
// simulator configured by the example's own spot-sim.toml (`ended_orders = "keep"`): a LIMIT
// order cancelled with the page's Cancel button and a MARKET order filled from the form both
// stay listed with their status, and a resting order that fills while the page is open turns
// FILLED in the panel without a reload.
import type { Page } from '@playwright/test';
import { loadConfig } from 'spot-sim';
import { expect, openUi, test, TRADING_UI } from './support.ts';

// The example's own configuration, and (as in trading-ui.spec.ts) a generator that quotes but
// sends no market orders, so only the test's fills touch the account's orders.
const EXAMPLE_CONFIG = loadConfig({ configFile: 'examples/trading-ui/spot-sim.toml', config: { sim: { generator: { market_rate_per_s: 0 } } } });
test.use({ ...TRADING_UI, simConfig: EXAMPLE_CONFIG });

const historyRow = (page: Page, orderId: number) => page.locator(`[data-testid="history-order"][data-order-id="${orderId}"]`);

async function submit(page: Page, type: 'LIMIT' | 'MARKET', quantity: string, price?: string): Promise<number> {
  await page.getByTestId('order-side').selectOption('BUY');
  await page.getByTestId('order-type').selectOption(type);
  if (price !== undefined) await page.getByTestId('order-price').fill(price);
  await page.getByTestId('order-quantity').fill(quantity);
  await page.getByTestId('order-submit').click();
  const result = page.getByTestId('order-result');
  await expect(result).toHaveText(/^Order \d+ (NEW|FILLED)$/);
  return Number(/\d+/.exec((await result.textContent())!)![0]);
}

test('the example keeps ended orders (its spot-sim.toml)', () => {
  expect(EXAMPLE_CONFIG.sim.account.ended_orders).toBe('keep');
});

test('a cancelled LIMIT and a filled MARKET order stay in the history with their status; an order that fills while the page is open turns FILLED', async ({ page, faults }) => {
  await openUi(page);
  await expect(page.getByTestId('no-order-history')).toBeVisible();

  // A LIMIT order, cancelled from the open-orders panel.
  const limitId = await submit(page, 'LIMIT', '0.001', '50000');
  await expect(historyRow(page, limitId).getByTestId('history-order-status')).toHaveText('NEW');
  await page.locator(`[data-testid="open-order"][data-order-id="${limitId}"]`).getByTestId('cancel-order').click();
  await expect(page.getByTestId('order-result')).toHaveText(`Order ${limitId} CANCELED`);
  await expect(historyRow(page, limitId).getByTestId('history-order-status')).toHaveText('CANCELED');

  // A MARKET order, filled at once.
  const marketId = await submit(page, 'MARKET', '0.001');
  const market = historyRow(page, marketId);
  await expect(market.getByTestId('history-order-status')).toHaveText('FILLED');
  await expect(market.getByTestId('history-order-type')).toHaveText('MARKET');
  await expect(market.getByTestId('history-order-filled')).toHaveText('0.00100');

  // A resting order filled by the exchange while the page is open: the panel follows it.
  const restingId = await submit(page, 'LIMIT', '0.002', '50001');
  const resting = historyRow(page, restingId);
  await expect(resting.getByTestId('history-order-status')).toHaveText('NEW');
  expect(Number(await faults.fillOpenOrder(restingId, '0.002'))).toBe(0.002);
  await expect(resting.getByTestId('history-order-status')).toHaveText('FILLED');
  await expect(resting.getByTestId('history-order-filled')).toHaveText('0.00200');
  await expect(page.locator(`[data-testid="open-order"][data-order-id="${restingId}"]`)).toHaveCount(0);

  // Newest first, and all three are listed.
  await expect(page.getByTestId('history-order')).toHaveCount(3);
  expect(await page.getByTestId('history-order').evaluateAll((rows) => rows.map((r) => Number((r as HTMLElement).dataset.orderId)))).toEqual([restingId, marketId, limitId]);
  await expect(page.getByTestId('order-history-count')).toHaveText('3');

  // The list survives a reload: it comes from the exchange (allOrders), not the page's memory.
  await page.reload();
  await expect(page.getByTestId('order-history-count')).toHaveText('3');
  await expect(historyRow(page, limitId).getByTestId('history-order-status')).toHaveText('CANCELED');
});
