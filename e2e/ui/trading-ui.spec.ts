// The trading UI example (examples/trading-ui) in a real Chromium, the way a user's UI suite
// tests their app: the app is served by its own server (started per worker by `appServer`),
// its code talks to https://api.binance.com, wss://stream.binance.com:9443 and
// wss://ws-api.binance.com, and `routeBinanceHosts` sends that traffic to the worker's
// simulator. So every REST call is a cross-origin request with a real CORS preflight
// (X-MBX-APIKEY) answered by the simulator, orders are HMAC-signed in the browser with
// WebCrypto, and the faults are injected from the test. Assertions are on what the user sees.
//
// Chromium: /usr/bin/chromium when installed (playwright.config.ts), else Playwright's own.
import type { Page } from '@playwright/test';
import type { Simulator } from 'spot-sim/fixture';
import { expect, openUi, QUOTING_ONLY, SYMBOL, test, TRADING_UI } from './support.ts';

// The generator keeps quoting (the book moves) but sends no market orders: fillOpenOrder sweeps
// the bids ahead of the account's order (price-time priority), and a generator market sell could
// then hit the order before the book refills. So only the test's fills and trades touch orders.
test.use({ ...TRADING_UI, simConfig: QUOTING_ONLY });

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
  test('the book renders and updates, a trade shows in recent trades, and the touch is the exchange\'s', async ({ page, sim, client }) => {
    await openUi(page);
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

  test('dropMarketDataConnections: the page shows "reconnecting", then recovers by itself', async ({ page, sim, faults }) => {
    await openUi(page);
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

  test('skipNextDepthUpdate: the page detects the gap and resyncs from a snapshot', async ({ page, sim, faults }) => {
    await openUi(page);
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
  test('an order placed in the form shows in open orders; fillOpenOrder shows the fills', async ({ page, client, faults }, testInfo) => {
    await openUi(page);
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

  test('Cancel removes the order from open orders and from the exchange', async ({ page, sim, client }) => {
    await openUi(page);
    const orderId = await placeLimitBuy(page, '50001.00', '0.00200');
    const row = openOrderRow(page, orderId);
    await row.getByTestId('cancel-order').click();
    await expect(page.getByTestId('order-result')).toHaveText(`Order ${orderId} CANCELED`);
    await expect(row).toHaveCount(0);
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).not.toContain(orderId);
  });

  test('rejectNextOrders(1): the user sees the reference -2010 message, and the next order goes through', async ({ page, client, faults }) => {
    await openUi(page);
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

test.describe('the production hosts, routed', () => {
  test('dropWsApiConnections: the page sees the abrupt close (1006) and its user stream comes back', async ({ page, faults }) => {
    await openUi(page);
    expect(await faults.dropWsApiConnections(false)).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId('user-state')).toHaveText('reconnecting');
    await expect(page.getByTestId('conn-log')).toContainText('user data: reconnecting (code 1006, retrying in 1 s)');
    await expect(page.getByTestId('user-state')).toHaveText('live', { timeout: 10_000 });
    await expect(page.getByTestId('conn-state')).toHaveText('live'); // market data was not dropped
  });

  test('a WebSocket opened in a Web Worker reaches the simulator through wss://ws-api.binance.com', async ({ page, sim }) => {
    await openUi(page);
    const reply = await page.evaluate(async () => {
      const source = `const ws = new WebSocket('wss://ws-api.binance.com/ws-api/v3');
        ws.onopen = () => ws.send(JSON.stringify({ id: 'w1', method: 'time' }));
        ws.onmessage = (m) => { postMessage(m.data); ws.close(); };
        ws.onerror = () => postMessage('error');`;
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      return new Promise<string>((resolve) => (worker.onmessage = (m) => resolve(String(m.data))));
    });
    const frame = JSON.parse(reply) as { id: string; status: number; result: { serverTime: number } };
    expect(frame).toMatchObject({ id: 'w1', status: 200 });
    expect(Math.abs(frame.result.serverTime - sim.now())).toBeLessThan(60_000);
  });

  test('a Binance host or port that is not routed fails in the browser, without leaving the machine', async ({ page, pageProblems }) => {
    await openUi(page);
    const outcome = (url: string) =>
      page.evaluate(async (target) => {
        try {
          await fetch(target, { signal: AbortSignal.timeout(10_000) });
          return 'answered';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      }, url);
    // Not in the routed list (futures API), and a routed host on a port it is not served on.
    expect(await outcome('https://fapi.binance.com/fapi/v1/ping')).toBe('TypeError: Failed to fetch');
    expect(await outcome('https://api.binance.com:8443/api/v3/ping')).toBe('TypeError: Failed to fetch');
    // The routed one answers.
    expect(await outcome('https://api.binance.com/api/v3/ping')).toBe('answered');
    // Both failures were name resolutions refused in the browser (no DNS query, no connection).
    expect(pageProblems.splice(0)).toEqual(Array(2).fill('console error: Failed to load resource: net::ERR_NAME_NOT_RESOLVED'));
  });
});

