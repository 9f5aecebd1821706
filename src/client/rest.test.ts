// The typed REST client against a tiny local server: a refusal becomes a SpotSimError with the
// HTTP status, the reference code and message, `data` and the headers; a body that is not the
// reference's JSON still gives an error naming the status; signed requests carry the API key
// and an HMAC over the query as sent; `request()` sends raw input and never throws on a status.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RestClient } from './rest.ts';
import { SpotSimError } from './errors.ts';
import { hmacHex } from './signing.ts';

const SECRET = 'test-secret';
const seen: { method: string; url: string; apiKey: string | undefined }[] = [];

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ method: req.method ?? '', url: req.url ?? '', apiKey: req.headers['x-mbx-apikey'] as string | undefined });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
  switch (url.pathname) {
    case '/api/v3/ping':
      return json(200, {}, { 'X-MBX-USED-WEIGHT-1M': '1' });
    case '/api/v3/depth':
      return json(400, { code: -1121, msg: 'Invalid symbol.' }, { 'X-MBX-USED-WEIGHT-1M': '6' });
    case '/api/v3/time':
      return json(429, { code: -1003, msg: 'Too much request weight used.', data: { retryAfter: 1700000060000 } }, { 'Retry-After': '17' });
    case '/api/v3/account':
      return res.writeHead(502, { 'Content-Type': 'text/plain' }).end('bad gateway');
    case '/api/v3/openOrders':
      return res.writeHead(503).end();
    case '/api/v3/order': {
      // Echo what was signed, so the test checks the signature against the query as sent.
      const query = (req.url ?? '').split('?')[1] ?? '';
      const [payload, signature] = query.split('&signature=');
      return json(200, { payload, signature });
    }
    default:
      return json(404, { code: -1000, msg: `Not found: ${url.pathname}` });
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const client = new RestClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, credentials: { apiKey: 'the-key', apiSecret: SECRET }, now: () => 1_700_000_000_000 });
after(() => {
  client.close();
  server.closeAllConnections();
  server.close();
});

async function refusal(call: Promise<unknown>): Promise<SpotSimError> {
  const error = await call.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SpotSimError, `not a SpotSimError: ${String(error)}`);
  return error;
}

test('a 200 resolves with the body and keeps the headers; public calls send no API key', async () => {
  assert.deepEqual(await client.ping(), {});
  assert.equal(client.lastHeaders['x-mbx-used-weight-1m'], '1');
  assert.equal(seen.at(-1)?.apiKey, undefined);
});

test('a reference refusal becomes SpotSimError(status, code, msg, headers)', async () => {
  const e = await refusal(client.depth({ symbol: 'NOPE' }));
  assert.equal(e.name, 'SpotSimError');
  assert.deepEqual([e.status, e.code, e.msg], [400, -1121, 'Invalid symbol.']);
  assert.equal(e.message, '400 -1121: Invalid symbol.');
  assert.equal(e.headers['x-mbx-used-weight-1m'], '6');
  assert.equal(e.data, undefined);
  assert.equal(seen.at(-1)?.url, '/api/v3/depth?symbol=NOPE');
});

test('the data of a refusal and its Retry-After header are kept', async () => {
  const e = await refusal(client.time());
  assert.deepEqual([e.status, e.code], [429, -1003]);
  assert.deepEqual(e.data, { retryAfter: 1700000060000 });
  assert.equal(e.headers['retry-after'], '17');
});

test('a body that is not JSON, or none, still gives an error with the status (code 0)', async () => {
  const text = await refusal(client.account());
  assert.deepEqual([text.status, text.code, text.msg], [502, 0, 'bad gateway']);
  const empty = await refusal(client.openOrders());
  assert.deepEqual([empty.status, empty.code], [503, 0]);
});

test('a signed call sends the API key and an HMAC of the query as sent, timestamp last before the signature', async () => {
  const echoed = (await client.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', newClientOrderId: 'a b' })) as unknown as { payload: string; signature: string };
  assert.equal(echoed.payload, 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&newClientOrderId=a%20b&timestamp=1700000000000');
  assert.equal(echoed.signature, hmacHex(SECRET, echoed.payload));
  assert.equal(seen.at(-1)?.method, 'POST');
  assert.equal(seen.at(-1)?.apiKey, 'the-key');
});

test('request() sends raw input and resolves with any status, the body parsed when it is JSON', async () => {
  const r = await client.request({ method: 'GET', path: '/api/v3/depth?symbol=%%' });
  assert.deepEqual([r.status, r.body], [400, { code: -1121, msg: 'Invalid symbol.' }]);
  assert.equal(seen.at(-1)?.url, '/api/v3/depth?symbol=%%');
  const text = await client.request({ method: 'GET', path: '/api/v3/account' });
  assert.deepEqual([text.status, text.body], [502, 'bad gateway']);
  const empty = await client.request({ method: 'GET', path: '/api/v3/openOrders' });
  assert.deepEqual([empty.status, empty.body], [503, null]);
});
