// The faults of spec 4.5 / API.md section 3 that act on requests and their replies, driven
// through `sim.faults` and asserted on what a client sees over real sockets: the refusal and its
// headers (-1021, -2010, 429, 418, 401), the reply that is late or never comes, the moved server
// clock; also fillOpenOrder and clear(). A quiet book (generator off) on the wall clock, reset
// before each test so ids and balances start over. Faults on connections and streams are in
// faults-streams.spec.ts; depth-stream faults in faults-depth.spec.ts.
import { performance } from 'node:perf_hooks';
import { test, expect } from 'spot-sim/fixture';
import type { ExecutionReportEvent } from 'spot-sim';
import { closeRawConnections, RawWs, stillPending } from './support/raw-ws.ts';
import { buy, refusal, sell, SYMBOL } from './support/helpers.ts';

test.afterEach(closeRawConnections);

test.use({ simConfig: { sim: { generator: { enabled: false } } } });
test.beforeEach(({ sim }) => sim.reset());

test.describe('faults on a quiet book', () => {
  test('failNextTimestamp: the next signed request gets -1021 once, unsigned ones do not consume it', async ({ client, faults }) => {
    faults.failNextTimestamp();
    await expect(client.rest.ping()).resolves.toEqual({});
    await expect(client.rest.depth({ symbol: SYMBOL, limit: 5 })).resolves.toMatchObject({ bids: [], asks: [] });
    const refused = await refusal(client.rest.account());
    expect(refused).toMatchObject({ status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });

    // The WS API goes through the same check.
    const api = await client.wsApi();
    faults.failNextTimestamp();
    const ws = await refusal(api.account());
    expect(ws).toMatchObject({ status: 400, code: -1021 });
    await expect(api.account()).resolves.toMatchObject({ accountType: 'SPOT' });
  });

  test('setRestUnresponsive(true): a REST request gets no reply and is not carried out; switching it off closes it and new requests succeed', async ({ sim, client, faults }) => {
    const swallowed = sim.stats().faults.restRequestsSwallowed;
    faults.setRestUnresponsive(true);
    const time = client.rest.time();
    const order = client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'held-order' }));
    expect(await stillPending(time, 300)).toBe('pending');
    expect(await stillPending(order, 50)).toBe('pending');

    // Only REST is swallowed: the WS API still answers, and the held order was not placed.
    const api = await client.wsApi();
    await expect(api.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
    expect(sim.openClientOrderIds()).toEqual([]);

    faults.setRestUnresponsive(false);
    await expect(time).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(order).rejects.toThrow(/socket hang up|ECONNRESET/);
    const after = await client.rest.time();
    expect(Math.abs(after.serverTime - Date.now())).toBeLessThan(1_000);
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
    expect(sim.stats().faults.restRequestsSwallowed - swallowed).toBe(2);
  });

  test('setAckDelayMs: WS API order replies arrive no sooner than the delay, each followed by its own user events, in request order', async ({ sim, faults }) => {
    const api = await RawWs.open(sim, '/ws-api/v3');
    await api.subscribeUserData();
    const start = api.log.length;
    faults.setAckDelayMs(300);

    const sent = performance.now();
    const id1 = api.request('order.place', { ...buy('50000'), newClientOrderId: 'ack-1' }, true);
    const id2 = api.request('order.place', { ...buy('50001'), newClientOrderId: 'ack-2' }, true);
    const r1 = await api.replyIndex(id1);
    const r2 = await api.replyIndex(id2);
    expect(api.log[r1]!.at - sent).toBeGreaterThanOrEqual(300);
    expect(api.log[r2]!.at - sent).toBeGreaterThanOrEqual(300);
    expect(api.log[r1]!.json).toMatchObject({ status: 200, result: { clientOrderId: 'ack-1' } });
    expect(api.log[r2]!.json).toMatchObject({ status: 200, result: { clientOrderId: 'ack-2' } });

    const report = (cid: string) => api.indexOf((f) => f.json?.event?.e === 'executionReport' && f.json.event.c === cid);
    const e1 = await report('ack-1');
    const e2 = await report('ack-2');
    const p1 = await api.indexOf((f) => f.json?.event?.e === 'outboundAccountPosition', e1);
    const p2 = await api.indexOf((f) => f.json?.event?.e === 'outboundAccountPosition', e2);
    // reply 1, its events, reply 2, its events; nothing of either before its reply.
    expect(r1).toBe(start);
    expect([r1, e1, p1, r2, e2, p2]).toEqual([r1, r1 + 1, r1 + 2, r1 + 3, r1 + 4, r1 + 5]);

    // Back to 0: replies are immediate again.
    faults.setAckDelayMs(0);
    const t = performance.now();
    expect((await api.reply(api.request('order.place', { ...buy('49000') }, true))).json.status).toBe(200);
    expect(performance.now() - t).toBeLessThan(300);
  });

  test('rejectNextOrders(k): the next k order placements (REST or WS API) get -2010 and change nothing', async ({ sim, client, faults }) => {
    const user = await client.userData();
    const first = await client.rest.newOrder(buy('50000'));
    await user.next((e) => e.e === 'executionReport' && e.i === first.orderId);
    const before = await client.rest.account();
    const rejected = sim.stats().faults.rejectedOrders;

    faults.rejectNextOrders(3);
    // order/test validates without placing: it is not an order and does not use up a reject.
    await expect(client.rest.testOrder(buy('50000'))).resolves.toEqual({});
    const api = await client.wsApi();
    const refused = [
      await refusal(client.rest.newOrder(buy('50001'))),
      await refusal(api.placeOrder(buy('50002'))),
      await refusal(client.rest.newOrder(sell('70000', '0.001', { newClientOrderId: 'rejected-sell' }))),
    ];
    for (const r of refused) expect(r).toMatchObject({ status: 400, code: -2010, msg: 'Market is closed.' });

    // Nothing changed: balances, open orders, order ids, client order ids, no user events.
    expect((await client.rest.account()).balances).toEqual(before.balances);
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).toEqual([first.orderId]);
    expect(sim.openClientOrderIds()).toEqual([first.clientOrderId]);
    const next = await client.rest.newOrder(sell('70000', '0.001', { newClientOrderId: 'rejected-sell' }));
    expect(next.orderId).toBe(first.orderId + 1);
    expect(await user.next('executionReport')).toMatchObject({ i: next.orderId, x: 'NEW' });
    expect(sim.stats().faults.rejectedOrders - rejected).toBe(3);
  });

  test('rateLimitNextRequests(k): REST 429 -1003 with Retry-After, WS API 429 with error.data.retryAfter, then normal', async ({ client, faults }) => {
    const api = await client.wsApi();
    faults.rateLimitNextRequests(2);

    const rest = await client.rest.request<{ code: number; msg: string }>({ method: 'GET', path: '/api/v3/ping' });
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe(-1003);
    expect(rest.body.msg).toMatch(/^Too much request weight used; current limit is 6000 request weight per /);
    const retryAfter = Number(rest.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);

    const before = Date.now();
    const ws = await api.send('ping');
    expect(ws).toMatchObject({ status: 429, error: { code: -1003 } });
    const retryAt = (ws.error!.data as { retryAfter: number }).retryAfter;
    expect(retryAt).toBeGreaterThan(before);
    expect(retryAt).toBeLessThanOrEqual(Date.now() + 60_000);

    await expect(client.rest.ping()).resolves.toEqual({});
    expect((await api.send('ping')).status).toBe(200);
  });

  test('setClockOffsetMs: server time moves; a client signing with the wall clock gets -1021 once the offset leaves its recvWindow', async ({ client, faults }) => {
    const api = await client.wsApi();
    faults.setClockOffsetMs(60_000);
    let before = Date.now();
    const { serverTime } = await client.rest.time();
    expect(serverTime).toBeGreaterThanOrEqual(before + 60_000);
    expect(serverTime).toBeLessThanOrEqual(Date.now() + 60_000);
    before = Date.now();
    const wsTime = await api.call<{ serverTime: number }>('time');
    expect(wsTime.serverTime).toBeGreaterThanOrEqual(before + 60_000);

    // serverTime - timestamp (60 s) > recvWindow (5 s default).
    expect(await refusal(client.rest.account())).toMatchObject({ status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    expect(await refusal(api.account())).toMatchObject({ status: 400, code: -1021 });
    // Within the window the same request passes...
    faults.setClockOffsetMs(3_000);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    // ...with a larger recvWindow too,
    faults.setClockOffsetMs(30_000);
    await expect(client.rest.newOrder(buy('50000', '0.001', { recvWindow: 40_000 }))).resolves.toMatchObject({ status: 'NEW' });
    // and a server behind the client is "1000ms ahead" from the server's side.
    faults.setClockOffsetMs(-2_000);
    expect(await refusal(client.rest.account())).toMatchObject({ status: 400, code: -1021, msg: "Timestamp for this request was 1000ms ahead of the server's time." });

    faults.setClockOffsetMs(0);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
  });

  test('swallowNextWsApiResponses(k): k requests are carried out without a reply; the orders exist', async ({ sim, client, faults }) => {
    const api = await RawWs.open(sim, '/ws-api/v3');
    const swallowed = sim.stats().faults.swallowedWsApiResponses;
    faults.swallowNextWsApiResponses(2);
    const a = api.request('order.place', { ...buy('50000'), newClientOrderId: 'swallowed-a' }, true);
    const b = api.request('order.place', { ...buy('50001'), newClientOrderId: 'swallowed-b' }, true);
    const c = api.request('ping');
    // The ping's reply comes, the two before it never did (replies of one connection are in order).
    expect((await api.reply(c)).json).toMatchObject({ status: 200, result: {} });
    expect(api.log.filter((f) => f.json?.id === a || f.json?.id === b)).toEqual([]);
    const d = api.request('order.place', { ...buy('50002'), newClientOrderId: 'answered-d' }, true);
    expect((await api.reply(d)).json).toMatchObject({ status: 200, result: { clientOrderId: 'answered-d' } });

    const open = await client.rest.openOrders({ symbol: SYMBOL });
    expect(open.map((o) => o.clientOrderId)).toEqual(['swallowed-a', 'swallowed-b', 'answered-d']);
    expect(sim.stats().faults.swallowedWsApiResponses - swallowed).toBe(2);
  });

  test('fillOpenOrder: orders ahead in price-time are swept first; returns the quantity filled on the named order; unknown or closed ids throw', async ({ client, faults }) => {
    const user = await client.userData();
    const early = await client.rest.newOrder(buy('59000', '0.001'));
    const named = await client.rest.newOrder(buy('59000', '0.002'));
    const better = await client.rest.newOrder(buy('59500', '0.003'));
    const worse = await client.rest.newOrder(buy('58000', '0.001'));
    const later = await client.rest.newOrder(buy('59000', '0.004'));

    expect(await faults.fillOpenOrder(named.orderId, '0.002')).toBe('0.00200000');
    // Filled orders leave the open list (and a query of them is -2013): better price and same
    // price but earlier were ahead and are gone; same price later and worse price stay untouched.
    const open = async () => (await client.rest.openOrders({ symbol: SYMBOL })).map((o) => [o.orderId, o.status, o.executedQty]);
    expect(await open()).toEqual([
      [worse.orderId, 'NEW', '0.00000000'],
      [later.orderId, 'NEW', '0.00000000'],
    ]);
    const fills = (await client.rest.myTrades({ symbol: SYMBOL })).map((t) => [t.orderId, t.price, t.qty, t.isMaker]);
    expect(fills).toEqual([
      [better.orderId, '59500.00000000', '0.00300000', true],
      [early.orderId, '59000.00000000', '0.00100000', true],
      [named.orderId, '59000.00000000', '0.00200000', true],
    ]);
    const trades: ExecutionReportEvent[] = [];
    for (let i = 0; i < 3; i++) trades.push((await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE')) as ExecutionReportEvent);
    expect(trades.map((e) => [e.i, e.X])).toEqual([
      [better.orderId, 'FILLED'],
      [early.orderId, 'FILLED'],
      [named.orderId, 'FILLED'],
    ]);

    // Part of an order; more than what is left fills what is left.
    expect(await faults.fillOpenOrder(later.orderId, '0.0015')).toBe('0.00150000');
    expect(await open()).toEqual([
      [worse.orderId, 'NEW', '0.00000000'],
      [later.orderId, 'PARTIALLY_FILLED', '0.00150000'],
    ]);
    expect(await faults.fillOpenOrder(later.orderId, '1')).toBe('0.00250000');
    expect(await open()).toEqual([[worse.orderId, 'NEW', '0.00000000']]);

    expect(() => faults.fillOpenOrder(named.orderId, '0.001')).toThrow(/not an open order/);
    expect(() => faults.fillOpenOrder(987654, '0.001')).toThrow(/order 987654 is not an open order/);
    expect(() => faults.fillOpenOrder(worse.orderId, '0')).toThrow(/qty/);
    expect(await open()).toEqual([[worse.orderId, 'NEW', '0.00000000']]);
  });

  test('banNextRequests(k): 418 with Retry-After on REST and retryAfter on the WS API, then normal', async ({ client, faults }) => {
    const api = await client.wsApi();
    faults.banNextRequests(2);
    const rest = await client.rest.request<{ code: number; msg: string }>({ method: 'GET', path: '/api/v3/time' });
    expect(rest.status).toBe(418);
    expect(rest.body.code).toBe(-1003);
    expect(rest.body.msg).toMatch(/^Way too much request weight used; IP banned until \d+\./);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const ws = await api.send('order.place', { ...buy('50000') });
    expect(ws).toMatchObject({ status: 418, error: { code: -1003 } });
    expect((ws.error!.data as { retryAfter: number }).retryAfter).toBeGreaterThan(Date.now() - 1_000);
    // The banned order was not placed.
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
    await expect(client.rest.time()).resolves.toMatchObject({ serverTime: expect.any(Number) });
  });

  test('failNextAuth(k): the next k authenticated requests get 401 -2015 (REST and WS API, signed or key-only); public ones pass', async ({ client, faults }) => {
    const api = await client.wsApi();
    faults.failNextAuth(3);
    await expect(client.rest.ping()).resolves.toEqual({});
    const expected = { status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
    expect(await refusal(client.rest.account())).toMatchObject(expected);
    expect(await refusal(api.account())).toMatchObject(expected);
    expect(await refusal(client.rest.startUserDataStream())).toMatchObject(expected);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    await expect(api.account()).resolves.toMatchObject({ accountType: 'SPOT' });
  });

  test('clear() turns every switch and pending count off', async ({ sim, client, faults }) => {
    const user = await client.userData();
    const api = await client.wsApi();
    faults.rejectNextOrders(5);
    faults.rateLimitNextRequests(5);
    faults.banNextRequests(5);
    faults.failNextAuth(5);
    faults.failNextTimestamp();
    faults.setAckDelayMs(5_000);
    faults.setClockOffsetMs(120_000);
    faults.setRestUnresponsive(true);
    faults.setUserStreamMuted(true);
    faults.swallowNextWsApiResponses(5);
    faults.duplicateNextUserEvents(5);
    const counters = sim.stats().faults;

    faults.clear();
    const { serverTime } = await client.rest.time();
    expect(Math.abs(serverTime - Date.now())).toBeLessThan(1_000);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    const sent = performance.now();
    const placed = await api.placeOrder(buy('50000'));
    expect(performance.now() - sent).toBeLessThan(5_000);
    expect(await user.next()).toMatchObject({ e: 'executionReport', i: placed.orderId });
    expect(await user.next()).toMatchObject({ e: 'outboundAccountPosition' });
    const second = await client.rest.newOrder(buy('50001'));
    expect(await user.next()).toMatchObject({ e: 'executionReport', i: second.orderId });
    expect(sim.stats().faults).toEqual(counters);
  });
});
