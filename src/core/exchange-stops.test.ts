// Conditional orders (issue 33; API.md 11 "Triggers", "Events and fields", "Failure after
// acceptance", "Amounts and locks"): each type's placement off the book with its lock, its
// trigger on the last public trade, its fills, cancel and expiry, with exact balances and the
// exact event sequence; "would trigger immediately"; several triggers in placement order and
// triggers that trigger more.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atoms, counterparty, eventTrail, expectError, expectOk, lots, makeExchange, reports, submitOrder, T0, ticks, tradesAt } from './test-support.ts';
import { balance, depthSnapshot, findOrder, openOrders } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import { resolveConfig } from '../config/index.ts';
import { Exchange } from './exchange.ts';
import { buildHistory } from './market/index.ts';
import { buildMarkets } from './markets.ts';

const BTC = 'BTCUSDT';
const healthy = (ex: Exchange) => assert.deepEqual(invariantViolations(ex.state), []);
const free = (ex: Exchange, asset: string) => balance(ex.state, asset).free;
const locked = (ex: Exchange, asset: string) => balance(ex.state, asset).locked;
const usdt = (ex: Exchange, amount: string) => atoms(ex, 'USDT', amount);
const btc = (ex: Exchange, amount: string) => atoms(ex, 'BTC', amount);

test('STOP_LOSS SELL: waits off the book with its base locked, triggers on a trade at its stop, then sells as a MARKET order', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '48900', '0.02');
  const depthBefore = depthSnapshot(ex.state, BTC, 10, 'live');
  const placed = submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '49000' }, T0 + 1);
  const order = expectOk(placed).order;
  assert.deepEqual([order.status, order.isWorking, order.workingTime, order.price, order.stopPrice], ['NEW', false, -1, 0, ticks(ex, BTC, '49000')]);
  assert.deepEqual(eventTrail(placed.events), [`${order.orderId} NEW/NEW`]);
  assert.equal(locked(ex, 'BTC'), btc(ex, '0.01'));
  assert.deepEqual(depthSnapshot(ex.state, BTC, 10, 'live'), depthBefore, 'a waiting stop is not in the book');
  assert.deepEqual(openOrders(ex.state, BTC).map((o) => [o.orderId, o.isWorking]), [[order.orderId, false]]);
  healthy(ex);

  // A trade above the stop does nothing; one at it triggers the order, which then takes the bid.
  assert.deepEqual(eventTrail(tradesAt(ex, ['49500'], T0 + 2)), ['trade 4950000']);
  const events = tradesAt(ex, ['49000'], T0 + 3);
  assert.deepEqual(eventTrail(events), ['trade 4900000', `${order.orderId} NEW/NEW trigger`, 'trade 4890000', `${order.orderId} TRADE/FILLED`]);
  const trigger = reports(events)[0]!;
  assert.deepEqual([trigger.order.isWorking, trigger.order.workingTime, trigger.order.updateTime, trigger.order.type], [true, T0 + 3, T0 + 3, 'STOP_LOSS']);
  // 0.01 BTC sold at 48900: 489 USDT less the 4 bps taker commission (0.1956).
  assert.equal(locked(ex, 'BTC'), 0n);
  assert.equal(free(ex, 'BTC'), btc(ex, '99.99'));
  assert.equal(free(ex, 'USDT'), usdt(ex, '10000000') + usdt(ex, '489') - usdt(ex, '0.1956'));
  assert.equal(ex.instrument(BTC)!.watchedStops, 0);
  healthy(ex);
});

test('STOP_LOSS_LIMIT BUY: locks price x quantity and its fee reserve, triggers when the last price rises to the stop, rests at its price', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const order = expectOk(submitOrder(ex, { side: 'BUY', type: 'STOP_LOSS_LIMIT', quantity: '0.01', price: '51100', stopPrice: '51000', timeInForce: 'GTC' })).order;
  // 511 USDT locked; the worst-case commission (4 bps: 0.2044) is kept out of free.
  assert.equal(locked(ex, 'USDT'), usdt(ex, '511'));
  assert.equal(free(ex, 'USDT'), usdt(ex, '10000000') - usdt(ex, '511'));
  assert.deepEqual(eventTrail(tradesAt(ex, ['50999.99'], T0 + 1)), ['trade 5099999']);
  const events = tradesAt(ex, ['51000'], T0 + 2);
  assert.deepEqual(eventTrail(events), ['trade 5100000', `${order.orderId} NEW/NEW trigger`]);
  const book = depthSnapshot(ex.state, BTC, 10, 'live');
  assert.ok(!('code' in book));
  assert.deepEqual(book.bids, [[ticks(ex, BTC, '51100'), lots(ex, BTC, '0.01')]]);
  assert.equal(locked(ex, 'USDT'), usdt(ex, '511'));
  const view = findOrder(ex.state, { symbolIndex: 0, orderId: order.orderId, origClientOrderId: undefined });
  assert.ok(!('code' in view) && view.isWorking && view.status === 'NEW' && view.type === 'STOP_LOSS_LIMIT');
  healthy(ex);
  // A later seller fills it as a maker at its price.
  const fill = eventTrail(ex.submit({ type: 'counterpartyTake', now: T0 + 3, symbolIndex: 0, side: 'SELL', price: null, lots: lots(ex, BTC, '0.01') }).events);
  assert.deepEqual(fill, ['trade 5110000', `${order.orderId} TRADE/FILLED`]);
  assert.equal(locked(ex, 'USDT'), 0n);
  assert.equal(free(ex, 'USDT'), usdt(ex, '10000000') - usdt(ex, '511') - usdt(ex, '0.0511'));
  healthy(ex);
});

test('TAKE_PROFIT BUY: locks stopPrice x quantity until it triggers, then buys as a MARKET order from free funds', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'SELL', '49100', '0.01');
  const order = expectOk(submitOrder(ex, { side: 'BUY', type: 'TAKE_PROFIT', quantity: '0.01', stopPrice: '49000' })).order;
  assert.equal(locked(ex, 'USDT'), usdt(ex, '490'));
  const events = tradesAt(ex, ['49000'], T0 + 1);
  assert.deepEqual(eventTrail(events), ['trade 4900000', `${order.orderId} NEW/NEW trigger`, 'trade 4910000', `${order.orderId} TRADE/FILLED`]);
  assert.equal(locked(ex, 'USDT'), 0n);
  assert.equal(free(ex, 'USDT'), usdt(ex, '10000000') - usdt(ex, '491') - usdt(ex, '0.1964'));
  assert.equal(free(ex, 'BTC'), btc(ex, '100.01'));
  healthy(ex);
});

test('TAKE_PROFIT_LIMIT SELL: triggers when the last price rises to its stop and takes what its price allows (IOC: the rest expires)', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '50500', '0.004');
  // A bid above the stop would otherwise be met when the trade at the stop happens: it rests below.
  const order = expectOk(submitOrder(ex, { side: 'SELL', type: 'TAKE_PROFIT_LIMIT', quantity: '0.01', price: '50400', stopPrice: '51000', timeInForce: 'IOC' })).order;
  assert.equal(locked(ex, 'BTC'), btc(ex, '0.01'));
  const events = tradesAt(ex, ['51000'], T0 + 1);
  assert.deepEqual(eventTrail(events), [
    'trade 5100000',
    `${order.orderId} NEW/NEW trigger`,
    'trade 5050000',
    `${order.orderId} TRADE/PARTIALLY_FILLED`,
    `${order.orderId} EXPIRED/EXPIRED UNFILLED_IOC_QUANTITY_EXPIRED`,
  ]);
  assert.equal(locked(ex, 'BTC'), 0n);
  assert.equal(free(ex, 'BTC'), btc(ex, '99.996'));
  healthy(ex);
});

test('a stop price the last trade already meets would trigger immediately: -2010 and a REJECTED report; with no trade yet it is accepted', () => {
  const ex = makeExchange();
  const before = submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '60000' });
  assert.equal(expectOk(before).order.status, 'NEW', 'no trade yet: every stop price is accepted');
  tradesAt(ex, ['50000'], T0 + 1);
  // The SELL stop at 60000 (last <= stop) triggered on that trade and found no bid.
  for (const [side, type, stop] of [['SELL', 'STOP_LOSS', '50000'], ['BUY', 'STOP_LOSS', '50000'], ['BUY', 'TAKE_PROFIT', '50000.01'], ['SELL', 'TAKE_PROFIT_LIMIT', '49999']] as const) {
    const refused = submitOrder(ex, { side, type, quantity: '0.01', stopPrice: stop, ...(type === 'TAKE_PROFIT_LIMIT' && { price: '49000' }) }, T0 + 2);
    assert.deepEqual([expectError(refused).code, expectError(refused).msg], [-2010, 'Order would trigger immediately.'], `${side} ${type} ${stop}`);
    const report = reports(refused.events)[0]!;
    assert.deepEqual([report.executionType, report.rejectReason, report.order.status], ['REJECTED', 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY', 'REJECTED']);
  }
  assert.equal(locked(ex, 'BTC'), 0n);
  assert.equal(locked(ex, 'USDT'), 0n);
  healthy(ex);
});

test('a cancelled stop releases its lock and leaves the stop book; amend keepPriority lowers its lock', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const a = expectOk(submitOrder(ex, { side: 'BUY', type: 'STOP_LOSS', quantity: '0.02', stopPrice: '52000', clientOrderId: 'a' })).order;
  assert.equal(locked(ex, 'USDT'), usdt(ex, '1040'));
  const amended = ex.submit({ type: 'amend', now: T0 + 1, symbolIndex: 0, orderId: a.orderId, origClientOrderId: undefined, newClientOrderId: 'a2', newQty: lots(ex, BTC, '0.01') });
  assert.deepEqual(eventTrail(amended.events), [`${a.orderId} REPLACED/NEW`]);
  assert.equal(locked(ex, 'USDT'), usdt(ex, '520'));
  healthy(ex);
  const cancelled = ex.submit({ type: 'cancel', now: T0 + 2, symbolIndex: 0, orderId: undefined, origClientOrderId: 'a2', cancelClientOrderId: 'c' });
  assert.deepEqual(eventTrail(cancelled.events), [`${a.orderId} CANCELED/CANCELED`]);
  assert.equal(locked(ex, 'USDT'), 0n);
  assert.equal(free(ex, 'USDT'), usdt(ex, '10000000'));
  assert.equal(ex.instrument(BTC)!.watchedStops, 0);
  assert.deepEqual(eventTrail(tradesAt(ex, ['52000'], T0 + 3)), ['trade 5200000'], 'a cancelled stop never triggers');
  healthy(ex);
});

test('one sweep triggers several stops: they run after it in placement order; a triggered order that trades can trigger more', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '49950', '0.001');
  counterparty(ex, BTC, 'BUY', '49900', '0.001');
  counterparty(ex, BTC, 'BUY', '49800', '0.05');
  // Placed in this order: the one with the lower stop first, so placement order differs from stop order.
  const low = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '49900' })).order;
  const high = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '49950' })).order;
  // Triggered only by the trade the second stop makes (at 49800).
  const cascade = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '49850' })).order;
  // A counterparty sell sweeps 49950 and 49900: both stops trigger; `low` (placed first) runs first.
  const events = ex.submit({ type: 'counterpartyTake', now: T0 + 1, symbolIndex: 0, side: 'SELL', price: null, lots: lots(ex, BTC, '0.002') }).events;
  assert.deepEqual(eventTrail(events), [
    'trade 4995000',
    'trade 4990000',
    `${low.orderId} NEW/NEW trigger`,
    'trade 4980000',
    `${low.orderId} TRADE/FILLED`,
    `${high.orderId} NEW/NEW trigger`,
    'trade 4980000',
    `${high.orderId} TRADE/FILLED`,
    `${cascade.orderId} NEW/NEW trigger`,
    'trade 4980000',
    `${cascade.orderId} TRADE/FILLED`,
  ]);
  assert.equal(events.filter((e) => e.type === 'balances').length, 1, 'one balance event for the command and what it triggered');
  healthy(ex);
});

test('a triggered market form: on an empty book it expires (INSUFFICIENT_LIQUIDITY); on a thin one it trades, then expires; without funds it is REJECTED', () => {
  const ex = makeExchange({ sim: { account: { balances: { BTC: '1', USDT: '1000' } } } });
  tradesAt(ex, ['50000']);
  const empty = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '49000' })).order;
  assert.deepEqual(eventTrail(tradesAt(ex, ['49000'], T0 + 1)), ['trade 4900000', `${empty.orderId} NEW/NEW trigger`, `${empty.orderId} EXPIRED/EXPIRED INSUFFICIENT_LIQUIDITY`]);
  assert.deepEqual([free(ex, 'BTC'), locked(ex, 'BTC')], [btc(ex, '1'), 0n]);

  counterparty(ex, BTC, 'BUY', '47000', '0.004', T0 + 2);
  const thin = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '48000' }, T0 + 2)).order;
  assert.deepEqual(eventTrail(tradesAt(ex, ['48000'], T0 + 3)), [
    'trade 4800000',
    `${thin.orderId} NEW/NEW trigger`,
    'trade 4700000',
    `${thin.orderId} TRADE/PARTIALLY_FILLED`,
    `${thin.orderId} EXPIRED/EXPIRED INSUFFICIENT_LIQUIDITY`,
  ]);
  healthy(ex);

  // A BUY market form locks 0.0199 x 50000 = 995 USDT; when it triggers, the asks (1194 USDT) cost more than is free (1187.92).
  counterparty(ex, BTC, 'SELL', '60000', '0.02', T0 + 4);
  const poor = expectOk(submitOrder(ex, { side: 'BUY', type: 'STOP_LOSS', quantity: '0.0199', stopPrice: '50000' }, T0 + 4)).order;
  assert.equal(locked(ex, 'USDT'), usdt(ex, '995'));
  const events = tradesAt(ex, ['50000'], T0 + 5);
  assert.deepEqual(eventTrail(events), ['trade 5000000', `${poor.orderId} NEW/NEW trigger`, `${poor.orderId} EXPIRED/EXPIRED REJECTED`]);
  assert.equal(locked(ex, 'USDT'), 0n);
  healthy(ex);
});

test('MAX_NUM_ALGO_ORDERS counts untriggered stops; MAX_NUM_ORDERS counts them too', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const inst = ex.instrument(BTC)!;
  for (let i = 0; i < inst.maxNumAlgoOrders; i++) expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: String(40000 + i) }));
  const sixth = expectError(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '39000' }));
  assert.deepEqual([sixth.code, sixth.msg], [-2010, 'Filter failure: MAX_NUM_ALGO_ORDERS']);
  assert.equal(inst.accountOpenOrders, inst.maxNumAlgoOrders);
  inst.maxNumAlgoOrders = 1000;
  inst.maxNumOrders = inst.accountOpenOrders + 1;
  expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '39000' }));
  const full = expectError(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '38000' }));
  assert.equal(full.msg, 'Filter failure: MAX_NUM_ORDERS');
  healthy(ex);
});

test('fillOpenOrder: an untriggered stop is not found; a triggered one resting on the book is filled', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const order = expectOk(submitOrder(ex, { side: 'BUY', type: 'STOP_LOSS_LIMIT', quantity: '0.01', price: '50500', stopPrice: '50400' })).order;
  assert.equal(expectError(ex.submit({ type: 'fillOpenOrder', now: T0, orderId: order.orderId, lots: 5 })).code, -2013);
  tradesAt(ex, ['50400'], T0 + 1);
  const filled = expectOk(ex.submit({ type: 'fillOpenOrder', now: T0 + 2, orderId: order.orderId, lots: lots(ex, BTC, '0.004') }));
  assert.deepEqual(filled, { symbol: BTC, filled: lots(ex, BTC, '0.004') });
  healthy(ex);
});

test('ended_orders = "keep": a triggered and filled stop is queried with its type and stop price', () => {
  const ex = makeExchange({ sim: { account: { ended_orders: 'keep' } } });
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '48000', '1');
  const order = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', stopPrice: '49000' })).order;
  tradesAt(ex, ['49000'], T0 + 1);
  const kept = findOrder(ex.state, { symbolIndex: 0, orderId: order.orderId, origClientOrderId: undefined });
  assert.ok(!('code' in kept));
  assert.deepEqual([kept.status, kept.type, kept.stopPrice, kept.workingTime, kept.isWorking], ['FILLED', 'STOP_LOSS', ticks(ex, BTC, '49000'), T0 + 1, true]);
});

test("the last price stops trigger on starts at history's last trade and follows every public trade", () => {
  const config = resolveConfig({ sim: { history: { minutes: 30 } } });
  const history = buildHistory(config, buildMarkets(config).instruments, T0, []);
  const ex = new Exchange(config, T0, history);
  for (const inst of ex.instruments) {
    const last = ex.marketData.of(inst.index).lastTrade();
    assert.ok(last !== undefined && last.price > 0);
    assert.equal(inst.lastPrice, last.price);
  }
  // A stop at history's last price would trigger immediately.
  const inst = ex.instrument(BTC)!;
  const refused = ex.submit({ type: 'place', now: T0, symbolIndex: inst.index, side: 'SELL', orderType: 'STOP_LOSS', timeInForce: 'GTC', price: 0, quantity: 100, clientOrderId: null, stopPrice: inst.lastPrice });
  assert.equal(expectError(refused).msg, 'Order would trigger immediately.');
});
