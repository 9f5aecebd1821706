// Every fault method of API.md section 3 through the HTTP control API (sections 5 and 6), as a
// bot in another language drives it: `POST /sim/v1/faults/<method>` with its named arguments on
// both listeners, answering `{"result": <return value>}` and taking effect as the in-process call
// does. The routes' other uses (stats, mark, reset, advance-time, refusals, the token) are in
// control-api-routes.spec.ts.
import { performance } from 'node:perf_hooks';
import { expect, type FixtureFaults, type Simulator, type SpotSimClient } from 'spot-sim/fixture';
import { controlTestWith } from './support/control.ts';
import { closeRawConnections, RawWs, stillPending } from './support/raw-ws.ts';
import { buy, noConnections, refusal, SYMBOL } from './support/helpers.ts';
import { LISTENERS } from './support/rest.ts';

const test = controlTestWith({ sim: { generator: { enabled: false } } });
test.afterEach(closeRawConnections);

interface Fixtures {
  readonly sim: Simulator;
  readonly client: SpotSimClient;
  readonly faults: FixtureFaults;
}
interface FaultCase {
  readonly method: string;
  /** Calls the method through the control API (on the case's listener) and checks what a client sees. */
  run(t: Fixtures, call: (args?: Record<string, unknown>) => Promise<unknown>): Promise<void>;
}

const CASES: readonly FaultCase[] = [
  {
    method: 'dropMarketDataConnections',
    async run({ sim }, call) {
      await noConnections(sim);
      const md = await RawWs.open(sim, '/ws/btcusdt@trade');
      const api = await RawWs.open(sim, '/ws-api/v3');
      expect(await call()).toBe(1);
      await md.closedWithin();
      expect((await api.call('ping')).status).toBe(200);
    },
  },
  {
    method: 'dropWsApiConnections',
    async run({ sim, client }, call) {
      await noConnections(sim);
      const api = await RawWs.open(sim, '/ws-api/v3');
      const { listenKey } = await client.rest.startUserDataStream();
      const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
      expect(await call({ includeUserStreams: false })).toBe(1);
      await api.closedWithin();
      await legacy.barrier();
      expect(await call({ includeUserStreams: true })).toBe(1);
      await legacy.closedWithin();
    },
  },
  {
    method: 'skipNextDepthUpdate',
    async run({ sim }, call) {
      // The gap itself is asserted in faults-depth.spec.ts; here: accepted and counted.
      const before = sim.stats().faults.skippedDepthUpdates;
      expect(await call()).toBeNull();
      expect(sim.stats().faults.skippedDepthUpdates).toBe(before + 1);
    },
  },
  {
    method: 'failNextTimestamp',
    async run({ client }, call) {
      expect(await call()).toBeNull();
      expect(await refusal(client.rest.account())).toMatchObject({ status: 400, code: -1021 });
      await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    },
  },
  {
    method: 'setRestUnresponsive',
    async run({ client }, call) {
      expect(await call({ on: true })).toBeNull();
      const held = client.rest.time();
      expect(await stillPending(held, 200)).toBe('pending');
      // The control API itself stays responsive: that is how REST is switched back on.
      expect(await call({ on: false })).toBeNull();
      await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
      await expect(client.rest.ping()).resolves.toEqual({});
    },
  },
  {
    method: 'setAckDelayMs',
    async run({ sim }, call) {
      const api = await RawWs.open(sim, '/ws-api/v3');
      expect(await call({ ms: 200 })).toBeNull();
      const sent = performance.now();
      const reply = await api.reply(api.request('order.place', { ...buy('50000') }, true));
      expect(reply.json.status).toBe(200);
      expect(reply.at - sent).toBeGreaterThanOrEqual(200);
      expect(await call({ ms: 0 })).toBeNull();
    },
  },
  {
    method: 'rejectNextOrders',
    async run({ client }, call) {
      expect(await call({ k: 1 })).toBeNull();
      expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject({ code: -2010, msg: 'Market is closed.' });
      await expect(client.rest.newOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
    },
  },
  {
    method: 'rateLimitNextRequests',
    async run({ client }, call) {
      expect(await call({ k: 1 })).toBeNull();
      const r = await client.rest.request<{ code: number }>({ method: 'GET', path: '/api/v3/ping' });
      expect([r.status, r.body.code, r.headers['retry-after'] !== undefined]).toEqual([429, -1003, true]);
      await expect(client.rest.ping()).resolves.toEqual({});
    },
  },
  {
    method: 'setClockOffsetMs',
    async run({ client }, call) {
      expect(await call({ ms: 90_000 })).toBeNull();
      const before = Date.now();
      expect((await client.rest.time()).serverTime).toBeGreaterThanOrEqual(before + 90_000);
      expect(await call({ ms: -90_000 })).toBeNull();
      expect((await client.rest.time()).serverTime).toBeLessThanOrEqual(Date.now() - 90_000);
      expect(await call({ ms: 0 })).toBeNull();
    },
  },
  {
    method: 'expireListenKeys',
    async run({ sim, client }, call) {
      const { listenKey } = await client.rest.startUserDataStream();
      const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
      expect(await call()).toBe(1);
      expect((await legacy.frame((f) => f.json?.e === 'listenKeyExpired')).json.listenKey).toBe(listenKey);
      expect(await call()).toBe(0);
    },
  },
  {
    method: 'swallowNextWsApiResponses',
    async run({ sim }, call) {
      const api = await RawWs.open(sim, '/ws-api/v3');
      expect(await call({ k: 1 })).toBeNull();
      const swallowed = api.request('time');
      await api.reply(api.request('ping'));
      expect(api.log.some((f) => f.json?.id === swallowed)).toBe(false);
    },
  },
  {
    method: 'duplicateNextUserEvents',
    async run({ client }, call) {
      const user = await client.userData();
      expect(await call({ k: 1 })).toBeNull();
      const order = await client.rest.newOrder(buy('50000'));
      const first = await user.next();
      expect(first).toMatchObject({ e: 'executionReport', i: order.orderId });
      expect(await user.next()).toEqual(first);
      expect(await user.next()).toMatchObject({ e: 'outboundAccountPosition' });
    },
  },
  {
    method: 'setUserStreamMuted',
    async run({ client }, call) {
      const user = await client.userData();
      expect(await call({ muted: true })).toBeNull();
      await client.rest.newOrder(buy('50000'));
      expect(await call({ muted: false })).toBeNull();
      const heard = await client.rest.newOrder(buy('50001'));
      expect(await user.next()).toMatchObject({ e: 'executionReport', i: heard.orderId });
    },
  },
  {
    method: 'fillOpenOrder',
    async run({ client }, call) {
      const order = await client.rest.newOrder(buy('59000', '0.002'));
      expect(await call({ orderId: order.orderId, qty: '0.001' })).toBe('0.00100000');
      expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => [o.orderId, o.executedQty])).toEqual([[order.orderId, '0.00100000']]);
    },
  },
  {
    method: 'banNextRequests',
    async run({ client }, call) {
      expect(await call({ k: 1 })).toBeNull();
      const r = await client.rest.request({ method: 'GET', path: '/api/v3/time' });
      expect([r.status, r.headers['retry-after'] !== undefined]).toEqual([418, true]);
      await expect(client.rest.time()).resolves.toMatchObject({ serverTime: expect.any(Number) });
    },
  },
  {
    method: 'failNextAuth',
    async run({ client }, call) {
      expect(await call({ k: 1 })).toBeNull();
      expect(await refusal(client.rest.account())).toMatchObject({ status: 401, code: -2015 });
      await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    },
  },
  {
    method: 'sendMalformedFrames',
    async run({ sim }, call) {
      await noConnections(sim);
      const md = await RawWs.open(sim, '/ws/btcusdt@trade');
      const api = await RawWs.open(sim, '/ws-api/v3');
      expect(await call({ md: true, wsApi: true })).toBe(2);
      for (const c of [md, api]) await c.frame((f) => f.json === undefined);
      expect(await call({ md: false, wsApi: false })).toBe(0);
    },
  },
  {
    method: 'clear',
    async run({ client, faults }, call) {
      faults.rejectNextOrders(2);
      faults.setUserStreamMuted(true);
      expect(await call()).toBeNull();
      const user = await client.userData();
      const order = await client.rest.newOrder(buy('50000'));
      expect(await user.next()).toMatchObject({ i: order.orderId });
    },
  },
];

test.describe('fault methods', () => {
  test.beforeEach(({ sim }) => sim.reset());

  test('the control API offers exactly the fault methods of API.md section 3', async ({ faults }) => {
    // The rule methods (API.md 3.1) have routes of their own: fault-rules.spec.ts.
    const ruleMethods = ['use', 'rules', 'rule', 'endpoints', 'removeRule', 'removeRules'];
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(faults)).filter((m) => ![...ruleMethods, 'constructor', 'state', 'counters', 'schedule', 'tick', 'nextTimedAt'].includes(m));
    expect(CASES.map((c) => c.method).sort()).toEqual(methods.sort());
  });

  for (const listener of LISTENERS) {
    for (const c of CASES) {
      test(`POST /sim/v1/faults/${c.method} on ${listener}`, async ({ sim, client, faults, control }) => {
        await c.run({ sim, client, faults }, (args = {}) => control.fault(listener, c.method, args));
      });
    }
  }
});
