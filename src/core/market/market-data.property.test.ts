// Property tests (API.md section 9): for random trade tapes, candles of every interval and time
// zone, aggregate trades and ticker windows always agree with a naive fold of the tape itself.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KLINE_INTERVALS, MINUTE_MS, parseTimeZone } from './kline-time.ts';
import { NO_HISTORY, SymbolMarketData } from './market-data.ts';

const T0 = 1_700_000_000_000;

interface Trade {
  time: number;
  price: number;
  qty: number;
  maker: boolean;
  newAgg: boolean;
}

/** Trades with non-decreasing times over up to ~40 days, quiet stretches included. */
const tapeArb = fc
  .array(
    fc.record({
      gap: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 120_000 }), fc.integer({ min: 0, max: 3 * 86_400_000 })),
      price: fc.integer({ min: 1, max: 10_000 }),
      qty: fc.integer({ min: 1, max: 1000 }),
      maker: fc.boolean(),
      newAgg: fc.boolean(),
    }),
    { minLength: 1, maxLength: 120 },
  )
  .map((steps) => {
    let time = T0;
    let price = -1;
    return steps.map((s, i): Trade => {
      time += s.gap;
      // A new aggregate whenever time or price changes (the matcher's rule); else as drawn.
      const newAgg = i === 0 || s.gap > 0 || s.price !== price || s.newAgg;
      price = s.price;
      return { time, price: s.price, qty: s.qty, maker: s.maker, newAgg };
    });
  });

function load(trades: readonly Trade[]): SymbolMarketData {
  const md = new SymbolMarketData(NO_HISTORY, 1_000_000);
  for (const t of trades) md.record(t.price, t.qty, t.time, t.maker, t.newAgg);
  return md;
}

function naive(trades: readonly Trade[], from: number, to: number) {
  const inside = trades.map((t, i) => ({ ...t, id: i + 1 })).filter((t) => t.time >= from && t.time < to);
  if (inside.length === 0) return null;
  return {
    open: inside[0]!.price,
    high: Math.max(...inside.map((t) => t.price)),
    low: Math.min(...inside.map((t) => t.price)),
    close: inside[inside.length - 1]!.price,
    volume: inside.reduce((s, t) => s + t.qty, 0),
    quote: inside.reduce((s, t) => s + t.qty * t.price, 0),
    takerVolume: inside.reduce((s, t) => s + (t.maker ? 0 : t.qty), 0),
    firstId: inside[0]!.id,
    lastId: inside[inside.length - 1]!.id,
  };
}

const zones = ['0', '8', '-5:00', '05:45', '+14:00', '-12:00'];

test('every candle of every interval and time zone is the fold of the tape between its open and close times', () => {
  fc.assert(
    fc.property(tapeArb, fc.constantFrom(...KLINE_INTERVALS.keys()), fc.constantFrom(...zones), (trades, name, zone) => {
      const md = load(trades);
      const interval = KLINE_INTERVALS.get(name)!;
      const tz = parseTimeZone(zone)!;
      const now = trades[trades.length - 1]!.time;
      const candles = md.klines({ interval, tz, limit: 1000, now });
      assert.ok(candles.length >= 1);
      const before = trades.filter((t) => t.time < candles[0]!.openTime);
      let prevClose = before.length === 0 ? 0 : before[before.length - 1]!.price;
      for (let i = 0; i < candles.length; i++) {
        const c = candles[i]!;
        if (i > 0) assert.equal(c.openTime, candles[i - 1]!.closeTime + 1, 'no gap between candles');
        const want = naive(trades, c.openTime, c.closeTime + 1);
        const f = c.fold;
        if (want === null) {
          assert.deepEqual([f.open, f.high, f.low, f.close, f.volume, f.count], [prevClose, prevClose, prevClose, prevClose, 0, 0], 'a quiet candle repeats the previous close');
        } else {
          assert.deepEqual(
            [f.open, f.high, f.low, f.close, f.volume, f.quote, f.takerVolume, f.firstId, f.lastId],
            [want.open, want.high, want.low, want.close, want.volume, want.quote, want.takerVolume, want.firstId, want.lastId],
          );
          prevClose = f.close;
        }
      }
      // Without start/end and with limit >= the candle count, the candles cover every trade.
      if (candles.length < 1000) {
        assert.equal(candles.reduce((s, c) => s + c.fold.volume, 0), trades.reduce((s, t) => s + t.qty, 0));
        assert.equal(candles.reduce((s, c) => s + c.fold.count, 0), trades.length);
      }
    }),
    { numRuns: 300, seed: 1919 },
  );
});

test('aggregate trades partition the tape: consecutive ids, one price and time each, quantities add up', () => {
  fc.assert(
    fc.property(tapeArb, fc.integer({ min: 1, max: 50 }), (trades, limit) => {
      const md = load(trades);
      const all = md.aggTrades({ limit: 1000 });
      assert.equal(all[0]!.firstId, 1);
      assert.equal(all[all.length - 1]!.lastId, trades.length);
      for (let i = 0; i < all.length; i++) {
        const a = all[i]!;
        if (i > 0) {
          assert.equal(a.firstId, all[i - 1]!.lastId + 1);
          assert.equal(a.aggId, all[i - 1]!.aggId + 1);
        }
        const members = trades.slice(a.firstId - 1, a.lastId);
        assert.ok(members.every((t) => t.price === a.price && t.time === a.time && t.maker === a.buyerIsMaker));
        assert.equal(members.reduce((s, t) => s + t.qty, 0), a.qty);
        assert.equal(members.filter((t) => t.newAgg).length, 1, 'one taker order starts it');
      }
      // The most recent `limit`, and `fromId` paging, give slices of the same list.
      assert.deepEqual(md.aggTrades({ limit }), all.slice(-limit));
      const from = all[Math.floor(all.length / 2)]!;
      assert.deepEqual(md.aggTrades({ fromId: from.aggId, limit }), all.filter((a) => a.aggId >= from.aggId).slice(0, limit));
      assert.deepEqual(md.aggTrades({ startTime: from.time, limit }), all.filter((a) => a.time >= from.time).slice(0, limit));
      assert.deepEqual(md.aggTrades({ endTime: from.time, limit }), all.filter((a) => a.time <= from.time).slice(-limit));
    }),
    { numRuns: 300, seed: 1920 },
  );
});

test('ticker windows (exact 24 h start, minute-aligned rolling start) equal the fold of the tape', () => {
  fc.assert(
    fc.property(tapeArb, fc.integer({ min: 0, max: 3 * 86_400_000 }), (trades, back) => {
      const md = load(trades);
      const now = trades[trades.length - 1]!.time;
      const from = now - back;
      for (const [fold, start] of [
        [md.window(from).fold, from],
        [md.barsFrom(Math.floor(from / MINUTE_MS) * MINUTE_MS), Math.floor(from / MINUTE_MS) * MINUTE_MS],
      ] as const) {
        const want = naive(trades, start, now + 1);
        if (want === null) assert.ok(fold.empty);
        else assert.deepEqual([fold.open, fold.high, fold.low, fold.close, fold.volume, fold.firstId, fold.lastId], [want.open, want.high, want.low, want.close, want.volume, want.firstId, want.lastId]);
      }
    }),
    { numRuns: 300, seed: 1921 },
  );
});

test('a capped tape forgets the oldest trades but keeps ids, and candles keep every trade', () => {
  const md = new SymbolMarketData(NO_HISTORY, 5);
  for (let i = 0; i < 12; i++) md.record(100 + i, 1, T0 + i * 1000, false, true);
  assert.deepEqual(md.trades(undefined, 100).map((t) => t.id), [8, 9, 10, 11, 12]);
  assert.deepEqual(md.trades(1, 2).map((t) => t.id), [8, 9]);
  assert.deepEqual(md.aggTrades({ limit: 100 }).map((a) => a.aggId), [8, 9, 10, 11, 12]);
  const [candle] = md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 1, now: T0 + 11_000 });
  assert.equal(candle!.fold.count, 12);
  assert.equal(candle!.fold.open, 100);
});

test('with any cap and queries at any point, candles fold every trade ever recorded (bars are folded lazily)', () => {
  fc.assert(
    fc.property(tapeArb, fc.integer({ min: 1, max: 20 }), fc.array(fc.integer({ min: 0, max: 130 }), { maxLength: 6 }), (trades, cap, queryPoints) => {
      const md = new SymbolMarketData(NO_HISTORY, cap);
      const day = KLINE_INTERVALS.get('1M')!;
      const whole = (now: number) => md.klines({ interval: day, tz: 0, limit: 1000, now });
      trades.forEach((t, i) => {
        if (queryPoints.includes(i)) whole(t.time);
        md.record(t.price, t.qty, t.time, t.maker, t.newAgg);
      });
      const last = trades[trades.length - 1]!.time;
      const candles = whole(last).filter((c) => !c.fold.empty);
      const expected = naive(trades, -Infinity, Infinity)!;
      assert.equal(candles.reduce((s, c) => s + c.fold.count, 0), trades.length);
      assert.equal(candles.reduce((s, c) => s + c.fold.volume, 0), expected.volume);
      assert.equal(candles[0]!.fold.firstId, 1);
      assert.equal(candles[candles.length - 1]!.fold.close, expected.close);
      assert.equal(md.tape.size, Math.min(cap, trades.length));
    }),
  );
});

test('thousands of trades over many minutes: batch folds on the way and the query fold give the tape fold', () => {
  for (const cap of [700, 1024, 5000]) {
    const md = new SymbolMarketData(NO_HISTORY, cap);
    const trades: Trade[] = [];
    for (let i = 0; i < 3000; i++) trades.push({ time: T0 + i * 997, price: 100 + ((i * 7919) % 50), qty: 1 + (i % 9), maker: i % 3 === 0, newAgg: true });
    trades.forEach((t, i) => {
      md.record(t.price, t.qty, t.time, t.maker, t.newAgg);
      if (i % 1111 === 0) md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 1, now: t.time });
    });
    const now = trades[trades.length - 1]!.time;
    const candles = md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 1000, now });
    for (const c of candles) {
      const expected = naive(trades, c.openTime, c.closeTime + 1)!;
      assert.equal(c.fold.volume, expected.volume, `cap ${cap}, candle ${c.openTime}`);
      assert.equal(c.fold.high, expected.high);
      assert.equal(c.fold.firstId, expected.firstId);
      assert.equal(c.fold.lastId, expected.lastId);
    }
    assert.equal(candles.reduce((s, c) => s + c.fold.count, 0), trades.length);
  }
});

test('times that go back (a clock-offset fault) are kept at the latest time; aggregate ids follow the flags; with any cap and reads at any point', () => {
  const backwards = fc.array(
    fc.record({ step: fc.integer({ min: -90_000, max: 90_000 }), price: fc.integer({ min: 1, max: 50 }), maker: fc.boolean(), newAgg: fc.boolean() }),
    { minLength: 1, maxLength: 150 },
  );
  fc.assert(
    fc.property(backwards, fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 0, max: 150 }), { maxLength: 5 }), (steps, cap, readPoints) => {
      const md = new SymbolMarketData(NO_HISTORY, cap);
      let time = T0;
      let latest = -Infinity;
      let aggId = 0;
      const expected: { id: number; time: number; aggId: number }[] = [];
      steps.forEach((s, i) => {
        if (readPoints.includes(i)) md.aggTrades({ limit: 1000 });
        time += s.step;
        const newAgg = i === 0 || s.newAgg;
        md.record(s.price, 1, time, s.maker, newAgg);
        latest = Math.max(latest, time);
        if (newAgg) aggId++;
        expected.push({ id: i + 1, time: latest, aggId });
      });
      const kept = expected.slice(-cap);
      assert.deepEqual(
        md.trades(undefined, 1000).map((t) => [t.id, t.time]),
        kept.map((t) => [t.id, t.time]),
      );
      const aggs = md.aggTrades({ limit: 1000 });
      for (const a of aggs) {
        const members = kept.filter((t) => t.aggId === a.aggId);
        assert.deepEqual([a.firstId, a.lastId], [members[0]!.id, members[members.length - 1]!.id]);
      }
      assert.equal(md.tape.lastAggId, aggId);
      const whole = md.klines({ interval: KLINE_INTERVALS.get('1M')!, tz: 0, limit: 1000, now: latest });
      assert.equal(whole.reduce((n, c) => n + c.fold.count, 0), steps.length);
    }),
  );
});
