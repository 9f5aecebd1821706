// Fault rules (API.md 3.1) through the fixture, asserted on what a client sees over real sockets
// on both transports: an injected code answered as the reference answers it (REST body and
// headers, WS API error), a delayed reply, a reply that never comes, a connection that closes,
// `times`, hits, remove(), '*' and arrays; the control API's rule routes; refused rules.
import { performance } from 'node:perf_hooks';
import { test, expect } from 'spot-sim/fixture';
import type { Simulator } from 'spot-sim';
import { buy, refusal, SYMBOL } from './support/helpers.ts';
import { stillPending } from './support/raw-ws.ts';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

test.describe('rules through sim.faults.use()', () => {
  test('{ error } on one transport: the WS API cancel gets -2011 as the reference sends it, REST is untouched, once', async ({ client, faults }) => {
    const api = await client.wsApi();
    const a = await client.rest.newOrder(buy('50000'));
    const b = await client.rest.newOrder(buy('50001'));
    const rule = await faults.use({ on: 'order.cancel', transport: 'ws-api', action: { error: -2011 } });

    const refused = await api.send('order.cancel', { symbol: SYMBOL, orderId: a.orderId }, { signed: true });
    expect(refused).toMatchObject({ status: 400, error: { code: -2011, msg: 'Unknown order sent.' } });
    expect(rule.hits).toBe(1);
    // Nothing changed; the rule is spent (times 1), and REST was never its target.
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toHaveLength(2);
    await expect(api.cancelOrder({ symbol: SYMBOL, orderId: a.orderId })).resolves.toMatchObject({ status: 'CANCELED' });
    await expect(client.rest.cancelOrder({ symbol: SYMBOL, orderId: b.orderId })).resolves.toMatchObject({ status: 'CANCELED' });
    expect(rule.hits).toBe(1);
  });

  test("{ error: -1003 } on '*': 429 with Retry-After on REST and error.data.retryAfter on the WS API, for `times` requests", async ({ client, faults }) => {
    const api = await client.wsApi();
    const rule = await faults.use({ on: '*', times: 2, action: { error: -1003 } });
    const rest = await client.rest.request<{ code: number; msg: string }>({ method: 'GET', path: '/api/v3/time' });
    expect(rest.status).toBe(429);
    expect(rest.body).toEqual({ code: -1003, msg: expect.stringMatching(/^Too much request weight used; current limit is 6000 request weight per 1 MINUTE\./) });
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const ws = await api.send('depth', { symbol: SYMBOL });
    expect(ws).toMatchObject({ status: 429, error: { code: -1003, data: { retryAfter: expect.any(Number) } } });
    await expect(client.rest.time()).resolves.toMatchObject({ serverTime: expect.any(Number) });
    expect(rule.hits).toBe(2);
  });

  test('an array of endpoints with an auth code and times 0: every request to them gets 401 -2015 until remove()', async ({ client, faults }) => {
    const api = await client.wsApi();
    const rule = await faults.use({ on: ['account.status', 'order.status'], times: 0, action: { error: -2015 } });
    for (let i = 0; i < 3; i++) expect(await refusal(client.rest.account())).toMatchObject({ status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    expect(await api.send('account.status', {}, { signed: true })).toMatchObject({ status: 401, error: { code: -2015 } });
    expect(await refusal(client.rest.getOrder({ symbol: SYMBOL, orderId: 1 }))).toMatchObject({ status: 401, code: -2015 });
    // Other endpoints, public or signed, are not its targets.
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
    await expect(client.rest.ping()).resolves.toEqual({});
    expect(rule.hits).toBe(5);
    rule.remove();
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    expect(rule.hits).toBe(5);
  });

  test('{ status, code, msg }: exactly that reply on both transports, and the handler does not run', async ({ sim, client, faults }) => {
    const api = await client.wsApi();
    const msg = 'Internal error; unable to process your request. Please try again.';
    await faults.use({ on: 'order.place', times: 2, action: { status: 503, code: -1001, msg } });
    expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject({ status: 503, code: -1001, msg });
    expect(await api.send('order.place', { ...buy('50000') }, { signed: true })).toMatchObject({ status: 503, error: { code: -1001, msg } });
    expect(sim.openClientOrderIds()).toEqual([]);
  });

  test('{ delayMs }: the reply comes no sooner than the delay, then its user events; other endpoints answer at once', async ({ client, faults }) => {
    const user = await client.userData();
    const api = await client.wsApi();
    await faults.use({ on: 'order.place', times: 2, action: { delayMs: 300 } });
    let sent = performance.now();
    const order = await client.rest.newOrder(buy('50000'));
    expect(performance.now() - sent).toBeGreaterThanOrEqual(300);
    expect(await user.next('executionReport')).toMatchObject({ i: order.orderId, x: 'NEW' });
    sent = performance.now();
    await api.placeOrder(buy('50001'));
    expect(performance.now() - sent).toBeGreaterThanOrEqual(300);
    sent = performance.now();
    await client.rest.ping();
    await api.placeOrder(buy('50002'));
    expect(performance.now() - sent).toBeLessThan(300);
  });

  test('{ swallow }: carried out without a reply; on REST the request is held until the rule is removed', async ({ sim, client, faults }) => {
    const rest = await faults.use({ on: 'order.place', transport: 'rest', action: { swallow: true } });
    const held = client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'swallowed-rest' }));
    expect(await stillPending(held, 300)).toBe('pending');
    expect(sim.openClientOrderIds()).toEqual(['swallowed-rest']);
    rest.remove();
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);

    const api = await client.wsApi();
    const ws = await faults.use({ on: 'order.place', transport: 'ws-api', action: { swallow: true } });
    const lost = api.placeOrder(buy('50001', '0.001', { newClientOrderId: 'swallowed-ws' }));
    // Replies of one connection come in order: the ping's reply means the order's never will.
    await expect(api.send('ping')).resolves.toMatchObject({ status: 200 });
    expect(await stillPending(lost, 0)).toBe('pending');
    expect(sim.openClientOrderIds()).toEqual(['swallowed-rest', 'swallowed-ws']);
    expect(ws.hits).toBe(1);
  });

  test('{ close }: carried out, then the connection closes instead of the reply (REST and WS API)', async ({ sim, client, faults }) => {
    await faults.use({ on: 'order.place', times: 2, action: { close: true } });
    await expect(client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'closed-rest' }))).rejects.toThrow(/socket hang up|ECONNRESET|other side closed|fetch failed/);
    const api = await client.wsApi();
    await expect(api.placeOrder(buy('50001', '0.001', { newClientOrderId: 'closed-ws' }))).rejects.toThrow(/WS API connection closed \(1006/);
    expect(sim.openClientOrderIds()).toEqual(['closed-rest', 'closed-ws']);
    await expect(client.rest.newOrder(buy('50002'))).resolves.toMatchObject({ status: 'NEW' });
  });

  test('rules() lists users\' rules and the presets of the spec\'s calls with their hits; clear() removes them all', async ({ client, faults }) => {
    const mine = await faults.use({ on: ['depth', 'ticker.book'], transport: 'rest', times: 0, action: { delayMs: 1 } });
    await faults.rejectNextOrders(2);
    await client.rest.depth({ symbol: SYMBOL });
    expect(await faults.rules()).toEqual([
      { id: mine.id, on: ['depth', 'ticker.book'], transport: 'rest', times: 0, hits: 1, action: { delayMs: 1 } },
      { id: expect.any(Number), on: ['order.place'], times: 2, hits: 0, action: { status: 400, code: -2010, msg: 'Market is closed.' }, preset: 'rejectNextOrders' },
    ]);
    expect(await faults.endpoints()).toContainEqual({ id: 'order.place', transports: ['rest', 'ws-api'], rest: 'POST /api/v3/order' });
    await faults.clear();
    expect(await faults.rules()).toEqual([]);
    await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
  });

  test('a bad rule is refused with a TypeError naming the problem, and nothing is armed', async ({ client, faults }) => {
    expect(() => faults.use({ on: 'order.explode', action: { error: -2011 } })).toThrow(new TypeError("unknown endpoint 'order.explode'; see sim.faults.endpoints() (GET /sim/v1/faults/endpoints)"));
    expect(() => faults.use({ on: 'ping', action: { crash: true } } as never)).toThrow(TypeError);
    expect(() => faults.use({ on: 'ping', action: { error: -2015 } })).toThrow(/never answers -2015/);
    expect(await faults.rules()).toEqual([]);
    await expect(client.rest.ping()).resolves.toEqual({});
  });
});

test.describe('rule routes of the control API', () => {
  async function control(sim: Simulator, method: string, route: string, body?: unknown) {
    const res = await fetch(`${sim.urls.http}/sim/v1/faults/${route}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  test('POST rules -> {result: {id}}, GET rules with hits, DELETE rules/<id>, GET endpoints', async ({ sim, client }) => {
    const added = await control(sim, 'POST', 'rules', { on: 'order.place', transport: 'rest', times: 0, action: { error: -1013 } });
    expect(added).toEqual({ status: 200, body: { result: { id: expect.any(Number) } } });
    const id = added.body.result.id as number;
    expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject({ status: 400, code: -1013, msg: 'Filter failure: PRICE_FILTER' });
    expect(await control(sim, 'GET', 'rules')).toEqual({ status: 200, body: { result: [{ id, on: 'order.place', transport: 'rest', times: 0, hits: 1, action: { error: -1013 } }] } });
    expect(await control(sim, 'DELETE', `rules/${id}`)).toEqual({ status: 200, body: { result: null } });
    await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
    expect(await control(sim, 'GET', 'rules')).toEqual({ status: 200, body: { result: [] } });
    const endpoints = await control(sim, 'GET', 'endpoints');
    expect(endpoints.body.result).toContainEqual({ id: 'session.logon', transports: ['ws-api'] });
    expect(endpoints.body.result).toContainEqual({ id: 'userDataStream.start', transports: ['rest'], rest: 'POST /api/v3/userDataStream' });
  });

  test('bad rules answer 400 naming the problem, unknown ids 404, wrong methods 405', async ({ sim, client }) => {
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', 'rules', { on: 'nope', action: { error: -2011 } }, 400, /unknown endpoint 'nope'/],
      ['POST', 'rules', { on: 'ping', action: { teleport: true } }, 400, /unknown action \{"teleport":true\}/],
      ['POST', 'rules', { on: 'ping', action: { delayMs: -1 } }, 400, /delayMs must be an integer from 0/],
      ['POST', 'rules', [1], 400, /the body must be a JSON object/],
      ['DELETE', 'rules/424242', undefined, 404, /no fault rule with id 424242/],
      ['DELETE', 'rules/abc', undefined, 404, /no fault rule with id "abc"/],
      ['PUT', 'rules', undefined, 405, /PUT is not allowed on \/sim\/v1\/faults\/rules; allowed: GET, POST, DELETE/],
      ['POST', 'endpoints', undefined, 405, /POST is not allowed/],
    ];
    for (const [method, route, body, status, message] of cases) {
      const r = await control(sim, method, route, body);
      expect(r.status, `${method} ${route}`).toBe(status);
      expect(r.body.error.message, `${method} ${route}`).toMatch(message);
    }
    expect(sim.faults.rules()).toEqual([]);
    await expect(client.rest.ping()).resolves.toEqual({});
  });
});
