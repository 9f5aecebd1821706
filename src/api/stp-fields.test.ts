// Self-trade prevention as the reference reports it (binance-facts §8, issue 18 item 4): under
// EXPIRE_MAKER (the simulator's only mode, spec 1.4) each expired maker gets a preventedMatchId
// (0, 1, 2, ... per account), its executionReport carries it as `v`, and the taker's RESULT/FULL
// response lists `preventedMatches` (id, maker order id, price, makerPreventedQuantity).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeExchange, T0, expectOk, reports } from '../core/test-support.ts';
import { EventWire } from './event-wire.ts';
import { Wire } from './wire.ts';
import { placeOrder } from './orders.ts';

test('EXPIRE_MAKER: the taker lists preventedMatches, each maker report carries v, A, B, U', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '100000', BTC: '10' } } } });
  const wire = new Wire(ex);
  const events = new EventWire(ex, wire);
  const buy = (price: string, quantity: string) =>
    expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }, T0)).order.orderId;
  const first = buy('59000', '0.012');
  const second = buy('58990', '0.013');
  const outcome = placeOrder(ex, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '58990', quantity: '0.03' }, T0 + 1);
  const taker = expectOk(outcome);
  const full = JSON.parse(wire.placed(taker, 'FULL').text) as Record<string, unknown>;
  assert.equal(full.status, 'NEW');
  assert.deepEqual(full.fills, []);
  assert.deepEqual(full.preventedMatches, [
    { preventedMatchId: 0, makerOrderId: first, price: '59000.00000000', makerPreventedQuantity: '0.01200000' },
    { preventedMatchId: 1, makerOrderId: second, price: '58990.00000000', makerPreventedQuantity: '0.01300000' },
  ]);
  assert.deepEqual(JSON.parse(wire.placed(taker, 'RESULT').text).preventedMatches, full.preventedMatches);
  const prevented = reports(outcome.events).filter((r) => r.executionType === 'TRADE_PREVENTION');
  const texts = prevented.map((r) => JSON.parse(events.executionReport(r)) as Record<string, unknown>);
  assert.deepEqual(
    texts.map((t) => ({ i: t.i, X: t.X, v: t.v, A: t.A, B: t.B, U: t.U })),
    [
      { i: first, X: 'EXPIRED_IN_MATCH', v: 0, A: '0.01200000', B: '0.01200000', U: taker.order.orderId },
      { i: second, X: 'EXPIRED_IN_MATCH', v: 1, A: '0.01300000', B: '0.01300000', U: taker.order.orderId },
    ],
  );
  // `v` follows `V` as in the reference's field list; no other report carries it.
  assert.ok(events.executionReport(prevented[0]!).includes('"V":"EXPIRE_MAKER","v":0,'));
  for (const r of reports(outcome.events).filter((e) => e.executionType !== 'TRADE_PREVENTION')) assert.ok(!('v' in JSON.parse(events.executionReport(r))));
  // A taker that prevented nothing has no preventedMatches.
  const plain = expectOk(placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }, T0 + 2));
  assert.ok(!('preventedMatches' in JSON.parse(wire.placed(plain, 'FULL').text)));
});
