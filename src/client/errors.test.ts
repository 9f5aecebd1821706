// The client's one error model against a real simulator (API.md 5.1): a reply that does not come
// in time is a SpotSimTimeoutError whose outcome is unknown and which carries the request id and
// the newClientOrderId sent (generated when the caller gave none), so the caller can look the
// order up instead of placing it twice; refusals are SpotSimError with retryAfterMs on 429 on
// both transports; a connection that fails is a SpotSimNetworkError; each class has its name.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../index.ts';
import { startSimulator, SpotSimClient, SpotSimError, SpotSimTimeoutError, SpotSimNetworkError, type Simulator } from '../index.ts';

let sim: Simulator;
let client: SpotSimClient;
const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' } as const;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
  client = new SpotSimClient(sim, { timeoutMs: 100 });
});
after(async () => {
  await client.close();
  await sim.stop();
});

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
}

test('WS API: no reply in time -> SpotSimTimeoutError with the request id and the generated newClientOrderId; the order can be looked up', async () => {
  sim.reset();
  sim.faults.setAckDelayMs(300);
  const ws = await client.wsApi();
  const error = await failure(ws.placeOrder(order));
  assert.ok(error instanceof SpotSimTimeoutError, String(error));
  assert.equal(error.name, 'SpotSimTimeoutError');
  assert.equal(error.outcome, 'unknown');
  assert.equal(typeof error.requestId, 'number');
  assert.match(error.newClientOrderId ?? '', /^[A-Za-z0-9_-]{1,36}$/);
  sim.faults.clear();
  // The WS API answers in request order, so the lookup goes over REST while the late reply is due.
  const found = await client.rest.getOrder({ symbol: 'BTCUSDT', origClientOrderId: error.newClientOrderId! });
  assert.equal(found.status, 'NEW');
  assert.equal(sim.openClientOrderIds().length, 1, 'placed once');
});

test("REST: the caller's newClientOrderId is the one reported on a timeout", async () => {
  sim.reset();
  sim.faults.use({ on: 'order.place', transport: 'rest', action: { delayMs: 300 } });
  const error = await failure(client.rest.newOrder({ ...order, newClientOrderId: 'mine-1' }));
  assert.ok(error instanceof SpotSimTimeoutError, String(error));
  assert.equal(error.newClientOrderId, 'mine-1');
  assert.equal(error.requestId, 'POST /api/v3/order');
  sim.faults.clear();
  assert.deepEqual(sim.openClientOrderIds(), ['mine-1']);
});

test('429 on either transport: SpotSimError with a number code and retryAfterMs', async () => {
  sim.reset();
  sim.faults.rateLimitNextRequests(2);
  const rest = await failure(client.rest.ping());
  const ws = await failure((await client.wsApi()).call('ping'));
  for (const e of [rest, ws]) {
    assert.ok(e instanceof SpotSimError, String(e));
    assert.equal(e.status, 429);
    assert.equal(e.code, -1003);
    assert.equal(typeof e.retryAfterMs, 'number');
  }
});

test('a refused connection is a SpotSimNetworkError on REST (errno kept, code not a string)', async () => {
  const dead = new SpotSimClient({ urls: { http: 'http://127.0.0.1:1', https: 'https://127.0.0.1:1', ws: 'ws://127.0.0.1:1', wss: 'wss://127.0.0.1:1' }, credentials: sim.credentials });
  const error = await failure(dead.rest.ping());
  assert.ok(error instanceof SpotSimNetworkError, String(error));
  assert.equal(error.name, 'SpotSimNetworkError');
  assert.equal(error.errno, 'ECONNREFUSED');
  await dead.close();
});

test('every error class is exported by name', () => {
  for (const name of ['SpotSimError', 'SpotSimTimeoutError', 'SpotSimNetworkError', 'StreamClosedError', 'FaultRuleError', 'FaultRangeError', 'ConfigError']) {
    assert.equal(typeof (api as Record<string, unknown>)[name], 'function', name);
  }
});
