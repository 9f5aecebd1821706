// The typed WS API client against a tiny local WebSocket server: each reply is matched to its
// request by id (also when replies come out of order), a refusal becomes SpotSimError with the
// status, code, message and data, signed methods carry apiKey, timestamp and the HMAC of the
// sorted payload, a call with no reply times out naming the method, a close rejects what is
// pending, and user-data events reach the subscription's EventStream.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { WsApiClient } from './ws-api-methods.ts';
import { SpotSimError, SpotSimTimeoutError } from './errors.ts';
import { hmacHex, wsPayload } from './signing.ts';

const SECRET = 'test-secret';
type Request = { id: number; method: string; params?: Record<string, unknown> };

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
let held: { ws: WebSocket; req: Request } | null = null;

server.on('connection', (ws) => {
  ws.on('message', (data) => {
    const req = JSON.parse(String(data)) as Request;
    const reply = (body: object) => ws.send(JSON.stringify({ id: req.id, ...body }));
    switch (req.method) {
      case 'ping':
        return reply({ status: 200, result: {}, rateLimits: [] });
      case 'hold': // answered after the next request, out of order
        held = { ws, req };
        return;
      case 'release':
        reply({ status: 200, result: { released: true } });
        if (held !== null) held.ws.send(JSON.stringify({ id: held.req.id, status: 200, result: { held: true } }));
        return;
      case 'order.place':
        return reply({ status: 200, result: req.params ?? {} });
      case 'order.cancel':
        return reply({ status: 400, error: { code: -2011, msg: 'Unknown order sent.', data: { x: 1 } } });
      case 'userDataStream.subscribe.signature':
        reply({ status: 200, result: { subscriptionId: 3 } });
        ws.send(JSON.stringify({ subscriptionId: 9, event: { e: 'executionReport', i: 0 } })); // another subscription's
        ws.send(JSON.stringify({ subscriptionId: 3, event: { e: 'outboundAccountPosition', u: 1 } }));
        ws.send(JSON.stringify({ subscriptionId: 3, event: { e: 'executionReport', i: 42 } }));
        return;
      case 'drop':
        return ws.terminate();
      case 'silent':
        return;
      default:
        return ws.send('not json');
    }
  });
});

const clients: WsApiClient[] = [];
function open(timeoutMs?: number): WsApiClient {
  const c = new WsApiClient({ url, credentials: { apiKey: 'the-key', apiSecret: SECRET }, now: () => 1_700_000_000_000, timeoutMs });
  clients.push(c);
  return c;
}
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('a call resolves with its result; send() gives the whole frame', async () => {
  const c = open();
  assert.deepEqual(await c.call('ping'), {});
  const frame = await c.send('ping');
  assert.equal(frame.status, 200);
  assert.deepEqual(frame.rateLimits, []);
});

test('replies are matched by id, not by order', async () => {
  const c = open();
  const first = c.call('hold');
  const second = c.call('release');
  assert.deepEqual(await second, { released: true });
  assert.deepEqual(await first, { held: true });
});

test('a refusal becomes SpotSimError with status, code, message and data', async () => {
  const c = open();
  const e = await c.cancelOrder({ symbol: 'BTCUSDT', orderId: 1 }).then(
    () => assert.fail('expected a refusal'),
    (error: unknown) => error,
  );
  assert.ok(e instanceof SpotSimError);
  assert.deepEqual([e.status, e.code, e.msg, e.data], [400, -2011, 'Unknown order sent.', { x: 1 }]);
});

test('a signed method carries apiKey, timestamp and the HMAC of the sorted, unencoded payload', async () => {
  const c = open();
  const sent = (await c.call('order.place', { symbol: 'BTCUSDT', side: 'BUY', newClientOrderId: 'a b' })) as Record<string, string | number>;
  assert.equal(sent.apiKey, 'the-key');
  assert.equal(sent.timestamp, 1_700_000_000_000);
  const { signature, ...rest } = sent;
  assert.equal(wsPayload(rest), 'apiKey=the-key&newClientOrderId=a b&side=BUY&symbol=BTCUSDT&timestamp=1700000000000');
  assert.equal(signature, hmacHex(SECRET, wsPayload(rest)));
  // signed: false sends the params as given.
  assert.deepEqual(await c.call('order.place', { symbol: 'BTCUSDT' }, { signed: false }), { symbol: 'BTCUSDT' });
});

test('a call with no reply fails after the timeout, naming the method; the connection stays usable', async () => {
  const c = open(100);
  await assert.rejects(c.call('silent'), (e: Error) => e instanceof SpotSimTimeoutError && /WS API silent: no reply within 100 ms/.test(e.message));
  assert.deepEqual(await c.call('ping'), {});
});

test('a close rejects the pending calls and ends the frame stream', async () => {
  const c = open();
  await c.ready();
  const pending = c.call('silent');
  await assert.rejects(c.call('drop'), /WS API connection closed \(1006/);
  await assert.rejects(pending, /WS API connection closed/);
  assert.equal(c.frames.closed, true);
});

test("user-data events of the subscription reach its EventStream; frames that are not replies go to frames", async () => {
  const c = open();
  const user = await c.subscribeUserData();
  assert.deepEqual(await user.next('executionReport'), { e: 'executionReport', i: 42 });
  assert.deepEqual(user.all(), [{ e: 'outboundAccountPosition', u: 1 }, { e: 'executionReport', i: 42 }]);
  // One copy of each event: the subscription's events are not also kept among the frames.
  assert.equal(c.frames.all().length, 0);
  await c.sendRaw(JSON.stringify({ id: 99, method: 'unknown' }));
  assert.equal(await c.frames.next((f) => f === 'not json', { timeout: 1000 }), 'not json');
});

test('every WS API method of the endpoint table has a typed helper', async () => {
  const { WS_METHODS } = await import('../api/endpoints.ts');
  const { WS_HELPERS } = await import('./ws-api-methods.ts');
  const helped = new Set<string>(Object.values(WS_HELPERS));
  assert.deepEqual([...WS_METHODS.keys()].filter((m) => !helped.has(m)), []);
  for (const name of Object.keys(WS_HELPERS)) assert.equal(typeof (WsApiClient.prototype as unknown as Record<string, unknown>)[name], 'function', name);
});
