// The HTTP control API's routes besides the fault methods (API.md sections 5 and 6), as a bot in
// another language drives them: plain HTTP(S) requests with Playwright's request context, on
// both listeners. Stats, mark, open client order ids (and the extra reset and advance-time
// routes); 400 naming what was wrong; the bearer token; off when disabled or (without a token)
// on a non-loopback bind. Every fault method by name is in control-api-faults.spec.ts; Host and
// Origin checks in control-api-access.spec.ts.
import { expect } from 'spot-sim/fixture';
import { controlTestWith } from './support/control.ts';
import { buy, refusal, SYMBOL } from './support/helpers.ts';
import { LISTENERS } from './support/rest.ts';

const test = controlTestWith({ sim: { generator: { enabled: false } } });

// ------------------------------------------------------------------ introspection routes

test.describe('stats, mark, open client order ids, reset, advance-time', () => {
  test.beforeEach(({ sim }) => sim.reset());

  for (const listener of LISTENERS) {
    test(`GET stats, POST mark and GET open-client-order-ids on ${listener}`, async ({ sim, client, control }) => {
      await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'cid-a' }));
      await client.rest.newOrder(buy('50001', '0.001', { newClientOrderId: 'cid-b' }));

      const stats = await control.request(listener, 'GET', 'stats');
      expect(stats.status).toBe(200);
      const result = stats.body.result;
      for (const key of ['connections', 'orders', 'rejects', 'cancels', 'replaces', 'fills', 'triggers', 'openOrders', 'publicTrades', 'depthDiffs', 'tickers', 'snapshots', 'restRequests', 'wsApiRequests', 'rateLimited', 'authErrors', 'position', 'touch', 'duplicateClientOrderIds', 'sinceMark']) {
        expect(result, key).toHaveProperty(key);
      }
      // A depth batch of the two orders may be published between the two reads: the counters
      // it moves (depthDiffs, tickers) may only have grown by the in-process read.
      const { connections: _c, depthDiffs: diffsAfter, tickers: tickersAfter, ...inProcess } = JSON.parse(JSON.stringify(sim.stats()));
      const { connections: _r, depthDiffs: diffsBefore, tickers: tickersBefore, ...overHttp } = result;
      expect(overHttp).toEqual(inProcess);
      expect(diffsBefore).toBeLessThanOrEqual(diffsAfter);
      expect(tickersBefore).toBeLessThanOrEqual(tickersAfter);
      expect(result).toMatchObject({ openOrders: 2, touch: { BTCUSDT: { bid: '50001.00000000', ask: null } }, sinceMark: { orders: 2, minOpenOrders: 0 } });
      const usdt = (await client.rest.account()).balances.find((b) => b.asset === 'USDT')!;
      expect(result.position.USDT).toEqual({ free: usdt.free, locked: usdt.locked });
      expect(Number(usdt.locked)).toBeGreaterThanOrEqual(100.001);

      expect(await control.request(listener, 'POST', 'mark')).toEqual({ status: 200, body: { result: null } });
      const marked = (await control.request(listener, 'GET', 'stats')).body.result.sinceMark;
      expect(marked).toEqual({ minOpenOrders: 2, orders: 0, cancels: 0, fills: 0, triggers: 0, cancelAlls: 0, openOrderQueries: 0, myTradesQueries: 0, sessionsOpened: 0 });

      expect(await control.request(listener, 'GET', 'open-client-order-ids')).toEqual({ status: 200, body: { result: ['cid-a', 'cid-b'] } });
      await client.rest.cancelOrder({ symbol: SYMBOL, origClientOrderId: 'cid-a' });
      expect((await control.request(listener, 'GET', 'open-client-order-ids')).body.result).toEqual(['cid-b']);
      // The control API is not part of the exchange's API: not counted, not weighed.
      const restRequests = sim.stats().restRequests;
      await control.request(listener, 'GET', 'stats');
      expect(sim.stats().restRequests).toBe(restRequests);
    });

    test(`POST reset on ${listener}: orders, balances and ids back to the start`, async ({ client, control }) => {
      const start = await client.rest.account();
      const first = await client.rest.newOrder(buy('50000'));
      await client.rest.newOrder(buy('50001'));
      expect(await control.request(listener, 'POST', 'reset')).toEqual({ status: 200, body: { result: null } });
      expect((await control.request(listener, 'GET', 'open-client-order-ids')).body.result).toEqual([]);
      expect((await client.rest.account()).balances).toEqual(start.balances);
      expect((await client.rest.newOrder(buy('50000'))).orderId).toBe(first.orderId);
    });

    test(`POST advance-time on ${listener} needs a manual clock: 409 naming it`, async ({ control }) => {
      const r = await control.request(listener, 'POST', 'advance-time', { ms: 1000 });
      expect(r.status).toBe(409);
      expect(r.body.error.message).toMatch(/manual/);
    });
  }
});

// ------------------------------------------------------------------ refusals

test.describe('bad requests', () => {
  const cases: [string, 'GET' | 'POST', string, unknown, number, RegExp][] = [
    ['unknown method', 'POST', 'faults/explode', {}, 404, /unknown fault method 'explode'/],
    ['prototype name', 'POST', 'faults/constructor', {}, 404, /unknown fault method 'constructor'/],
    ['internal method', 'POST', 'faults/schedule', {}, 404, /unknown fault method 'schedule'/],
    ['missing argument', 'POST', 'faults/rejectNextOrders', {}, 400, /missing argument 'k'/],
    ['no body at all', 'POST', 'faults/setAckDelayMs', undefined, 400, /missing argument 'ms'/],
    ['string count', 'POST', 'faults/rejectNextOrders', { k: '3' }, 400, /k must be a non-negative integer/],
    ['negative count', 'POST', 'faults/banNextRequests', { k: -1 }, 400, /k must be a non-negative integer/],
    ['fractional count', 'POST', 'faults/failNextAuth', { k: 1.5 }, 400, /k must be a non-negative integer/],
    ['unknown argument', 'POST', 'faults/rateLimitNextRequests', { k: 1, n: 2 }, 400, /unknown argument 'n'; expected k/],
    ['argument to a method without any', 'POST', 'faults/dropMarketDataConnections', { all: true }, 400, /unknown argument 'all'; expected none/],
    ['not a boolean', 'POST', 'faults/setRestUnresponsive', { on: 'yes' }, 400, /on must be true or false/],
    ['one of two missing', 'POST', 'faults/sendMalformedFrames', { md: true }, 400, /missing argument 'wsApi'/],
    ['includeUserStreams not a boolean', 'POST', 'faults/dropWsApiConnections', { includeUserStreams: 1 }, 400, /includeUserStreams must be true or false/],
    ['offset not an integer', 'POST', 'faults/setClockOffsetMs', { ms: 'soon' }, 400, /ms must be an integer/],
    ['unknown order', 'POST', 'faults/fillOpenOrder', { orderId: 424242, qty: '0.001' }, 400, /order 424242 is not an open order/],
    ['bad order id', 'POST', 'faults/fillOpenOrder', { orderId: 'x', qty: '0.001' }, 400, /orderId must be a positive integer/],
    ['missing qty', 'POST', 'faults/fillOpenOrder', { orderId: 1 }, 400, /missing argument 'qty'/],
    ['body not JSON', 'POST', 'faults/rejectNextOrders', 'k=3', 400, /body must be a JSON object/],
    ['body an array', 'POST', 'faults/rejectNextOrders', [3], 400, /body must be a JSON object/],
    ['body a number', 'POST', 'faults/rejectNextOrders', '3', 400, /body must be a JSON object/],
    ['advance-time with a negative ms', 'POST', 'advance-time', { ms: -5 }, 400, /ms must be a non-negative integer/],
    ['GET on a fault method', 'GET', 'faults/rejectNextOrders', undefined, 405, /GET is not allowed on \/sim\/v1\/faults\/rejectNextOrders; allowed: POST/],
    ['POST stats', 'POST', 'stats', undefined, 405, /POST is not allowed on \/sim\/v1\/stats; allowed: GET/],
    ['GET mark', 'GET', 'mark', undefined, 405, /GET is not allowed on \/sim\/v1\/mark; allowed: POST/],
    ['unknown route', 'GET', 'nothing-here', undefined, 404, /unknown control route/],
  ];
  for (const listener of LISTENERS) {
    test(`400 (404 for an unknown route, 405 for a wrong method) naming the problem, nothing changed, on ${listener}`, async ({ client, control, sim }) => {
      const stats = JSON.stringify(sim.stats().faults);
      for (const [what, method, route, body, status, message] of cases) {
        const r = await control.request(listener, method, route, body);
        expect(r.status, what).toBe(status);
        expect(r.body.error.message, what).toMatch(message);
      }
      // None of the refused calls armed anything.
      expect(JSON.stringify(sim.stats().faults)).toBe(stats);
      await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
      await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    });
  }

  test('the control API is not subject to the API faults it arms', async ({ client, control }) => {
    await control.fault('http', 'banNextRequests', { k: 1 });
    await control.fault('https', 'rateLimitNextRequests', { k: 1 });
    await control.fault('http', 'failNextAuth', { k: 1 });
    expect((await control.request('https', 'GET', 'stats')).status).toBe(200);
    // ...they are all still pending for the exchange's API.
    expect((await client.rest.request({ method: 'GET', path: '/api/v3/ping' })).status).toBe(418);
  });
});

// ------------------------------------------------------------------ access

const TOKEN = 'c0ntrol-t0ken';
const withToken = controlTestWith({ sim: { generator: { enabled: false }, control_token: TOKEN } });
withToken.describe('with control_token', () => {
  for (const listener of LISTENERS) {
    withToken(`every route needs Authorization: Bearer <token> on ${listener} (401 otherwise)`, async ({ client, control, faults }) => {
      for (const headers of [{}, { Authorization: 'Bearer wrong' }, { Authorization: TOKEN }, { Authorization: `Basic ${TOKEN}` }, { Authorization: `Bearer ${TOKEN}x` }] as Record<string, string>[]) {
        for (const [method, route] of [['GET', 'stats'], ['POST', 'mark'], ['GET', 'open-client-order-ids'], ['POST', 'faults/rejectNextOrders'], ['POST', 'reset'], ['GET', 'nothing-here']] as const) {
          const r = await control.request(listener, method, route, route.startsWith('faults/') ? { k: 1 } : undefined, headers);
          expect(r.status, `${method} ${route} with ${JSON.stringify(headers)}`).toBe(401);
          expect(r.body.error.message).toMatch(/Authorization: Bearer/);
        }
      }
      await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });

      const auth = { Authorization: `Bearer ${TOKEN}` };
      expect(await control.request(listener, 'POST', 'faults/rejectNextOrders', { k: 1 }, auth)).toEqual({ status: 200, body: { result: null } });
      expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject({ code: -2010 });
      expect((await control.request(listener, 'GET', 'stats', undefined, auth)).status).toBe(200);
      expect((await control.request(listener, 'GET', 'nothing-here', undefined, auth)).status).toBe(404);
      // The exchange's API does not need the token.
      await expect(client.rest.ping()).resolves.toEqual({});
      faults.clear();
    });
  }
});

const disabled = controlTestWith({ sim: { generator: { enabled: false }, control_api: false } });
disabled.describe('with control_api = false', () => {
  for (const listener of LISTENERS) {
    disabled(`every /sim/v1 route is 404 on ${listener} and nothing is armed`, async ({ client, control, sim }) => {
      for (const [method, route] of [['GET', 'stats'], ['POST', 'mark'], ['GET', 'open-client-order-ids'], ['POST', 'faults/rejectNextOrders'], ['POST', 'reset']] as const) {
        const r = await control.request(listener, method, route, route.startsWith('faults/') ? { k: 1 } : undefined);
        expect(r.status, `${method} ${route}`).toBe(404);
      }
      expect(sim.stats().faults.rejectedOrders).toBe(0);
      await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
    });
  }
});

const exposed = controlTestWith({ sim: { generator: { enabled: false }, bind: '0.0.0.0' } });
exposed.describe('on a non-loopback bind without a token', () => {
  exposed('the control API is off (404)', async ({ control, client }) => {
    for (const listener of LISTENERS) expect((await control.request(listener, 'GET', 'stats')).status).toBe(404);
    await expect(client.rest.ping()).resolves.toEqual({});
  });
});

const exposedWithToken = controlTestWith({ sim: { generator: { enabled: false }, bind: '0.0.0.0', control_token: TOKEN } });
exposedWithToken.describe('on a non-loopback bind with a token', () => {
  exposedWithToken('the control API is on and needs the token', async ({ control }) => {
    for (const listener of LISTENERS) {
      expect((await control.request(listener, 'GET', 'stats')).status).toBe(401);
      expect((await control.request(listener, 'GET', 'stats', undefined, { Authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    }
  });
});

const manual = controlTestWith({ sim: { generator: { enabled: false }, clock: 'manual', start_time_ms: 1_700_000_000_000 } });
manual.describe('with a manual clock', () => {
  for (const listener of LISTENERS) {
    manual(`POST advance-time moves the simulator clock on ${listener}`, async ({ sim, client, control }) => {
      const before = sim.now();
      expect(await control.request(listener, 'POST', 'advance-time', { ms: 1_500 })).toEqual({ status: 200, body: { result: null } });
      expect(sim.now()).toBe(before + 1_500);
      await expect(client.rest.time()).resolves.toEqual({ serverTime: before + 1_500 });
      const bad = await control.request(listener, 'POST', 'advance-time', { ms: 'later' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/ms must be a non-negative integer/);
      expect((await control.request(listener, 'POST', 'advance-time', {})).body.error.message).toMatch(/missing argument 'ms'/);
      expect(sim.now()).toBe(before + 1_500);
    });
  }
});
