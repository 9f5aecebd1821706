// REST end to end over real sockets, on both listeners (plain HTTP and TLS with the fixture
// certificate), signed like a client library signs: HMAC hex over query + body as sent.
import { test as base, expect, request, type APIRequestContext } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { startSimulator, type Simulator } from '../src/index.ts';

const test = base.extend<{ api: APIRequestContext }, { sim: Simulator }>({
  sim: [
    async ({}, use) => {
      const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
      await use(sim);
      await sim.stop();
    },
    { scope: 'worker' },
  ],
  api: async ({ sim }, use) => {
    const ctx = await request.newContext({ baseURL: sim.urls.http, ignoreHTTPSErrors: true });
    await use(ctx);
    await ctx.dispose();
  },
});

function signed(sim: Simulator, query: string): string {
  const q = `${query}${query ? '&' : ''}timestamp=${Date.now()}`;
  return `${q}&signature=${createHmac('sha256', sim.credentials.apiSecret).update(q).digest('hex')}`;
}

test('public endpoints answer on both listeners with the weight header', async ({ sim, api }) => {
  for (const base of [sim.urls.http, sim.urls.https]) {
    const ping = await api.get(`${base}/api/v3/ping`);
    expect(ping.status()).toBe(200);
    expect(await ping.json()).toEqual({});
    expect(Number(ping.headers()['x-mbx-used-weight-1m'])).toBeGreaterThan(0);
    const time = await (await api.get(`${base}/api/v3/time`)).json();
    expect(Math.abs(time.serverTime - Date.now())).toBeLessThan(5000);
  }
  const info = await (await api.get('/api/v3/exchangeInfo?symbols=%5B%22ETHUSDT%22%5D')).json();
  expect(info.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['ETHUSDT']);
  expect(info.symbols[0].filters.map((f: { filterType: string }) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MAX_NUM_ORDERS']);
  expect(info.rateLimits[0]).toEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 });
  const bad = await api.get('/api/v3/depth?symbol=NOPE');
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  expect((await api.get('/api/v3/depth?symbol=BTCUSDT&limit=5001')).status()).toBe(400);
});

test('a signed order round trip: place (query and form body), query, list, cancel, myTrades', async ({ sim, api }) => {
  const headers = { 'X-MBX-APIKEY': sim.credentials.apiKey };
  // Form body, as ccxt sends it.
  const body = signed(sim, 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&newClientOrderId=e2e-1');
  const placed = await api.post('/api/v3/order', { headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, data: body });
  expect(placed.status()).toBe(200);
  const order = await placed.json();
  expect(order).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: 'e2e-1', status: 'NEW', price: '50000.00000000', origQty: '0.00100000', fills: [] });
  expect(placed.headers()['x-mbx-order-count-10s']).toBe('1');
  // Query string on TLS, as @binance/spot sends it.
  const got = await api.get(`${sim.urls.https}/api/v3/order?${signed(sim, `symbol=BTCUSDT&orderId=${order.orderId}`)}`, { headers });
  expect((await got.json()).clientOrderId).toBe('e2e-1');
  const open = await (await api.get(`/api/v3/openOrders?${signed(sim, 'symbol=BTCUSDT')}`, { headers })).json();
  expect(open.map((o: { orderId: number }) => o.orderId)).toEqual([order.orderId]);
  const cancelled = await api.delete(`/api/v3/order?${signed(sim, `symbol=BTCUSDT&origClientOrderId=e2e-1`)}`, { headers });
  expect(await cancelled.json()).toMatchObject({ status: 'CANCELED', origClientOrderId: 'e2e-1' });
  const gone = await api.get(`/api/v3/order?${signed(sim, `symbol=BTCUSDT&orderId=${order.orderId}`)}`, { headers });
  expect(await gone.json()).toEqual({ code: -2013, msg: 'Order does not exist.' });
  const none = await api.delete(`/api/v3/openOrders?${signed(sim, 'symbol=BTCUSDT')}`, { headers });
  expect(await none.json()).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  const trades = await api.get(`/api/v3/myTrades?${signed(sim, 'symbol=BTCUSDT')}`, { headers });
  expect(await trades.json()).toEqual([]);
  const account = await (await api.get(`/api/v3/account?${signed(sim, 'omitZeroBalances=true')}`, { headers })).json();
  expect(account.balances).toContainEqual({ asset: 'USDT', free: '10000000.00000000', locked: '0.00000000' });
});

test('authentication rows of spec 5.4, each with its status, code and message', async ({ sim, api }) => {
  const key = { 'X-MBX-APIKEY': sim.credentials.apiKey };
  const cases: [string, Record<string, string>, number, number, string | RegExp][] = [
    [signed(sim, ''), {}, 401, -2014, 'API-key format invalid.'],
    [signed(sim, ''), { 'X-MBX-APIKEY': 'not-the-key' }, 401, -2015, 'Invalid API-key, IP, or permissions for action.'],
    ['recvWindow=5000', key, 400, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed."],
    [`timestamp=${Date.now()}`, key, 400, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed."],
    [`timestamp=${Date.now()}&signature=${'0'.repeat(64)}`, key, 400, -1022, 'Signature for this request is not valid.'],
    [`timestamp=${Date.now() + 5000}&signature=x`, key, 400, -1021, /1000ms ahead of the server's time\.$/],
    [`timestamp=${Date.now() - 10_000}&signature=x`, key, 400, -1021, 'Timestamp for this request is outside of the recvWindow.'],
    [`timestamp=${Date.now()}&recvWindow=60001&signature=x`, key, 400, -1131, /recvWindow/],
  ];
  for (const [query, headers, status, code, msg] of cases) {
    const res = await api.get(`/api/v3/account?${query}`, { headers });
    expect(res.status(), query).toBe(status);
    const body = await res.json();
    expect(body.code, query).toBe(code);
    if (typeof msg === 'string') expect(body.msg).toBe(msg);
    else expect(body.msg).toMatch(msg);
  }
  // A larger recvWindow within the maximum admits an older timestamp.
  const q = `timestamp=${Date.now() - 10_000}&recvWindow=20000`;
  const ok = await api.get(`/api/v3/account?${q}&signature=${createHmac('sha256', sim.credentials.apiSecret).update(q).digest('hex')}`, { headers: key });
  expect(ok.status()).toBe(200);
});

test('request weight limit: 429 with -1003 and Retry-After, weight in the header', async () => {
  await using sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false }, limits: { weight_per_minute: 30 } } } });
  const api = await request.newContext({ baseURL: sim.urls.http });
  const first = await api.get('/api/v3/exchangeInfo'); // weight 20
  expect(first.headers()['x-mbx-used-weight-1m']).toBe('20');
  const second = await api.get('/api/v3/exchangeInfo');
  expect(second.status()).toBe(429);
  expect((await second.json()).code).toBe(-1003);
  const retryAfter = Number(second.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  await api.dispose();
});

test('CORS preflight, unknown paths, oversized bodies: clear answers, the server keeps serving', async ({ sim, api }) => {
  const preflight = await api.fetch('/api/v3/order', {
    method: 'OPTIONS',
    headers: { Origin: 'http://ui.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-mbx-apikey' },
  });
  expect(preflight.status()).toBe(204);
  expect(preflight.headers()['access-control-allow-origin']).toBe('*');
  expect(preflight.headers()['access-control-allow-headers']).toContain('x-mbx-apikey');
  const missing = await api.get('/api/v3/klines?symbol=BTCUSDT');
  expect(missing.status()).toBe(404);
  expect((await missing.json()).code).toBe(-1000);
  const huge = await api.post('/api/v3/order', { data: 'a='.padEnd(70_000, 'x'), headers: { 'X-MBX-APIKEY': sim.credentials.apiKey } });
  expect(huge.status()).toBe(413);
  expect((await api.get('/api/v3/ping')).status()).toBe(200);
});
