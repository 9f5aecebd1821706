// The typed client's HTTP transport against a tiny local server that echoes what it received:
// a body is framed for every method (a DELETE or PUT with a form body, as client libraries send
// them, must reach the server whole), given headers are sent as given, and a server that does
// not answer ends in a timeout naming the request.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpTransport } from './http.ts';

interface Echo {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const server = createServer((req, res) => {
  if (req.url === '/silent') return; // never answers
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const echo: Echo = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    res.writeHead(201, { 'Content-Type': 'application/json', 'X-Echo': 'yes' }).end(JSON.stringify(echo));
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const transport = new HttpTransport();
after(() => {
  transport.close();
  server.closeAllConnections();
  server.close();
});

for (const method of ['POST', 'PUT', 'DELETE'] as const) {
  test(`a ${method} with a form body reaches the server whole, with its Content-Length`, async () => {
    const body = 'symbol=BTCUSDT&origClientOrderId=a%20b';
    const res = await transport.send({ method, url: `${base}/api/v3/order?x=1`, headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
    assert.equal(res.status, 201);
    const echo = JSON.parse(res.text) as Echo;
    assert.equal(echo.method, method);
    assert.equal(echo.url, '/api/v3/order?x=1');
    assert.equal(echo.body, body);
    assert.equal(echo.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(echo.headers['transfer-encoding'], undefined);
  });
}

test('headers are sent as given (a Content-Length of 0 without a body included); response headers come back flat', async () => {
  const res = await transport.send({ method: 'POST', url: `${base}/x`, headers: { 'X-MBX-APIKEY': 'key', 'Content-Length': '0' } });
  const echo = JSON.parse(res.text) as Echo;
  assert.equal(echo.headers['x-mbx-apikey'], 'key');
  assert.equal(echo.headers['content-length'], '0');
  assert.equal(echo.body, '');
  assert.equal(res.headers['x-echo'], 'yes');
  assert.equal(res.headers['content-type'], 'application/json');
});

test('a request the server never answers fails after its timeout, naming the request', async () => {
  await assert.rejects(transport.send({ method: 'GET', url: `${base}/silent`, timeoutMs: 100 }), /timeout after 100 ms: GET \/silent/);
});

test('a refused connection rejects', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await assert.rejects(transport.send({ method: 'GET', url: `http://127.0.0.1:${port}/` }), /ECONNREFUSED/);
});
