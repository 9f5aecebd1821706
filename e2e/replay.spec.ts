// A replayed symbol end to end (API.md section 12), through the fixture on a manual clock: the
// file's rows before `from` as the symbol's history, its rows after it printed at their recorded
// times (start_time_ms = from), over REST, the market streams and the WS API; the synthetic book
// around the last print; the account's resting order filled by a print as the fill rule says,
// with fill_at_touch off and on; the scripted market beside the recording. The expected rows
// come from this test's own reading of the sample (e2e/support/replay.ts).
import { test as base, expect, type SimConfigInput } from 'spot-sim/fixture';
import type { AggTradeEvent, BookTickerEvent, DepthUpdateEvent, ExecutionReportEvent, KlineEvent, PublicTrade, TradeEvent } from 'spot-sim';
import { Decimal } from 'decimal.js';
import { eight, HOUR, HOUR_FILE, readAggTrades, type Row } from './support/replay.ts';
import { refusal, withSimConfig } from './support/helpers.ts';

const SYMBOL = 'BTCUSDT';
const FROM = HOUR + 20 * 60_000;
const MINUTE = 60_000;
const ROWS = readAggTrades(HOUR_FILE);
const HISTORY = ROWS.filter((r) => r.time < FROM);
const LIVE = ROWS.filter((r) => r.time >= FROM);
const replayOf = (extra: object = {}): SimConfigInput => ({ sim: { clock: 'manual', start_time_ms: FROM, account: { ended_orders: 'keep' }, replay: [{ symbol: SYMBOL, file: HOUR_FILE, from: FROM, ...extra }] } });

/** A public trade as the exchange shows the row that got trade id `id`. */
function tradeOf(row: Row, id: number): PublicTrade {
  return { id, price: eight(row.price), qty: eight(row.qty), quoteQty: eight(new Decimal(row.price).times(row.qty)), time: row.time, isBuyerMaker: row.isBuyerMaker, isBestMatch: true };
}

/** The synthetic book around `price`: `levels` a side one tick apart, 1 BTC each. */
function bookAround(price: string, levels: number): { bids: [string, string][]; asks: [string, string][] } {
  const at = (k: number) => eight(new Decimal(price).plus(new Decimal('0.01').times(k)));
  return {
    bids: Array.from({ length: levels }, (_, i) => [at(-(i + 1)), '1.00000000']),
    asks: Array.from({ length: levels }, (_, i) => [at(i + 1), '1.00000000']),
  };
}

base.describe('the recorded day over the wire', () => {
  const test = withSimConfig(replayOf());

  test('REST: history at the start, each row printed at its recorded time with the next trade id, the book around the last print', async ({ sim, client }) => {
    const { rest } = client;
    const last = HISTORY[HISTORY.length - 1]!;
    expect(await rest.trades({ symbol: SYMBOL, limit: 3 })).toEqual(HISTORY.slice(-3).map((r, i) => tradeOf(r, HISTORY.length - 2 + i)));
    const { bids, asks } = await rest.depth({ symbol: SYMBOL, limit: 20 });
    expect({ bids, asks }).toEqual(bookAround(last.price, 20));

    sim.advanceTime(5 * MINUTE);
    const printed = LIVE.filter((r) => r.time < FROM + 5 * MINUTE);
    expect(printed.length).toBeGreaterThan(50);
    const trades = await rest.historicalTrades({ symbol: SYMBOL, fromId: HISTORY.length + 1, limit: 1000 });
    expect(trades).toEqual(printed.map((r, i) => tradeOf(r, HISTORY.length + 1 + i)));
    // An aggTrades file: each row is one aggregate of one trade.
    const aggs = await rest.aggTrades({ symbol: SYMBOL, fromId: HISTORY.length + 1, limit: 3 });
    expect(aggs.map((a) => [a.a, a.f, a.l, a.p, a.T])).toEqual(printed.slice(0, 3).map((r, i) => [HISTORY.length + 1 + i, HISTORY.length + 1 + i, HISTORY.length + 1 + i, eight(r.price), r.time]));
    const now = printed[printed.length - 1]!;
    const book = await rest.depth({ symbol: SYMBOL, limit: 5 });
    expect({ bids: book.bids, asks: book.asks }).toEqual(bookAround(now.price, 5));
    const touch = await rest.bookTicker({ symbol: SYMBOL });
    expect([touch.bidPrice, touch.askPrice]).toEqual([book.bids[0]![0], book.asks[0]![0]]);
    const day = await rest.ticker24hr({ symbol: SYMBOL });
    expect([day.lastPrice, day.count, day.lastId]).toEqual([eight(now.price), HISTORY.length + printed.length, HISTORY.length + printed.length]);
    expect((await rest.avgPrice({ symbol: SYMBOL })).closeTime).toBe(now.time);
  });

  test('streams: every printed row a trade and an aggregate, the depth and the touch around it, the minute closed', async ({ sim, client }) => {
    const stream = await client.streams('btcusdt@trade', 'btcusdt@aggTrade', 'btcusdt@depth', 'btcusdt@bookTicker', 'btcusdt@kline_1m');
    // Past the first minute, to a quiet moment: the last depth batch (every 100 ms) is out by then.
    const quiet = LIVE.findIndex((r, i) => r.time >= FROM + MINUTE && LIVE[i + 1]!.time - r.time > 300);
    const end = LIVE[quiet]!.time + 200;
    sim.advanceTime(end - FROM);
    const printed = LIVE.slice(0, quiet + 1);
    const lastId = HISTORY.length + printed.length;
    await stream.next((m) => m.stream === 'btcusdt@aggTrade' && (m.data as AggTradeEvent).a === lastId);
    const closed = stream.all().find((m) => m.stream === 'btcusdt@kline_1m' && (m.data as KlineEvent).k.x)!.data as KlineEvent;
    const trades = stream.all().filter((m) => m.stream === 'btcusdt@trade').map((m) => m.data as TradeEvent);
    expect(trades.map((t) => [t.t, t.p, t.q, t.T, t.m])).toEqual(printed.map((r, i) => [HISTORY.length + 1 + i, eight(r.price), eight(r.qty), r.time, r.isBuyerMaker]));
    const aggs = stream.all().filter((m) => m.stream === 'btcusdt@aggTrade').map((m) => m.data as AggTradeEvent);
    expect(aggs.map((a) => [a.a, a.f, a.l])).toEqual(printed.map((_, i) => [HISTORY.length + 1 + i, HISTORY.length + 1 + i, HISTORY.length + 1 + i]));
    const [kline] = await client.rest.klines({ symbol: SYMBOL, interval: '1m', startTime: FROM, limit: 1 });
    expect([closed.k.t, closed.k.o, closed.k.h, closed.k.l, closed.k.c, closed.k.v, closed.k.n]).toEqual([kline![0], kline![1], kline![2], kline![3], kline![4], kline![5], kline![8]]);
    // The depth diffs and the touch end on the book around the minute's last print.
    const { lastUpdateId, bids, asks } = await client.rest.depth({ symbol: SYMBOL, limit: 20 });
    expect((stream.last('btcusdt@depth')!.data as DepthUpdateEvent).u).toBe(lastUpdateId);
    expect({ bids, asks }).toEqual(bookAround(printed[printed.length - 1]!.price, 20));
    const touch = stream.last('btcusdt@bookTicker')!.data as BookTickerEvent;
    expect([touch.u, touch.b, touch.a]).toEqual([lastUpdateId, bids[0]![0], asks[0]![0]]);
  });

  test('the WS API answers the REST bodies on the replayed symbol', async ({ sim, client }) => {
    sim.advanceTime(3 * MINUTE);
    const api = await client.wsApi();
    const { rest } = client;
    expect(await api.klines({ symbol: SYMBOL, interval: '1m', startTime: HOUR })).toEqual(await rest.klines({ symbol: SYMBOL, interval: '1m', startTime: HOUR }));
    expect(await api.recentTrades({ symbol: SYMBOL, limit: 20 })).toEqual(await rest.trades({ symbol: SYMBOL, limit: 20 }));
    expect(await api.aggTrades({ symbol: SYMBOL, startTime: FROM, limit: 50 })).toEqual(await rest.aggTrades({ symbol: SYMBOL, startTime: FROM, limit: 50 }));
    expect(await api.avgPrice({ symbol: SYMBOL })).toEqual(await rest.avgPrice({ symbol: SYMBOL }));
    expect(await api.ticker24hr({ symbol: SYMBOL })).toEqual(await rest.ticker24hr({ symbol: SYMBOL }));
    expect(await api.depth({ symbol: SYMBOL, limit: 10 })).toEqual(await rest.depth({ symbol: SYMBOL, limit: 10 }));
    const trades = await rest.trades({ symbol: SYMBOL, limit: 1 });
    expect(trades[0]!.time).toBe(LIVE.filter((r) => r.time <= FROM + 3 * MINUTE).at(-1)!.time);
  });

  test('the scripted market beside the recording: setMid refused, cancelAll clears the synthetic levels until the next print', async ({ sim, client, market }) => {
    const refused = await refusal(Promise.resolve().then(() => market.setMid(SYMBOL, '90000')));
    expect([refused.status, refused.code, refused.msg]).toEqual([400, -1000, 'BTCUSDT replays a recording: its prices come from the recorded trades, so setMid does not apply.']);
    expect(market.cancelAll(SYMBOL)).toBe(40);
    expect(await client.rest.depth({ symbol: SYMBOL, limit: 5 })).toMatchObject({ bids: [], asks: [] });
    sim.advanceTime(LIVE[0]!.time - FROM);
    expect(await client.rest.depth({ symbol: SYMBOL, limit: 1 })).toMatchObject(bookAround(LIVE[0]!.price, 1));
  });
});

/**
 * A BUY one tick or more below the last history print, and two rows after `from`: the first at
 * exactly its price where a seller took (the bids' side), and the first below it, later.
 */
function fillCase(): { price: string; touch: Row; through: Row } {
  const start = new Decimal(HISTORY[HISTORY.length - 1]!.price);
  for (let k = 1; k < 1000; k++) {
    const price = eight(start.minus(new Decimal('0.01').times(k)));
    const through = LIVE.find((r) => new Decimal(r.price).lt(price));
    const touch = LIVE.find((r) => eight(r.price) === price && r.isBuyerMaker && new Decimal(r.qty).gte('0.001'));
    if (through !== undefined && touch !== undefined && touch.time < through.time) return { price, touch, through };
  }
  throw new Error('the sample has no such rows');
}

for (const fillAtTouch of [false, true]) {
  base.describe(`fill_at_touch = ${fillAtTouch}`, () => {
    const test = withSimConfig(replayOf({ fill_at_touch: fillAtTouch }));

    test(`a resting BUY fills ${fillAtTouch ? 'at a print at its price on its side' : 'only when a print trades through it'}, as maker at its price, a public trade just before the print`, async ({ sim, client }) => {
      const { price, touch, through } = fillCase();
      const fillRow = fillAtTouch ? touch : through;
      const user = await client.userData();
      const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' });
      expect(placed.status).toBe('NEW');
      sim.advanceTime(touch.time - FROM);
      const atTouch = await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId });
      expect(atTouch.status).toBe(fillAtTouch ? 'FILLED' : 'NEW');
      sim.advanceTime(through.time - touch.time);
      const fill = await user.next((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.x === 'TRADE');
      expect(fill).toMatchObject({ X: 'FILLED', L: price, l: '0.00100000', m: true, T: fillRow.time });
      // The account's trade is a public trade of its own, just before the print, which stays whole.
      const tape = await client.rest.aggTrades({ symbol: SYMBOL, startTime: fillRow.time, endTime: fillRow.time, limit: 1000 });
      const mine = tape.findIndex((a) => a.f === fill.t);
      expect(tape[mine]).toMatchObject({ p: price, q: '0.00100000', m: true, T: fillRow.time });
      expect(tape[mine + 1]).toMatchObject({ f: fill.t + 1, p: eight(fillRow.price), q: eight(fillRow.qty), m: fillRow.isBuyerMaker });
      await user.close();
    });
  });
}

base.describe('on the wall clock', () => {
  // Ten recorded minutes a real second. The fixture's reset restarts the replay at `from`, at the
  // reset's time: published times are that start plus the recorded time since `from`, over 600.
  const test = withSimConfig({ sim: { start_time_ms: FROM, replay: [{ symbol: SYMBOL, file: HOUR_FILE, from: FROM, speed: 600 }] } });

  test('prints come in real time, spaced by their recorded times over speed, and the depth follows them', async ({ client }) => {
    const stream = await client.streams('btcusdt@trade', 'btcusdt@depth');
    const first = (await stream.next('btcusdt@trade', { timeout: 10_000 })).data as TradeEvent;
    const later = (await stream.next((m) => m.stream === 'btcusdt@trade' && (m.data as TradeEvent).t >= first.t + 20, { timeout: 10_000 })).data as TradeEvent;
    expect((await client.rest.time()).serverTime).toBeGreaterThanOrEqual(later.T);
    // Trade id k is the file's row k (no account trade here).
    const [a, b] = [ROWS[first.t - 1]!, ROWS[later.t - 1]!];
    expect([first.p, later.p]).toEqual([eight(a.price), eight(b.price)]);
    expect(Math.abs(later.T - first.T - (b.time - a.time) / 600)).toBeLessThanOrEqual(1);
    await stream.next('btcusdt@depth', { timeout: 10_000 });
  });
});
