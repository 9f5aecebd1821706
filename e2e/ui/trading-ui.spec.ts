// The trading UI example (examples/trading-ui) in a real Chromium against the fixture's
// simulator, the way a user's UI suite would test their page: the page is served from its own
// origin (a tiny static server), so every REST call is a cross-origin request with a CORS
// preflight (X-MBX-APIKEY), orders are HMAC-signed in the browser with WebCrypto, and the
// faults are injected from the test. Assertions are on what the user sees.
//
// Chromium: /usr/bin/chromium when installed (playwright.config.ts), else Playwright's own.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test as simTest, expect, type Simulator } from 'spot-sim/fixture';
import { serveTradingUi, type TradingUiServer } from '../../examples/trading-ui/serve.ts';

const SYMBOL = 'BTCUSDT';

interface UiFixtures {
  /** The page's uncaught errors and console errors; the test fails if there are any. */
  pageProblems: string[];
}
interface UiWorkerFixtures {
  uiHttp: TradingUiServer;
  uiHttps: TradingUiServer;
}

const test = simTest.extend<UiFixtures, UiWorkerFixtures>({
  uiHttp: [
    async ({}, use) => {
      const server = await serveTradingUi();
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  uiHttps: [
    async ({}, use) => {
      const tls = {
        cert: readFileSync(new URL('../../fixtures/tls/cert.pem', import.meta.url)),
        key: readFileSync(new URL('../../fixtures/tls/key.pem', import.meta.url)),
      };
      const server = await serveTradingUi({ tls });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],
  pageProblems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        // A refused request (e.g. the injected -2010) is logged by Chromium as a failed
        // resource; the page handles it. Anything else (CORS, script errors) is a problem.
        if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) {
          problems.push(`console error: ${message.text()}`);
        }
      });
      await use(problems);
      expect(problems, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

// The generator keeps quoting (the book moves) but sends no market orders: fillOpenOrder sweeps
// the bids ahead of the account's order (price-time priority), and a generator market sell could
// then hit the order before the book refills. So only the test's fills and trades touch orders.
test.use({ simConfig: { sim: { generator: { market_rate_per_s: 0 } } } });

/** Opens the page against the simulator and waits until market and user data are live. */
async function openUi(page: Page, ui: TradingUiServer, sim: Simulator, secure = false): Promise<void> {
  const params = new URLSearchParams({
    rest: secure ? sim.urls.https : sim.urls.http,
    ws: secure ? sim.urls.wss : sim.urls.ws,
    apiKey: sim.credentials.apiKey,
    apiSecret: sim.credentials.apiSecret,
    symbol: SYMBOL,
  });
  await page.goto(`${ui.url}/?${params}`);
  await expect(page.getByTestId('symbol')).toHaveText(SYMBOL);
  await expect(page.getByTestId('conn-state')).toHaveText('live');
  await expect(page.getByTestId('user-state')).toHaveText('live');
}

/** Fills in and submits the order form; returns the order id the page reports. */
async function placeLimitBuy(page: Page, price: string, quantity: string): Promise<number> {
  await page.getByTestId('order-side').selectOption('BUY');
  await page.getByTestId('order-type').selectOption('LIMIT');
  await page.getByTestId('order-price').fill(price);
  await page.getByTestId('order-quantity').fill(quantity);
  await page.getByTestId('order-submit').click();
  const result = page.getByTestId('order-result');
  await expect(result).toHaveText(/^Order \d+ NEW$/);
  await expect(page.getByTestId('order-error')).toBeHidden();
  return Number(/\d+/.exec((await result.textContent())!)![0]);
}

const openOrderRow = (page: Page, orderId: number) => page.locator(`[data-testid="open-order"][data-order-id="${orderId}"]`);
const fillsOf = (page: Page, orderId: number) => page.locator(`[data-testid="fill"][data-order-id="${orderId}"]`);

/** The page's best bid and ask as shown (bids best first; asks listed best last). */
async function shownTouch(page: Page): Promise<{ bid: string; ask: string }> {
  const bid = await page.getByTestId('bid-level').first().locator('td').first().textContent();
  const ask = await page.getByTestId('ask-level').last().locator('td').first().textContent();
  return { bid: bid!, ask: ask! };
}

/** An exchange decimal ("59970.10000000") as the page shows it (BTCUSDT: tick 0.01, lot 0.00001). */
const cut = (value: string, decimals: number) => value.slice(0, value.indexOf('.') + 1 + decimals);

/** The exchange's touch from a REST snapshot, in the page's format. */
async function exchangeTouch(sim: Simulator): Promise<{ bid: string; ask: string }> {
  const depth = (await (await fetch(`${sim.urls.http}/api/v3/depth?symbol=${SYMBOL}&limit=1`)).json()) as { bids: string[][]; asks: string[][] };
  return { bid: cut(depth.bids[0]![0]!, 2), ask: cut(depth.asks[0]![0]!, 2) };
}

test.describe('market data over http and ws', () => {
  test('the book renders and updates, a trade shows in recent trades, and the touch is the exchange\'s', async ({ page, sim, client, uiHttp }) => {
    await openUi(page, uiHttp, sim);
    await expect(page.getByTestId('bid-level')).toHaveCount(10);
    await expect(page.getByTestId('ask-level')).toHaveCount(10);
    const updateId = page.getByTestId('book-update-id');
    const first = (await updateId.textContent())!;
    expect(Number(first)).toBeGreaterThan(0);
    await expect(updateId).not.toHaveText(first); // diffs keep coming and are applied
    // A market sell of the test account trades with the best bid(s): the page shows each trade.
    const sold = await client.rest.newOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.00123' });
    expect(sold.status).toBe('FILLED');
    expect(sold.fills!.length).toBeGreaterThan(0);
    for (const fill of sold.fills!) {
      const shown = page.getByTestId('trade').filter({ hasText: cut(fill.price, 2) }).filter({ hasText: cut(fill.qty, 5) });
      await expect(shown.first()).toBeVisible();
    }
    const touch = await shownTouch(page);
    expect(Number(touch.bid)).toBeLessThan(Number(touch.ask));
    // The local book is the exchange's: its touch matches a fresh snapshot's.
    await expect.poll(async () => JSON.stringify(await shownTouch(page)) === JSON.stringify(await exchangeTouch(sim)), { timeout: 10_000 }).toBe(true);
    await expect(page.getByTestId('gap-count')).toHaveText('0');
  });

  test('dropMarketDataConnections: the page shows "reconnecting", then recovers by itself', async ({ page, sim, faults, uiHttp }) => {
    await openUi(page, uiHttp, sim);
    const state = page.getByTestId('conn-state');
    expect(await faults.dropMarketDataConnections()).toBeGreaterThanOrEqual(1);
    await expect(state).toHaveText('reconnecting');
    await expect(page.getByTestId('conn-detail')).toContainText('retrying in 1 s');
    await expect(state).toHaveText('live', { timeout: 10_000 });
    await expect(page.getByTestId('resync-count')).toHaveText('1'); // a fresh snapshot on the new connection
    await expect(page.getByTestId('conn-log')).toContainText('market data: reconnecting');
    await expect(page.getByTestId('user-state')).toHaveText('live'); // the WS API was not dropped
    const updateId = page.getByTestId('book-update-id');
    const after = (await updateId.textContent())!;
    await expect(updateId).not.toHaveText(after); // and the book is moving again
    await expect.poll(async () => JSON.stringify(await shownTouch(page)) === JSON.stringify(await exchangeTouch(sim)), { timeout: 10_000 }).toBe(true);
  });

  test('skipNextDepthUpdate: the page detects the gap and resyncs from a snapshot', async ({ page, sim, faults, uiHttp }) => {
    await openUi(page, uiHttp, sim);
    await expect(page.getByTestId('gap-count')).toHaveText('0');
    faults.skipNextDepthUpdate();
    await expect(page.getByTestId('gap-count')).toHaveText('1');
    const log = page.getByTestId('conn-log');
    await expect(log).toContainText('gap in the depth stream');
    await expect(log).toContainText('market data: resyncing (gap after update id');
    await expect(page.getByTestId('resync-count')).toHaveText('1');
    await expect(page.getByTestId('conn-state')).toHaveText('live');
    const updateId = page.getByTestId('book-update-id');
    const after = (await updateId.textContent())!;
    await expect(updateId).not.toHaveText(after);
    await expect.poll(async () => JSON.stringify(await shownTouch(page)) === JSON.stringify(await exchangeTouch(sim)), { timeout: 10_000 }).toBe(true);
    await expect(page.getByTestId('gap-count')).toHaveText('1'); // one gap, one resync
  });
});

test.describe('orders over http', () => {
  test('an order placed in the form shows in open orders; fillOpenOrder shows the fills', async ({ page, sim, client, faults, uiHttp }, testInfo) => {
    await openUi(page, uiHttp, sim);
    // Far below the generator's book, so only the injected fills touch it.
    const orderId = await placeLimitBuy(page, '50000.00', '0.00100');
    const row = openOrderRow(page, orderId);
    await expect(row).toBeVisible();
    await expect(row.getByTestId('open-order-status')).toHaveText('NEW');
    await expect(row).toContainText('50000.00');
    await expect(row).toContainText('0.00100');
    // The browser-signed order really is on the exchange.
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).toContain(orderId);

    expect(Number(await faults.fillOpenOrder(orderId, '0.0004'))).toBe(0.0004);
    await expect(row.getByTestId('open-order-status')).toHaveText('PARTIALLY_FILLED');
    await expect(row.getByTestId('open-order-filled')).toHaveText('0.00040');
    await expect(fillsOf(page, orderId)).toHaveCount(1);
    await expect(fillsOf(page, orderId)).toContainText(`BUY 0.00040 @ 50000.00 · order ${orderId} PARTIALLY_FILLED`);
    const screenshot = testInfo.outputPath('trading-ui.png'); // kept in test-results/ as well
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach('trading-ui screenshot', { path: screenshot, contentType: 'image/png' });

    expect(Number(await faults.fillOpenOrder(orderId, '0.0006'))).toBe(0.0006);
    await expect(row).toHaveCount(0);
    await expect(fillsOf(page, orderId)).toHaveCount(2);
    await expect(fillsOf(page, orderId).first()).toContainText(`BUY 0.00060 @ 50000.00 · order ${orderId} FILLED (filled 0.00100 of 0.00100)`);
  });

  test('Cancel removes the order from open orders and from the exchange', async ({ page, sim, client, uiHttp }) => {
    await openUi(page, uiHttp, sim);
    const orderId = await placeLimitBuy(page, '50001.00', '0.00200');
    const row = openOrderRow(page, orderId);
    await row.getByTestId('cancel-order').click();
    await expect(page.getByTestId('order-result')).toHaveText(`Order ${orderId} CANCELED`);
    await expect(row).toHaveCount(0);
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).not.toContain(orderId);
  });

  test('rejectNextOrders(1): the user sees the reference -2010 message, and the next order goes through', async ({ page, sim, client, faults, uiHttp }) => {
    await openUi(page, uiHttp, sim);
    const before = (await client.rest.openOrders({ symbol: SYMBOL })).length;
    faults.rejectNextOrders(1);
    await page.getByTestId('order-price').fill('50002.00');
    await page.getByTestId('order-quantity').fill('0.00100');
    await page.getByTestId('order-submit').click();
    const error = page.getByTestId('order-error');
    await expect(error).toBeVisible();
    await expect(error).toHaveText('Order rejected: Market is closed. (code -2010)');
    await expect(page.getByTestId('order-result')).toHaveText('');
    expect(await client.rest.openOrders({ symbol: SYMBOL })).toHaveLength(before);

    const orderId = await placeLimitBuy(page, '50002.00', '0.00100');
    await expect(openOrderRow(page, orderId)).toBeVisible();
    await client.rest.cancelOrder({ symbol: SYMBOL, orderId });
    await expect(openOrderRow(page, orderId)).toHaveCount(0); // the user stream's CANCELED
  });
});

test.describe('over https and wss (self-signed fixture certificate)', () => {
  test.use({ ignoreHTTPSErrors: true });

  test('the page served over https trades against https/wss: book, order, fill, reject', async ({ page, sim, faults, uiHttps }) => {
    expect(uiHttps.url).toMatch(/^https:/);
    await openUi(page, uiHttps, sim, true);
    await expect(page.getByTestId('bid-level')).toHaveCount(10);
    await expect(page.getByTestId('ask-level')).toHaveCount(10);
    const orderId = await placeLimitBuy(page, '50003.00', '0.00100');
    await expect(openOrderRow(page, orderId)).toBeVisible();
    faults.fillOpenOrder(orderId, '0.001');
    await expect(openOrderRow(page, orderId)).toHaveCount(0);
    await expect(fillsOf(page, orderId)).toContainText(`order ${orderId} FILLED`);
    faults.rejectNextOrders(1);
    await page.getByTestId('order-submit').click();
    await expect(page.getByTestId('order-error')).toHaveText('Order rejected: Market is closed. (code -2010)');
  });
});
