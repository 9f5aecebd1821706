// History at start and the matcher's feed (API.md section 9): same seed and start -> same
// history; ids continue after it and a fresh core (a reset) keeps it; a taker sweeping levels
// makes one aggregate per price; a kline CSV's candles are a symbol's history and the latent
// mid starts at its last close.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../config/index.ts';
import type { SimConfigInput } from '../../config/types.ts';
import { Exchange } from '../exchange.ts';
import { KLINE_INTERVALS } from './kline-time.ts';
import { buildHistory } from './market-history.ts';
import { buildMarkets } from '../markets.ts';
import { T0 } from '../test-support.ts';

function history(input: SimConfigInput, start = T0) {
  const config = resolveConfig(input);
  return { config, history: buildHistory(config, buildMarkets(config).instruments, start, []) };
}

const ONE_HOUR = { sim: { seed: 5, history: { minutes: 60 } } };

test('synthetic history: same seed and start give the same trades; another seed does not; another start moves them by whole minutes', () => {
  const a = history(ONE_HOUR).history.symbols[0]!;
  const b = history(ONE_HOUR).history.symbols[0]!;
  const c = history({ sim: { seed: 6, history: { minutes: 60 } } }).history.symbols[0]!;
  assert.ok(a.trades.count > 1000, `an hour at one taker a second: ${a.trades.count}`);
  assert.deepEqual(Array.from(a.trades.columns.price.subarray(0, a.trades.count)), Array.from(b.trades.columns.price.subarray(0, b.trades.count)));
  assert.deepEqual(Array.from(a.trades.columns.time.subarray(0, 50)), Array.from(b.trades.columns.time.subarray(0, 50)));
  assert.notDeepEqual(Array.from(a.trades.columns.price.subarray(0, 50)), Array.from(c.trades.columns.price.subarray(0, 50)));
  // Bars of a later start are the same bars, a whole number of minutes later.
  const later = history(ONE_HOUR, T0 + 3 * 60_000 + 7).history.symbols[0]!.bars();
  const bars = a.bars();
  assert.equal(later.count, bars.count);
  assert.equal(later.get(0, 0) - bars.get(0, 0), 3 * 60_000);
  assert.deepEqual(Array.from(later.data.subarray(1, 11)), Array.from(bars.data.subarray(1, 11)));
  // All within `minutes` before the minute of the start, oldest first.
  const times = a.trades.columns.time;
  const minute = T0 - (T0 % 60_000);
  assert.ok(times[0]! >= minute - 3_600_000 && times[a.trades.count - 1]! < minute);
  for (let i = 1; i < a.trades.count; i++) assert.ok(times[i]! >= times[i - 1]!);
});

test('a core with history: candles from the first request, live ids after history, a fresh core keeps the history', () => {
  const { config, history: h } = history(ONE_HOUR);
  const first = new Exchange(config, T0, h);
  const md = first.marketData.of(0);
  const historyTrades = h.symbols[0]!.trades.count;
  assert.equal(md.lastTradeId, historyTrades);
  const candles = md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 1000, now: T0 });
  assert.ok(candles.length >= 60 && candles.length <= 61);
  assert.equal(candles.reduce((s, c) => s + c.fold.count, 0), historyTrades);
  // The generator's first market order trades after the history.
  first.submit({ type: 'advance', now: T0 + 30_000, maxSteps: 100_000 });
  const live = md.trades(undefined, 1000).filter((t) => t.time >= T0);
  assert.ok(live.length > 0);
  assert.equal(live[0]!.id, historyTrades + 1);
  const again = new Exchange(config, T0 + 60_000, h);
  assert.equal(again.marketData.of(0).lastTradeId, historyTrades);
  assert.equal(again.marketData.of(0).trades(1, 1)[0]!.id, 1);
});

test('the matcher: a taker sweeping three levels makes three aggregates of one time each, maker fills of one level one aggregate', () => {
  const config = resolveConfig({ sim: { generator: { enabled: false }, history: { minutes: 0 } } });
  const ex = new Exchange(config, T0);
  const inst = ex.instruments[0]!;
  const limit = (price: number, lots: number, side: 'BUY' | 'SELL') => ex.submit({ type: 'counterpartyLimit', now: T0, symbolIndex: 0, side, price, lots });
  limit(100, 5, 'SELL');
  limit(100, 5, 'SELL');
  limit(101, 5, 'SELL');
  limit(102, 5, 'SELL');
  ex.submit({ type: 'counterpartyTake', now: T0 + 7, symbolIndex: inst.index, side: 'BUY', price: null, lots: 18 });
  const aggs = ex.marketData.of(0).aggTrades({ limit: 10 });
  assert.deepEqual(
    aggs.map((a) => [a.aggId, a.price, a.qty, a.firstId, a.lastId, a.time, a.buyerIsMaker]),
    [
      [1, 100, 10, 1, 2, T0 + 7, false],
      [2, 101, 5, 3, 3, T0 + 7, false],
      [3, 102, 3, 4, 4, T0 + 7, false],
    ],
  );
});

test('kline CSV candles (read by src/history-files.ts): the symbol history is its candles, ids continue after its trade counts, the mid starts at the last close', () => {
  const rows = [
    { openTime: 1735689600000, open: 9357600, high: 9361093, low: 9353750, close: 9361093, volume: 821827, quoteVolume: 7689786500000, trades: 1313, takerBuyVolume: 395000, takerBuyQuoteVolume: 3698582200000 },
    { openTime: 1735689660000, open: 9361093, high: 9365200, low: 9360648, close: 9365200, volume: 1408000, quoteVolume: 13181620100000, trades: 2090, takerBuyVolume: 1038000, takerBuyQuoteVolume: 9721781600000 },
  ];
  const config = resolveConfig({ sim: { history: { minutes: 0 } } });
  const h = buildHistory(config, buildMarkets(config).instruments, 1735689720000, [{ symbolIndex: 0, rows }]);
  assert.equal(h.lastClose[0], 9365200);
  const ex = new Exchange(config, 1735689720000, h);
  assert.equal(ex.state.latentMid(0), 9365200);
  const md = ex.marketData.of(0);
  assert.equal(md.lastTradeId, 1313 + 2090);
  const candles = md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 10, now: 1735689720000 });
  assert.deepEqual(candles.slice(0, 2).map((c) => [c.openTime, c.fold.open, c.fold.close, c.fold.volume, c.fold.count, c.fold.firstId]), [
    [1735689600000, 9357600, 9361093, 821827, 1313, 1],
    [1735689660000, 9361093, 9365200, 1408000, 2090, 1314],
  ]);
});

test('a day of history holds no trade columns until something reads them, then the same trades as when written at once', () => {
  const config = resolveConfig({ sim: { seed: 11, history: { minutes: 1440 } } });
  const instruments = buildMarkets(config).instruments;
  const before = process.memoryUsage().arrayBuffers;
  const built = buildHistory(config, instruments, T0, []);
  const count = built.symbols[0]!.trades.count;
  assert.ok(count > 100_000, `a day of trades counted (${count})`);
  // 29 bytes a trade would be over 3 MB: counting them allocates no columns.
  assert.ok(process.memoryUsage().arrayBuffers - before < 1_000_000, 'no columns before a read');
  const columns = built.symbols[0]!.trades.columns;
  assert.ok(process.memoryUsage().arrayBuffers - before > count * 29, 'the columns once read');
  // Written later from the same random state: the same trades, ids and aggregates as counted.
  assert.equal(columns.time.length, count);
  assert.equal(built.symbols[0]!.trades.lastAggId, count - columns.aggGap[count - 1]!);
});
