// Authentication and limits end to end: Ed25519 REST signing (base64, percent-encoded), HMAC
// over query + body, the timestamp / recvWindow rules at their exact boundaries (manual clock),
// microsecond timestamps, clock_offset_ms, endpoint weights, and the ORDERS windows with -1015,
// Retry-After and the X-MBX-ORDER-COUNT headers (spec 5, 8; binance-facts §1.3-1.4, §3, §4).
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { counterparty, ed25519Signer, expect, hmacSigner, LISTENERS, restTestWith, test, weightOf, wireFor, type Reply, type Wire } from './support/rest.ts';

const T0 = 1_700_000_000_000; // a multiple of 10 s: ORDERS windows start at T0
const MANUAL = { clock: 'manual', start_time_ms: T0, driver_tick_ms: 1000 } as const;
const AHEAD = "Timestamp for this request was 1000ms ahead of the server's time.";
const OUTSIDE = 'Timestamp for this request is outside of the recvWindow.';
const BAD_SIGNATURE = { code: -1022, msg: 'Signature for this request is not valid.' };

function expectError(r: Reply, status: number, code: number, msg?: string | RegExp): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code, JSON.stringify(r.body)).toBe(code);
  if (typeof msg === 'string') expect(r.body.msg).toBe(msg);
  else if (msg !== undefined) expect(r.body.msg).toMatch(msg);
}

/** The account's key is a fresh Ed25519 key: its public half in a temp PEM file the worker's simulator reads. */
const ed25519Keys = generateKeyPairSync('ed25519');
const ed25519Dir = mkdtempSync(join(tmpdir(), 'spot-sim-ed25519-'));
const ed25519PublicKeyFile = join(ed25519Dir, 'public.pem');
writeFileSync(ed25519PublicKeyFile, ed25519Keys.publicKey.export({ type: 'spki', format: 'pem' }));
process.once('exit', () => rmSync(ed25519Dir, { recursive: true, force: true }));

test.describe('Ed25519 account', () => {
  const test = restTestWith({ account: { ed25519_public_key_file: ed25519PublicKeyFile } });
  for (const listener of LISTENERS) {
    test(`REST requests signed with Ed25519, base64 percent-encoded, in the query or a form body (${listener})`, async ({ sim }) => {
      const ed = { sim, privateKey: ed25519Keys.privateKey };
      const wire = wireFor(sim, listener, ed25519Signer(ed.privateKey));

      // The signature is 64 bytes: 88 base64 characters ending "==", sent as %3D%3D.
      const sig = wire.signer('timestamp=1');
      expect(decodeURIComponent(sig)).toMatch(/^[A-Za-z0-9+/]{86}==$/);
      expect(sig.endsWith('%3D%3D')).toBe(true);

      const account = await wire.signed('GET', '/api/v3/account', { omitZeroBalances: true });
      expect(account.status, JSON.stringify(account.body)).toBe(200);
      expect(account.body.balances.length).toBeGreaterThan(0);
      const placed = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newClientOrderId: 'ed-1' }, { in: 'body' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      expect(placed.body).toMatchObject({ clientOrderId: 'ed-1', status: 'NEW' });
      const cancelled = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'ed-1' });
      expect(cancelled.body).toMatchObject({ status: 'CANCELED' });
      // Listen keys need the API key only, whatever the key type.
      expect((await wire.keyed('POST', '/api/v3/userDataStream')).body.listenKey).toMatch(/^[A-Za-z0-9]{64}$/);

      // Refusals: an HMAC signature, another key's signature, a payload changed after signing,
      // no signature, no API key.
      const before = await wire.state();
      const hmac = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }, { signer: hmacSigner(ed.sim.credentials.apiSecret) });
      expectError(hmac, 400, BAD_SIGNATURE.code, BAD_SIGNATURE.msg);
      const other = ed25519Signer(generateKeyPairSync('ed25519').privateKey);
      expect((await wire.signed('GET', '/api/v3/account', {}, { signer: other })).body).toEqual(BAD_SIGNATURE);
      const payload = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&timestamp=${wire.now()}`;
      const tampered = await wire.raw('POST', `/api/v3/order?${payload.replace('quantity=0.001', 'quantity=0.002')}&signature=${wire.signer(payload)}`, { headers: { 'X-MBX-APIKEY': wire.apiKey } });
      expect(tampered.body).toEqual(BAD_SIGNATURE);
      const unsigned = await wire.raw('GET', `/api/v3/account?timestamp=${wire.now()}`, { headers: { 'X-MBX-APIKEY': wire.apiKey } });
      expectError(unsigned, 400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
      expectError(await wire.signed('GET', '/api/v3/account', {}, { apiKey: null }), 401, -2014, 'API-key format invalid.');
      expect(await wire.state()).toEqual(before);
      wire.close();
    });
  }
});

test.describe('HMAC payload', () => {
  test('the signature covers query + body as sent, no separator; the query wins on a name in both; hex in any case', async ({ wire }) => {
    const key = { 'X-MBX-APIKEY': wire.apiKey };
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC';
    const body = `quantity=0.001&price=50000&newClientOrderId=mixed-1&timestamp=${wire.now()}`;
    const sig = wire.signer(query + body);
    const mixed = await wire.raw('POST', `/api/v3/order?${query}`, { body: `${body}&signature=${sig}`, headers: key });
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect(mixed.body).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: 'mixed-1' });
    // Signed as "query&body" (with a separator) is a different payload.
    const body2 = `quantity=0.001&price=50000&timestamp=${wire.now()}`;
    const wrong = await wire.raw('POST', `/api/v3/order?${query}`, { body: `${body2}&signature=${wire.signer(`${query}&${body2}`)}`, headers: key });
    expect(wrong.body).toEqual(BAD_SIGNATURE);
    // The same name in both: the query string's value is used.
    const q3 = 'symbol=BTCUSDT';
    const b3 = `symbol=ETHUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&newClientOrderId=mixed-2&timestamp=${wire.now()}`;
    const both = await wire.raw('POST', `/api/v3/order?${q3}`, { body: `${b3}&signature=${wire.signer(q3 + b3)}`, headers: key });
    expect(both.body).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: 'mixed-2' });
    // @binance/spot style: everything in the query, an empty body labelled JSON.
    const q4 = `symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&newClientOrderId=mixed-3&timestamp=${wire.now()}`;
    const jsonLabel = await wire.raw('POST', `/api/v3/order?${q4}&signature=${wire.signer(q4)}`, { headers: { ...key, 'Content-Type': 'application/json', 'Content-Length': '0' } });
    expect(jsonLabel.body).toMatchObject({ clientOrderId: 'mixed-3' });
    // Upper-case hex is the same signature (binance-facts §1.3: case-insensitive).
    const upper = await wire.signed('GET', '/api/v3/account', {}, { signer: (p) => wire.signer(p).toUpperCase() });
    expect(upper.status).toBe(200);
    // A value percent-encoded on the wire is signed as sent.
    const encoded = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newClientOrderId: 'a:b/c' });
    expect(encoded.body).toMatchObject({ clientOrderId: 'a:b/c' });
  });
});

for (const listener of LISTENERS) {
  test.describe(`timestamp and recvWindow over ${listener}`, () => {
    const test = restTestWith(MANUAL);
    test.use({ listener });

    test('timestamp must be within recvWindow (default 5000) and less than 1000 ms ahead', async ({ sim, wire }) => {
      const now = sim.now();
      const cases: [number, string | undefined, number | null, string?][] = [
        [now, undefined, 200],
        [now + 999, undefined, 200],
        [now + 1000, undefined, -1021, AHEAD],
        [now - 5000, undefined, 200],
        [now - 5001, undefined, -1021, OUTSIDE],
        [now - 10_000, '10000', 200],
        [now - 10_001, '10000', -1021, OUTSIDE],
        [now - 5001, '5001.5', 200],
        [now - 5001, '5000.999', -1021, OUTSIDE],
        [now - 60_000, '60000', 200],
        [now, '60001', -1131, 'recvWindow must be less than 60000'],
        [now + 5000, '60001', -1131],
        [now + 999, '0', 200],
        [now - 1, '0', -1021, OUTSIDE],
      ];
      for (const [timestamp, recvWindow, code, msg] of cases) {
        const label = `timestamp now${timestamp - now >= 0 ? '+' : ''}${timestamp - now} recvWindow ${recvWindow}`;
        const r = await wire.signed('GET', '/api/v3/account', {}, { timestamp, recvWindow });
        if (code === 200) {
          expect(r.status, `${label}: ${JSON.stringify(r.body)}`).toBe(200);
        } else {
          expect(r.status, label).toBe(400);
          expect(r.body.code, label).toBe(code);
          if (msg !== undefined) expect(r.body.msg, label).toBe(msg);
        }
      }
    });

    test('microsecond timestamps follow the same rules; malformed values are -1100', async ({ sim, wire }) => {
      const us = sim.now() * 1000;
      expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: us })).status).toBe(200);
      expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: us + 999_999 })).status).toBe(200);
      expectError(await wire.signed('GET', '/api/v3/account', {}, { timestamp: us + 1_000_000 }), 400, -1021, AHEAD);
      expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: us - 5_000_000 })).status).toBe(200);
      expectError(await wire.signed('GET', '/api/v3/account', {}, { timestamp: us - 5_001_000 }), 400, -1021, OUTSIDE);
      expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: us - 20_000_000, recvWindow: 20000 })).status).toBe(200);
      // An order placed with a microsecond timestamp.
      const placed = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }, { timestamp: us });
      expect(placed.status).toBe(200);
      expect(placed.body.transactTime).toBe(sim.now());

      expectError(await wire.signed('GET', '/api/v3/account', {}, { timestamp: 'yesterday' }), 400, -1100, /^Illegal characters found in parameter 'timestamp'/);
      expectError(await wire.signed('GET', '/api/v3/account', {}, { recvWindow: '5000.1234' }), 400, -1100, /^Illegal characters found in parameter 'recvWindow'/);
      expectError(await wire.signed('GET', '/api/v3/account', {}, { recvWindow: '-1' }), 400, -1100, /recvWindow/);
    });

    test('a request refused for its timestamp pays weight but adds no order and changes nothing', async ({ sim, wire }) => {
      const before = await wire.state();
      const w = weightOf(await wire.get('/api/v3/ping'));
      const stale = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }, { timestamp: sim.now() - 5001 });
      expectError(stale, 400, -1021, OUTSIDE);
      expect(weightOf(stale)).toBe(w + 1);
      expect(stale.headers['x-mbx-order-count-10s']).toBe('0');
      expect(stale.headers['x-mbx-order-count-1d']).toBe('0');
      expect(await wire.state()).toEqual(before);
    });
  });
}

const offsetTest = restTestWith({ clock_offset_ms: -10_000 });
offsetTest.describe('with clock_offset_ms', () => {
  offsetTest.use({ listener: 'https' });
  offsetTest('clock_offset_ms moves the server clock: a wire on the host clock is ahead, one synced by /time is not', async ({ wire }) => {
    const time = (await wire.get('/api/v3/time')).body.serverTime;
    expect(Date.now() - time).toBeGreaterThanOrEqual(9_000);
    expectError(await wire.signed('GET', '/api/v3/account', {}, { timestamp: Date.now() }), 400, -1021, AHEAD);
    expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: time })).status).toBe(200);
    const ahead = Date.now() - 10_000 + 3_000;
    expectError(await wire.signed('GET', '/api/v3/account', {}, { timestamp: ahead }), 400, -1021, AHEAD);
  });
});

test.describe('request weight', () => {
  const test = restTestWith(MANUAL);

  test('each endpoint weighs what the reference says; successful order requests weigh 0, failed ones 1', async ({ sim, wire }) => {
    counterparty(sim, 'BTCUSDT', 'SELL', '60010', '1');
    const resting = await wire.rest('BUY', '50000', '0.002', { newClientOrderId: 'w-1' });
    let last = weightOf(await wire.get('/api/v3/ping'));
    const steps: [string, () => Promise<Reply>, number][] = [
      ['ping', () => wire.get('/api/v3/ping'), 1],
      ['time', () => wire.get('/api/v3/time'), 1],
      ['exchangeInfo', () => wire.get('/api/v3/exchangeInfo'), 20],
      ['depth default', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT' }), 5],
      ['depth 100', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 100 }), 5],
      ['depth 101', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 101 }), 25],
      ['depth 500', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 500 }), 25],
      ['depth 1000', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 1000 }), 50],
      ['depth 5000', () => wire.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }), 250],
      ['bookTicker symbol', () => wire.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' }), 2],
      ['bookTicker all', () => wire.get('/api/v3/ticker/bookTicker'), 4],
      ['account', () => wire.signed('GET', '/api/v3/account'), 20],
      ['account/commission', () => wire.signed('GET', '/api/v3/account/commission', { symbol: 'BTCUSDT' }), 20],
      ['order ok', () => wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.001' }), 0],
      ['order refused', () => wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.000001' }), 1],
      ['order/test', () => wire.signed('POST', '/api/v3/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' }), 1],
      ['order/test rates', () => wire.signed('POST', '/api/v3/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001', computeCommissionRates: true }), 20],
      ['GET order', () => wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: resting.orderId }), 4],
      ['amend', () => wire.signed('PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: resting.orderId, newQty: '0.001' }), 4],
      ['openOrders symbol', () => wire.signed('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' }), 6],
      ['openOrders all', () => wire.signed('GET', '/api/v3/openOrders'), 80],
      ['cancelReplace refused', () => wire.signed('POST', '/api/v3/order/cancelReplace', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 999 }), 1],
      ['cancelReplace ok', () => wire.signed('POST', '/api/v3/order/cancelReplace', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: resting.orderId, newClientOrderId: 'w-2' }), 0],
      ['cancel ok', () => wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'w-2' }), 0],
      ['cancel refused', () => wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'w-2' }), 1],
      ['cancelAll refused', () => wire.signed('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' }), 1],
      ['myTrades', () => wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' }), 20],
      ['myTrades orderId', () => wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: 1 }), 5],
      ['userDataStream', () => wire.keyed('POST', '/api/v3/userDataStream'), 2],
      ['authentication refused', () => wire.signed('GET', '/api/v3/account', {}, { apiKey: 'wrong' }), 20],
    ];
    for (const [label, call, weight] of steps) {
      const r = await call();
      expect(r.status < 500, label).toBe(true);
      expect(r.headers['x-mbx-used-weight'], label).toBe(r.headers['x-mbx-used-weight-1m']);
      expect(weightOf(r) - last, label).toBe(weight);
      last = weightOf(r);
    }
    // One window for the whole server: both listeners count into it.
    const tls = await wire.on(sim.urls.https).get('/api/v3/ping');
    expect(weightOf(tls)).toBe(last + 1);
    // A new minute starts a new window.
    sim.advanceTime(60_000);
    expect(weightOf(await wire.get('/api/v3/ping'))).toBe(1);
  });

  const overLimit = restTestWith({ ...MANUAL, start_time_ms: T0 + 20_000, limits: { weight_per_minute: 25 } });
  overLimit('over the minute limit: 429 -1003 with Retry-After to the window end, on both listeners, then served again', async ({ sim, wire }) => {
    expect(weightOf(await wire.get('/api/v3/exchangeInfo'))).toBe(20);
    expect(weightOf(await wire.on(sim.urls.https).get('/api/v3/depth', { symbol: 'BTCUSDT' }))).toBe(25);
    for (const base of [sim.urls.http, sim.urls.https]) {
      const refused = await wire.on(base).get('/api/v3/ping');
      expectError(refused, 429, -1003, 'Too much request weight used; current limit is 25 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.');
      expect(refused.headers['retry-after']).toBe(String(Math.ceil((60_000 - (sim.now() % 60_000)) / 1000)));
      expect(refused.headers['access-control-expose-headers']).toContain('Retry-After');
    }
    // Signed requests are refused before authentication.
    expectError(await wire.signed('GET', '/api/v3/account', {}, { apiKey: null }), 429, -1003);
    sim.advanceTime(60_000 - (sim.now() % 60_000));
    const again = await wire.get('/api/v3/ping');
    expect(again.status).toBe(200);
    expect(weightOf(again)).toBe(1);
  });
});

test.describe('ORDERS windows', () => {
  const test = restTestWith({ ...MANUAL, limits: { orders_per_10s: 3, orders_per_day: 5 } });

  async function place(wire: Wire, price: string): Promise<Reply> {
    return wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001', newOrderRespType: 'ACK' });
  }

  test('-1015 with Retry-After once a window is full; X-MBX-ORDER-COUNT-10S/-1D count the orders', async ({ sim, wire }) => {
    const info = (await wire.get('/api/v3/exchangeInfo')).body;
    expect(info.rateLimits.slice(1)).toEqual([
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 3 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 5 },
    ]);
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = await place(wire, String(50000 + i));
      expect(r.status).toBe(200);
      expect([r.headers['x-mbx-order-count-10s'], r.headers['x-mbx-order-count-1d']]).toEqual([String(i), String(i)]);
      ids.push(r.body.orderId);
    }
    const before = await wire.state();
    const refused = await place(wire, '50004');
    expectError(refused, 429, -1015, 'Too many new orders; current limit is 3 orders per 10 SECOND.');
    expect(refused.headers['retry-after']).toBe('10');
    expect([refused.headers['x-mbx-order-count-10s'], refused.headers['x-mbx-order-count-1d']]).toEqual(['3', '3']);
    expect(refused.headers['x-mbx-used-weight-1m']).toBeDefined();
    // cancelReplace counts as an order and is refused before its cancel runs.
    const replace = await wire.signed('POST', '/api/v3/order/cancelReplace', {
      symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50005', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: ids[0],
    });
    expectError(replace, 429, -1015);
    expect(await wire.state()).toEqual(before);
    // order/test, queries and cancels are not orders.
    expect((await wire.signed('POST', '/api/v3/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' })).body).toEqual({});
    expect((await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: ids[0] })).status).toBe(200);

    sim.advanceTime(4_000);
    expect((await place(wire, '50004')).headers['retry-after']).toBe('6');
    sim.advanceTime(6_000); // a new 10 s window; the day window keeps counting
    const fourth = await place(wire, '50004');
    expect(fourth.status).toBe(200);
    expect([fourth.headers['x-mbx-order-count-10s'], fourth.headers['x-mbx-order-count-1d']]).toEqual(['1', '4']);
    const fifth = await place(wire, '50005');
    expect([fifth.headers['x-mbx-order-count-10s'], fifth.headers['x-mbx-order-count-1d']]).toEqual(['2', '5']);
    const daily = await wire.on(sim.urls.https).order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50006', quantity: '0.001' });
    expectError(daily, 429, -1015, 'Too many new orders; current limit is 5 orders per 1 DAY.');
    const DAY = 86_400_000;
    expect(Number(daily.headers['retry-after'])).toBe(Math.ceil((DAY - (sim.now() % DAY)) / 1000));
  });
});
