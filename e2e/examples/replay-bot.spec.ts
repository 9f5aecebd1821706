// Example: a bot against a recorded hour (docs/replay.md). The dip buyer (bots/dip-buyer.ts)
// steps once per simulated minute through BTCUSDT's replayed hour on a manual clock: its bids
// are filled by the recorded prints that trade through them, its offers likewise, and a real
// drop stops it out. The same hour gives the same trades in every run.
import { test, expect } from 'spot-sim/fixture';
import { DipBuyer } from './bots/dip-buyer.ts';

const HOUR = Date.UTC(2025, 0, 2);
const SYMBOL = 'BTCUSDT';

test.use({
  simConfig: {
    sim: {
      clock: 'manual',
      start_time_ms: HOUR + 15 * 60_000, // the bot's 15 candles are there from the start
      account: { ended_orders: 'keep' }, // the bot asks about its filled orders
      replay: [{ symbol: SYMBOL, file: 'fixtures/replay/BTCUSDT-aggTrades-2025-01-02.csv', from: HOUR + 15 * 60_000 }],
    },
  },
});

async function tradeTheHour(bot: DipBuyer, advance: (ms: number) => void): Promise<void> {
  for (let minute = 0; minute < 46; minute++) {
    await bot.step();
    advance(60_000);
  }
}

test('the dip buyer trades a recorded hour: filled by the prints, stopped out by a real drop, the same in every run', async ({ sim, client }) => {
  const bot = new DipBuyer(client.rest, { symbol: SYMBOL, quantity: '0.01', dip: 0.0015, take: 0.001, stop: 0.0012, patience: 3 });
  await tradeTheHour(bot, (ms) => sim.advanceTime(ms));
  // What the recorded hour made of it: two bounces sold, a drop that stopped it out, a last entry.
  expect(bot.journal).toEqual([
    'bid 94126.80 (high 94331.55)',
    'bought 94126.80000000, offer 94220.93',
    'sold 94220.93000000',
    'bid 94149.96 (high 94311.96)',
    'bought 94149.96000000, offer 94244.11',
    'sold 94244.11000000',
    'bid 94147.13 (high 94298.31)',
    'bought 94147.13000000, offer 94241.28',
    'stopped out at 94005.88',
    'bid 94032.97 (high 94298.31)',
    'bought 94032.97000000, offer 94127.00',
  ]);
  // Its bids and offers were filled by prints (as maker, at their prices); the stop-out took the synthetic bid.
  const trades = await client.rest.myTrades({ symbol: SYMBOL });
  expect(trades.map((t) => [t.price, t.isBuyer, t.isMaker])).toEqual([
    ['94126.80000000', true, true],
    ['94220.93000000', false, true],
    ['94149.96000000', true, true],
    ['94244.11000000', false, true],
    ['94147.13000000', true, true],
    ['94005.87000000', false, false],
    ['94032.97000000', true, true],
  ]);

  // The same hour again, from the start: the same decisions and the same result.
  sim.reset();
  const again = new DipBuyer(client.rest, { symbol: SYMBOL, quantity: '0.01', dip: 0.0015, take: 0.001, stop: 0.0012, patience: 3 });
  await tradeTheHour(again, (ms) => sim.advanceTime(ms));
  expect(again.journal).toEqual(bot.journal);
  const tradesAgain = await client.rest.myTrades({ symbol: SYMBOL });
  expect(tradesAgain).toEqual(trades);
});
