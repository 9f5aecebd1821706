// A replayed hour's candles (API.md section 12): the klines a client gets over REST equal the
// candles this test folds itself from the same file's rows (e2e/support/replay.ts reads the
// file on its own), for the rows before `from` (the symbol's history at the start) and the rows
// printed after it alike, at 1m, 5m and 1h. With `start_time_ms = from` the published times are
// the recorded ones.
import { test, expect } from 'spot-sim/fixture';
import { HOUR, HOUR_FILE, klinesOf, readAggTrades } from './support/replay.ts';

const SYMBOL = 'BTCUSDT';
const FROM = HOUR + 20 * 60_000;
const MINUTE = 60_000;

test.use({ simConfig: { sim: { clock: 'manual', start_time_ms: FROM, replay: [{ symbol: SYMBOL, file: HOUR_FILE, from: FROM }] } } });

test("a replayed hour's klines equal the file's rows folded by this test, history and replay alike", async ({ sim, client }) => {
  const rows = readAggTrades(HOUR_FILE);
  const last = rows[rows.length - 1]!.time;
  expect(last - HOUR).toBeGreaterThan(59 * MINUTE); // the sample is an hour long

  // At the start: the rows before `from` are the history, the candle of `from` is open and quiet.
  const atStart = await client.rest.klines({ symbol: SYMBOL, interval: '1m', startTime: HOUR, limit: 1000 });
  expect(atStart).toEqual(klinesOf(rows.filter((r) => r.time < FROM), MINUTE, HOUR, FROM));

  sim.advanceTime(last - FROM + 1);
  for (const [interval, ms] of [['1m', MINUTE], ['5m', 5 * MINUTE], ['1h', 60 * MINUTE]] as const) {
    const klines = await client.rest.klines({ symbol: SYMBOL, interval, startTime: HOUR, limit: 1000 });
    expect(klines, interval).toEqual(klinesOf(rows, ms, HOUR, last));
  }
  // Every row was one trade: the day's ticker counts them all.
  expect((await client.rest.ticker24hr({ symbol: SYMBOL })).count).toBe(rows.length);
});
