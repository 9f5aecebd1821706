// What a stream client sees after one long manual-clock jump (docs/time.md, "Streams during a
// jump"): nothing can be read while `advanceTime` runs, so a stream of state (partial depth,
// tickers, the open candle, bookTicker) gets the last state it would have had, a depth stream
// one diff spanning the jump's update ids, and every event (aggregate trades, each candle's final
// `x: true` form) arrives, in full and in order. The seven streams, generator on.
import { test, expect } from 'spot-sim/fixture';
import type { AggTradeEvent, DepthUpdateEvent, KlineEvent, PartialDepthEvent, WindowTickerEvent } from 'spot-sim';
import { LocalBook } from './support/local-book.ts';

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const SPAN = 60_000;
const END = START + SPAN;

test.use({ simConfig: { sim: { clock: 'manual', start_time_ms: START, seed: 34 } } });

test('one advanceTime of a minute: the last state of each state stream, every event, one merged depth diff', async ({ sim, client }) => {
  const streams = await client.streams(
    'btcusdt@depth20@100ms',
    'ethusdt@depth20@100ms',
    'btcusdt@kline_1s',
    'ethusdt@kline_1s',
    'btcusdt@ticker_1h',
    '!ticker_1h@arr',
    'btcusdt@aggTrade',
    'btcusdt@depth',
    'btcusdt@bookTicker',
  );
  const before = await client.rest.depth({ symbol: 'BTCUSDT', limit: 5000 });
  sim.advanceTime(SPAN);
  // The depth stream's diff and bookTicker leave when the jump ends: after them, everything is in.
  await streams.next('btcusdt@bookTicker');
  const all = streams.all();
  const of = <T>(name: string): T[] => all.filter((m) => m.stream === name).map((m) => m.data as T);

  // State: one push each, the state at the end of the jump.
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
    const pushes = of<PartialDepthEvent>(`${symbol.toLowerCase()}@depth20@100ms`);
    expect(pushes).toHaveLength(1);
    const book = await client.rest.depth({ symbol, limit: 20 });
    expect(pushes[0]).toEqual({ lastUpdateId: book.lastUpdateId, bids: book.bids, asks: book.asks });
  }
  const tickers = of<WindowTickerEvent>('btcusdt@ticker_1h');
  expect(tickers.map((t) => t.E)).toEqual([END]);
  expect(of('!ticker_1h@arr')).toHaveLength(1);
  const [touch] = of<{ u: number; b: string; a: string }>('btcusdt@bookTicker');
  const restTouch = await client.rest.bookTicker({ symbol: 'BTCUSDT' });
  expect([touch!.b, touch!.a]).toEqual([restTouch.bidPrice, restTouch.askPrice]);

  // Klines: every second's final form, in order, as REST has them; then the open candle once.
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
    const pushes = of<KlineEvent>(`${symbol.toLowerCase()}@kline_1s`);
    const closed = pushes.filter((k) => k.k.x);
    const open = pushes.filter((k) => !k.k.x);
    expect(closed.map((k) => k.k.t)).toEqual(Array.from({ length: SPAN / 1000 }, (_, i) => START + i * 1000));
    expect(open.map((k) => k.k.t)).toEqual([END]);
    const rest = await client.rest.klines({ symbol, interval: '1s', startTime: START, limit: SPAN / 1000 });
    expect(closed.map((k) => [k.k.t, k.k.o, k.k.h, k.k.l, k.k.c, k.k.v, k.k.n])).toEqual(rest.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5], r[8]]));
  }

  // Events: every aggregate trade of the minute, as REST lists them.
  const aggs = of<AggTradeEvent>('btcusdt@aggTrade');
  const restAggs = await client.rest.aggTrades({ symbol: 'BTCUSDT', startTime: START, endTime: END, limit: 1000 });
  expect(restAggs.length).toBeGreaterThan(10);
  expect(restAggs.length).toBeLessThan(1000);
  expect(aggs.map((a) => a.a)).toEqual(restAggs.map((a) => a.a));

  // Depth: one diff from the snapshot before to the book after (the local-book sync rule).
  const diffs = of<DepthUpdateEvent>('btcusdt@depth');
  expect(diffs).toHaveLength(1);
  const after = await client.rest.depth({ symbol: 'BTCUSDT', limit: 5000 });
  expect([diffs[0]!.U, diffs[0]!.u]).toEqual([before.lastUpdateId + 1, after.lastUpdateId]);
  const book = LocalBook.from(before);
  book.apply(diffs[0]!);
  expect(book.levels()).toEqual({ bids: after.bids, asks: after.asks });
});

// The pushes' clock is the world's: after the fixture's reset (the manual clock back at START),
// the second test's first jump pushes exactly as the first one's did.
for (const world of ['first', 'second']) {
  test(`a reset starts the pushes over: the ${world} test's first 100 ms push the candle and the tickers`, async ({ sim, client }) => {
    const streams = await client.streams('btcusdt@kline_1s', 'btcusdt@ticker', 'btcusdt@depth5@100ms');
    sim.advanceTime(100);
    expect((await streams.nextOf<KlineEvent>('btcusdt@kline_1s')).E).toBe(START + 100);
    expect((await streams.nextOf<WindowTickerEvent>('btcusdt@ticker')).E).toBe(START + 100);
    expect((await streams.nextOf<PartialDepthEvent>('btcusdt@depth5@100ms')).bids.length).toBe(5);
  });
}
