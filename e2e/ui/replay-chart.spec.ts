// The trading UI example on a replayed hour (examples/trading-ui/replay.toml; docs/replay.md's
// Playwright example): on a manual clock the recorded hour plays out before the page opens, so
// the chart, the strip and the book show the same market in every run, and the chart is
// compared with a screenshot. The page itself is unchanged: it talks to the production hosts,
// routed to the worker's simulator.
import { loadConfig } from 'spot-sim';
import { expect, openUi, SYMBOL, test, TRADING_UI } from './support.ts';

const EXAMPLE = loadConfig({ configFile: 'examples/trading-ui/replay.toml', config: { sim: { clock: 'manual' } } });
test.use({ ...TRADING_UI, simConfig: EXAMPLE });

const HOUR = Date.UTC(2025, 0, 2);

test('the example replays BTCUSDT from its recorded hour', () => {
  expect(EXAMPLE.sim.replay.map((r) => [r.symbol, r.from])).toEqual([[SYMBOL, HOUR + 20 * 60_000]]);
});

test('a recorded hour on the chart: every minute of it, the strip on its last trade, and the same picture in every run', async ({ page, sim, client }) => {
  sim.advanceTime(42 * 60_000); // to 01:02, past the hour's last trade
  await openUi(page);
  const chart = page.getByTestId('chart');
  await expect(chart).toHaveAttribute('data-state', 'live');
  const klines = await client.rest.klines({ symbol: SYMBOL, interval: '1m', limit: 500 });
  expect(klines[0]![0]).toBe(HOUR);
  await expect(chart).toHaveAttribute('data-candles', String(klines.length));
  const [last] = await client.rest.trades({ symbol: SYMBOL, limit: 1 });
  await expect(page.getByTestId('ticker-last')).toHaveText(Number(last!.price).toFixed(2));
  // The synthetic book: one tick each side of the last print.
  await expect(page.getByTestId('spread')).toHaveText('spread 0.02');
  await expect(chart).toHaveScreenshot('replayed-hour.png');
});
