// Changing an order after it is placed (binance-facts §3.9-3.11): cancel by id or client id,
// cancel all open orders of a symbol, amend keepPriority (a decrease keeps the queue place)
// and cancelReplace in both modes with its -2021/-2022 `data` (binance-facts §2.5).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atoms, counterparty, counterpartyMarket, executionTypes, expectError, expectOk, lots, makeExchange, reports, T0 } from './test-support.ts';
import { amendOrder, cancelAllOrders, cancelOrder, cancelReplace, getOrder, openOrders, placeOrder } from '../api/orders.ts';
import { BTC, place, limit, free, locked, assertHealthy } from '../api/exchange-test-orders.ts';

test('cancel by id or client id: CANCELED with c and C, lock released, then the order is forgotten', () => {
  const ex = makeExchange();
  const a = expectOk(limit(ex, 'BUY', '50000', '0.001', { newClientOrderId: 'a' })).order;
  expectOk(limit(ex, 'BUY', '50000', '0.002', { newClientOrderId: 'b' }));
  const byId = cancelOrder(ex, { symbol: BTC, orderId: a.orderId, newClientOrderId: 'cancel-a' }, T0 + 1);
  const cancelled = expectOk(byId);
  assert.equal(cancelled.order.status, 'CANCELED');
  assert.equal(cancelled.clientOrderId, 'cancel-a');
  assert.equal(cancelled.origClientOrderId, 'a');
  const report = reports(byId.events)[0]!;
  assert.equal(report.executionType, 'CANCELED');
  assert.equal(report.cancelClientOrderId, 'cancel-a');
  assert.equal(report.origClientOrderId, 'a');
  const byClientId = expectOk(cancelOrder(ex, { symbol: BTC, origClientOrderId: 'b' }, T0 + 2));
  assert.equal(byClientId.clientOrderId.length, 22);
  assert.equal(locked(ex, 'USDT'), 0n);
  assert.equal(free(ex, 'USDT'), atoms(ex, 'USDT', '10000000'));
  const again = expectError(cancelOrder(ex, { symbol: BTC, orderId: a.orderId }, T0 + 3));
  assert.deepEqual([again.code, again.msg], [-2011, 'Unknown order sent.']);
  const query = getOrder(ex, BTC, a.orderId);
  assert.ok('code' in query && query.code === -2013 && query.msg === 'Order does not exist.');
  const neither = expectError(cancelOrder(ex, { symbol: BTC }, T0));
  assert.equal(neither.msg, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!");
  const mismatch = expectError(cancelOrder(ex, { symbol: BTC, orderId: 99, origClientOrderId: 'zz' }, T0));
  assert.equal(mismatch.code, -2011);
  assertHealthy(ex);
});

test('cancel all: -2011 when nothing is open, else every open order of the symbol, oldest first', () => {
  const ex = makeExchange();
  assert.equal(expectError(cancelAllOrders(ex, BTC, T0)).code, -2011);
  for (const p of ['50000', '50001', '50002']) expectOk(limit(ex, 'BUY', p, '0.001'));
  expectOk(placeOrder(ex, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100', quantity: '1' }, T0));
  const outcome = cancelAllOrders(ex, BTC, T0);
  assert.deepEqual(expectOk(outcome).map((r) => ('order' in r ? r.order.orderId : -1)), [1, 2, 3]);
  assert.deepEqual(executionTypes(outcome.events), ['CANCELED/CANCELED', 'CANCELED/CANCELED', 'CANCELED/CANCELED']);
  assert.equal((openOrders(ex, ) as unknown[]).length, 1);
  assertHealthy(ex);
});

test('amend keepPriority: a decrease keeps the queue place; at or below filled -> -1013; increase -> -2038', () => {
  const ex = makeExchange();
  const first = expectOk(limit(ex, 'SELL', '60000', '0.003', { newClientOrderId: 'first' })).order;
  const second = expectOk(limit(ex, 'SELL', '60000', '0.003')).order;
  const amended = amendOrder(ex, { symbol: BTC, orderId: first.orderId, newQty: '0.002', newClientOrderId: 'first-v2' }, T0 + 1);
  const result = expectOk(amended);
  assert.equal(result.order.origQty, lots(ex, BTC, '0.002'));
  assert.equal(result.order.clientOrderId, 'first-v2');
  assert.equal(result.origClientOrderId, 'first');
  assert.deepEqual(executionTypes(amended.events), ['REPLACED/NEW']);
  assert.equal(reports(amended.events)[0]!.executionId, result.executionId);
  assert.equal(locked(ex, 'BTC'), atoms(ex, 'BTC', '0.005'));
  // The amended order is still first in the queue: a fill of 0.001 hits it, not the second.
  const fill = reports(counterpartyMarket(ex, ex.instrument(BTC)!.index, 'BUY', lots(ex, BTC, '0.001'), T0 + 2));
  assert.equal(fill[0]!.order.orderId, first.orderId);
  const view = getOrder(ex, BTC, undefined, 'first-v2');
  assert.ok(!('code' in view) && view.executedQty === lots(ex, BTC, '0.001'));

  const atFilled = expectError(amendOrder(ex, { symbol: BTC, orderId: first.orderId, newQty: '0.001' }, T0));
  assert.equal(atFilled.code, -1013);
  const increase = expectError(amendOrder(ex, { symbol: BTC, orderId: second.orderId, newQty: '0.004' }, T0));
  assert.deepEqual([increase.code, increase.msg], [-2038, 'Order amend (quantity increase) is not supported.']);
  assert.equal(expectError(amendOrder(ex, { symbol: BTC, orderId: second.orderId, newQty: '0.003' }, T0)).code, -2038);
  assert.equal(expectError(amendOrder(ex, { symbol: BTC, orderId: 999, newQty: '0.001' }, T0)).code, -2011);
  assert.equal(expectError(amendOrder(ex, { symbol: BTC, orderId: second.orderId, newQty: '0.0000001' }, T0)).msg, 'Filter failure: LOT_SIZE');
  assertHealthy(ex);
});

test('cancelReplace: success, STOP_ON_FAILURE (-2022), ALLOW_FAILURE and a failed new order (-2021)', () => {
  const ex = makeExchange();
  const order = expectOk(limit(ex, 'BUY', '50000', '0.001')).order;
  const newOrder = { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50001', quantity: '0.002' };
  const ok = cancelReplace(ex, { ...newOrder, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: order.orderId }, T0);
  const value = expectOk(ok);
  assert.equal(value.cancelResult, 'SUCCESS');
  assert.equal(value.newOrderResult, 'SUCCESS');
  assert.deepEqual(executionTypes(ok.events), ['CANCELED/CANCELED', 'NEW/NEW']);

  const stop = expectError(cancelReplace(ex, { ...newOrder, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 12345 }, T0));
  assert.equal(stop.code, -2022);
  assert.equal(stop.msg, 'Order cancel-replace failed.');
  const stopData = stop.data as { cancelResult: string; newOrderResult: string; cancelResponse: { code: number }; newOrderResponse: null };
  assert.deepEqual([stopData.cancelResult, stopData.newOrderResult, stopData.cancelResponse.code, stopData.newOrderResponse], ['FAILURE', 'NOT_ATTEMPTED', -2011, null]);

  const allow = cancelReplace(ex, { ...newOrder, price: '50002', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: 12345 }, T0);
  const allowError = expectError(allow);
  assert.equal(allowError.code, -2021);
  assert.equal((allowError as { http?: number }).http, 409);
  assert.equal((allowError.data as { newOrderResult: string }).newOrderResult, 'SUCCESS');

  counterparty(ex, BTC, 'SELL', '50010', '1');
  const current = (openOrders(ex, BTC) as { orderId: number }[])[0]!.orderId;
  const makerCross = cancelReplace(ex, { ...newOrder, type: 'LIMIT_MAKER', timeInForce: undefined, price: '50010', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: current }, T0);
  const partial = expectError(makerCross);
  assert.equal(partial.code, -2021);
  const data = partial.data as { cancelResult: string; newOrderResult: string; newOrderResponse: { msg: string } };
  assert.deepEqual([data.cancelResult, data.newOrderResult, data.newOrderResponse.msg], ['SUCCESS', 'FAILURE', 'Order would immediately match and take.']);

  const bothFail = expectError(cancelReplace(ex, { ...newOrder, type: 'LIMIT_MAKER', timeInForce: undefined, price: '50010', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: 777 }, T0));
  assert.equal(bothFail.code, -2022);

  const remaining = (openOrders(ex, BTC) as unknown[]).length;
  const filterFail = expectError(cancelReplace(ex, { ...newOrder, price: '50000.001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 3 }, T0));
  assert.equal(filterFail.msg, 'Filter failure: PRICE_FILTER');
  assert.equal((openOrders(ex, BTC) as unknown[]).length, remaining, 'filters are checked before the cancel');
  assertHealthy(ex);
});
