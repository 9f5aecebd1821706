// The trading UI example's candle chart and 24 h ticker strip (API.md section 9) in Chromium:
// the page fetches https://api.binance.com/api/v3/klines and /ticker/24hr and subscribes to
// `<s>@kline_1m` and `<s>@ticker` on wss://stream.binance.com:9443; `routeBinanceHosts` sends
// all of it to the worker's simulator. History is there at load; a scripted trade moves the
// last candle and the strip; a fault rule on `klines` shows the chart's error state.
import { expect, openUi, QUOTING_ONLY, SYMBOL, test, TRADING_UI } from './support.ts';

test.use({ ...TRADING_UI, simConfig: QUOTING_ONLY });

const MINUTE_MS = 60_000;
/** Ample for the trade and the checks after it, even on a loaded machine. */
const TIME_FOR_CHECKS_MS = 20_000;
const minuteOf = (ms: number): number => ms - (ms % MINUTE_MS);

test('the chart has history at load; a market.place trade moves the last candle and the ticker strip', async ({ page, client, market }, testInfo) => {
  await openUi(page);
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-state', 'live');
  // 500 one-minute candles of the synthetic day before the start.
  await expect(chart).toHaveAttribute('data-candles', '500');
  await expect(page.locator('[data-testid="chart"] canvas').first()).toBeVisible();
  const [last] = await client.rest.klines({ symbol: SYMBOL, interval: '1m', limit: 1 });
  await expect(chart).toHaveAttribute('data-last-open-time', String(last![0]));
  const day = await client.rest.ticker24hr({ symbol: SYMBOL });
  await expect(page.getByTestId('ticker-count')).toHaveText(String(day.count));

  // The page draws a new, empty candle when a minute starts. A trade in the last seconds of one
  // would be off the chart's last candle before the checks below run, so near a minute's end the
  // test waits for the page to show the next minute's candle first.
  const { serverTime } = await client.rest.time();
  if (serverTime % MINUTE_MS > MINUTE_MS - TIME_FOR_CHECKS_MS) {
    await expect(chart).toHaveAttribute('data-last-open-time', String(minuteOf(serverTime) + MINUTE_MS), { timeout: TIME_FOR_CHECKS_MS + 5_000 });
  }

  // A scripted taker buys from the generator's asks: a trade at a new price, in the candle the
  // chart shows last.
  const before = Number(await chart.getAttribute('data-last-trades'));
  await market.place({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.02' });
  const [trade] = await client.rest.trades({ symbol: SYMBOL, limit: 1 });
  await expect(chart).toHaveAttribute('data-last-open-time', String(minuteOf(trade!.time)));
  await expect(chart).toHaveAttribute('data-last-close', trade!.price);
  await expect.poll(async () => Number(await chart.getAttribute('data-last-trades'))).toBeGreaterThan(before);
  await expect(page.getByTestId('ticker-last')).toHaveText(Number(trade!.price).toFixed(2));
  await expect(page.getByTestId('ticker-count')).not.toHaveText(String(day.count));

  await testInfo.attach('trading UI with candle chart', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
});

test('a fault rule on klines: the chart shows its error state, then recovers on its retry', async ({ page, faults }) => {
  await faults.use({ on: 'klines', times: 1, action: { error: -1003 } });
  await page.goto('/');
  const error = page.getByTestId('chart-error');
  await expect(error).toBeVisible();
  await expect(error).toContainText('Chart unavailable: -1003');
  await expect(page.getByTestId('chart')).toHaveAttribute('data-state', 'error');
  await expect(page.getByTestId('chart')).toHaveAttribute('data-state', 'live');
  await expect(error).toBeHidden();
});
