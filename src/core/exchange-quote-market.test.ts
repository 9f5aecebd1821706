// MARKET orders given as `quoteOrderQty` (issue 33; rest-api.md "New order"; API.md 11 "Amounts
// and locks"): a BUY takes the largest lot-grid quantity whose notional stays within the amount
// (the commission on top), a SELL the smallest whose proceeds reach it, at most the free base;
// `origQty` shows the quantity, `quoteOrderQty` the amount. A thin book: trades, then
// INSUFFICIENT_LIQUIDITY; an empty one, or too little for LOT_SIZE: -2010.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { atoms, counterparty, eventTrail, expectError, expectOk, lots, makeExchange, submitOrder } from './test-support.ts';
import { balance } from './queries.ts';
import { invariantViolations } from './invariants.ts';
import type { Exchange } from './exchange.ts';

const BTC = 'BTCUSDT';
const healthy = (ex: Exchange) => assert.deepEqual(invariantViolations(ex.state), []);

test('BUY: the largest quantity whose notional is within quoteOrderQty, walking the asks; the commission comes on top', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '50000', '0.01');
  counterparty(ex, BTC, 'SELL', '50010', '0.02');
  // 1000 USDT: 0.01 at 50000 (500), then 500 / 0.50010 per lot = 999 lots (499.5999) at 50010.
  const result = expectOk(submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' }));
  assert.equal(result.order.origQty, lots(ex, BTC, '0.01999'));
  assert.equal(result.order.quoteOrderQty, atoms(ex, 'USDT', '1000'));
  assert.equal(result.order.status, 'FILLED');
  assert.equal(result.order.cumQuote, atoms(ex, 'USDT', '999.5999'));
  // 999.5999 plus 4 bps taker commission on each fill: 0.2 + 0.19983996 (rounded up to 8 decimals).
  assert.equal(balance(ex.state, 'USDT').free, atoms(ex, 'USDT', '10000000') - atoms(ex, 'USDT', '999.5999') - atoms(ex, 'USDT', '0.39983996'));
  healthy(ex);
});

test('SELL: the smallest quantity whose proceeds reach quoteOrderQty, walking the bids', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'BUY', '50000', '0.01');
  counterparty(ex, BTC, 'BUY', '49990', '0.02');
  // 700 USDT: 0.01 at 50000 (500), then 200 / 0.4999 per lot = 400.08 -> 401 lots at 49990.
  const result = expectOk(submitOrder(ex, { side: 'SELL', type: 'MARKET', quoteOrderQty: '700' }));
  assert.equal(result.order.origQty, lots(ex, BTC, '0.01401'));
  assert.equal(result.order.cumQuote, atoms(ex, 'USDT', '700.4599'));
  healthy(ex);
});

test('SELL is capped by the free base', () => {
  const ex = makeExchange({ sim: { account: { balances: { BTC: '0.002', USDT: '0' } } } });
  counterparty(ex, BTC, 'BUY', '50000', '1');
  const result = expectOk(submitOrder(ex, { side: 'SELL', type: 'MARKET', quoteOrderQty: '1000' }));
  assert.equal(result.order.origQty, lots(ex, BTC, '0.002'));
  assert.equal(balance(ex.state, 'BTC').free, 0n);
  healthy(ex);
});

test('a thin book: the order trades what there is, then expires (INSUFFICIENT_LIQUIDITY)', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '50000', '0.004');
  const placed = submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' });
  const order = expectOk(placed).order;
  // 200 USDT buy 0.004; the rest is priced at the last level: 800 / 0.5 = 0.016 more.
  assert.equal(order.origQty, lots(ex, BTC, '0.02'));
  assert.deepEqual(eventTrail(placed.events), [`${order.orderId} NEW/NEW`, 'trade 5000000', `${order.orderId} TRADE/PARTIALLY_FILLED`, `${order.orderId} EXPIRED/EXPIRED INSUFFICIENT_LIQUIDITY`]);
  healthy(ex);
});

test('refusals: an empty book, an amount too small for LOT_SIZE, NOTIONAL, funds', () => {
  const ex = makeExchange({ sim: { account: { balances: { BTC: '0', USDT: '100' } } } });
  const empty = expectError(submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '10' }));
  assert.deepEqual([empty.code, empty.msg], [-2010, 'Order book liquidity is less than symbol minimum quantity.']);
  counterparty(ex, BTC, 'SELL', '900000', '1');
  // 6 USDT at 900000: 6 / 9 per lot = 0 lots.
  const small = expectError(submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '6' }));
  assert.deepEqual([small.code, small.msg], [-2010, 'Order book liquidity is less than `LOT_SIZE` filter minimum quantity.']);
  const notional = expectError(submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '4' }));
  assert.deepEqual([notional.code, notional.msg], [-1013, 'Filter failure: NOTIONAL']);
  const poor = submitOrder(ex, { side: 'BUY', type: 'MARKET', quoteOrderQty: '1000' });
  assert.equal(expectError(poor).msg, 'Account has insufficient balance for requested action.');
  assert.deepEqual(eventTrail(poor.events), ['1 REJECTED/REJECTED']);
  counterparty(ex, BTC, 'BUY', '50000', '1');
  const noBase = expectError(submitOrder(ex, { side: 'SELL', type: 'MARKET', quoteOrderQty: '10' }));
  assert.equal(noBase.msg, 'Account has insufficient balance for requested action.');
  healthy(ex);
});
