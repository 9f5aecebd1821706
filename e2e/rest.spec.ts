// REST end to end over real sockets, on both listeners (plain HTTP and TLS with the fixture
// certificate), signed like a client library signs: HMAC hex over query + body as sent. The
// requests go out as given through the typed client's raw `request()`.
import { expect, SpotSimClient, type Simulator } from 'spot-sim/fixture';
import type { RawRestRequest, RestClient, RestResponse } from 'spot-sim';
import { hmacSigner } from './support/signing.ts';
import { withSimConfig } from './support/helpers.ts';

const test = withSimConfig({ sim: { generator: { enabled: false } } });

function signed(sim: Simulator, query: string): string {
  const q = `${query}${query ? '&' : ''}timestamp=${Date.now()}`;
  return `${q}&signature=${hmacSigner(sim.credentials.apiSecret)(q)}`;
}

/** GET of a path (or a full URL of the other listener) with optional headers; the body parsed. */
function getter(rest: RestClient, sim: Simulator) {
  return (pathOrUrl: string, headers?: Record<string, string>): Promise<RestResponse<any>> => {
    if (pathOrUrl.startsWith(sim.urls.https)) return tls(sim, (c) => c.rest.request({ method: 'GET', path: pathOrUrl.slice(sim.urls.https.length), headers }));
    return rest.request({ method: 'GET', path: pathOrUrl.startsWith(sim.urls.http) ? pathOrUrl.slice(sim.urls.http.length) : pathOrUrl, headers });
  };
}

/** One call through a client on the TLS listener. */
async function tls<T>(sim: Simulator, call: (client: SpotSimClient) => Promise<T>): Promise<T> {
  const client = new SpotSimClient(sim, { tls: true });
  try {
    return await call(client);
  } finally {
    await client.close();
  }
}

test('public endpoints answer on both listeners with the weight header', async ({ sim, client }) => {
  const get = getter(client.rest, sim);
  for (const base of [sim.urls.http, sim.urls.https]) {
    const ping = await get(`${base}/api/v3/ping`);
    expect(ping.status).toBe(200);
    expect(ping.body).toEqual({});
    expect(Number(ping.headers['x-mbx-used-weight-1m'])).toBeGreaterThan(0);
    const time = (await get(`${base}/api/v3/time`)).body;
    expect(Math.abs(time.serverTime - Date.now())).toBeLessThan(5000);
  }
  const info = (await get('/api/v3/exchangeInfo?symbols=%5B%22ETHUSDT%22%5D')).body;
  expect(info.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['ETHUSDT']);
  expect(info.symbols[0].filters.map((f: { filterType: string }) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MAX_NUM_ORDERS']);
  expect(info.rateLimits[0]).toEqual({ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 });
  const bad = await get('/api/v3/depth?symbol=NOPE');
  expect(bad.status).toBe(400);
  expect(bad.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
  expect((await get('/api/v3/depth?symbol=BTCUSDT&limit=5001')).status).toBe(400);
});

test('a signed order round trip: place (query and form body), query, list, cancel, myTrades', async ({ sim, client }) => {
  const get = getter(client.rest, sim);
  const send = (method: RawRestRequest['method'], path: string, headers: Record<string, string>) => client.rest.request<any>({ method, path, headers });
  const headers = { 'X-MBX-APIKEY': sim.credentials.apiKey };
  // Form body, as ccxt sends it.
  const body = signed(sim, 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000&newClientOrderId=e2e-1');
  const placed = await client.rest.request<any>({ method: 'POST', path: '/api/v3/order', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body });
  expect(placed.status).toBe(200);
  const order = placed.body;
  expect(order).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: 'e2e-1', status: 'NEW', price: '50000.00000000', origQty: '0.00100000', fills: [] });
  expect(placed.headers['x-mbx-order-count-10s']).toBe('1');
  // Query string on TLS, as @binance/spot sends it.
  const got = await get(`${sim.urls.https}/api/v3/order?${signed(sim, `symbol=BTCUSDT&orderId=${order.orderId}`)}`, headers);
  expect(got.body.clientOrderId).toBe('e2e-1');
  const open = (await get(`/api/v3/openOrders?${signed(sim, 'symbol=BTCUSDT')}`, headers)).body;
  expect(open.map((o: { orderId: number }) => o.orderId)).toEqual([order.orderId]);
  const cancelled = await send('DELETE', `/api/v3/order?${signed(sim, `symbol=BTCUSDT&origClientOrderId=e2e-1`)}`, headers);
  expect(cancelled.body).toMatchObject({ status: 'CANCELED', origClientOrderId: 'e2e-1' });
  const gone = await get(`/api/v3/order?${signed(sim, `symbol=BTCUSDT&orderId=${order.orderId}`)}`, headers);
  expect(gone.body).toEqual({ code: -2013, msg: 'Order does not exist.' });
  const none = await send('DELETE', `/api/v3/openOrders?${signed(sim, 'symbol=BTCUSDT')}`, headers);
  expect(none.body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  const trades = await get(`/api/v3/myTrades?${signed(sim, 'symbol=BTCUSDT')}`, headers);
  expect(trades.body).toEqual([]);
  const account = (await get(`/api/v3/account?${signed(sim, 'omitZeroBalances=true')}`, headers)).body;
  expect(account.balances).toContainEqual({ asset: 'USDT', free: '10000000.00000000', locked: '0.00000000' });
});

test('authentication rows of spec 5.4, each with its status, code and message', async ({ sim, client }) => {
  const get = getter(client.rest, sim);
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
    const res = await get(`/api/v3/account?${query}`, headers);
    expect(res.status, query).toBe(status);
    const body = res.body;
    expect(body.code, query).toBe(code);
    if (typeof msg === 'string') expect(body.msg).toBe(msg);
    else expect(body.msg).toMatch(msg);
  }
  // A larger recvWindow within the maximum admits an older timestamp.
  const q = `timestamp=${Date.now() - 10_000}&recvWindow=20000`;
  const ok = await get(`/api/v3/account?${q}&signature=${hmacSigner(sim.credentials.apiSecret)(q)}`, key);
  expect(ok.status).toBe(200);
});

const lowWeightLimit = withSimConfig({ sim: { generator: { enabled: false }, limits: { weight_per_minute: 30 } } });
lowWeightLimit('request weight limit: 429 with -1003 and Retry-After, weight in the header', async ({ client }) => {
  const first = await client.rest.request({ method: 'GET', path: '/api/v3/exchangeInfo' }); // weight 20
  expect(first.headers['x-mbx-used-weight-1m']).toBe('20');
  const second = await client.rest.request<{ code: number }>({ method: 'GET', path: '/api/v3/exchangeInfo' });
  expect(second.status).toBe(429);
  expect(second.body.code).toBe(-1003);
  const retryAfter = Number(second.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
});

test('CORS preflight, unknown paths, oversized bodies: clear answers, the server keeps serving', async ({ sim, client }) => {
  const preflight = await client.rest.request({
    method: 'OPTIONS',
    path: '/api/v3/order',
    headers: { Origin: 'http://ui.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-mbx-apikey' },
  });
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
  expect(preflight.headers['access-control-allow-headers']).toContain('x-mbx-apikey');
  const missing = await client.rest.request<{ code: number }>({ method: 'GET', path: '/api/v3/historicalBlockTrades?symbol=BTCUSDT' });
  expect(missing.status).toBe(404);
  expect(missing.body.code).toBe(-1000);
  const huge = await client.rest.request({ method: 'POST', path: '/api/v3/order', body: 'a='.padEnd(70_000, 'x'), headers: { 'X-MBX-APIKEY': sim.credentials.apiKey } });
  expect(huge.status).toBe(413);
  expect((await client.rest.request({ method: 'GET', path: '/api/v3/ping' })).status).toBe(200);
});
