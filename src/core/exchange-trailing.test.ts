// Trailing stops (issue 33), the reference's trailing-stop FAQ scenarios A-E as written there:
// each "series of linear trades" is a trade every 500 (then the exact trigger price), and the
// order must trigger on the FAQ's trade and on no earlier one. Also: `trailingTime`, tracking
// from the next trade when none happened yet, and the lock of a BUY market form without a stop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atoms, eventTrail, expectOk, legOf, lots, makeExchange, reports, submitOrder, T0, ticks, tradesAt, type OrderFields } from './test-support.ts';
import { balance, findOrder } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import { formatPlain } from './units.ts';
import type { Exchange } from './exchange.ts';
import type { OrderView } from './types.ts';

const BTC = 'BTCUSDT';

/** A scenario's market: trades along linear legs, a minute (60 000 ms) per leg, as the FAQ's charts. */
class Market {
  now = T0;
  private price: number;

  constructor(
    private readonly ex: Exchange,
    start: number,
  ) {
    this.price = start;
    tradesAt(ex, [String(start)], this.now);
  }

  /** Trades every 500 from the last price to `to` (ending exactly there); the trigger reports seen. */
  to(to: number): { triggeredAt: number | null; time: number | null } {
    const step = to > this.price ? 500 : -500;
    const prices: number[] = [];
    for (let p = this.price + step; step > 0 ? p < to : p > to; p += step) prices.push(p);
    prices.push(to);
    this.price = to;
    const leg = this.now;
    this.now += 60_000;
    for (let i = 0; i < prices.length; i++) {
      const at = leg + Math.round(((i + 1) * 60_000) / prices.length);
      const events = tradesAt(this.ex, [formatPlain(Math.round(prices[i]! * 100), 2)], at);
      if (reports(events).some((r) => r.cause === 'trigger')) return { triggeredAt: prices[i]!, time: at };
    }
    return { triggeredAt: null, time: null };
  }
}

function view(ex: Exchange, orderId: number): OrderView {
  const v = findOrder(ex.state, { symbolIndex: 0, orderId, origClientOrderId: undefined });
  assert.ok(!('code' in v));
  return v;
}

function place(ex: Exchange, f: OrderFields, now: number): OrderView {
  return expectOk(submitOrder(ex, { quantity: '0.01', timeInForce: 'GTC', ...f }, now)).order;
}

/** A scenario's legs up to the last, none triggering; the last triggers exactly at its end. */
function run(ex: Exchange, market: Market, legs: number[], orderId: number): { time: number } {
  const last = legs.pop()!;
  for (const to of legs) assert.equal(market.to(to).triggeredAt, null, `no trigger on the way to ${to}`);
  const final = market.to(last);
  assert.equal(final.triggeredAt, last, `triggers at ${last}`);
  assert.deepEqual(invariantViolations(ex.state), []);
  const v = view(ex, orderId);
  assert.deepEqual([v.status, v.isWorking, v.workingTime], ['NEW', true, final.time]);
  return { time: final.time! };
}

test('scenario A: STOP_LOSS_LIMIT BUY, stop 44000, delta 500: tracking starts at 44000, the lowest becomes 42000, triggers at 44100', () => {
  const ex = makeExchange();
  const market = new Market(ex, 40000);
  const order = place(ex, { side: 'BUY', type: 'STOP_LOSS_LIMIT', price: '45000', stopPrice: '44000', trailingDelta: 500 }, market.now);
  assert.deepEqual([order.trailingDelta, order.trailingTime, order.stopPrice], [500, -1, ticks(ex, BTC, '44000')]);
  assert.equal(market.to(37000).triggeredAt, null);
  assert.equal(view(ex, order.orderId).trailingTime, -1, 'not tracking while the stop price is not met');
  assert.equal(market.to(45000).triggeredAt, null);
  const tracking = view(ex, order.orderId).trailingTime;
  assert.ok(tracking > T0 + 60_000 && tracking < T0 + 120_000, 'tracking started with the trade at 44000');
  run(ex, market, [46000, 42000, 44100], order.orderId);
});

test('scenario B: STOP_LOSS_LIMIT SELL, stop 39000, delta 1000: the highest becomes 41000, triggers at 36900', () => {
  const ex = makeExchange();
  const market = new Market(ex, 40000);
  const order = place(ex, { side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '38000', stopPrice: '39000', trailingDelta: 1000 }, market.now);
  run(ex, market, [41500, 37000, 41000, 36900], order.orderId);
});

test('scenario C: TAKE_PROFIT_LIMIT BUY, stop 38000, delta 850: the lowest becomes 37000, triggers at 40145', () => {
  const ex = makeExchange();
  const market = new Market(ex, 40000);
  const order = place(ex, { side: 'BUY', type: 'TAKE_PROFIT_LIMIT', price: '38500', stopPrice: '38000', trailingDelta: 850 }, market.now);
  run(ex, market, [42000, 37000, 39000, 38000, 40145], order.orderId);
});

test('scenario D: TAKE_PROFIT_LIMIT SELL, stop 42000, delta 750: the highest becomes 46500, triggers at 43012.5', () => {
  const ex = makeExchange();
  const market = new Market(ex, 40000);
  const order = place(ex, { side: 'SELL', type: 'TAKE_PROFIT_LIMIT', price: '41000', stopPrice: '42000', trailingDelta: 750 }, market.now);
  run(ex, market, [41500, 39000, 45000, 44000, 46500, 43012.5], order.orderId);
});

test('scenario E: STOP_LOSS_LIMIT SELL without a stop price, delta 700: tracks from placement (40000), triggers at 42315', () => {
  const ex = makeExchange();
  const market = new Market(ex, 40000);
  const order = place(ex, { side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '39000', trailingDelta: 700 }, market.now + 1);
  assert.deepEqual([order.stopPrice, order.trailingTime], [0, market.now + 1], 'tracks from placement, the last trade its first reference');
  run(ex, market, [42000, 39500, 45500, 42315], order.orderId);
});

test('without a stop price and with no trade yet, a trailing stop tracks from the next trade', () => {
  const ex = makeExchange();
  const order = place(ex, { side: 'SELL', type: 'STOP_LOSS', trailingDelta: 100 }, T0);
  assert.equal(order.trailingTime, -1);
  tradesAt(ex, ['50000'], T0 + 5);
  assert.equal(view(ex, order.orderId).trailingTime, T0 + 5);
  // 1% below 50000 is 49500: 49500.01 does not trigger, 49500 does.
  assert.deepEqual(eventTrail(tradesAt(ex, ['49500.01'], T0 + 6)), ['trade 4950001']);
  const events = tradesAt(ex, ['49500'], T0 + 7);
  assert.deepEqual(eventTrail(events), ['trade 4950000', `${order.orderId} NEW/NEW trigger`, `${order.orderId} EXPIRED/EXPIRED INSUFFICIENT_LIQUIDITY`]);
});

test('a trailing BUY market form without a stop price locks at the last price, or at the start mid before any trade', () => {
  const ex = makeExchange();
  place(ex, { side: 'BUY', type: 'TAKE_PROFIT', trailingDelta: 100 }, T0);
  // BTCUSDT's start mid is 60000: 600 USDT for 0.01.
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '600'));
  tradesAt(ex, ['50000'], T0 + 1);
  place(ex, { side: 'BUY', type: 'STOP_LOSS', trailingDelta: 100 }, T0 + 2);
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '1100'));
  assert.deepEqual(invariantViolations(ex.state), []);
});

// trailingTime is the same in every view: the placement reply, the order's view and its NEW
// report. Without a stop price on a symbol that traded, tracking starts at placement (scenario
// E), so all three show the placement time; an OTO's pending trailing stop tracks from its
// activation (-1 while PENDING_NEW).

/** The `trailingTime` of order `orderId`'s NEW reports among `events`. */
function newReportTimes(events: Parameters<typeof reports>[0], orderId: number): number[] {
  return reports(events)
    .filter((r) => r.order.orderId === orderId && r.executionType === 'NEW')
    .map((r) => r.order.trailingTime);
}

test('trailingTime: a trailing stop without a stop price shows its placement time in the reply, its view and its NEW report', () => {
  const ex = makeExchange();
  tradesAt(ex, ['40000'], T0);
  const placed = submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS_LIMIT', quantity: '0.01', price: '39000', trailingDelta: 700 }, T0 + 1);
  const { order } = expectOk(placed);
  assert.deepEqual([order.trailingTime, view(ex, order.orderId).trailingTime, newReportTimes(placed.events, order.orderId)], [T0 + 1, T0 + 1, [T0 + 1]]);
});

test('trailingTime: before any trade every view shows -1, the NEW report included', () => {
  const ex = makeExchange();
  const placed = submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', trailingDelta: 100 }, T0);
  const { order } = expectOk(placed);
  assert.deepEqual([order.trailingTime, view(ex, order.orderId).trailingTime, newReportTimes(placed.events, order.orderId)], [-1, -1, [-1]]);
});

test('trailingTime: an OCO stop leg without a stop price shows the placement time in the reply, its view and its NEW report', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000'], T0);
  const leg = (f: OrderFields) => legOf(ex, BTC, { quantity: '0.01', ...f });
  const placed = ex.submit({
    type: 'placeOrderList',
    now: T0 + 1,
    symbolIndex: 0,
    listClientOrderId: null,
    contingency: 'OCO',
    above: leg({ side: 'SELL', type: 'LIMIT_MAKER', price: '52000' }),
    below: leg({ side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '47900', trailingDelta: 200 }),
  });
  const stop = expectOk(placed).orderReports[0]!.order;
  assert.equal(stop.type, 'STOP_LOSS_LIMIT');
  assert.deepEqual([stop.trailingTime, view(ex, stop.orderId).trailingTime, newReportTimes(placed.events, stop.orderId)], [T0 + 1, T0 + 1, [T0 + 1]]);
});

test('trailingTime: an OTO pending trailing stop shows -1 until its activation, then the activation time in its view and its activation report', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000'], T0);
  const leg = (f: OrderFields) => legOf(ex, BTC, { quantity: '0.01', ...f });
  const placed = ex.submit({
    type: 'placeOrderList',
    now: T0 + 1,
    symbolIndex: 0,
    listClientOrderId: null,
    contingency: 'OTO',
    working: leg({ side: 'BUY', type: 'LIMIT', price: '49000' }),
    pending: leg({ side: 'SELL', type: 'STOP_LOSS', trailingDelta: 200 }),
  });
  const pending = expectOk(placed).orderReports[1]!.order;
  assert.deepEqual([pending.status, pending.trailingTime, view(ex, pending.orderId).trailingTime, newReportTimes(placed.events, pending.orderId)], ['PENDING_NEW', -1, -1, [-1]]);
  const filled = ex.submit({ type: 'counterpartyTake', now: T0 + 2, symbolIndex: 0, side: 'SELL', price: null, lots: lots(ex, BTC, '0.01') });
  assert.deepEqual([view(ex, pending.orderId).trailingTime, newReportTimes(filled.events, pending.orderId)], [T0 + 2, [T0 + 2]]);
});
