// The replay counterparty in the core (API.md section 12): prints at their published times with
// ids continuing the symbol's, history before `from`, the synthetic book (one update id per
// rebuild), the account's takers against it, the fill rule (through; at the touch with
// fill_at_touch, sharing the print's quantity), each account fill a public trade of its own just
// before the whole print, scripted orders beside the synthetic levels, and no generator.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { placeOrder } from '../api/orders.ts';
import { invariantViolations } from './invariants.ts';
import { advance, bookOf, expectError, expectOk, flushDepth, replayExchange, reports, T0, type RecordedRow } from './test-support.ts';
import type { CoreEvent, PublicTrade } from './types.ts';
import { ScriptedMarket } from './counterparty/index.ts';

const REC = Date.UTC(2025, 0, 1, 8); // the recorded day, ms
const us = (ms: number) => ms * 1000;
const L = 9_400_000; // 94,000.00 in ticks
const LOT = 100_000; // 1 BTC in lots (lot 0.00001)

function trades(events: readonly CoreEvent[]): PublicTrade[] {
  return events.filter((e): e is PublicTrade => e.type === 'trade');
}

function tape(ex: ReturnType<typeof replayExchange>) {
  const md = ex.marketData.of(0);
  return md.trades(undefined, 1000);
}

test('prints come at start + (t - from) / speed, ids after the history rows, the history ending at the start', () => {
  const rows: RecordedRow[] = [
    { us: us(REC - 30_000), price: L - 5, lots: 10 },
    { us: us(REC - 1), price: L - 2, lots: 20, m: true },
    { us: us(REC), price: L, lots: 30 },
    { us: us(REC + 1_000) + 999, price: L + 1, lots: 40, m: true },
    { us: us(REC + 5_000), price: L + 2, lots: 50 },
  ];
  const ex = replayExchange(rows, { from: REC, speed: 2 });
  // History: the two rows before `from`, at their recorded spacing before the start.
  const start = tape(ex);
  assert.deepEqual(
    start.map((t) => [t.id, t.time, t.price, t.qty, t.buyerIsMaker]),
    [
      [1, T0 - 30_000, L - 5, 10, false],
      [2, T0 - 1, L - 2, 20, true],
      [3, T0, L, 30, false], // the row at `from` prints at the start
    ],
  );
  assert.equal(ex.nextPrintAt(), T0 + 500, '1000.999 recorded ms at speed 2: floor(500.4995) ms after the start');
  assert.deepEqual(advance(ex, T0 + 499), []);
  const printed = trades(advance(ex, T0 + 2_500));
  assert.deepEqual(
    printed.map((t) => [t.tradeId, t.time, t.price, t.qty, t.buyerIsMaker]),
    [
      [4, T0 + 500, L + 1, 40, true],
      [5, T0 + 2_500, L + 2, 50, false],
    ],
  );
  assert.equal(ex.nextPrintAt(), Infinity, 'the recording has ended');
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('no from: the first row prints at the start and there is no history', () => {
  const ex = replayExchange([{ us: us(REC) + 250, price: L, lots: 5 }, { us: us(REC + 10), price: L, lots: 6 }]);
  assert.deepEqual(tape(ex).map((t) => [t.id, t.time]), [[1, T0]]);
  assert.deepEqual(trades(advance(ex, T0 + 9)).map((t) => t.time), [T0 + 9], 'floor((10 ms - 0.25 ms) / 1)');
});

test('the synthetic book: depth_levels a side of level_qty around the last print, one update id per rebuild', () => {
  const ex = replayExchange([{ us: us(REC - 1), price: L, lots: 1 }, { us: us(REC + 1000), price: L + 3, lots: 1 }], { from: REC, depth_levels: 5, level_qty: '0.5' });
  const book = bookOf(ex, 'BTCUSDT')!;
  assert.deepEqual(book.bids.top(10), [1, 2, 3, 4, 5].map((k) => [L - k, LOT / 2]));
  assert.deepEqual(book.asks.top(10), [1, 2, 3, 4, 5].map((k) => [L + k, LOT / 2]));
  const before = ex.instruments[0]!.updateId;
  advance(ex, T0 + 1000);
  // The rebuild is made when the book is next read.
  assert.equal(ex.instruments[0]!.updateId, before);
  const moved = bookOf(ex, 'BTCUSDT')!;
  assert.deepEqual(moved.bids.top(10), [1, 2, 3, 4, 5].map((k) => [L + 3 - k, LOT / 2]));
  assert.deepEqual(moved.asks.top(10), [1, 2, 3, 4, 5].map((k) => [L + 3 + k, LOT / 2]));
  const diff = flushDepth(ex, T0 + 1000).diffs[0]!;
  assert.equal(diff.firstUpdateId, before + 1);
  assert.equal(diff.lastUpdateId, before + 1, 'the whole move is one update id');
  // Bids L+2..L, asks L+4..L+6 came and L-2..L-5 and L+1..L+3 went (asks L+1..L+3 are bids now).
  assert.deepEqual(diff.bids.map(([p, q]) => [p - L, q]), [[2, LOT / 2], [1, LOT / 2], [0, LOT / 2], [-3, 0], [-4, 0], [-5, 0]]);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test("the account's takers meet the synthetic levels at their prices; what they took is back at the next rebuild", () => {
  const ex = replayExchange([{ us: us(REC - 1), price: L, lots: 1 }, { us: us(REC + 1000), price: L, lots: 1 }], { from: REC, depth_levels: 3, level_qty: '1' });
  const buy = expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '2.5' }, T0 + 1));
  assert.deepEqual(buy.fills.map((f) => [f.price - L, f.qty]), [[1, LOT], [2, LOT], [3, LOT / 2]]);
  assert.deepEqual(bookOf(ex, 'BTCUSDT')!.asks.top(5), [[L + 3, LOT / 2]]);
  // A MARKET larger than the side expires the rest.
  const more = expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }, T0 + 2));
  assert.equal(more.order.status, 'EXPIRED');
  assert.equal(more.order.executedQty, LOT / 2);
  // A LIMIT at the last print rests without trading.
  const atL = expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '94000', quantity: '0.1' }, T0 + 3));
  assert.equal(atL.order.status, 'NEW');
  advance(ex, T0 + 1000);
  assert.deepEqual(bookOf(ex, 'BTCUSDT')!.asks.top(5), [[L, LOT / 10], [L + 1, LOT], [L + 2, LOT], [L + 3, LOT]]);
  assert.deepEqual(invariantViolations(ex.state), []);
});

/** An exchange at print L whose account rests `orders`, then prints `next` at T0 + 1000. */
function printsAfter(orders: { side: 'BUY' | 'SELL'; price: string; quantity: string }[], next: RecordedRow, fillAtTouch = false) {
  const ex = replayExchange([{ us: us(REC - 1), price: L, lots: 1 }, next], { from: REC, fill_at_touch: fillAtTouch });
  const ids = orders.map((o, i) => expectOk(placeOrder(ex, { symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', ...o }, T0 + i)).order.orderId);
  const events = advance(ex, T0 + 1000);
  assert.deepEqual(invariantViolations(ex.state), []);
  return { ex, ids, events };
}

test('through: a BUY above the print fills completely, as maker, at its own price, a public trade before the whole print', () => {
  const next = { us: us(REC + 1000), price: L - 150, lots: 3, m: false };
  const { ex, ids, events } = printsAfter([{ side: 'BUY', price: '93999.50', quantity: '0.2' }, { side: 'BUY', price: '93999.00', quantity: '0.1' }], next);
  assert.deepEqual(
    trades(events).map((t) => [t.tradeId, t.price - L, t.qty, t.buyerIsMaker, t.time]),
    [
      [2, -50, 20_000, true, T0 + 1000],
      [3, -100, 10_000, true, T0 + 1000],
      [4, -150, 3, false, T0 + 1000], // the print, whole
    ],
  );
  const fills = reports(events).filter((r) => r.executionType === 'TRADE');
  assert.deepEqual(fills.map((r) => [r.order.orderId, r.order.status, r.isMaker, r.lastPrice - L]), [[ids[0], 'FILLED', true, -50], [ids[1], 'FILLED', true, -100]]);
  assert.equal(events.filter((e) => e.type === 'balances').length, 1);
  assert.equal(ex.marketData.of(0).aggTrades({ limit: 10 }).length, 4, 'history, two account fills at two prices, the print');
});

test('without fill_at_touch an order at exactly the print price keeps resting; a SELL below the print fills', () => {
  const next = { us: us(REC + 1000), price: L + 50, lots: 7, m: false }; // a buyer took: asks lifted
  const { ids, events } = printsAfter([{ side: 'SELL', price: '94000.50', quantity: '0.5' }, { side: 'SELL', price: '94000.49', quantity: '0.3' }], next);
  // The SELL at L + 50 = the print: not through. The SELL at L + 49 < the print: through.
  const fills = reports(events).filter((r) => r.executionType === 'TRADE');
  assert.deepEqual(fills.map((r) => [r.order.orderId, r.order.status]), [[ids[1], 'FILLED']]);
  assert.deepEqual(trades(events).map((t) => [t.price - L, t.qty, t.buyerIsMaker]), [[49, 30_000, false], [50, 7, false]]);
});

test('fill_at_touch: orders at the print price on the side its taker hit fill, oldest first, sharing its quantity', () => {
  const next = { us: us(REC + 1000), price: L - 10, lots: 15_000, m: true }; // a seller took: bids hit
  const orders = [
    { side: 'BUY' as const, price: '93999.90', quantity: '0.1' },
    { side: 'BUY' as const, price: '93999.90', quantity: '0.1' },
    { side: 'BUY' as const, price: '93999.80', quantity: '0.1' },
  ];
  const { ex, ids, events } = printsAfter(orders, next, true);
  const fills = reports(events).filter((r) => r.executionType === 'TRADE');
  assert.deepEqual(fills.map((r) => [r.order.orderId, r.lastQty, r.order.status]), [[ids[0], 10_000, 'FILLED'], [ids[1], 5_000, 'PARTIALLY_FILLED']]);
  assert.deepEqual(trades(events).map((t) => t.qty), [10_000, 5_000, 15_000], 'the print stays whole');
  assert.equal(ex.state.orders.account(ids[1]!)!.remaining, 5_000, 'a partly filled order keeps resting');
  // A buyer-taken print at the bids' price fills nothing at the touch.
  const lifted = printsAfter(orders, { ...next, m: false }, true);
  assert.deepEqual(reports(lifted.events).filter((r) => r.executionType === 'TRADE'), []);
});

test("a trades file's row continues its aggregate unless an account fill came between", () => {
  const rows: RecordedRow[] = [
    { us: us(REC - 1), price: L, lots: 1 },
    { us: us(REC + 1000), price: L - 10, lots: 2_000, m: true },
    { us: us(REC + 1000), price: L - 10, lots: 3_000, m: true, joins: true },
    { us: us(REC + 2000), price: L - 20, lots: 4, m: true },
    { us: us(REC + 2000), price: L - 20, lots: 5, m: true, joins: true },
  ];
  const ex = replayExchange(rows, { from: REC, format: 'trades', file: 'BTCUSDT-trades-2025-01-01.csv', fill_at_touch: true });
  // At the touch each row fills 2,000 lots of it (the first row's whole quantity, then what is left).
  expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '93999.90', quantity: '0.04' }, T0));
  advance(ex, T0 + 2000);
  const aggs = ex.marketData.of(0).aggTrades({ limit: 10 });
  assert.deepEqual(
    aggs.map((a) => [a.firstId, a.lastId, a.qty]),
    [[1, 1, 1], [2, 2, 2_000], [3, 3, 2_000], [4, 4, 2_000], [5, 5, 3_000], [6, 7, 9]],
  );
});

test('scripted orders in a replayed symbol trade only with the account and rest beside the synthetic levels; setMid is refused', () => {
  const ex = replayExchange([{ us: us(REC - 1), price: L, lots: 1 }, { us: us(REC + 1000), price: L, lots: 1 }], { from: REC, depth_levels: 3 });
  const market = new ScriptedMarket(ex);
  const inst = ex.instruments[0]!;
  // A SELL through the synthetic bids trades with none of them: it rests, and they step back.
  const place = (side: 'BUY' | 'SELL', price: number, lots: number) => market.place({ symbolIndex: 0, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: lots }, T0 + 1);
  assert.deepEqual(trades(place('SELL', L - 2, LOT).events), []);
  const book = bookOf(ex, 'BTCUSDT')!;
  assert.deepEqual(book.bids.top(5), [[L - 3, LOT]]);
  assert.equal(book.asks.best()!.price, L - 2);
  assert.deepEqual(invariantViolations(ex.state), []);
  // The account's BUY meets it; the print that follows rebuilds the book, bids below the scripted ask.
  expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '93999.98', quantity: '0.4' }, T0 + 2));
  advance(ex, T0 + 1000);
  assert.deepEqual(book.bids.top(5), [[L - 3, LOT]]);
  assert.deepEqual(book.asks.top(2), [[L - 2, 60_000], [L + 1, LOT]]);
  // cancelAll removes the synthetic levels until the next rebuild.
  assert.equal(expectOk(market.cancelAll(0, T0 + 1001)), 5);
  assert.equal(book.bids.levelCount + book.asks.levelCount, 0);
  assert.equal(expectError(market.setMid(0, L, T0 + 1001)).msg, 'BTCUSDT replays a recording: its prices come from the recorded trades, so setMid does not apply.');
  assert.equal(inst.symbol, 'BTCUSDT');
});

test('the generator never runs for a replayed symbol and runs for the others', () => {
  const ex = replayExchange([{ us: us(REC), price: L, lots: 1 }], {}, { sim: { generator: { enabled: true } } });
  const events = advance(ex, T0 + 5_000);
  assert.ok(bookOf(ex, 'ETHUSDT')!.bids.levelCount > 20, 'ETHUSDT has the generator');
  assert.ok(trades(events).every((t) => t.symbol !== 'BTCUSDT'));
  assert.equal(bookOf(ex, 'BTCUSDT')!.bids.levelCount, 20, 'only the synthetic levels');
  assert.deepEqual(invariantViolations(ex.state), []);
});
