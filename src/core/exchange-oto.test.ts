// OTO and OTOCO order lists (issue 33; rest-api.md "New Order list - OTO / OTOCO"; API.md 11
// "OTO/OTOCO"): the pending orders wait as PENDING_NEW holding nothing, become NEW when the
// working order has filled (after the command, `cause` activation) or expire with it; their
// checks run again at activation; cancelling any order cancels the list; the list queries.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ListLeg, OrderListResult, Outcome } from './commands.ts';
import { atoms, counterparty, eventTrail, expectOk, legOf, lots, makeExchange, reports, T0, tradesAt, type OrderFields } from './test-support.ts';
import { allOrderLists, balance, depthSnapshot, openOrderLists, openOrders, orderList } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import type { Exchange } from './exchange.ts';

const BTC = 'BTCUSDT';
const healthy = (ex: Exchange) => assert.deepEqual(invariantViolations(ex.state), []);
const leg = (ex: Exchange, f: OrderFields): ListLeg => legOf(ex, BTC, { quantity: '0.01', ...f });
const WORKING: OrderFields = { side: 'BUY', type: 'LIMIT', price: '49000' };

function oto(ex: Exchange, working: OrderFields, pending: OrderFields, now = T0, listClientOrderId: string | null = null): Outcome<OrderListResult> {
  return ex.submit({ type: 'placeOrderList', now, symbolIndex: 0, listClientOrderId, contingency: 'OTO', working: leg(ex, working), pending: leg(ex, pending) });
}

function otoco(ex: Exchange, now = T0): Outcome<OrderListResult> {
  return ex.submit({
    type: 'placeOrderList',
    now,
    symbolIndex: 0,
    listClientOrderId: null,
    contingency: 'OTOCO',
    working: leg(ex, WORKING),
    pendingAbove: leg(ex, { side: 'SELL', type: 'LIMIT_MAKER', price: '52000' }),
    pendingBelow: leg(ex, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '47000' }),
  });
}

/** A counterparty seller meets the working BUY at 49000. */
function sellInto(ex: Exchange, qty: string, now: number) {
  return ex.submit({ type: 'counterpartyTake', now, symbolIndex: 0, side: 'SELL', price: null, lots: lots(ex, BTC, qty) });
}

test('OTO: the pending order is PENDING_NEW and holds nothing; the working order\'s full fill activates it after the command', () => {
  const ex = makeExchange();
  const placed = oto(ex, WORKING, { side: 'SELL', type: 'LIMIT', price: '51000' });
  const result = expectOk(placed);
  assert.deepEqual(eventTrail(placed.events), ['1 NEW/NEW', '2 NEW/PENDING_NEW', 'list 1 EXEC_STARTED/EXECUTING']);
  assert.deepEqual(result.orderReports.map((r) => [r.order.status, r.order.isWorking]), [['NEW', true], ['PENDING_NEW', false]]);
  assert.equal(result.list.contingencyType, 'OTO');
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '490'));
  assert.equal(balance(ex.state, 'BTC').locked, 0n, 'the pending SELL locks nothing yet');
  assert.deepEqual(openOrders(ex.state).map((o) => [o.orderId, o.status]), [[1, 'NEW'], [2, 'PENDING_NEW']]);
  healthy(ex);

  assert.deepEqual(eventTrail(sellInto(ex, '0.004', T0 + 1).events), ['trade 4900000', '1 TRADE/PARTIALLY_FILLED']);
  const fill = sellInto(ex, '0.006', T0 + 2).events;
  assert.deepEqual(eventTrail(fill), ['trade 4900000', '1 TRADE/FILLED', '2 NEW/NEW activation', 'list 1 ALL_DONE/ALL_DONE']);
  const activated = reports(fill).find((r) => r.cause === 'activation')!;
  assert.deepEqual([activated.order.isWorking, activated.order.workingTime, activated.order.orderListId], [true, T0 + 2, 1]);
  const snap = depthSnapshot(ex.state, BTC, 5, 'live');
  assert.ok(!('code' in snap));
  assert.deepEqual(snap.asks, [[5_100_000, lots(ex, BTC, '0.01')]]);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.01'));
  assert.deepEqual(openOrderLists(ex.state), []);
  healthy(ex);
});

test('OTO: a working order filled at placement shows FILLED beside a PENDING_NEW order; the activation follows in the same command', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '48900', '0.01');
  const placed = oto(ex, WORKING, { side: 'SELL', type: 'LIMIT', price: '51000' });
  assert.deepEqual(expectOk(placed).orderReports.map((r) => r.order.status), ['FILLED', 'PENDING_NEW']);
  assert.equal(expectOk(placed).list.listStatusType, 'EXEC_STARTED');
  assert.deepEqual(eventTrail(placed.events), ['1 NEW/NEW', '2 NEW/PENDING_NEW', 'list 1 EXEC_STARTED/EXECUTING', 'trade 4890000', '1 TRADE/FILLED', '2 NEW/NEW activation', 'list 1 ALL_DONE/ALL_DONE']);
  healthy(ex);
});

test('OTO: a working order that expires expires the pending one (OTO_PHASE_ONE_EXPIRED)', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '48900', '0.004');
  const placed = oto(ex, { ...WORKING, timeInForce: 'IOC' }, { side: 'SELL', type: 'LIMIT', price: '51000' });
  assert.deepEqual(eventTrail(placed.events), [
    '1 NEW/NEW',
    '2 NEW/PENDING_NEW',
    'list 1 EXEC_STARTED/EXECUTING',
    'trade 4890000',
    '1 TRADE/PARTIALLY_FILLED',
    '1 EXPIRED/EXPIRED UNFILLED_IOC_QUANTITY_EXPIRED',
    '2 EXPIRED/EXPIRED OTO_PHASE_ONE_EXPIRED',
    'list 1 ALL_DONE/ALL_DONE',
  ]);
  assert.deepEqual(openOrders(ex.state), []);
  healthy(ex);
});

test('OTO: cancelling the PENDING_NEW order cancels the list; amending it reports REPLACED and the list', () => {
  const ex = makeExchange();
  expectOk(oto(ex, WORKING, { side: 'SELL', type: 'LIMIT', price: '51000' }));
  const amended = ex.submit({ type: 'amend', now: T0 + 1, symbolIndex: 0, orderId: 2, origClientOrderId: undefined, newClientOrderId: null, newQty: lots(ex, BTC, '0.005') });
  assert.deepEqual(eventTrail(amended.events), ['2 REPLACED/PENDING_NEW', 'list 1 UPDATED/EXECUTING']);
  const cancel = ex.submit({ type: 'cancel', now: T0 + 2, symbolIndex: 0, orderId: 2, origClientOrderId: undefined, cancelClientOrderId: null });
  assert.deepEqual(eventTrail(cancel.events), ['1 CANCELED/CANCELED', '2 CANCELED/CANCELED', 'list 1 ALL_DONE/ALL_DONE']);
  assert.equal(balance(ex.state, 'USDT').locked, 0n);
  healthy(ex);
});

test('OTO: the activation checks run again: a pending stop that would now trigger ends EXPIRED (REJECTED)', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  // Accepted at placement (last 50000 is above the stop); the working fill at 49000 meets it.
  expectOk(oto(ex, WORKING, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '49500' }));
  const fill = sellInto(ex, '0.01', T0 + 1).events;
  assert.deepEqual(eventTrail(fill), ['trade 4900000', '1 TRADE/FILLED', '2 NEW/NEW activation', '2 EXPIRED/EXPIRED REJECTED', 'list 1 ALL_DONE/ALL_DONE']);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});

test('OTO: a pending MARKET order trades when activated; a pending stop waits for its trigger', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'BUY', '48000', '1');
  expectOk(oto(ex, WORKING, { side: 'SELL', type: 'MARKET' }));
  const fill = sellInto(ex, '0.01', T0 + 1).events;
  assert.deepEqual(eventTrail(fill), ['trade 4900000', '1 TRADE/FILLED', '2 NEW/NEW activation', 'list 1 ALL_DONE/ALL_DONE', 'trade 4800000', '2 TRADE/FILLED']);
  healthy(ex);

  expectOk(oto(ex, { side: 'BUY', type: 'LIMIT', price: '48500' }, { side: 'SELL', type: 'STOP_LOSS', stopPrice: '47000' }, T0 + 2));
  const events = sellInto(ex, '0.01', T0 + 3).events;
  assert.deepEqual(eventTrail(events), ['trade 4850000', '3 TRADE/FILLED', '4 NEW/NEW activation', 'list 2 ALL_DONE/ALL_DONE']);
  const activated = reports(events).find((r) => r.cause === 'activation')!;
  assert.deepEqual([activated.order.isWorking, activated.order.workingTime], [false, -1], 'a conditional order works only once triggered');
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.01'));
  healthy(ex);
});

test('OTOCO: the working order, then the pending pair (stop leg first); the fill activates the pair, which then acts as an OCO', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  const placed = otoco(ex);
  assert.deepEqual(eventTrail(placed.events), ['1 NEW/NEW', '2 NEW/PENDING_NEW', '3 NEW/PENDING_NEW', 'list 1 EXEC_STARTED/EXECUTING']);
  assert.deepEqual(expectOk(placed).orderReports.map((r) => r.order.type), ['LIMIT', 'STOP_LOSS', 'LIMIT_MAKER']);
  assert.equal(expectOk(placed).list.contingencyType, 'OTO');
  const fill = sellInto(ex, '0.01', T0 + 1).events;
  assert.deepEqual(eventTrail(fill), ['trade 4900000', '1 TRADE/FILLED', '2 NEW/NEW activation', '3 NEW/NEW activation', 'list 1 EXEC_STARTED/EXECUTING']);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.01'), 'the pair holds one 0.01');
  healthy(ex);
  const take = ex.submit({ type: 'counterpartyTake', now: T0 + 2, symbolIndex: 0, side: 'BUY', price: null, lots: lots(ex, BTC, '0.01') }).events;
  assert.deepEqual(eventTrail(take), ['trade 5200000', '3 TRADE/FILLED', '2 EXPIRED/EXPIRED OCO_TRIGGER', 'list 1 ALL_DONE/ALL_DONE']);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});

test('list queries: by id or list client id, the open lists oldest first, all lists by fromId, window and limit', () => {
  const ex = makeExchange({ sim: { account: { ended_orders: 'keep' } } });
  expectOk(oto(ex, WORKING, { side: 'SELL', type: 'LIMIT', price: '51000' }, T0, 'first'));
  expectOk(oto(ex, { side: 'BUY', type: 'LIMIT', price: '48000' }, { side: 'SELL', type: 'LIMIT', price: '51000' }, T0 + 10, 'second'));
  expectOk(oto(ex, { side: 'BUY', type: 'LIMIT', price: '47000' }, { side: 'SELL', type: 'LIMIT', price: '51000' }, T0 + 20, 'third'));
  expectOk(ex.submit({ type: 'cancelOrderList', now: T0 + 30, symbolIndex: 0, orderListId: 1, listClientOrderId: undefined, cancelClientOrderId: null }));
  const byId = orderList(ex.state, { orderListId: 2 });
  assert.ok(!('code' in byId) && byId.listClientOrderId === 'second');
  const byClientId = orderList(ex.state, { origClientOrderId: 'first' });
  assert.ok(!('code' in byClientId) && byClientId.listOrderStatus === 'ALL_DONE' && byClientId.transactionTime === T0 + 30);
  const mismatch = orderList(ex.state, { orderListId: 2, origClientOrderId: 'first' });
  assert.ok('code' in mismatch && mismatch.code === -2013);
  assert.ok('code' in orderList(ex.state, { orderListId: 9 }));
  assert.deepEqual(openOrderLists(ex.state).map((l) => l.orderListId), [2, 3]);
  const ids = (q: Parameters<typeof allOrderLists>[1]) => allOrderLists(ex.state, q).map((l) => l.orderListId);
  assert.deepEqual(ids({ limit: 500 }), [1, 2, 3]);
  assert.deepEqual(ids({ limit: 2 }), [2, 3]);
  assert.deepEqual(ids({ fromId: 2, limit: 1 }), [2]);
  assert.deepEqual(ids({ startTime: T0 + 5, limit: 500 }), [1, 2, 3], 'a window on each list\'s last change (list 1 ended at T0 + 30)');
  assert.deepEqual(ids({ startTime: T0 + 5, limit: 1 }), [1]);
  assert.deepEqual(ids({ startTime: T0, endTime: T0 + 15, limit: 500 }), [2]);
  assert.deepEqual(ids({ endTime: T0 + 25, limit: 1 }), [3]);
  healthy(ex);
});
