// duplicateClientOrderIds remembers a bounded number of ids: within the window a reused id
// counts, an id older than the window is forgotten (and memory stays bounded).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from './config/index.ts';
import { Exchange } from './core/exchange.ts';
import { T0 } from './core/test-support.ts';
import { Stats } from './stats.ts';
import { placeOrder } from './api/orders.ts';
import type { ExecutionReport } from './core/types.ts';

test('duplicate client order ids: counted within the last N ids, forgotten beyond', () => {
  const ex = new Exchange(resolveConfig({ sim: { generator: { enabled: false } } }), T0);
  const stats = new Stats(() => ex, 3);
  const place = (id: string) => {
    const outcome = placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '59000', quantity: '0.001', newClientOrderId: id }, T0);
    assert.ok(outcome.ok, `order ${id} accepted`);
    stats.recordEvents(outcome.events);
  };
  for (const id of ['a', 'b', 'c']) place(id);
  place('a'); // 'a' is within the last 3: a duplicate (its IOC order ended)
  assert.equal(stats.duplicateClientOrderIds, 1);
  for (const id of ['d', 'e', 'f']) place(id); // pushes a, b, c out
  place('b');
  assert.equal(stats.duplicateClientOrderIds, 1, 'an id older than the window is not counted');
  place('f');
  assert.equal(stats.duplicateClientOrderIds, 2);
  assert.ok(stats['seenClientOrderIds'].size <= 3);
});

test("triggers: a NEW report with cause 'trigger' counts a trigger, not an order; an activation counts neither", () => {
  const ex = new Exchange(resolveConfig({ sim: { generator: { enabled: false } } }), T0);
  const stats = new Stats(() => ex);
  const outcome = placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.001', newClientOrderId: 'stop-1' }, T0);
  assert.ok(outcome.ok);
  stats.recordEvents(outcome.events);
  const placed = outcome.events.find((e): e is ExecutionReport => e.type === 'execution' && e.executionType === 'NEW')!;
  // The core reports the same order NEW again when its stop triggers or its list activates it.
  stats.recordEvents([{ ...placed, cause: 'trigger' }]);
  stats.recordEvents([{ ...placed, cause: 'activation' }]);
  assert.deepEqual({ orders: stats.orders, triggers: stats.triggers, duplicates: stats.duplicateClientOrderIds }, { orders: 1, triggers: 1, duplicates: 0 });
  assert.equal((stats.snapshot({ openOrders: 1, slowConsumersDisconnected: 0, internalErrors: 0, faults: {} }) as { triggers: number }).triggers, 1);
  // sinceMark counts the triggers after mark(), like the orders and fills.
  stats.mark();
  assert.equal(stats.sinceMark().triggers, 0);
  stats.recordEvents([{ ...placed, cause: 'trigger' }]);
  assert.deepEqual([stats.sinceMark().triggers, stats.sinceMark().orders], [1, 0]);
});
