// Public market data end to end (API.md section 9), over REST (http and https), the WS API and
// the streams, on a manual clock so every figure is exact: history from the first request, a
// scripted trade moving the last candle, the tickers, aggTrades and the streams; the reference's
// error codes for bad input; fault rules on the new endpoints; a reset keeps the history.
import { test as base, expect, SpotSimClient, SpotSimError } from 'spot-sim/fixture';
import type { AggTradeEvent, AvgPriceEvent, Kline, KlineEvent, MiniTickerEvent, PartialDepthEvent, Ticker24hr } from 'spot-sim';
import { SYMBOL } from './support/helpers.ts';

const START = Date.UTC(2026, 0, 15, 12, 0, 30);
const test = base.extend<object, { simConfig: object }>({
  simConfig: [{ sim: { clock: 'manual', start_time_ms: START, seed: 19 } }, { scope: 'worker' }],
});

/** A scripted taker that sweeps the generator's best ask levels: one trade or more, one time. */
const sweep = { symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.5' } as const;

async function refusedWith(call: Promise<unknown>): Promise<[number, number, string]> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpotSimError);
  const e = error as SpotSimError;
  return [e.status, e.code, e.msg];
}

for (const tls of [false, true]) {
  test.describe(`REST over ${tls ? 'https' : 'http'}`, () => {
    test('history at start: klines of every interval, tickers, trades and aggregates answer from the first request', async ({ sim }) => {
      const rest = new SpotSimClient(sim, { tls }).rest;
      const minute = await rest.klines({ symbol: SYMBOL, interval: '1m', limit: 1000 });
      expect(minute).toHaveLength(1000);
      expect(minute[999]![0]).toBe(Date.UTC(2026, 0, 15, 12, 0));
      expect(minute[999]![6]).toBe(Date.UTC(2026, 0, 15, 12, 0, 59, 999));
      expect(minute.every((k, i) => i === 0 || k[0] === minute[i - 1]![6] + 1)).toBe(true);
      const hours = await rest.klines({ symbol: SYMBOL, interval: '1h' });
      expect(hours.length).toBe(25); // a day of history, from 12:00 the day before to the open hour
      const day = await rest.ticker24hr({ symbol: SYMBOL });
      expect(Object.keys(day)).toEqual([
        'symbol', 'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'prevClosePrice', 'lastPrice', 'lastQty', 'bidPrice', 'bidQty', 'askPrice', 'askQty',
        'openPrice', 'highPrice', 'lowPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count',
      ]);
      expect(day.openTime).toBe(START - 86_400_000);
      expect(day.closeTime).toBe(START);
      expect(day.count).toBeGreaterThan(100_000);
      expect(day.lastId - day.firstId + 1).toBe(day.count);
      // The hour candles of the last 24 h hold the same trades as the ticker (give or take the edge hour).
      const last = await rest.trades({ symbol: SYMBOL, limit: 1 });
      expect(last[0]!.id).toBe(day.lastId);
      expect(day.lastPrice).toBe(last[0]!.price);
      expect((await rest.historicalTrades({ symbol: SYMBOL, fromId: 1, limit: 1 }))[0]!.id).toBe(1);
      const aggs = await rest.aggTrades({ symbol: SYMBOL, limit: 3 });
      expect(aggs[2]!.l).toBe(day.lastId);
      expect(await rest.tickerPrice({ symbol: SYMBOL })).toEqual({ symbol: SYMBOL, price: day.lastPrice });
    });

    test('a scripted trade moves the last candle, the tickers, trades, aggTrades and avgPrice', async ({ sim, market }) => {
      const rest = new SpotSimClient(sim, { tls }).rest;
      sim.advanceTime(2_000);
      const before = await rest.ticker24hr({ symbol: SYMBOL });
      const [candleBefore] = (await rest.klines({ symbol: SYMBOL, interval: '1m', limit: 1 })) as [Kline];
      await market.place(sweep);
      const trades = await rest.trades({ symbol: SYMBOL, limit: 50 });
      const mine = trades.filter((t) => t.id > before.lastId);
      expect(mine.every((t) => t.time === START + 2_000)).toBe(true);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine[0]!.id).toBe(before.lastId + 1);
      const qty = mine.reduce((s, t) => s + Number(t.qty), 0);
      expect(qty).toBeCloseTo(0.5, 8);
      const after = await rest.ticker24hr({ symbol: SYMBOL });
      expect(after.lastId).toBe(mine[mine.length - 1]!.id);
      expect(after.lastPrice).toBe(mine[mine.length - 1]!.price);
      expect(after.count).toBeGreaterThanOrEqual(before.count);
      const [candle] = (await rest.klines({ symbol: SYMBOL, interval: '1m', limit: 1 })) as [Kline];
      expect(candle[0]).toBe(candleBefore[0]);
      expect(candle[8]).toBe(candleBefore[8] + mine.length);
      expect(Number(candle[5])).toBeCloseTo(Number(candleBefore[5]) + 0.5, 8);
      expect(candle[4]).toBe(after.lastPrice);
      // One taker order: one aggregate per price, all at its time.
      const aggs = await rest.aggTrades({ symbol: SYMBOL, startTime: START + 2_000 });
      expect(aggs.map((a) => a.f)[0]).toBe(mine[0]!.id);
      expect(aggs.reduce((s, a) => s + Number(a.q), 0)).toBeCloseTo(0.5, 8);
      expect(new Set(aggs.map((a) => a.p)).size).toBe(aggs.length);
      expect((await rest.avgPrice({ symbol: SYMBOL })).closeTime).toBe(START + 2_000);
    });

    test('bad input: the reference codes and messages, and nothing changes', async ({ sim }) => {
      const rest = new SpotSimClient(sim, { tls }).rest;
      expect(await refusedWith(rest.klines({ symbol: SYMBOL, interval: '7m' as '1m' }))).toEqual([400, -1120, 'Invalid interval.']);
      expect(await refusedWith(rest.klines({ symbol: SYMBOL } as never))).toEqual([400, -1102, "Mandatory parameter 'interval' was not sent, was empty/null, or malformed."]);
      expect(await refusedWith(rest.klines({ symbol: 'NOPE', interval: '1m' }))).toEqual([400, -1121, 'Invalid symbol.']);
      expect(await refusedWith(rest.klines({ symbol: SYMBOL, interval: '1m', timeZone: '15:00' }))).toEqual([400, -1100, "Illegal characters found in parameter 'timeZone'."]);
      expect(await refusedWith(rest.klines({ symbol: SYMBOL, interval: '1m', limit: 0 }))).toEqual([400, -1100, "Illegal characters found in parameter 'limit'."]);
      expect(await refusedWith(rest.aggTrades({ symbol: SYMBOL, fromId: 1, startTime: START }))).toEqual([400, -1128, 'Combination of optional parameters invalid.']);
      expect(await refusedWith(rest.ticker({ symbol: SYMBOL, windowSize: '24h' }))).toEqual([400, -1130, "Data sent for parameter 'windowSize' is not valid."]);
      expect(await refusedWith(rest.ticker24hr({ symbol: SYMBOL, type: 'FAT' as 'FULL' }))).toEqual([400, -1139, 'Invalid ticker type.']);
      const both = await rest.request({ method: 'GET', path: `/api/v3/ticker/24hr?symbol=${SYMBOL}&symbols=%5B%22${SYMBOL}%22%5D` });
      expect([both.status, (both.body as { code: number }).code]).toEqual([400, -1128]);
      const malformed = await rest.request({ method: 'GET', path: '/api/v3/ticker/price?symbols=%5BBTCUSDT' });
      expect([malformed.status, (malformed.body as { code: number }).code]).toEqual([400, -1130]);
      const neither = await rest.request({ method: 'GET', path: '/api/v3/ticker/tradingDay' });
      expect(neither.body).toEqual({ code: -1102, msg: "Param 'symbol' or 'symbols' must be sent, but both were empty/null!" });
      // Limits above the maximum are capped; startTime after endTime is an empty answer.
      expect(await rest.klines({ symbol: SYMBOL, interval: '1m', limit: 5000 })).toHaveLength(1000);
      expect(await rest.klines({ symbol: SYMBOL, interval: '1m', startTime: START, endTime: START - 1 })).toEqual([]);
    });
  });
}

for (const tls of [false, true]) {
  test(`the WS API answers the REST bodies (${tls ? 'wss' : 'ws'})`, async ({ sim }) => {
    const client = new SpotSimClient(sim, { tls });
    const api = await client.wsApi();
    const rest = client.rest;
    expect(await api.klines({ symbol: SYMBOL, interval: '5m', limit: 7, timeZone: '05:45' })).toEqual(await rest.klines({ symbol: SYMBOL, interval: '5m', limit: 7, timeZone: '05:45' }));
    expect(await api.uiKlines({ symbol: SYMBOL, interval: '1M' })).toEqual(await rest.uiKlines({ symbol: SYMBOL, interval: '1M' }));
    expect(await api.recentTrades({ symbol: SYMBOL, limit: 5 })).toEqual(await rest.trades({ symbol: SYMBOL, limit: 5 }));
    expect(await api.historicalTrades({ symbol: SYMBOL, fromId: 10, limit: 5 })).toEqual(await rest.historicalTrades({ symbol: SYMBOL, fromId: 10, limit: 5 }));
    expect(await api.aggTrades({ symbol: SYMBOL, fromId: 3, limit: 5 })).toEqual(await rest.aggTrades({ symbol: SYMBOL, fromId: 3, limit: 5 }));
    expect(await api.avgPrice({ symbol: SYMBOL })).toEqual(await rest.avgPrice({ symbol: SYMBOL }));
    expect(await api.ticker24hr({ symbols: ['ETHUSDT', SYMBOL] })).toEqual(await rest.ticker24hr({ symbols: ['ETHUSDT', SYMBOL] }));
    expect(await api.tickerPrice()).toEqual(await rest.tickerPrice());
    expect(await api.bookTicker({ symbols: [SYMBOL] })).toEqual(await rest.bookTicker({ symbols: [SYMBOL] }));
    expect(await api.ticker({ symbol: SYMBOL, windowSize: '4h', type: 'MINI' })).toEqual(await rest.ticker({ symbol: SYMBOL, windowSize: '4h', type: 'MINI' }));
    expect(await api.tradingDay({ symbol: SYMBOL, timeZone: '-1:00' })).toEqual(await rest.tradingDay({ symbol: SYMBOL, timeZone: '-1:00' }));
    await expect(api.klines({ symbol: SYMBOL, interval: '2d' as '1d' })).rejects.toMatchObject({ code: -1120 });
    await client.close();
  });
}

test('streams: kline pushes every 2 s with a final x:true at the close, aggTrade per aggregate, tickers and avgPrice every second', async ({ sim, client, market }) => {
  const streams = await client.streams(`${SYMBOL.toLowerCase()}@kline_1m`, 'btcusdt@aggTrade', 'btcusdt@miniTicker', 'btcusdt@ticker', 'btcusdt@avgPrice', 'btcusdt@depth5', 'btcusdt@kline_1h@+08:00');
  sim.advanceTime(2_000);
  const open = await streams.nextOf<KlineEvent>('btcusdt@kline_1m');
  expect(open.k).toMatchObject({ t: Date.UTC(2026, 0, 15, 12, 0), i: '1m', x: false, s: SYMBOL });
  expect(await streams.nextOf<KlineEvent>('btcusdt@kline_1h@+08:00')).toMatchObject({ k: { i: '1h', t: Date.UTC(2026, 0, 15, 12) } });
  await market.place(sweep);
  const agg = await streams.nextOf<AggTradeEvent>('btcusdt@aggTrade');
  expect(agg.e).toBe('aggTrade');
  const [first] = await client.rest.aggTrades({ symbol: SYMBOL, fromId: agg.a, limit: 1 });
  expect(agg).toMatchObject({ a: first!.a, q: first!.q, f: first!.f, l: first!.l });
  sim.advanceTime(1_000);
  const ticker = await client.rest.ticker24hr({ symbol: SYMBOL });
  const mini = await streams.nextOf<MiniTickerEvent>('btcusdt@miniTicker', (e) => e.E === START + 3_000);
  expect(mini.c).toBe(ticker.lastPrice);
  expect(await streams.nextOf<AvgPriceEvent>('btcusdt@avgPrice')).toMatchObject({ e: 'avgPrice', i: '5m', s: SYMBOL });
  expect(await streams.nextOf<PartialDepthEvent>('btcusdt@depth5')).toMatchObject({ bids: expect.any(Array) });
  // Past 12:01:00 the 12:00 candle is pushed once more, closed.
  sim.advanceTime(30_000);
  const closed = await streams.nextOf<KlineEvent>('btcusdt@kline_1m', (e) => e.k.x);
  expect(closed.k.t).toBe(Date.UTC(2026, 0, 15, 12, 0));
  const [rest] = await client.rest.klines({ symbol: SYMBOL, interval: '1m', startTime: closed.k.t, limit: 1 });
  expect([closed.k.o, closed.k.h, closed.k.l, closed.k.c, closed.k.v, closed.k.n]).toEqual([rest![1], rest![2], rest![3], rest![4], rest![5], rest![8]]);
  await streams.close();
});

test('fault rules apply to the new endpoints; a reset keeps the history and restarts live ids after it', async ({ sim, client, faults, market }) => {
  const rule = await faults.use({ on: 'klines', times: 1, action: { status: 503, code: -1001, msg: 'Internal error; unable to process your request. Please try again.' } });
  expect(await refusedWith(client.rest.klines({ symbol: SYMBOL, interval: '1m' }))).toEqual([503, -1001, 'Internal error; unable to process your request. Please try again.']);
  expect((await client.rest.klines({ symbol: SYMBOL, interval: '1m', limit: 2 })).length).toBe(2);
  await rule.remove();
  const before = await client.rest.ticker24hr({ symbol: SYMBOL });
  await market.place(sweep);
  sim.reset();
  const after = await client.rest.ticker24hr({ symbol: SYMBOL });
  expect(after).toMatchObject({ firstId: before.firstId, lastId: before.lastId, count: before.count });
  await market.place(sweep);
  expect((await client.rest.trades({ symbol: SYMBOL, limit: 1 }))[0]!.id).toBeGreaterThan(before.lastId);
  expect((await client.rest.historicalTrades({ symbol: SYMBOL, fromId: before.lastId + 1, limit: 1 }))[0]!.id).toBe(before.lastId + 1);
});
