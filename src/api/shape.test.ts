// A shape's compiled text writer writes exactly JSON.stringify of its object form: every field
// in table order, escaped client ids, optional fields only when they apply, nested lists.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CancelResult, PlaceResult } from '../core/commands.ts';
import type { Instrument } from '../core/markets.ts';
import type { OrderView } from '../core/types.ts';
import { CANCELLED, ORDER, ORDER_ACK, ORDER_FULL, ORDER_RESULT } from './order-shapes.ts';
import { RATE_LIMIT_COUNT, rateLimitRules, rateLimitsText } from './rate-limit-shapes.ts';
import { fieldsOf, shape } from './shape.ts';

const inst = { symbol: 'BTCUSDT', tickDecimals: 2, lotDecimals: 5, quoteDecimals: 8 } as Instrument;

function order(over: Partial<OrderView>): OrderView {
  return {
    symbol: 'BTCUSDT', orderId: 7, clientOrderId: 'plain', price: 5_000_000, origQty: 100, executedQty: 40, preventedQty: 0,
    cumQuote: 2_000_000_000n, status: 'PARTIALLY_FILLED', timeInForce: 'GTC', type: 'LIMIT', side: 'BUY', time: 1, updateTime: 2,
    workingTime: 1, isWorking: true, expiryReason: 'NONE',
    stopPrice: 0, icebergQty: 0, trailingDelta: 0, trailingTime: -1, orderListId: -1, quoteOrderQty: 0n, ...over,
  };
}

const fills = [
  { tradeId: 1, price: 5_000_000, qty: 20, quoteQty: 1_000_000_000n, commission: 1000n, commissionAsset: 'USDT' },
  { tradeId: 2, price: 5_000_100, qty: 20, quoteQty: 1_000_020_000n, commission: 1001n, commissionAsset: 'USDT' },
];

test('order shapes: text equals JSON.stringify of the object, with escaping and optional fields', () => {
  const orders = [
    order({}),
    order({ clientOrderId: 'quote"back\\slash\u0001' }),
    order({ status: 'EXPIRED', expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED', preventedQty: 5, isWorking: false }),
  ];
  for (const o of orders) {
    for (const list of [[], fills]) {
      for (const preventedMatches of [[], [{ preventedMatchId: 0, makerOrderId: 3, price: 6_000_000, makerPreventedQty: 12 }]]) {
        const placed: PlaceResult = { order: o, fills: list, preventedMatches, transactTime: 99 };
        for (const s of [ORDER_ACK, ORDER_RESULT, ORDER_FULL]) assert.equal(s.text(placed, inst), JSON.stringify(s.object(placed, inst)));
      }
    }
    const cancelled: CancelResult = { order: o, origClientOrderId: o.clientOrderId, clientOrderId: 'x"y', transactTime: 5 };
    assert.equal(CANCELLED.text(cancelled, inst), JSON.stringify(CANCELLED.object(cancelled, inst)));
    assert.equal(CANCELLED.listText([cancelled, cancelled], inst), JSON.stringify([cancelled, cancelled].map((c) => CANCELLED.object(c, inst))));
    assert.equal(ORDER.text(o, inst), JSON.stringify(ORDER.object(o, inst)));
  }
  const expired = ORDER_RESULT.object({ order: orders[2]!, fills: [], preventedMatches: [], transactTime: 1 }, inst);
  assert.equal(expired.expiryReason, 'UNFILLED_IOC_QUANTITY_EXPIRED');
  assert.equal(expired.preventedQuantity, '0.00005000');
  assert.ok(!('expiryReason' in ORDER_RESULT.object({ order: orders[0]!, fills: [], preventedMatches: [], transactTime: 1 }, inst)));
});

test('rateLimits text equals the objects it stands for', () => {
  const limits = { weight_per_minute: 6000, orders_per_10s: 100, orders_per_day: 200000, max_recv_window_ms: 60000 } as Parameters<typeof rateLimitRules>[0];
  const rules = rateLimitRules(limits);
  assert.equal(rateLimitsText(limits, 3, null), JSON.stringify([RATE_LIMIT_COUNT.object(rules.weight, 3)]));
  assert.equal(
    rateLimitsText(limits, 3, { tenSeconds: 1, day: 2 }),
    JSON.stringify([RATE_LIMIT_COUNT.object(rules.weight, 3), RATE_LIMIT_COUNT.object(rules.ordersTenSeconds, 1), RATE_LIMIT_COUNT.object(rules.ordersDay, 2)]),
  );
});

test('a shape cannot start with an optional field (the writer puts no comma before the first)', () => {
  const f = fieldsOf<{ a?: string }, null>();
  assert.throws(() => shape({ a: f.optional(f.text((s) => s.a ?? ''), (s) => s.a !== undefined) }), /first field/);
});
