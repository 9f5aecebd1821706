// The typed client against a real simulator (API.md 5.1): a call on a WS API connection that a
// drop fault, a reset or client.close() closed rejects at once with StreamClosedError (never a
// wait for its timeout); wsApi() then opens a fresh connection (also after a failed first
// connect); a request is never sent again behind the caller's back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { startSimulator, SpotSimClient, StreamClosedError, SpotSimNetworkError, type Simulator } from '../index.ts';

/** Long enough that a stall shows as a SpotSimTimeoutError instead of a StreamClosedError. */
const TIMEOUT_MS = 4_000;
let sim: Simulator;
let client: SpotSimClient;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
  client = new SpotSimClient(sim, { timeoutMs: TIMEOUT_MS });
});
after(async () => {
  await client.close();
  await sim.stop();
});

async function closedError(call: Promise<unknown>): Promise<StreamClosedError> {
  const error = await call.then(
    () => assert.fail('expected a StreamClosedError'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof StreamClosedError, `not a StreamClosedError: ${String(error)}`);
  return error;
}

const requests = () => sim.stats().wsApiRequests;

test('dropWsApiConnections: a call on the dead connection rejects at once; wsApi() opens a new one', async () => {
  sim.faults.clear();
  const api = await client.wsApi();
  await api.call('ping');
  const dropped = new Promise<void>((resolve) => api.frames.next(undefined, { timeout: TIMEOUT_MS }).catch(() => resolve()));
  assert.equal(sim.faults.dropWsApiConnections(false), 1);
  await dropped;
  const before = requests();
  await closedError(api.call('ping'));
  assert.equal(requests(), before, 'nothing was sent on the dead connection');
  const fresh = await client.wsApi();
  assert.notEqual(fresh, api);
  assert.deepEqual(await fresh.call('ping'), {});
  assert.equal(await client.wsApi(), fresh, 'an open connection is reused');
});

test('a pending call rejects with StreamClosedError when the connection drops, and is not resent', async () => {
  sim.faults.clear();
  const api = await client.wsApi();
  sim.faults.use({ on: 'time', transport: 'ws-api', action: { close: true } });
  const before = requests();
  const error = await closedError(api.call('time'));
  assert.equal(error.closeCode, 1006);
  const fresh = await client.wsApi();
  await fresh.call('ping');
  assert.equal(requests(), before + 2, 'the time request went once, then the ping');
});

test('dropWsApiConnections(true) ends the user-data stream with StreamClosedError', async () => {
  sim.faults.clear();
  const user = await client.userData();
  sim.faults.dropWsApiConnections(true);
  await closedError(user.next('executionReport', { timeout: TIMEOUT_MS }));
  assert.equal(user.closed, true);
});

test('dropMarketDataConnections ends a market stream with StreamClosedError; streams() opens anew', async () => {
  sim.faults.clear();
  const md = await client.streams('btcusdt@trade');
  assert.equal(sim.faults.dropMarketDataConnections(), 1);
  await closedError(md.next(undefined, { timeout: TIMEOUT_MS }));
  const again = await client.streams('btcusdt@trade');
  sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.01' });
  sim.market.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' });
  assert.equal((await again.next('trade', { timeout: TIMEOUT_MS })).data.p, '60000.00000000');
});

test('sim.reset() closes the connection: calls reject at once, wsApi() reconnects', async () => {
  const api = await client.wsApi();
  await api.call('ping');
  const closed = api.closedPromise();
  sim.reset();
  await closed;
  await closedError(api.call('ping'));
  assert.deepEqual(await (await client.wsApi()).call('ping'), {});
});

test('client.close(): calls on its connections reject at once; a closed client opens nothing', async () => {
  const own = new SpotSimClient(sim, { timeoutMs: TIMEOUT_MS });
  const api = await own.wsApi();
  const user = await own.userData();
  await own.close();
  await closedError(api.call('ping'));
  await closedError(user.next(undefined, { timeout: TIMEOUT_MS }));
  await closedError(own.wsApi());
  await closedError(own.streams('btcusdt@trade'));
});

test('a failed first connect rejects with SpotSimNetworkError; the next wsApi() tries again', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const urls = { http: `http://127.0.0.1:${port}`, https: `https://127.0.0.1:${port}`, ws: `ws://127.0.0.1:${port}`, wss: `wss://127.0.0.1:${port}` };
  const early = new SpotSimClient({ urls, credentials: sim.credentials }, { timeoutMs: TIMEOUT_MS });
  const error = await early.wsApi().then(
    () => assert.fail('expected a network error'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SpotSimNetworkError, String(error));
  assert.equal(error.errno, 'ECONNREFUSED');
  const late = await startSimulator({ config: { sim: { port, tls_port: 0, generator: { enabled: false } } } });
  try {
    assert.deepEqual(await (await early.wsApi()).call('ping'), {});
  } finally {
    await early.close();
    await late.stop();
  }
});

test("userData() returns a stream whose close() closes its own connection (the shared one stays)", async () => {
  const shared = await client.wsApi();
  const user = await client.userData();
  const before = sim.stats().connections;
  await user.close();
  assert.equal(user.closed, true);
  await closedError(user.next(undefined, { timeout: TIMEOUT_MS }));
  // The server saw the connection go (its count falls once the close handshake is done).
  for (let i = 0; i < 2000 && sim.stats().connections >= before; i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok(sim.stats().connections < before, 'the user-data connection closed');
  assert.deepEqual(await shared.call('ping'), {});
});

test('the timed drop_ws_api_after_s fault: the call in flight rejects, wsApi() reconnects', async () => {
  const timed = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false }, faults: { drop_ws_api_after_s: 1 } } } });
  const own = new SpotSimClient(timed, { timeoutMs: TIMEOUT_MS, now: () => timed.now() });
  try {
    const api = await own.wsApi();
    // The call is made, then (before it goes out) the timed drop fires.
    const pending = api.call('time');
    timed.advanceTime(1_000);
    await closedError(pending);
    assert.deepEqual(await (await own.wsApi()).call('ping'), {});
  } finally {
    await own.close();
    await timed.stop();
  }
});
