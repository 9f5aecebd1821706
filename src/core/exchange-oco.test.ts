// OCO order lists (issue 33; rest-api.md "New Order list - OCO"; API.md 11 "OCO", "Ids and
// history", "cancelReplace and amend"): the exact events of each transition, the pair's one
// lock, the price relation against the last trade, and cancelling through every path.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CancelOrderListResult, CancelResult, ListLeg, OrderListResult, Outcome } from './commands.ts';
import { atoms, counterparty, eventTrail, expectError, expectOk, legOf, lots, makeExchange, reports, submitOrder, T0, tradesAt, type OrderFields } from './test-support.ts';
import { accountTrades, balance, depthSnapshot, openOrderLists, openOrders, orderList } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import type { Exchange } from './exchange.ts';

const BTC = 'BTCUSDT';
const healthy = (ex: Exchange) => assert.deepEqual(invariantViolations(ex.state), []);
const leg = (ex: Exchange, f: OrderFields): ListLeg => legOf(ex, BTC, { quantity: '0.01', ...f });

function oco(ex: Exchange, above: OrderFields, below: OrderFields, now = T0, listClientOrderId: string | null = null): Outcome<OrderListResult> {
  return ex.submit({ type: 'placeOrderList', now, symbolIndex: 0, listClientOrderId, contingency: 'OCO', above: leg(ex, above), below: leg(ex, below) });
}

/** A SELL OCO around a last trade at 50000: take profit as a LIMIT_MAKER at 52000, stop loss at 48000 (limit 47900). */
function sellOco(ex: Exchange, now = T0, listClientOrderId: string | null = null) {
  return oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '52000' }, { side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '47900', stopPrice: '48000' }, now, listClientOrderId);
}

test('placement: the stop leg first, each order NEW, then EXEC_STARTED; one base lock for both legs', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const placed = sellOco(ex, T0, 'my-oco');
  const result = expectOk(placed);
  assert.deepEqual(eventTrail(placed.events), ['1 NEW/NEW', '2 NEW/NEW', 'list 1 EXEC_STARTED/EXECUTING']);
  assert.deepEqual(
    { ...result.list, orders: result.list.orders.map((o) => o.orderId) },
    { orderListId: 1, contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING', listClientOrderId: 'my-oco', transactionTime: T0, symbol: BTC, orders: [1, 2] },
  );
  assert.deepEqual(result.orderReports.map((r) => [r.order.type, r.order.isWorking, r.order.orderListId]), [
    ['STOP_LOSS_LIMIT', false, 1],
    ['LIMIT_MAKER', true, 1],
  ]);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.01'), 'one lock for the pair');
  const snap = depthSnapshot(ex.state, BTC, 5, 'live');
  assert.ok(!('code' in snap) && snap.asks.length === 1 && snap.bids.length === 0, 'only the LIMIT_MAKER leg is in the book');
  assert.deepEqual(openOrderLists(ex.state).map((l) => l.orderListId), [1]);
  assert.deepEqual(openOrders(ex.state).map((o) => [o.orderId, o.status]), [[1, 'NEW'], [2, 'NEW']]);
  healthy(ex);
});

test('the LIMIT_MAKER leg\'s first fill expires the stop leg (OCO_TRIGGER), then ALL_DONE; the rest keeps its own lock', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  expectOk(sellOco(ex));
  const events = ex.submit({ type: 'counterpartyTake', now: T0 + 1, symbolIndex: 0, side: 'BUY', price: null, lots: lots(ex, BTC, '0.004') }).events;
  assert.deepEqual(eventTrail(events), ['trade 5200000', '2 TRADE/PARTIALLY_FILLED', '1 EXPIRED/EXPIRED OCO_TRIGGER', 'list 1 ALL_DONE/ALL_DONE']);
  const done = events.find((e) => e.type === 'listStatus');
  assert.ok(done?.type === 'listStatus' && done.list.transactionTime === T0 + 1 && done.eventTime === T0 + 1);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.006'));
  assert.deepEqual(openOrderLists(ex.state), []);
  assert.deepEqual(openOrders(ex.state).map((o) => [o.orderId, o.orderListId]), [[2, 1]], 'the survivor stays open with its orderListId');
  healthy(ex);
  // A trade at the stop price no longer does anything.
  assert.deepEqual(eventTrail(tradesAt(ex, ['48000'], T0 + 2)), ['trade 4800000']);
});

test('the account\'s trade log carries the list\'s id on a list order\'s trades (myTrades orderListId), -1 on others', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '47950', '1');
  expectOk(sellOco(ex));
  ex.submit({ type: 'counterpartyTake', now: T0 + 1, symbolIndex: 0, side: 'BUY', price: null, lots: lots(ex, BTC, '0.004') });
  expectOk(submitOrder(ex, { side: 'SELL', type: 'MARKET', quantity: '0.001' }, T0 + 2));
  assert.deepEqual(accountTrades(ex.state, BTC, { limit: 10 }).map((t) => [t.orderId, t.orderListId]), [[2, 1], [3, -1]]);
});

test('the stop leg\'s trigger expires the LIMIT_MAKER leg before the stop trades', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  counterparty(ex, BTC, 'BUY', '47950', '1');
  expectOk(sellOco(ex));
  const events = tradesAt(ex, ['48000'], T0 + 1);
  assert.deepEqual(eventTrail(events), ['trade 4800000', '1 NEW/NEW trigger', '2 EXPIRED/EXPIRED OCO_TRIGGER', 'list 1 ALL_DONE/ALL_DONE', 'trade 4795000', '1 TRADE/FILLED']);
  const snap = depthSnapshot(ex.state, BTC, 5, 'live');
  assert.ok(!('code' in snap) && snap.asks.length === 0);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});

test('a BUY OCO holds the larger leg\'s notional; cancelling one leg cancels the list', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const placed = expectOk(oco(ex, { side: 'BUY', type: 'STOP_LOSS', stopPrice: '52000' }, { side: 'BUY', type: 'LIMIT_MAKER', price: '48000' }));
  assert.deepEqual(placed.orderReports.map((r) => r.order.type), ['STOP_LOSS', 'LIMIT_MAKER']);
  // The stop leg's 520 USDT (the limit's 480 fits inside it), the fee reserve of 520 aside.
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '520'));
  assert.equal(balance(ex.state, 'USDT').free, atoms(ex, 'USDT', '9999480'));
  const cancel = ex.submit({ type: 'cancel', now: T0 + 1, symbolIndex: 0, orderId: 2, origClientOrderId: undefined, cancelClientOrderId: 'x' });
  const result = expectOk(cancel);
  assert.deepEqual([result.order.orderId, result.clientOrderId, result.order.status], [2, 'x', 'CANCELED']);
  assert.deepEqual(eventTrail(cancel.events), ['1 CANCELED/CANCELED', '2 CANCELED/CANCELED', 'list 1 ALL_DONE/ALL_DONE']);
  assert.deepEqual(reports(cancel.events).map((r) => r.cancelClientOrderId), ['x', 'x']);
  assert.equal(balance(ex.state, 'USDT').locked, 0n);
  assert.equal(balance(ex.state, 'USDT').free, atoms(ex, 'USDT', '10000000'));
  healthy(ex);
});

test('refusals send no event and take no id: prices against the last trade, LIMIT_MAKER, funds, MAX_NUM_ORDER_LISTS, duplicate ids', () => {
  const ex = makeExchange({ sim: { account: { balances: { BTC: '0.015', USDT: '1000' } } } });
  // No trade yet: only the legs' own relation counts.
  const crossed = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '47000' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000' });
  assert.deepEqual([expectError(crossed).code, expectError(crossed).msg], [-2010, 'The relationship of the prices for the orders is not correct.']);
  expectOk(oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '60000' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '55000' }));
  expectOk(ex.submit({ type: 'cancelOrderList', now: T0, symbolIndex: 0, orderListId: 1, listClientOrderId: undefined, cancelClientOrderId: null }));
  tradesAt(ex, ['50000']);
  const below = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '49000' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000' });
  assert.equal(expectError(below).msg, 'The relationship of the prices for the orders is not correct.');
  assert.deepEqual(below.events, []);
  counterparty(ex, BTC, 'BUY', '51000', '0.001');
  const take = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '50500' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000' });
  assert.equal(expectError(take).msg, 'Order would immediately match and take.');
  const poor = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '52000', quantity: '0.02' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000', quantity: '0.02' });
  assert.equal(expectError(poor).msg, 'Account has insufficient balance for requested action.');
  const dupLegs = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '52000', clientOrderId: 'a' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000', clientOrderId: 'a' });
  assert.equal(expectError(dupLegs).msg, 'Duplicate order sent.');
  expectOk(sellOco(ex, T0, 'L'));
  const dupList = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '53000', quantity: '0.001' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '47000', quantity: '0.001' }, T0, 'L');
  assert.equal(expectError(dupList).msg, 'Duplicate order sent.');
  ex.instrument(BTC)!.maxNumOrderLists = 1;
  const full = oco(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '53000', quantity: '0.001' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '47000', quantity: '0.001' });
  assert.equal(expectError(full).msg, 'Filter failure: MAX_NUM_ORDER_LISTS');
  // Ids: lists 1 and 2, orders 1-2 then 3-4: the refused ones took none.
  assert.deepEqual(openOrderLists(ex.state).map((l) => [l.orderListId, l.orders.map((o) => o.orderId)]), [[2, [3, 4]]]);
  healthy(ex);
});

test('two conditional legs: the STOP_LOSS leg first; a TAKE_PROFIT trigger expires it', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const placed = expectOk(oco(ex, { side: 'SELL', type: 'TAKE_PROFIT', stopPrice: '52000' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '48000' }));
  assert.deepEqual(placed.orderReports.map((r) => r.order.type), ['STOP_LOSS', 'TAKE_PROFIT']);
  assert.equal(ex.instrument(BTC)!.watchedStops, 2);
  const events = tradesAt(ex, ['52000'], T0 + 1);
  assert.deepEqual(eventTrail(events), ['trade 5200000', '2 NEW/NEW trigger', '1 EXPIRED/EXPIRED OCO_TRIGGER', 'list 1 ALL_DONE/ALL_DONE', '2 EXPIRED/EXPIRED INSUFFICIENT_LIQUIDITY']);
  assert.equal(ex.instrument(BTC)!.watchedStops, 0);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});

test('cancelOrderList by list client id: one cancel id for every order; the list is then forgotten ("forget") or kept ("keep")', () => {
  for (const mode of ['forget', 'keep'] as const) {
    const ex = makeExchange({ sim: { account: { ended_orders: mode } } });
    tradesAt(ex, ['50000']);
    expectOk(sellOco(ex, T0, 'L1'));
    const cancelled = ex.submit({ type: 'cancelOrderList', now: T0 + 1, symbolIndex: 0, orderListId: undefined, listClientOrderId: 'L1', cancelClientOrderId: 'c1' });
    const result = expectOk(cancelled);
    assert.deepEqual([result.list.listStatusType, result.list.listOrderStatus], ['ALL_DONE', 'ALL_DONE']);
    assert.deepEqual(result.orderReports.map((r) => [r.order.orderId, r.clientOrderId, r.origClientOrderId === r.order.clientOrderId]), [[1, 'c1', true], [2, 'c1', true]]);
    assert.deepEqual(eventTrail(cancelled.events), ['1 CANCELED/CANCELED', '2 CANCELED/CANCELED', 'list 1 ALL_DONE/ALL_DONE']);
    assert.equal(expectError(ex.submit({ type: 'cancelOrderList', now: T0 + 2, symbolIndex: 0, orderListId: 1, listClientOrderId: undefined, cancelClientOrderId: null })).code, -2011);
    const found = orderList(ex.state, { origClientOrderId: 'L1' });
    if (mode === 'keep') assert.ok(!('code' in found) && found.listOrderStatus === 'ALL_DONE');
    else assert.ok('code' in found && found.code === -2013 && found.msg === 'Order does not exist.');
    healthy(ex);
  }
});

test('cancelAll cancels the plain orders, then each list whole; cancelReplace of a list order cancels the list first', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  expectOk(sellOco(ex));
  expectOk(ex.submit({ type: 'place', now: T0, symbolIndex: 0, side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 4_000_000, quantity: 100, clientOrderId: null }));
  const all = ex.submit({ type: 'cancelAll', now: T0 + 1, symbolIndex: 0 });
  const results = expectOk(all);
  assert.deepEqual(results.map((r) => ('list' in r ? `list ${r.list.orderListId}: ${r.orderReports.map((o) => o.order.orderId)}` : `order ${r.order.orderId}`)), ['order 3', 'list 1: 1,2']);
  assert.deepEqual(eventTrail(all.events), ['3 CANCELED/CANCELED', '1 CANCELED/CANCELED', '2 CANCELED/CANCELED', 'list 1 ALL_DONE/ALL_DONE']);

  expectOk(sellOco(ex, T0 + 2));
  const replace = ex.submit({
    type: 'cancelReplace',
    now: T0 + 3,
    mode: 'STOP_ON_FAILURE',
    cancel: { type: 'cancel', now: T0 + 3, symbolIndex: 0, orderId: 5, origClientOrderId: undefined, cancelClientOrderId: null },
    place: { type: 'place', now: T0 + 3, symbolIndex: 0, ...leg(ex, { side: 'SELL', type: 'LIMIT', price: '53000' }) },
  });
  const r = expectOk(replace);
  const cancelResponse = r.cancelResponse as CancelOrderListResult | CancelResult;
  assert.ok('list' in cancelResponse && cancelResponse.list.orderListId === 2 && cancelResponse.orderReports.length === 2);
  assert.deepEqual(eventTrail(replace.events), ['4 CANCELED/CANCELED', '5 CANCELED/CANCELED', 'list 2 ALL_DONE/ALL_DONE', '6 NEW/NEW']);
  healthy(ex);
});

test('amend keepPriority of a leg: REPLACED, then listStatus UPDATED (the client id changed); the pair holds the larger new need', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  expectOk(oco(ex, { side: 'BUY', type: 'STOP_LOSS', stopPrice: '52000' }, { side: 'BUY', type: 'LIMIT_MAKER', price: '48000' }));
  const amended = ex.submit({ type: 'amend', now: T0 + 1, symbolIndex: 0, orderId: 1, origClientOrderId: undefined, newClientOrderId: 'smaller', newQty: lots(ex, BTC, '0.005') });
  const result = expectOk(amended);
  assert.deepEqual(eventTrail(amended.events), ['1 REPLACED/NEW', 'list 1 UPDATED/EXECUTING']);
  assert.deepEqual(result.listStatus?.orders.map((o) => o.clientOrderId)[0], 'smaller');
  // Now the LIMIT_MAKER leg's 480 USDT is the larger need.
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '480'));
  healthy(ex);
});

test('self-trade prevention expiring the LIMIT_MAKER leg expires the stop leg too', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  expectOk(sellOco(ex));
  const placed = ex.submit({ type: 'place', now: T0 + 1, symbolIndex: 0, ...leg(ex, { side: 'BUY', type: 'LIMIT', price: '52000', timeInForce: 'IOC' }) });
  assert.deepEqual(eventTrail(placed.events), ['3 NEW/NEW', '2 TRADE_PREVENTION/EXPIRED_IN_MATCH', '1 EXPIRED/EXPIRED OCO_TRIGGER', 'list 1 ALL_DONE/ALL_DONE', '3 EXPIRED/EXPIRED UNFILLED_IOC_QUANTITY_EXPIRED']);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});
