// User data end to end on both listeners: the Ed25519 session flow of spec 3.3 / 5.3
// (session.logon, requests with only a timestamp, session.status, userDataStream.subscribe,
// session.logout ending that subscription with eventStreamTerminated), and the legacy listen
// key of spec 3.2 (POST / PUT / DELETE, `/ws/<listenKey>` raw events, `/stream?streams=<key>`
// wrapped ones, executionReport before outboundAccountPosition, listenKeyExpired when the
// validity passes, PUT extending it). Every block runs on the simulated clock: signed requests
// carry its time, so a loaded machine that delays a request never puts it outside recvWindow,
// and a key expires only when a test moves the clock; everything else is awaited.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { counterparty, ed25519Signer, wireFor } from './support/rest.ts';
import { apiOn, expect, listenerOf, ok, SCHEMES, test, wsTestWith, type Frame, type WsClient } from './support/ws.ts';

function expectError(r: Frame, status: number, code: number, msg?: string): void {
  expect(r.status, JSON.stringify(r)).toBe(status);
  expect(r.error.code, JSON.stringify(r)).toBe(code);
  if (msg !== undefined) expect(r.error.msg).toBe(msg);
}

/** Params of a request on a logged-on session: no apiKey, no signature, a timestamp. */
const SESSION = { apiKey: null, signer: null } as const;

const keyDir = mkdtempSync(join(tmpdir(), 'spot-sim-ws-ed25519-'));
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const publicKeyFile = join(keyDir, 'public.pem');
writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
test.afterAll(() => rmSync(keyDir, { recursive: true, force: true }));

const LIMIT_BUY = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001' };

for (const scheme of SCHEMES) {
  test.describe(`${scheme}, Ed25519 account`, () => {
    const test = wsTestWith({ clock: 'manual', account: { ed25519_public_key_file: publicKeyFile } });
    test.use({ scheme });

    test('session.logon, requests with only a timestamp, userDataStream.subscribe, session.logout with eventStreamTerminated', async ({ sim, connect }) => {
      const api = apiOn(sim, await connect('/ws-api/v3'), ed25519Signer(privateKey, 'ws-api'));
      const before = ok(await api.call('session.status'));
      expect(before).toEqual({ apiKey: null, authorizedSince: null, connectedSince: expect.any(Number), returnRateLimits: true, serverTime: expect.any(Number), userDataStream: false });
      expect(before.connectedSince).toBeLessThanOrEqual(before.serverTime);
      // Not logged on: the unsigned subscription and key-less requests are refused.
      expectError(await api.call('userDataStream.subscribe'), 401, -1002, 'You are not authorized to execute this request.');
      expectError(await api.signed('order.place', { ...LIMIT_BUY, price: '50000' }, SESSION), 401, -2014, 'API-key format invalid.');
      // Logon is signed with the Ed25519 key (an HMAC-style signature does not verify).
      expectError(await api.signed('session.logon', {}, { signer: () => 'A'.repeat(86) + '==' }), 400, -1022, 'Signature for this request is not valid.');
      expectError(await api.signed('session.logon', {}, { signer: () => '0'.repeat(64) }), 400, -1022);
      expectError(await api.signed('session.logon', {}, { apiKey: 'someone-else' }), 401, -2015);
      const logon = ok(await api.signed('session.logon'));
      expect(logon).toEqual({ ...before, apiKey: sim.credentials.apiKey, authorizedSince: expect.any(Number), serverTime: expect.any(Number) });
      expect(logon.authorizedSince).toBeGreaterThanOrEqual(before.connectedSince);

      // Logged on: requests leave out apiKey and signature but keep the timestamp.
      const placed = ok(await api.signed('order.place', { ...LIMIT_BUY, price: '50000', newClientOrderId: 'ed-1' }, SESSION));
      expect(placed).toMatchObject({ clientOrderId: 'ed-1', status: 'NEW' });
      expect(ok(await api.signed('account.status', { omitZeroBalances: true }, SESSION)).balances).toContainEqual({ asset: 'USDT', free: '9999950.00000000', locked: '50.00000000' });
      expectError(await api.call('order.place', { ...LIMIT_BUY, price: '50000' }), 400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
      expectError(await api.signed('order.place', { ...LIMIT_BUY, price: '50000' }, { ...SESSION, timestamp: sim.now() - 10_000 }), 400, -1021, 'Timestamp for this request is outside of the recvWindow.');
      // An explicit apiKey + signature still authenticates that request on its own.
      expectError(await api.signed('account.status', {}, { apiKey: 'someone-else' }), 401, -2015);
      ok(await api.signed('account.status'));

      expect(ok(await api.call('userDataStream.subscribe', {}))).toEqual({ subscriptionId: 0 });
      expectError(await api.call('userDataStream.subscribe', {}), 400, -2035, 'User Data Stream subscription already active.');
      expect(ok(await api.call('session.status'))).toMatchObject({ apiKey: sim.credentials.apiKey, authorizedSince: logon.authorizedSince, userDataStream: true });
      expect(ok(await api.call('session.subscriptions'))).toEqual([{ subscriptionId: 0 }]);

      // The response, then the order's events: executionReport(s), then the account position.
      counterparty(sim, 'BTCUSDT', 'SELL', '60000.00', '0.001');
      const fill = await api.signed('order.place', { ...LIMIT_BUY, price: '60000', newClientOrderId: 'ed-2' }, SESSION);
      expect(ok(fill)).toMatchObject({ clientOrderId: 'ed-2', status: 'FILLED' });
      const events = [await api.event(), await api.event(), await api.event()];
      expect(events.map((f) => [f.subscriptionId, f.event.e, f.event.x, f.event.c])).toEqual([
        [0, 'executionReport', 'NEW', 'ed-2'],
        [0, 'executionReport', 'TRADE', 'ed-2'],
        [0, 'outboundAccountPosition', undefined, undefined],
      ]);
      expect(api.client.log.indexOf(events[0])).toBeGreaterThan(api.client.log.indexOf(fill));

      // Logout ends the session's subscription: the response, then eventStreamTerminated.
      const logout = await api.call('session.logout');
      expect(ok(logout)).toMatchObject({ apiKey: null, authorizedSince: null, connectedSince: before.connectedSince, userDataStream: false });
      const terminated = await api.event((e) => e.e === 'eventStreamTerminated');
      expect(terminated).toEqual({ subscriptionId: 0, event: { e: 'eventStreamTerminated', E: expect.any(Number) } });
      expect(api.client.log.indexOf(terminated)).toBeGreaterThan(api.client.log.indexOf(logout));
      expect(ok(await api.call('session.subscriptions'))).toEqual([]);
      expect(ok(await api.call('session.status'))).toMatchObject({ apiKey: null, userDataStream: false });
      // The connection stays open; key-less requests are refused again, signed ones work.
      expectError(await api.signed('order.cancel', { symbol: 'BTCUSDT', origClientOrderId: 'ed-1' }, SESSION), 401, -2014);
      expect(ok(await api.signed('order.cancel', { symbol: 'BTCUSDT', origClientOrderId: 'ed-1' }))).toMatchObject({ status: 'CANCELED' });
      expect(api.client.pending().filter((f) => f.event !== undefined)).toEqual([]);
      expect(api.client.isOpen).toBe(true);
    });

    test('logout ends only the session subscription; a subscribe.signature one keeps delivering', async ({ sim, connect }) => {
      const api = apiOn(sim, await connect('/ws-api/v3'), ed25519Signer(privateKey, 'ws-api'));
      ok(await api.signed('session.logon'));
      expect(ok(await api.signed('userDataStream.subscribe.signature'))).toEqual({ subscriptionId: 0 });
      expectError(await api.call('userDataStream.subscribe', {}), 400, -2035);
      ok(await api.call('session.logout'));
      expect(ok(await api.call('ping'))).toEqual({});
      expect(api.client.pending().filter((f) => f.event !== undefined)).toEqual([]);
      expect(ok(await api.call('session.subscriptions'))).toEqual([{ subscriptionId: 0 }]);
      const placed = ok(await api.signed('order.place', { ...LIMIT_BUY, price: '50000' }));
      expect((await api.event()).event).toMatchObject({ e: 'executionReport', x: 'NEW', i: placed.orderId });
      expect((await api.event()).event.e).toBe('outboundAccountPosition');
    });

    test('a second connection logs on independently; the account key signs REST too', async ({ sim, connect }) => {
      const a = apiOn(sim, await connect('/ws-api/v3'), ed25519Signer(privateKey, 'ws-api'));
      const b = apiOn(sim, await connect('/ws-api/v3?returnRateLimits=false'), ed25519Signer(privateKey, 'ws-api'));
      ok(await a.signed('session.logon'));
      expectError(await b.signed('account.status', {}, SESSION), 401, -2014);
      const logon = await b.signed('session.logon');
      expect(logon.rateLimits).toBeUndefined();
      expect(ok(logon).returnRateLimits).toBe(false);
      ok(await b.signed('account.status', {}, SESSION));
      // The REST order shows up on the session's subscription like any other.
      expect(ok(await a.call('userDataStream.subscribe'))).toEqual({ subscriptionId: 0 });
      const rest = wireFor(sim, listenerOf(scheme), ed25519Signer(privateKey));
      const placed = await rest.rest('SELL', '70000', '0.001');
      rest.close();
      expect((await a.event()).event).toMatchObject({ e: 'executionReport', x: 'NEW', i: placed.orderId, S: 'SELL' });
    });
  });

  test.describe(`${scheme}, listen key`, () => {
    const test = wsTestWith({ clock: 'manual' });
    test.use({ scheme });

    test('POST, /ws/<listenKey> (or SUBSCRIBE) raw events and /stream?streams=<listenKey> wrapped ones, executionReport before outboundAccountPosition, PUT, DELETE', async ({ sim, connect, rest }) => {
      const created = await rest.keyed('POST', '/api/v3/userDataStream');
      expect(created.status).toBe(200);
      const key = created.body.listenKey as string;
      expect(key).toMatch(/^[A-Za-z0-9]{64}$/);
      expect((await rest.keyed('POST', '/api/v3/userDataStream')).body).toEqual({ listenKey: key });
      const noKey = await rest.keyed('POST', '/api/v3/userDataStream', {}, null);
      expect([noKey.status, noKey.body.code]).toEqual([401, -2014]);

      const raw = await connect(`/ws/${key}`);
      const combined = await connect(`/stream?streams=${key}`);
      const mixed = await connect(`/ws/btcusdt@trade/${key}`);
      const subscribed = await connect('/ws');
      subscribed.send({ method: 'SUBSCRIBE', params: [key], id: 1 });
      expect(await subscribed.next()).toEqual({ result: null, id: 1 });
      counterparty(sim, 'BTCUSDT', 'SELL', '60000.00', '0.002');
      const order = await rest.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.003', newClientOrderId: 'lk-1' });
      expect(order.status).toBe(200);
      expect(order.body).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.00200000' });

      const three = async (c: WsClient, pick: (f: Frame) => boolean) => [await c.next(pick), await c.next(pick), await c.next(pick)];
      const events = await three(raw, () => true);
      expect(events.map((e) => [e.e, e.x, e.X])).toEqual([
        ['executionReport', 'NEW', 'NEW'],
        ['executionReport', 'TRADE', 'PARTIALLY_FILLED'],
        ['outboundAccountPosition', undefined, undefined],
      ]);
      expect(events[1]).toMatchObject({ s: 'BTCUSDT', c: 'lk-1', i: order.body.orderId, l: '0.00200000', z: '0.00200000', L: '60000.00000000', t: order.body.fills[0].tradeId });
      const balances = await rest.balances();
      expect(events[2].B).toEqual([
        { a: 'USDT', f: balances.USDT!.free, l: balances.USDT!.locked },
        { a: 'BTC', f: balances.BTC!.free, l: balances.BTC!.locked },
      ]);
      expect(await three(combined, () => true)).toEqual(events.map((data) => ({ stream: key, data })));
      const mixedEvents = await three(mixed, (f) => f.e !== 'trade');
      expect(mixedEvents).toEqual(events);
      expect(await three(subscribed, () => true)).toEqual(events);
      expect(await mixed.next((f) => f.e === 'trade')).toMatchObject({ s: 'BTCUSDT', t: order.body.fills[0].tradeId, m: false });

      expect((await rest.keyed('PUT', '/api/v3/userDataStream', { listenKey: key })).body).toEqual({});
      const unknown = await rest.keyed('PUT', '/api/v3/userDataStream', { listenKey: 'f'.repeat(64) });
      expect([unknown.status, unknown.body]).toEqual([400, { code: -1125, msg: 'This listenKey does not exist.' }]);
      const missing = await rest.keyed('PUT', '/api/v3/userDataStream');
      expect([missing.status, missing.body.code]).toEqual([400, -1102]);
      expect((await rest.keyed('DELETE', '/api/v3/userDataStream', { listenKey: key })).body).toEqual({});
      // Deleting the key ends its raw stream (binance-facts: the stream closes with the key).
      expect(await raw.closed).toEqual({ code: 1000, reason: 'listen key deleted' });
      expect((await rest.keyed('DELETE', '/api/v3/userDataStream', { listenKey: key })).body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
      expect((await rest.keyed('PUT', '/api/v3/userDataStream', { listenKey: key })).body.code).toBe(-1125);
      // A key created after the DELETE is a new one.
      const next = (await rest.keyed('POST', '/api/v3/userDataStream')).body.listenKey;
      expect(next).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(next).not.toBe(key);
    });
  });

  test.describe(`${scheme}, short listen key validity`, () => {
    // On the wall clock a 300 ms key could expire while a loaded machine is still opening the
    // connections that subscribe to it.
    const test = wsTestWith({ clock: 'manual', listen_key_validity_ms: 300 });
    test.use({ scheme });

    test('listenKeyExpired when the validity passes, raw and wrapped; then no more events and PUT answers -1125', async ({ sim, connect, rest }) => {
      const key = (await rest.keyed('POST', '/api/v3/userDataStream')).body.listenKey as string;
      const raw = await connect(`/ws/${key}`);
      const combined = await connect(`/stream?streams=${key}`);
      // Not a millisecond early: the next frame after 299 ms is the reply to a request sent then.
      sim.advanceTime(299);
      raw.send({ method: 'LIST_SUBSCRIPTIONS', id: 7 });
      expect((await raw.next(() => true, 3000, 'the LIST_SUBSCRIPTIONS reply')).id).toBe(7);
      sim.advanceTime(1);
      const expired = await raw.next((f) => f.e === 'listenKeyExpired', 3000, 'listenKeyExpired');
      expect(expired).toEqual({ e: 'listenKeyExpired', E: expect.any(Number), listenKey: key });
      expect(await combined.next(() => true, 3000, 'listenKeyExpired')).toEqual({ stream: key, data: expired });
      expect((await rest.keyed('PUT', '/api/v3/userDataStream', { listenKey: key })).body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
      // Events of a later order no longer reach the expired key's connections.
      await rest.rest('BUY', '50000', '0.001');
      for (const c of [raw, combined]) {
        c.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
        const reply = await c.next(() => true, 3000, 'the LIST_SUBSCRIPTIONS reply');
        expect(reply.id).toBe(1);
      }
      expect(raw.isOpen && combined.isOpen).toBe(true);
    });
  });

  test.describe(`${scheme}, manual clock`, () => {
    const test = wsTestWith({ clock: 'manual', listen_key_validity_ms: 10_000 });
    test.use({ scheme });

    test('PUT extends the listen key: it outlives its first validity and expires one validity after the PUT', async ({ sim, connect, rest }) => {
      const key = (await rest.keyed('POST', '/api/v3/userDataStream')).body.listenKey as string;
      const raw = await connect(`/ws/${key}`);
      const quietUntilReply = async (id: number) => {
        raw.send({ method: 'LIST_SUBSCRIPTIONS', id });
        expect(await raw.next(() => true, 3000, 'the reply')).toEqual({ result: [key], id });
      };
      sim.advanceTime(9_000);
      await quietUntilReply(1);
      const putAt = sim.now();
      expect((await rest.keyed('PUT', '/api/v3/userDataStream', { listenKey: key })).body).toEqual({});
      sim.advanceTime(9_000); // 18 s after creation, 9 s after the PUT: still valid
      await quietUntilReply(2);
      sim.advanceTime(1_001);
      expect(await raw.next(() => true, 3000, 'listenKeyExpired')).toEqual({ e: 'listenKeyExpired', E: putAt + 10_000, listenKey: key });
    });
  });
}
