import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allOrders, cancelOrder, getOrder, placeOrder } from '../../api/orders.ts';
import type { Exchange } from '../exchange.ts';
import { counterparty, expectError, expectOk, makeExchange, T0 } from '../test-support.ts';
import type { OrderView } from '../types.ts';

const BTC = 'BTCUSDT';
const keep = (max = 100) => makeExchange({ sim: { account: { ended_orders: 'keep', max_ended_orders: max } } });

function limit(ex: Exchange, side: 'BUY' | 'SELL', price: string, extra: Record<string, string> = {}, now = T0) {
  return expectOk(placeOrder(ex, { symbol: BTC, side, type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001', ...extra }, now)).order;
}

function market(ex: Exchange, side: 'BUY' | 'SELL', now = T0) {
  return expectOk(placeOrder(ex, { symbol: BTC, side, type: 'MARKET', quantity: '0.001' }, now)).order;
}

function cancel(ex: Exchange, orderId: number, now = T0) {
  return expectOk(cancelOrder(ex, { symbol: BTC, orderId }, now)).order;
}

function found(result: OrderView | { code: number }): OrderView {
  if ('code' in result) throw new Error(`expected an order, got ${result.code}`);
  return result;
}

function ids(result: OrderView[] | { code: number }): number[] {
  if (!Array.isArray(result)) throw new Error(`expected rows, got ${result.code}`);
  return result.map((o) => o.orderId);
}

test('"forget" (default): a filled and a cancelled order answer -2013, allOrders lists the open ones only', () => {
  const ex = makeExchange();
  const resting = limit(ex, 'BUY', '50000');
  const cancelled = limit(ex, 'BUY', '50001');
  cancel(ex, cancelled.orderId);
  const filled = market(ex, 'BUY');
  for (const id of [cancelled.orderId, filled.orderId]) assert.equal((getOrder(ex, BTC, id) as { code: number }).code, -2013);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC })), [resting.orderId]);
});

test('"keep": FILLED, CANCELED, EXPIRED and EXPIRED_IN_MATCH orders answer with their final fields, by id and client id', () => {
  const ex = keep();
  counterparty(ex, BTC, 'SELL', '60000', '0.001');
  const filled = market(ex, 'BUY', T0 + 1);
  const cancelled = limit(ex, 'BUY', '50000', { newClientOrderId: 'gone' }, T0 + 2);
  cancel(ex, cancelled.orderId, T0 + 3);
  const expired = expectOk(placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '10000', quantity: '0.001' }, T0 + 4)).order;
  // Self-trade prevention: the account's own resting SELL expires in match when its BUY crosses it.
  counterparty(ex, BTC, 'SELL', '59990', '0.001');
  const ownAsk = limit(ex, 'SELL', '59980', {}, T0 + 5);
  expectOk(placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59990', quantity: '0.001' }, T0 + 6));

  const byId = (id: number) => found(getOrder(ex, BTC, id));
  assert.equal(byId(filled.orderId).status, 'FILLED');
  assert.equal(byId(filled.orderId).executedQty, filled.origQty);
  assert.deepEqual(byId(filled.orderId), filled);
  const c = found(getOrder(ex, BTC, undefined, 'gone'));
  assert.equal(c.orderId, cancelled.orderId);
  assert.equal(c.status, 'CANCELED');
  assert.equal(c.updateTime, T0 + 3);
  assert.equal(c.time, T0 + 2);
  assert.equal(byId(expired.orderId).status, 'EXPIRED');
  assert.equal(byId(expired.orderId).expiryReason, 'UNFILLED_IOC_QUANTITY_EXPIRED');
  assert.equal(byId(ownAsk.orderId).status, 'EXPIRED_IN_MATCH');
  // Both ids: the id decides, a client id of another order is -2039 as for open orders.
  assert.equal((getOrder(ex, BTC, filled.orderId, 'gone') as { code: number }).code, -2039);
  // The symbol is part of the key.
  assert.equal((getOrder(ex, 'ETHUSDT', filled.orderId) as { code: number }).code, -2013);
  // Cancelling a kept order is still -2011 (it is not open).
  assert.equal(expectError(cancelOrder(ex, { symbol: BTC, orderId: cancelled.orderId }, T0 + 7)).code, -2011);
});

test('"keep": beyond max_ended_orders the oldest ended order is forgotten first (-2013)', () => {
  const ex = keep(2);
  const a = limit(ex, 'BUY', '50000');
  const b = limit(ex, 'BUY', '50001');
  const c = limit(ex, 'BUY', '50002');
  // End order b, a, c: the first to end is the first forgotten, whatever its id.
  for (const o of [b, a, c]) cancel(ex, o.orderId);
  assert.equal((getOrder(ex, BTC, b.orderId) as { code: number }).code, -2013);
  assert.equal(found(getOrder(ex, BTC, a.orderId)).status, 'CANCELED');
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC })), [a.orderId, c.orderId]);
  assert.equal(ex.state.history.size, 2);
});

test('"keep": thousands of ended orders past the cap stay in order and within it', () => {
  const ex = keep(1500);
  const ended: number[] = [];
  const clientIds: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const o = cancel(ex, limit(ex, 'BUY', String(50000 + (i % 100))).orderId);
    ended.push(o.orderId);
    clientIds.push(o.clientOrderId);
  }
  assert.equal(ex.state.history.size, 1500);
  const last = ended.slice(-1500);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, limit: 1000 })), last.slice(-1000));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, orderId: 0, limit: 1000 })), last.slice(0, 1000));
  assert.equal((getOrder(ex, BTC, ended[3499]!) as { code: number }).code, -2013);
  assert.equal(found(getOrder(ex, BTC, ended[3500]!)).status, 'CANCELED');
  // Every generated client id: found while kept, -2013 once forgotten (deletions from the id table).
  clientIds.forEach((cid, i) => {
    const got = getOrder(ex, BTC, undefined, cid);
    if (i < 3500) assert.equal((got as { code: number }).code, -2013);
    else assert.equal(found(got).orderId, ended[i]);
  });
});

test('a client order id is reused once its order ended; the query by it finds the most recent order (both modes)', () => {
  for (const ex of [makeExchange(), keep()]) {
    const first = limit(ex, 'BUY', '50000', { newClientOrderId: 'again' });
    assert.equal(expectError(placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50001', quantity: '0.001', newClientOrderId: 'again' }, T0)).code, -2010);
    cancel(ex, first.orderId);
    const second = limit(ex, 'BUY', '50001', { newClientOrderId: 'again' });
    assert.equal(found(getOrder(ex, BTC, undefined, 'again')).orderId, second.orderId);
    cancel(ex, second.orderId);
    const afterEnd = getOrder(ex, BTC, undefined, 'again');
    if (ex.state.history.keeps) {
      assert.equal(found(afterEnd).orderId, second.orderId);
      assert.equal(found(afterEnd).status, 'CANCELED');
      // The older order stays reachable by its id.
      assert.equal(found(getOrder(ex, BTC, first.orderId, 'again')).orderId, first.orderId);
    } else assert.equal((afterEnd as { code: number }).code, -2013);
  }
});

test('allOrders: open and kept rows oldest first; orderId gives ids >= it; otherwise the most recent; limit', () => {
  const ex = keep();
  const placed: number[] = [];
  for (let i = 0; i < 6; i++) placed.push(limit(ex, 'BUY', String(50000 + i), {}, T0 + i * 1000).orderId);
  // Orders 1, 3, 5 end (the odd positions); the others stay open.
  for (const i of [1, 3, 5]) cancel(ex, placed[i]!, T0 + 10_000 + i);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC })), placed);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, limit: 2 })), placed.slice(4));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, orderId: placed[2]!, limit: 3 })), placed.slice(2, 5));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, orderId: placed[5]! + 1 })), []);
  assert.deepEqual(ids(allOrders(ex, { symbol: 'ETHUSDT' })), []);
  const rows = allOrders(ex, { symbol: BTC }) as OrderView[];
  assert.deepEqual(rows.map((o) => o.status), ['NEW', 'CANCELED', 'NEW', 'CANCELED', 'NEW', 'CANCELED']);
});

test('allOrders time window: by last update, orderId ignored, from startTime the oldest, endTime alone the most recent', () => {
  const ex = keep();
  const placed: number[] = [];
  for (let i = 0; i < 4; i++) placed.push(limit(ex, 'BUY', String(50000 + i), {}, T0 + i * 1000).orderId);
  // Order 0 ends last: its update time moves past every other's.
  cancel(ex, placed[0]!, T0 + 9000);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, startTime: T0 + 1000, endTime: T0 + 2000 })), placed.slice(1, 3));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, startTime: T0 + 5000, orderId: 99 })), [placed[0]!]);
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, startTime: T0, limit: 2 })), placed.slice(0, 2));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, endTime: T0 + 3000, limit: 2 })), placed.slice(2, 4));
  // Microseconds are accepted like timestamp.
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, startTime: (T0 + 1000) * 1000, endTime: (T0 + 2000) * 1000 })), placed.slice(1, 3));
});

test('allOrders refusals: span over 24 h -1127, end before start and limit 0 -1130, unknown symbol -1121; limit capped at 1000', () => {
  const ex = keep(2000);
  const code = (q: Parameters<typeof allOrders>[1]) => (allOrders(ex, q) as { code: number; msg: string });
  const tooLong = code({ symbol: BTC, startTime: T0, endTime: T0 + 24 * 3_600_000 + 1 });
  assert.deepEqual([tooLong.code, tooLong.msg], [-1127, 'More than 24 hours between startTime and endTime.']);
  assert.equal(code({ symbol: BTC, startTime: T0, endTime: T0 + 24 * 3_600_000 }).code, undefined);
  assert.equal(code({ symbol: BTC, startTime: T0 + 1, endTime: T0 }).code, -1130);
  assert.equal(code({ symbol: BTC, limit: 0 }).code, -1130);
  assert.equal(code({ symbol: 'NOPE' }).code, -1121);
  assert.equal(code({}).code, -1102);
  for (let i = 0; i < 1005; i++) cancel(ex, limit(ex, 'BUY', '50000').orderId);
  assert.equal(ids(allOrders(ex, { symbol: BTC, limit: 5000 })).length, 1000);
  assert.equal(ids(allOrders(ex, { symbol: BTC })).length, 500);
});

test('"keep" model check: 12000 orders over 300 reused client ids, cap 2500: every id finds its most recent kept order', () => {
  const ex = keep(2500);
  const endedIds: number[] = [];
  const clientIdOf = new Map<number, string>();
  for (let i = 0; i < 12000; i++) {
    // A long id now and then: stored beside the columns, found the same way.
    const cid = i % 7 === 0 ? `long-${i % 300}`.padEnd(36, 'x') : `cid-${(i * 7919) % 300}`;
    const o = limit(ex, 'BUY', String(50000 + (i % 50)), { newClientOrderId: cid });
    clientIdOf.set(o.orderId, cid);
    endedIds.push(cancel(ex, o.orderId).orderId);
  }
  const kept = endedIds.slice(-2500);
  const latest = new Map<string, number>();
  for (const id of kept) latest.set(clientIdOf.get(id)!, id);
  for (const cid of new Set(clientIdOf.values())) {
    const got = getOrder(ex, BTC, undefined, cid);
    const want = latest.get(cid);
    if (want === undefined) assert.equal((got as { code: number }).code, -2013, cid);
    else assert.equal(found(got).orderId, want, cid);
  }
  for (const id of [endedIds[0]!, endedIds[9499]!]) assert.equal((getOrder(ex, BTC, id) as { code: number }).code, -2013);
  const row = found(getOrder(ex, BTC, endedIds[9500]!));
  assert.equal(row.clientOrderId, clientIdOf.get(endedIds[9500]!));
  assert.deepEqual(ids(allOrders(ex, { symbol: BTC, orderId: 0, limit: 1000 })), kept.slice(0, 1000));
});
