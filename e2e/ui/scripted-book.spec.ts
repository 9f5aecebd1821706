// The trading UI example on a book the test scripts itself: the generator is off, and the
// `market` fixture places the counterparty orders the page then shows and trades with.
import { expect, openUi, SYMBOL, test, TRADING_UI } from './support.ts';

test.use({ ...TRADING_UI, simConfig: { sim: { generator: { enabled: false } } } });

test('market.place: a counterparty ask shows as the best ask, and the page\'s buy trades with it', async ({ page, market }) => {
  await openUi(page);
  await expect(page.getByTestId('ask-level')).toHaveCount(0);
  const id = await market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  expect(id).toBeGreaterThan(0);
  await expect(page.getByTestId('ask-level')).toHaveCount(1);
  await expect(page.getByTestId('ask-level').locator('td').first()).toHaveText('60010.00');
  await page.getByTestId('order-side').selectOption('BUY');
  await page.getByTestId('order-type').selectOption('LIMIT');
  await page.getByTestId('order-price').fill('60010.00');
  await page.getByTestId('order-quantity').fill('0.10000');
  await page.getByTestId('order-submit').click();
  await expect(page.getByTestId('order-result')).toHaveText(/^Order \d+ FILLED$/);
  await expect(page.getByTestId('fill').first()).toContainText('BUY 0.10000 @ 60010.00');
  await expect(page.getByTestId('trade').first()).toContainText('60010.00');
});

test('with the default order types the Stop-Limit and OCO tabs say the symbol does not offer them', async ({ page }) => {
  await openUi(page);
  await page.getByRole('tab', { name: 'Stop-Limit' }).click();
  await expect(page.getByTestId('order-form')).toBeHidden();
  await expect(page.getByTestId('stop-unavailable')).toHaveText(`${SYMBOL} does not offer stop-limit orders.`);
  await expect(page.getByTestId('stop-submit')).toBeDisabled();
  await page.getByRole('tab', { name: 'OCO' }).click();
  await expect(page.getByTestId('stop-form')).toBeHidden();
  await expect(page.getByTestId('oco-unavailable')).toHaveText(`${SYMBOL} does not offer OCO orders.`);
  await expect(page.getByTestId('oco-submit')).toBeDisabled();
  await page.getByRole('tab', { name: 'Limit / Market' }).click();
  await expect(page.getByTestId('order-submit')).toBeEnabled();
});
