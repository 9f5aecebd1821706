// stats() and mark() (spec 4.5 "Introspection", API.md sections 3 and 6) against what the client
// did: counts since the mark (orders, cancels, fills, cancel-alls, open-order and myTrades
// queries, sessions opened, the lowest open-order count), the run counters (requests per
// transport, refusals, rate limiting, authentication errors, faults), position and touch, and
// duplicate client order ids (an id accepted again after its first order ended).
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'spot-sim/fixture';
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { ed25519Signer, wsPayload } from './support/signing.ts';
import { buy, refusal, sell, SYMBOL, withSimConfig } from './support/helpers.ts';

const test = withSimConfig({ sim: { generator: { enabled: false } } });
test.afterEach(closeRawConnections);

test.describe('on a quiet book', () => {
  test.beforeEach(({ sim }) => sim.reset());

  test('sinceMark counts what happened after mark(), and the lowest open-order count since then', async ({ sim, client, faults }) => {
    const api = await client.wsApi();
    const a = await client.rest.newOrder(buy('50000'));
    await client.rest.newOrder(buy('50001'));
    const best = await api.placeOrder(buy('50002'));
    expect(sim.stats().sinceMark).toEqual({ minOpenOrders: 0, orders: 3, cancels: 0, fills: 0, triggers: 0, cancelAlls: 0, openOrderQueries: 0, myTradesQueries: 0, sessionsOpened: 0 });

    sim.mark();
    expect(sim.stats().sinceMark).toEqual({ minOpenOrders: 3, orders: 0, cancels: 0, fills: 0, triggers: 0, cancelAlls: 0, openOrderQueries: 0, myTradesQueries: 0, sessionsOpened: 0 });
    const totals = sim.stats();

    await client.rest.cancelOrder({ symbol: SYMBOL, orderId: a.orderId });
    await client.rest.openOrders({ symbol: SYMBOL });
    await api.openOrders({ symbol: SYMBOL });
    await client.rest.myTrades({ symbol: SYMBOL });
    faults.fillOpenOrder(best.orderId, '0.001'); // the best bid: nothing ahead of it
    expect(sim.stats().sinceMark).toMatchObject({ minOpenOrders: 1, cancels: 1, fills: 1, openOrderQueries: 2, myTradesQueries: 1, cancelAlls: 0 });

    // Refused queries are not queries that happened.
    faults.failNextAuth(2);
    await refusal(client.rest.openOrders({ symbol: SYMBOL }));
    await refusal(client.rest.myTrades({ symbol: SYMBOL }));
    await client.rest.cancelOpenOrders({ symbol: SYMBOL });
    await client.rest.newOrder(sell('70000'));
    expect(sim.stats().sinceMark).toEqual({ minOpenOrders: 0, orders: 1, cancels: 2, fills: 1, triggers: 0, cancelAlls: 1, openOrderQueries: 2, myTradesQueries: 1, sessionsOpened: 0 });

    const now = sim.stats();
    expect(now.orders - totals.orders).toBe(1);
    expect(now.cancels - totals.cancels).toBe(2);
    expect(now.fills - totals.fills).toBe(1);
    expect(now.openOrders).toBe(1);
    expect(now.restRequests - totals.restRequests).toBe(7);
    expect(now.wsApiRequests - totals.wsApiRequests).toBe(1);
    expect(now.authErrors - totals.authErrors).toBe(2);
  });

  test('run counters: refusals, rate limiting, authentication errors and each fault', async ({ sim, client, faults }) => {
    const before = sim.stats();
    faults.rejectNextOrders(1);
    await refusal(client.rest.newOrder(buy('50000')));
    await refusal(client.rest.newOrder(buy('50000.001'))); // PRICE_FILTER: a refusal too
    faults.rateLimitNextRequests(1);
    faults.banNextRequests(1);
    await client.rest.request({ method: 'GET', path: '/api/v3/ping' }); // 418 (ban is checked first)
    await client.rest.request({ method: 'GET', path: '/api/v3/ping' }); // 429
    faults.failNextAuth(1);
    faults.failNextTimestamp();
    await refusal(client.rest.account()); // -2015
    await refusal(client.rest.account()); // -1021
    const noKey = await client.rest.request<{ code: number }>({ method: 'GET', path: `/api/v3/account?${client.rest.sign({})}` });
    expect([noKey.status, noKey.body.code]).toEqual([401, -2014]);
    const after = sim.stats();
    expect(after.rejects - before.rejects).toBe(2);
    expect(after.rateLimited - before.rateLimited).toBe(2);
    expect(after.authErrors - before.authErrors).toBe(3);
    expect(after.faults.rejectedOrders - before.faults.rejectedOrders).toBe(1);
    expect(after.faults.bannedRequests - before.faults.bannedRequests).toBe(1);
    expect(after.faults.rateLimitedRequests - before.faults.rateLimitedRequests).toBe(1);
    expect(after.faults.failedAuths - before.faults.failedAuths).toBe(1);
    expect(after.faults.failedTimestamps - before.faults.failedTimestamps).toBe(1);
  });

  test('position and touch follow the account and the book', async ({ sim, client, faults }) => {
    await client.rest.newOrder(buy('59000.5', '0.002'));
    const ask = await client.rest.newOrder(sell('61000', '0.003'));
    const stats = sim.stats();
    expect(stats.touch).toEqual({ BTCUSDT: { bid: '59000.50000000', ask: '61000.00000000' }, ETHUSDT: { bid: null, ask: null } });
    const account = await client.rest.account();
    for (const { asset, free, locked } of account.balances) expect(stats.position[asset]).toEqual({ free, locked });
    expect(stats.position.BTC).toEqual({ free: '99.99700000', locked: '0.00300000' });

    faults.fillOpenOrder(ask.orderId, '0.003');
    expect(sim.stats().touch.BTCUSDT).toEqual({ bid: '59000.50000000', ask: null });
    expect(sim.stats().position.BTC).toEqual({ free: '99.99700000', locked: '0.00000000' });
  });

  test('duplicateClientOrderIds counts an id accepted again after its first order ended, on either transport', async ({ sim, client, faults }) => {
    const base = sim.stats().duplicateClientOrderIds;
    const first = await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'again' }));
    // While the first is open the id is refused (-2010), and that is not a duplicate accepted.
    expect(await refusal(client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'again' })))).toMatchObject({ code: -2010, msg: 'Duplicate order sent.' });
    expect(sim.stats().duplicateClientOrderIds).toBe(base);

    await client.rest.cancelOrder({ symbol: SYMBOL, orderId: first.orderId });
    const second = await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'again' }));
    expect(second.orderId).not.toBe(first.orderId);
    expect(sim.stats().duplicateClientOrderIds).toBe(base + 1);

    faults.fillOpenOrder(second.orderId, '0.001');
    const api = await client.wsApi();
    await api.placeOrder(buy('50000', '0.001', { newClientOrderId: 'again' }));
    expect(sim.stats().duplicateClientOrderIds).toBe(base + 2);
    expect(sim.openClientOrderIds()).toEqual(['again']);

    await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'other' }));
    expect(sim.stats().duplicateClientOrderIds).toBe(base + 2);
    expect(sim.openClientOrderIds()).toEqual(['again', 'other']);
  });
});

// ------------------------------------------------------------------ sessions (Ed25519 account)

const keys = generateKeyPairSync('ed25519');
const publicKeyFile = join(tmpdir(), `spot-sim-e2e-stats-ed25519-${process.pid}.pem`);
writeFileSync(publicKeyFile, keys.publicKey.export({ type: 'spki', format: 'pem' }));
const ed25519 = withSimConfig({ sim: { generator: { enabled: false }, account: { ed25519_public_key_file: publicKeyFile } } });

ed25519('sinceMark.sessionsOpened counts successful session.logon calls', async ({ sim }) => {
  const logon = async (raw: RawWs, signature?: string) => {
    const params: Record<string, string | number> = { apiKey: sim.credentials.apiKey, timestamp: sim.now() };
    return raw.call('session.logon', { ...params, signature: signature ?? ed25519Signer(keys.privateKey, 'ws-api')(wsPayload(params)) });
  };
  const one = await RawWs.open(sim, '/ws-api/v3');
  const two = await RawWs.open(sim, '/ws-api/v3', { tls: true });
  expect((await logon(one)).status).toBe(200);
  expect((await logon(two, Buffer.alloc(64).toString('base64'))).status).toBe(400); // bad signature
  expect((await logon(two)).status).toBe(200);
  expect(sim.stats().sinceMark.sessionsOpened).toBe(2);
  sim.mark();
  expect(sim.stats().sinceMark.sessionsOpened).toBe(0);
  expect((await logon(one)).status).toBe(200);
  expect(sim.stats().sinceMark.sessionsOpened).toBe(1);
});
