// connectSimulator (API.md 3.2) driving a standalone server in another process (`src/main.ts`,
// what `npx spot-sim` runs) through every control-API capability, with the in-process handle's
// names: urls, ports, config, credentials; every fault call; fault rules (use, hits, remove,
// rules, rule, endpoints, removeRule, removeRules); the scripted market; stats, mark, open
// client order ids, open orders and balances, reset, the manual clock; refusals rebuilt as the in-process classes; the
// client it hands out (signed on the server's clock); and clear TypeErrors for wrong arguments.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connectSimulator, FaultError, FaultRangeError, FaultRuleError, SpotSimClient, SpotSimError, type RemoteSimulator } from './index.ts';
import { FAULT_METHODS } from './faults/methods.ts';

const ROOT = resolve(import.meta.dirname, '..');
const START = 1_700_000_000_000;
let server: ChildProcess;
let url: string;
let sim: RemoteSimulator;

before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spot-sim-remote-'));
  const config = join(dir, 'sim.toml');
  writeFileSync(config, `[sim]\nclock = "manual"\nstart_time_ms = ${START}\nstats_interval_ms = 0\n[sim.generator]\nenabled = false\n`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_SIM_') && !k.startsWith('NODE_TEST')));
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--config', config, '--port', '0', '--tls-port', '0'], { cwd: ROOT, env });
  url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    server.stdout!.on('data', (d) => {
      out += d;
      const m = /http: +(http:\/\/\S+)/.exec(out);
      if (m && out.includes('net backend:')) resolveUrl(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
  sim = await connectSimulator(url);
});
after(async () => {
  await sim?.close();
  server.kill('SIGTERM');
});

const buy = (price: string) => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price }) as const;

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => e,
  );
}

test('the handle knows where the server is, its configuration and credentials', async () => {
  assert.equal(sim.urls.http, url);
  assert.equal(new URL(url).port, String(sim.ports.http));
  assert.equal(sim.config.sim.clock, 'manual');
  assert.equal(typeof sim.credentials.apiKey, 'string');
  assert.equal(await sim.now(), START);
});

test('the client signs on the server clock, also after advanceTime; reset rewinds it', async () => {
  await sim.reset();
  const placed = await sim.client.rest.newOrder(buy('50000'));
  assert.equal(placed.status, 'NEW');
  await sim.advanceTime(120_000);
  assert.equal(await sim.now(), START + 120_000);
  assert.equal((await sim.client.rest.time()).serverTime, START + 120_000);
  assert.equal((await (await sim.client.wsApi()).account()).accountType, 'SPOT');
  assert.deepEqual(await sim.openClientOrderIds(), [placed.clientOrderId]);
  await sim.reset();
  assert.equal(await sim.now(), START);
  assert.deepEqual(await sim.openClientOrderIds(), []);
});

test('every fault call answers as in-process (void calls resolve to undefined)', async () => {
  await sim.reset();
  const order = await sim.client.rest.newOrder(buy('50000'));
  const calls: Record<keyof typeof FAULT_METHODS, () => Promise<unknown>> = {
    dropMarketDataConnections: () => sim.faults.dropMarketDataConnections(),
    dropWsApiConnections: () => sim.faults.dropWsApiConnections(true),
    skipNextDepthUpdate: () => sim.faults.skipNextDepthUpdate(),
    failNextTimestamp: () => sim.faults.failNextTimestamp(),
    setRestUnresponsive: () => sim.faults.setRestUnresponsive(false),
    setAckDelayMs: () => sim.faults.setAckDelayMs(0),
    rejectNextOrders: () => sim.faults.rejectNextOrders(1),
    rateLimitNextRequests: () => sim.faults.rateLimitNextRequests(0),
    setClockOffsetMs: () => sim.faults.setClockOffsetMs(0),
    expireListenKeys: () => sim.faults.expireListenKeys(),
    swallowNextWsApiResponses: () => sim.faults.swallowNextWsApiResponses(0),
    duplicateNextUserEvents: () => sim.faults.duplicateNextUserEvents(0),
    setUserStreamMuted: () => sim.faults.setUserStreamMuted(false),
    fillOpenOrder: () => sim.faults.fillOpenOrder(order.orderId, '0.0005'),
    banNextRequests: () => sim.faults.banNextRequests(0),
    failNextAuth: () => sim.faults.failNextAuth(0),
    sendMalformedFrames: () => sim.faults.sendMalformedFrames(false, false),
    clear: () => sim.faults.clear(),
  };
  const results: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(calls)) results[name] = await call();
  assert.equal(results.fillOpenOrder, '0.00050000');
  assert.equal(results.dropMarketDataConnections, 0);
  assert.equal(results.expireListenKeys, 0);
  assert.equal(results.rejectNextOrders, undefined);
  // rejectNextOrders(1) was armed before clear(): cleared.
  assert.equal((await sim.client.rest.newOrder(buy('50001'))).status, 'NEW');
  await sim.faults.rejectNextOrders(1);
  assert.equal(((await failure(sim.client.rest.newOrder(buy('50002')))) as SpotSimError).code, -2010);
});

test('refusals are the in-process classes', async () => {
  assert.ok((await failure(sim.faults.rejectNextOrders(-1))) instanceof FaultRangeError);
  assert.ok((await failure(sim.faults.fillOpenOrder(424242, '0.001'))) instanceof FaultError);
  const rule = await failure(sim.faults.use({ on: 'nope', action: { error: -2011 } }));
  assert.ok(rule instanceof FaultRuleError && rule instanceof TypeError);
  assert.match(rule.message, /unknown endpoint 'nope'/);
  const market = await failure(sim.market.place({ ...buy('1'), symbol: 'NOPEUSDT', side: 'SELL' }));
  assert.ok(market instanceof SpotSimError);
  assert.equal(market.code, -1121);
});

test('advanceTime refusals stay RangeErrors over the wire, with the in-process message, and the clock stays', async () => {
  await sim.reset();
  for (const [ms, message] of [
    [0.25, 'advanceTime: ms must be a non-negative integer number of milliseconds (got 0.25)'],
    [-1, 'advanceTime: ms must be a non-negative integer number of milliseconds (got -1)'],
    [2_592_000_001, 'advanceTime: ms must be at most sim.max_advance_ms = 2592000000 (got 2592000001); advance in several calls or raise sim.max_advance_ms'],
  ] as const) {
    const refusal = await failure(sim.advanceTime(ms));
    assert.ok(refusal instanceof RangeError, `${ms}: ${String(refusal)}`);
    assert.equal((refusal as Error).constructor, RangeError, `${ms}: a RangeError, not a subclass`);
    assert.equal((refusal as Error).message, message);
  }
  assert.equal(await sim.now(), START);
});

test('fault rules: use, hits, rules, rule, endpoints, remove, removeRule, removeRules', async () => {
  await sim.faults.clear();
  const rule = await sim.faults.use({ on: 'ticker.book', transport: 'rest', times: 0, action: { error: -1003 } });
  assert.equal(await rule.hits, 0);
  assert.equal(((await failure(sim.client.rest.bookTicker({ symbol: 'BTCUSDT' }))) as SpotSimError).status, 429);
  assert.equal(await rule.hits, 1);
  assert.deepEqual(await sim.faults.rule(rule.id), { id: rule.id, on: 'ticker.book', transport: 'rest', times: 0, hits: 1, action: { error: -1003 } });
  assert.deepEqual((await sim.faults.rules()).map((r) => r.id), [rule.id]);
  assert.ok((await sim.faults.endpoints()).some((e) => e.id === 'ticker.book' && e.rest === 'GET /api/v3/ticker/bookTicker'));
  await rule.remove();
  assert.equal(await sim.faults.rule(rule.id), undefined);
  assert.equal(await sim.faults.removeRule(rule.id), false);
  const other = await sim.faults.use({ on: 'ping', action: { delayMs: 1 } });
  assert.equal(await sim.faults.removeRule(other.id), true);
  await sim.faults.use({ on: 'ping', action: { delayMs: 1 } });
  await sim.faults.rejectNextOrders(2);
  assert.equal(await sim.faults.removeRules(), 2);
  assert.deepEqual(await sim.faults.rules(), []);
});

test('the scripted market, stats and mark', async () => {
  await sim.reset();
  const id = await sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  assert.equal(typeof id, 'number');
  assert.equal((await sim.stats()).touch.BTCUSDT?.ask, '60010.00000000');
  assert.equal(await sim.market.cancel('BTCUSDT', id), true);
  await sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60020', quantity: '0.5' });
  assert.equal(await sim.market.cancelAll('BTCUSDT'), 1);
  assert.equal(await sim.market.setMid('BTCUSDT', '61000'), undefined);
  await sim.client.rest.newOrder(buy('50000'));
  assert.equal((await sim.stats()).sinceMark.orders, 1);
  assert.equal(await sim.mark(), undefined);
  assert.equal((await sim.stats()).sinceMark.orders, 0);
});

test('openOrders and balances read the account as its REST does, spending no request weight', async () => {
  await sim.reset();
  const placed = await sim.client.rest.newOrder(buy('50000'));
  const { restRequests } = await sim.stats();
  assert.deepEqual(await sim.openOrders(), [await sim.client.rest.openOrders({ symbol: 'BTCUSDT' }).then((o) => o[0])]);
  assert.deepEqual((await sim.openOrders('BTCUSDT')).map((o) => o.orderId), [placed.orderId]);
  assert.deepEqual(await sim.openOrders('ETHUSDT'), []);
  assert.deepEqual(await sim.balances(), (await sim.client.rest.account()).balances);
  assert.equal((await sim.stats()).restRequests, restRequests + 2, 'only the two REST comparisons count');
  assert.equal(((await failure(sim.openOrders('NOPEUSDT'))) as SpotSimError).code, -1121);
  assert.ok((await failure(sim.openOrders(5 as never))) instanceof TypeError);
});

test('wrong arguments are TypeErrors saying what is expected', async () => {
  for (const [args, message] of [
    [[42], /connectSimulator\(url.*got number for url/],
    [['ftp://127.0.0.1'], /must be http: or https:/],
    [['not a url'], /not a URL/],
    [[url, { apiKey: 1 }], /apiKey must be a string/],
    [[url, { token: 'x' }], /unknown option 'token'/],
  ] as const) {
    await assert.rejects(connectSimulator(...(args as unknown as [string])), (e: Error) => e instanceof TypeError && message.test(e.message), String(args[0]));
  }
  assert.throws(() => new SpotSimClient({ baseUrl: url } as never), (e: Error) => e instanceof TypeError && /apiKey must be a non-empty string/.test(e.message));
  assert.throws(() => new SpotSimClient({ baseUrl: 'localhost:9080', apiKey: 'k', apiSecret: 's' }), TypeError);
  assert.throws(() => new SpotSimClient({} as never), (e: Error) => e instanceof TypeError && /neither baseUrl nor urls/.test(e.message));
  assert.throws(() => new SpotSimClient(undefined as never), (e: Error) => e instanceof TypeError && /new SpotSimClient\(\{ baseUrl/.test(e.message));
});

test('new SpotSimClient({ baseUrl, apiKey, apiSecret }) reaches a standalone server on REST and the WS API', async () => {
  const client = new SpotSimClient({ baseUrl: url, ...sim.credentials }, { now: () => START });
  try {
    assert.deepEqual(await client.rest.ping(), {});
    assert.deepEqual(await (await client.wsApi()).ping(), {});
  } finally {
    await client.close();
  }
});
