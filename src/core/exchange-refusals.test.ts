// Placements the exchange refuses, with the reference exchange's codes and messages (spec 7;
// binance-facts §2.2-2.4): parameter and enum errors, the symbol filters (PRICE_FILTER,
// LOT_SIZE, NOTIONAL, MAX_NUM_ORDERS), a duplicate client order id and an insufficient
// balance. A refusal changes nothing: no balance, no book update, no order id consumed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterparty, expectError, expectOk, makeExchange, T0 } from './test-support.ts';
import { cancelOrder, openOrders, placeOrder } from '../api/orders.ts';
import { BTC, place, limit, assertHealthy } from '../api/exchange-test-orders.ts';
import { balances } from './queries.ts';

test('parameter and enum errors carry the reference codes and change nothing', () => {
  const ex = makeExchange();
  const cases: [Record<string, string | undefined>, number, string][] = [
    [{ symbol: 'NOPE', side: 'BUY', type: 'LIMIT' }, -1121, 'Invalid symbol.'],
    [{ side: 'BUY', type: 'STOP_LOSS', quantity: '1', stopPrice: '1' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'TAKE_PROFIT_LIMIT', quantity: '1' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '100' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1', quantity: '1', icebergQty: '0.1' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1', quantity: '1', trailingDelta: '10' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1', quantity: '1', pegPriceType: 'PRIMARY_PEG' }, -1014, 'Unsupported order combination.'],
    [{ side: 'BUY', type: 'BOGUS' }, -1116, 'Invalid orderType.'],
    [{ side: 'HOLD', type: 'LIMIT' }, -1117, 'Invalid side.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTD', price: '1', quantity: '1' }, -1115, 'Invalid timeInForce.'],
    [{ side: 'BUY', type: 'LIMIT', price: '1', quantity: '1' }, -1102, "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '1' }, -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '1' }, -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed."],
    [{ side: 'BUY', type: 'MARKET', quantity: '1', price: '1' }, -1106, "Parameter 'price' sent when not required."],
    [{ side: 'BUY', type: 'MARKET', quantity: '1', timeInForce: 'GTC' }, -1106, "Parameter 'timeInForce' sent when not required."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: 'abc', quantity: '1' }, -1100, "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100', quantity: '1', selfTradePreventionMode: 'EXPIRE_TAKER' }, -1013, 'This symbol does not allow the specified self-trade prevention mode.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100', quantity: '1', newClientOrderId: 'has space' }, -1100, "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'."],
  ];
  for (const [fields, code, msg] of cases) {
    const outcome = placeOrder(ex, { symbol: BTC, ...fields }, T0);
    const error = expectError(outcome);
    assert.equal(error.code, code, JSON.stringify(fields));
    assert.equal(error.msg, msg, JSON.stringify(fields));
    assert.deepEqual(outcome.events, []);
  }
  assert.equal(ex.instrument(BTC)!.updateId, 0);
  assert.equal(expectOk(limit(ex, 'BUY', '1', '10')).order.orderId, 1, 'refused requests consume no order id');
});

test('filters: PRICE_FILTER, LOT_SIZE and NOTIONAL (min, and max when configured) answer -1013', () => {
  const ex = makeExchange({ sim: { symbols: { BTCUSDT: { max_notional: '100000' } } } });
  const filter = (price: string, quantity: string) => {
    const outcome = limit(ex, 'BUY', price, quantity);
    return outcome.ok ? 'ok' : `${outcome.error.code} ${outcome.error.msg}`;
  };
  assert.equal(filter('60000.001', '0.001'), '-1013 Filter failure: PRICE_FILTER');
  assert.equal(filter('0', '0.001'), '-1013 Filter failure: PRICE_FILTER');
  assert.equal(filter('60000', '0.000001'), '-1013 Filter failure: LOT_SIZE');
  assert.equal(filter('60000', '0.000015'), '-1013 Filter failure: LOT_SIZE');
  assert.equal(filter('0.01', '9000.00001'), '-1013 Filter failure: LOT_SIZE');
  assert.equal(filter('60000', '0'), '-1013 Filter failure: LOT_SIZE');
  assert.equal(filter('100', '0.04'), '-1013 Filter failure: NOTIONAL'); // 4 < 5
  assert.equal(filter('100', '0.05'), 'ok'); // exactly 5
  assert.equal(filter('60000', '1.66667'), '-1013 Filter failure: NOTIONAL'); // 100000.2 > max
  assert.equal(filter('60000', '1.66666'), 'ok');
  counterparty(ex, BTC, 'SELL', '60000', '5');
  const market = place(ex, { side: 'BUY', type: 'MARKET', quantity: '2' });
  assert.equal(expectError(market).msg, 'Filter failure: NOTIONAL');
  assertHealthy(ex);
});

test('MAX_NUM_ORDERS: the 201st open order of a symbol is refused; other symbols are separate', () => {
  const ex = makeExchange();
  for (let i = 0; i < 200; i++) expectOk(limit(ex, 'BUY', String(1000 + i), '0.01'));
  const error = expectError(limit(ex, 'BUY', '999', '0.01'));
  assert.equal(error.code, -2010);
  assert.equal(error.msg, 'Filter failure: MAX_NUM_ORDERS');
  expectOk(placeOrder(ex, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '100', quantity: '1' }, T0));
  assertHealthy(ex);
});

test('a client order id already open is a duplicate; once the order ends the id is free again', () => {
  const ex = makeExchange();
  const first = expectOk(limit(ex, 'BUY', '50000', '0.001', { newClientOrderId: 'my-id' }));
  assert.equal(first.order.clientOrderId, 'my-id');
  const dup = expectError(limit(ex, 'BUY', '50001', '0.001', { newClientOrderId: 'my-id' }));
  assert.equal(dup.code, -2010);
  assert.equal(dup.msg, 'Duplicate order sent.');
  expectOk(cancelOrder(ex, { symbol: BTC, origClientOrderId: 'my-id' }, T0));
  expectOk(limit(ex, 'BUY', '50001', '0.001', { newClientOrderId: 'my-id' }));
});

test('insufficient balance refuses LIMIT orders with -2010 and changes no balance', () => {
  const ex = makeExchange({ sim: { account: { balances: { BTC: 1, USDT: 100 } } } });
  const before = balances(ex.state);
  const buy = limit(ex, 'BUY', '60000', '0.01'); // 600 > 100
  assert.equal(expectError(buy).msg, 'Account has insufficient balance for requested action.');
  const sell = limit(ex, 'SELL', '60000', '1.5');
  assert.equal(expectError(sell).code, -2010);
  assert.deepEqual(balances(ex.state), before);
  assert.deepEqual(openOrders(ex, ), []);
  assertHealthy(ex);
});
