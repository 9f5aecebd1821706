// The reference's "conditional fields in order responses" (rest-api.md): which reply shows
// `stopPrice`, `trailingDelta`/`trailingTime`, `icebergQty`, `origQuoteOrderQty`, `orderListId`,
// and where, for real outcomes with order_types = "reference"; the list replies' fields in the
// reference's order. Each text must equal JSON.stringify of its object form.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OrderListResult, PlaceResult } from '../core/commands.ts';
import { makeExchange, T0 } from '../core/test-support.ts';
import { placeOrderList } from './order-lists.ts';
import { cancelOrder, getOrder, placeOrder } from './orders.ts';
import { Wire } from './wire.ts';

const ex = makeExchange({ sim: { order_types: 'reference' } });
const wire = new Wire(ex);
const place = (fields: Record<string, string>): PlaceResult => {
  const outcome = placeOrder(ex, { symbol: 'BTCUSDT', quantity: '0.01', ...fields }, T0, 'reference');
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error.msg);
  return outcome.value;
};
const keysOf = (text: string) => Object.keys(JSON.parse(text) as object);

test('placement replies: stopPrice and a trailing stop\'s fields before workingTime, icebergQty after it; a plain order has none', () => {
  const stop = place({ side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900', stopPrice: '59000', trailingDelta: '100', icebergQty: '0.002' });
  const text = wire.placed(stop, 'RESULT').text;
  assert.deepEqual(keysOf(text).slice(13), ['side', 'stopPrice', 'trailingDelta', 'trailingTime', 'workingTime', 'icebergQty', 'selfTradePreventionMode']);
  assert.deepEqual(JSON.parse(text), { ...JSON.parse(text), stopPrice: '59000.00000000', trailingDelta: 100, trailingTime: -1, workingTime: -1, icebergQty: '0.00200000' });
  const plain = place({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000' });
  assert.deepEqual(keysOf(wire.placed(plain, 'FULL').text).slice(13), ['side', 'workingTime', 'selfTradePreventionMode', 'fills']);
  assert.equal(keysOf(wire.placed(stop, 'ACK').text).length, 5);
});

test('GET order always shows stopPrice and icebergQty (0 when unused); cancel replies show them only when they apply', () => {
  const stop = place({ side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '59000' });
  const view = getOrder(ex, 'BTCUSDT', stop.order.orderId);
  assert.ok(!(view instanceof Error));
  const shown = wire.order(view);
  assert.deepEqual([shown.stopPrice, shown.icebergQty, shown.isWorking, shown.workingTime, shown.price], ['59000.00000000', '0.00000000', false, -1, '0.00000000']);
  assert.ok(!('trailingDelta' in shown));
  const cancelled = cancelOrder(ex, { symbol: 'BTCUSDT', orderId: stop.order.orderId }, T0);
  assert.ok(cancelled.ok);
  const text = wire.cancelled(cancelled.value).text;
  assert.deepEqual(keysOf(text).slice(-3), ['side', 'stopPrice', 'selfTradePreventionMode']);
  assert.equal(text, JSON.stringify(JSON.parse(text)));
});

test('a quoteOrderQty MARKET order shows the amount as origQuoteOrderQty', () => {
  const quoted = placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' }, T0, 'reference');
  // An empty book: the reference's liquidity refusal; the amount shows once there is an ask.
  assert.ok(!quoted.ok && quoted.error.code === -2010);
  ex.submit({ type: 'counterpartyLimit', now: T0, symbolIndex: 0, side: 'SELL', price: 6_000_000, lots: 1000 });
  const bought = placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' }, T0, 'reference');
  assert.ok(bought.ok);
  assert.deepEqual(JSON.parse(wire.placed(bought.value, 'RESULT').text), { ...JSON.parse(wire.placed(bought.value, 'RESULT').text), origQuoteOrderQty: '100.00000000', origQty: '0.00166000' });
});

test('list replies: the list fields in the reference order, orderReports by newOrderRespType, each with its orderListId', () => {
  const get = (p: Record<string, string>) => (name: string) => p[name];
  const outcome = placeOrderList(ex, 'oto', get({ symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '50000', workingQuantity: '0.01', workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '65000', pendingQuantity: '0.01' }), T0);
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.error.msg);
  const result: OrderListResult = outcome.value;
  const full = JSON.parse(wire.orderListPlaced(result, 'FULL').text);
  assert.deepEqual(Object.keys(full), ['orderListId', 'contingencyType', 'listStatusType', 'listOrderStatus', 'listClientOrderId', 'transactionTime', 'symbol', 'orders', 'orderReports']);
  assert.deepEqual(full.orderReports.map((r: { orderListId: number; status: string; fills: unknown[] }) => [r.orderListId, r.status, r.fills.length]), [
    [result.list.orderListId, 'NEW', 0],
    [result.list.orderListId, 'PENDING_NEW', 0],
  ]);
  assert.deepEqual(Object.keys(JSON.parse(wire.orderListPlaced(result, 'ACK').text).orderReports[1]), ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
  assert.deepEqual(Object.keys(wire.orderList(result.list)), Object.keys(full).slice(0, 8));
});
