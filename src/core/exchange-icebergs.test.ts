// Icebergs (issue 33; API.md 11): only the visible part is in the book (depth shows it), and
// when it is filled the next part goes to the back of its level; a taker iceberg trades its
// whole quantity; self-trade prevention expires an iceberg maker whole; amend changes the
// visible part only when what is left falls below it; a triggered iceberg shows its visible
// part; MAX_NUM_ICEBERG_ORDERS.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atoms, counterparty, expectError, expectOk, lots, makeExchange, reports, submitOrder, T0, ticks, tradesAt } from './test-support.ts';
import { balance, depthSnapshot, findOrder } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import type { Exchange } from './exchange.ts';

const BTC = 'BTCUSDT';
const healthy = (ex: Exchange) => assert.deepEqual(invariantViolations(ex.state), []);

function asks(ex: Exchange): [string, string][] {
  const snap = depthSnapshot(ex.state, BTC, 10, 'live');
  assert.ok(!('code' in snap));
  const inst = ex.instrument(BTC)!;
  return snap.asks.map(([p, q]) => [String(p / 10 ** inst.tickDecimals), String(q / 10 ** inst.lotDecimals)]);
}

function take(ex: Exchange, qty: string, now = T0 + 1) {
  return ex.submit({ type: 'counterpartyTake', now, symbolIndex: 0, side: 'BUY', price: ticks(ex, BTC, '50000'), lots: lots(ex, BTC, qty) });
}

test('an iceberg shows its visible part; each filled part is refilled at the back of its level', () => {
  const ex = makeExchange();
  const ice = expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '50000', quantity: '0.05', icebergQty: '0.01' })).order;
  assert.equal(ice.icebergQty, lots(ex, BTC, '0.01'));
  assert.deepEqual(asks(ex), [['50000', '0.01']]);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.05'), 'the whole quantity is locked');
  counterparty(ex, BTC, 'SELL', '50000', '0.02');
  assert.deepEqual(asks(ex), [['50000', '0.03']]);

  // 0.045 at 50000: the iceberg's part (0.01), the order behind it (0.02), then the refilled
  // part at the back (0.01), then the next one (0.005 of it).
  const events = take(ex, '0.045').events;
  const trades = events.filter((e) => e.type === 'trade').map((e) => (e.type === 'trade' ? e.qty : 0));
  assert.deepEqual(trades, ['0.01', '0.02', '0.01', '0.005'].map((q) => lots(ex, BTC, q)));
  const own = reports(events);
  assert.deepEqual(own.map((r) => [r.lastQty, r.order.status]), [
    [lots(ex, BTC, '0.01'), 'PARTIALLY_FILLED'],
    [lots(ex, BTC, '0.01'), 'PARTIALLY_FILLED'],
    [lots(ex, BTC, '0.005'), 'PARTIALLY_FILLED'],
  ]);
  assert.deepEqual(asks(ex), [['50000', '0.005']], 'what is left of the part showing');
  healthy(ex);

  // A new order at the level queues behind the iceberg's part; the next refill goes behind it.
  counterparty(ex, BTC, 'SELL', '50000', '0.003');
  const next = take(ex, '0.01', T0 + 2).events.filter((e) => e.type === 'trade').map((e) => (e.type === 'trade' ? e.qty : 0));
  assert.deepEqual(next, ['0.005', '0.003', '0.002'].map((q) => lots(ex, BTC, q)));
  assert.deepEqual(asks(ex), [['50000', '0.008']]);
  const v = findOrder(ex.state, { symbolIndex: 0, orderId: ice.orderId, origClientOrderId: undefined });
  assert.ok(!('code' in v) && v.executedQty === lots(ex, BTC, '0.032'));
  healthy(ex);
});

test('an iceberg taker trades its whole quantity, then rests its visible part', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '50000', '0.03');
  const placed = submitOrder(ex, { side: 'BUY', type: 'LIMIT', price: '50000', quantity: '0.05', icebergQty: '0.005' });
  assert.equal(expectOk(placed).fills.reduce((n, f) => n + f.qty, 0), lots(ex, BTC, '0.03'));
  const snap = depthSnapshot(ex.state, BTC, 10, 'live');
  assert.ok(!('code' in snap));
  assert.deepEqual(snap.bids, [[ticks(ex, BTC, '50000'), lots(ex, BTC, '0.005')]]);
  assert.equal(balance(ex.state, 'USDT').locked, atoms(ex, 'USDT', '1000'), 'the open 0.02 stays locked');
  healthy(ex);
});

test('self-trade prevention expires an iceberg maker whole', () => {
  const ex = makeExchange();
  const ice = expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '50000', quantity: '0.05', icebergQty: '0.01' })).order;
  const placed = submitOrder(ex, { side: 'BUY', type: 'LIMIT', price: '50000', quantity: '0.02', timeInForce: 'IOC' });
  const prevention = reports(placed.events).find((r) => r.executionType === 'TRADE_PREVENTION')!;
  assert.equal(prevention.order.orderId, ice.orderId);
  assert.equal(prevention.lastPreventedQty, lots(ex, BTC, '0.05'));
  assert.deepEqual(expectOk(placed).preventedMatches.map((m) => m.makerPreventedQty), [lots(ex, BTC, '0.05')]);
  assert.deepEqual(asks(ex), []);
  assert.equal(balance(ex.state, 'BTC').locked, 0n);
  healthy(ex);
});

test('amend keepPriority changes the visible part only when what is left falls below it', () => {
  const ex = makeExchange();
  const ice = expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '50000', quantity: '0.05', icebergQty: '0.01' })).order;
  const amend = (qty: string) => expectOk(ex.submit({ type: 'amend', now: T0 + 1, symbolIndex: 0, orderId: ice.orderId, origClientOrderId: undefined, newClientOrderId: null, newQty: lots(ex, BTC, qty) }));
  amend('0.03');
  assert.deepEqual(asks(ex), [['50000', '0.01']]);
  assert.equal(balance(ex.state, 'BTC').locked, atoms(ex, 'BTC', '0.03'));
  amend('0.004');
  assert.deepEqual(asks(ex), [['50000', '0.004']]);
  healthy(ex);
});

test('a triggered iceberg STOP_LOSS_LIMIT rests with its visible part only', () => {
  const ex = makeExchange();
  tradesAt(ex, ['50000']);
  expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '51000', stopPrice: '49000', quantity: '0.05', icebergQty: '0.02' }));
  tradesAt(ex, ['49000'], T0 + 1);
  assert.deepEqual(asks(ex), [['51000', '0.02']]);
  healthy(ex);
});

test('MAX_NUM_ICEBERG_ORDERS counts open icebergs', () => {
  const ex = makeExchange();
  const inst = ex.instrument(BTC)!;
  for (let i = 0; i < inst.maxNumIcebergOrders; i++) expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: String(60000 + i), quantity: '0.01', icebergQty: '0.001' }));
  const refused = expectError(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '61000', quantity: '0.01', icebergQty: '0.001' }));
  assert.deepEqual([refused.code, refused.msg], [-2010, 'Filter failure: MAX_NUM_ICEBERG_ORDERS']);
  expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '61000', quantity: '0.01' }));
  ex.submit({ type: 'cancelAll', now: T0, symbolIndex: 0 });
  expectOk(submitOrder(ex, { side: 'SELL', type: 'LIMIT', price: '61000', quantity: '0.01', icebergQty: '0.001' }));
  healthy(ex);
});
