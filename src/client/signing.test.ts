// Request signing of the typed client against the reference's own worked example
// (binance-facts §1.3 / the Binance API docs' HMAC example: that secret, that query, that
// signature) and the payload rules: REST signs the query as sent (given order, percent-encoded
// values), the WS API signs every param but `signature`, sorted by name, unencoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hmacHex, plainParams, queryString, wsPayload } from './signing.ts';

const DOC_SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const DOC_QUERY = 'symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';

test('HMAC-SHA256 hex of the reference example', () => {
  assert.equal(hmacHex(DOC_SECRET, DOC_QUERY), 'c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71');
});

test('queryString keeps the given order, leaves out undefined and percent-encodes names and values', () => {
  const q = queryString({ symbol: 'LTCBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 1, price: '0.1', skipped: undefined, recvWindow: 5000, timestamp: 1499827319559 });
  assert.equal(q, DOC_QUERY);
  assert.equal(queryString({ newClientOrderId: 'a b/c&d=é', symbols: '["BTCUSDT"]', flag: true }), 'newClientOrderId=a%20b%2Fc%26d%3D%C3%A9&symbols=%5B%22BTCUSDT%22%5D&flag=true');
  assert.equal(queryString({}), '');
});

test('the REST signature is the HMAC of the query exactly as sent (encoded)', () => {
  const params = { symbol: 'BTCUSDT', newClientOrderId: 'my id', timestamp: 1 };
  const query = queryString(params);
  assert.equal(query, 'symbol=BTCUSDT&newClientOrderId=my%20id&timestamp=1');
  assert.notEqual(hmacHex(DOC_SECRET, query), hmacHex(DOC_SECRET, 'symbol=BTCUSDT&newClientOrderId=my id&timestamp=1'));
});

test('wsPayload sorts by name, leaves out signature and undefined, and does not encode', () => {
  const payload = wsPayload({ timestamp: 1499827319559, symbol: 'LTCBTC', apiKey: 'k', newClientOrderId: 'a b', signature: 'old', price: undefined, quantity: 1 });
  assert.equal(payload, 'apiKey=k&newClientOrderId=a b&quantity=1&symbol=LTCBTC&timestamp=1499827319559');
  // The reference WS API example signs this sorted payload.
  const doc = wsPayload({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01000000', price: '52000.00', newOrderRespType: 'ACK', recvWindow: 100, timestamp: 1655716096498, apiKey: 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A' });
  assert.equal(doc, 'apiKey=vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A&newOrderRespType=ACK&price=52000.00&quantity=0.01000000&recvWindow=100&side=SELL&symbol=BTCUSDT&timeInForce=GTC&timestamp=1655716096498&type=LIMIT');
  assert.equal(wsPayload({}), '');
});

test('numbers are sent in plain decimal notation, never in exponent form', () => {
  assert.equal(queryString({ quantity: 1e-7, price: 1e21, n: 5, t: 0.5 }), 'quantity=0.0000001&price=1000000000000000000000&n=5&t=0.5');
  assert.equal(wsPayload({ quantity: 1.5e-8 }), 'quantity=0.000000015');
  assert.deepEqual(plainParams({ quantity: 1e-7, symbol: 'BTCUSDT', limit: 5 }), { quantity: '0.0000001', symbol: 'BTCUSDT', limit: 5 });
});
