import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimits } from './limits.ts';

const T = 1_767_225_600_000;

test('an order list counts each of its orders; one that would overflow a window is refused whole and counts nothing', () => {
  const limits = new RateLimits({ weight_per_minute: 6000, orders_per_10s: 4, orders_per_day: 100, max_recv_window_ms: 60000 });
  assert.equal(limits.chargeOrder(T, 3), null);
  assert.deepEqual(limits.orderCounts(T), { tenSeconds: 3, day: 3 });
  const refused = limits.chargeOrder(T, 2);
  assert.equal(refused?.error.msg, 'Too many new orders; current limit is 4 orders per 10 SECOND.');
  assert.deepEqual(limits.orderCounts(T), { tenSeconds: 3, day: 3 });
  assert.equal(limits.chargeOrder(T), null);
  assert.equal(limits.chargeOrder(T)?.error.code, -1015);
});
