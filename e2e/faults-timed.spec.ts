// The timed `[sim.faults]` settings (spec 4.5, API.md section 2): `*_after_s` are one-shot timers
// counted from when the listeners open, on the simulator's clock; `delay_ack_ms`,
// `reject_next_orders` and `rate_limit_next` are in force from the start. Each setting gets its
// own worker (its own simulator, via `withSimConfig`): the fixture clears every fault after a
// test, timers included, and its reset before each test arms the configured ones again, counted
// from the test's start (simIsolation 'test'). The clock is manual
// (`start_time_ms` fixes the epoch) and time moves only by `sim.advanceTime`, so a timer firing
// at exactly its millisecond is asserted without waiting on wall time; one setting is also run on
// the wall clock.
import { test, expect, type SimConfigInput } from 'spot-sim/fixture';
import type { DepthUpdateEvent } from 'spot-sim';
import { closeRawConnections, RawWs, stillPending } from './support/raw-ws.ts';
import { LocalBook } from './support/local-book.ts';
import { buy, refusal, SYMBOL, withSimConfig } from './support/helpers.ts';
import { performance } from 'node:perf_hooks';

const T0 = 1_700_000_000_000;
type FaultSettings = NonNullable<NonNullable<SimConfigInput['sim']>['faults']>;
type SimSettings = NonNullable<SimConfigInput['sim']>;

/** The fixture's `test` with a worker of its own: a manual clock at T0, a quiet book, these faults. */
function configured(faults: FaultSettings, sim: SimSettings = {}) {
  return withSimConfig({ sim: { clock: 'manual', start_time_ms: T0, generator: { enabled: false }, ...sim, faults } });
}

test.afterEach(closeRawConnections);

test.describe('drop_md_after_s', () => {
  const it = configured({ drop_md_after_s: 0.5 });
  it('market-data connections close when the clock reaches 0.5 s, once; clock-offset jumps do not move the timer', async ({ sim, client, faults }) => {
    const raw = await RawWs.open(sim, '/ws/btcusdt@trade');
    const combined = await client.streams('ethusdt@depth');
    const api = await RawWs.open(sim, '/ws-api/v3', { tls: true });
    expect(sim.now()).toBe(T0);

    // Server time jumping ahead (clock skew) is not time passing.
    faults.setClockOffsetMs(3_600_000);
    sim.advanceTime(499);
    await raw.barrier();
    expect(raw.isOpen && !combined.closed).toBe(true);

    sim.advanceTime(1);
    await raw.closedWithin();
    await expect(combined.next(() => false)).rejects.toThrow(/closed before/);
    expect((await api.call('ping')).status).toBe(200);
    expect(sim.stats().faults.droppedMarketDataConnections).toBe(2);

    // One-shot: a reconnected client is left alone.
    const again = await RawWs.open(sim, '/ws/btcusdt@trade');
    sim.advanceTime(5_000);
    await again.barrier();
    expect(again.isOpen).toBe(true);
  });
});

test.describe('drop_ws_api_after_s', () => {
  const it = configured({ drop_ws_api_after_s: 0.5 });
  it('WS API and legacy listen-key connections close at 0.5 s (includeUserStreams = true); market data stays', async ({ sim, client }) => {
    const api = await RawWs.open(sim, '/ws-api/v3');
    const user = await client.userData();
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`, { tls: true });
    const md = await RawWs.open(sim, '/ws/btcusdt@depth');

    sim.advanceTime(499);
    expect((await api.call('ping')).status).toBe(200);
    await legacy.barrier();

    sim.advanceTime(1);
    await api.closedWithin();
    await legacy.closedWithin();
    await expect(user.next(() => false)).rejects.toThrow(/closed before/);
    await md.barrier();
    expect(md.isOpen).toBe(true);
    expect(sim.stats().faults.droppedWsApiConnections).toBe(3);
  });
});

test.describe('skip_depth_update_after_s', () => {
  const it = configured({ skip_depth_update_after_s: 0.5 }, { generator: { enabled: true } });
  it('the depth batch due at 0.5 s is never sent: one gap in U/u, and a fresh snapshot resyncs the book', async ({ sim, client }) => {
    const md = await client.streams('btcusdt@depth');
    const start = await client.rest.depth({ symbol: SYMBOL, limit: 1000 });
    sim.advanceTime(1_500);
    const after = await client.rest.depth({ symbol: SYMBOL, limit: 1000 });
    const seen: DepthUpdateEvent[] = [];
    while ((seen.at(-1)?.u ?? start.lastUpdateId) < after.lastUpdateId) seen.push(await md.nextOf<DepthUpdateEvent>('btcusdt@depth'));
    expect(seen.at(-1)!.u).toBe(after.lastUpdateId);
    expect(seen[0]!.U).toBe(start.lastUpdateId + 1);

    const gaps = seen.map((d, i) => (i > 0 && d.U !== seen[i - 1]!.u + 1 ? i : -1)).filter((i) => i >= 0);
    expect(gaps).toHaveLength(1);
    const gap = gaps[0]!;
    // Batches go out every 100 ms of simulator time: everything before the gap is from before
    // 0.5 s, the batch of 0.5 s is missing, the first one after it opens the gap.
    expect(seen.slice(0, gap).every((d) => d.E < T0 + 500)).toBe(true);
    expect(seen.find((d) => d.E === T0 + 500)).toBeUndefined();
    expect(seen[gap]!.E).toBeGreaterThan(T0 + 500);

    // Resync from the snapshot taken after the gap; later diffs continue it exactly.
    const book = LocalBook.from(after);
    sim.advanceTime(500);
    const latest = await client.rest.depth({ symbol: SYMBOL, limit: 1000 });
    while (book.updateId < latest.lastUpdateId) {
      const d = await md.nextOf<DepthUpdateEvent>('btcusdt@depth');
      expect(d.U).toBe(book.updateId + 1);
      book.apply(d);
    }
    expect(book.levels()).toEqual({ bids: latest.bids, asks: latest.asks });
  });
});

test.describe('timestamp_error_after_s', () => {
  const it = configured({ timestamp_error_after_s: 0.5 });
  it('from 0.5 s the next signed request gets -1021, once', async ({ sim, client }) => {
    sim.advanceTime(499);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    sim.advanceTime(1);
    await expect(client.rest.time()).resolves.toEqual({ serverTime: T0 + 500 });
    expect(await refusal(client.rest.account())).toMatchObject({ status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    sim.advanceTime(10_000);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
  });
});

test.describe('rest_unresponsive_after_s + rest_unresponsive_for_s', () => {
  const it = configured({ rest_unresponsive_after_s: 0.5, rest_unresponsive_for_s: 1 });
  it('REST gets no replies from 0.5 s to 1.5 s; then held requests are closed and new ones answered', async ({ sim, client }) => {
    sim.advanceTime(499);
    await expect(client.rest.time()).resolves.toEqual({ serverTime: T0 + 499 });
    sim.advanceTime(1);
    const held = client.rest.time();
    const order = client.rest.newOrder(buy('50000'));
    expect(await stillPending(held, 300)).toBe('pending');
    // The WS API is not REST: it answers, and the held order was not placed.
    const api = await client.wsApi();
    await expect(api.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);

    sim.advanceTime(999);
    expect(await stillPending(held, 100)).toBe('pending');
    const late = client.rest.ping();
    expect(await stillPending(late, 100)).toBe('pending');

    sim.advanceTime(1);
    for (const request of [held, order, late]) await expect(request).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(client.rest.time()).resolves.toEqual({ serverTime: T0 + 1_500 });
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
    expect(sim.stats().faults.restRequestsSwallowed).toBe(3);
  });
});

test.describe('rest_unresponsive_after_s without rest_unresponsive_for_s', () => {
  const it = configured({ rest_unresponsive_after_s: 0.5 });
  it('REST stays unresponsive until switched off', async ({ sim, client, faults }) => {
    sim.advanceTime(500);
    const held = client.rest.time();
    sim.advanceTime(10_000);
    expect(await stillPending(held, 300)).toBe('pending');
    faults.setRestUnresponsive(false);
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
    await expect(client.rest.time()).resolves.toEqual({ serverTime: T0 + 10_500 });
  });
});

test.describe('delay_ack_ms', () => {
  const it = configured({ delay_ack_ms: 300 });
  it('WS API order replies come 300 ms late from the start, their user events after them', async ({ sim }) => {
    const api = await RawWs.open(sim, '/ws-api/v3');
    await api.subscribeUserData();
    const sent = performance.now();
    const id = api.request('order.place', { ...buy('50000'), newClientOrderId: 'late' }, true);
    const reply = await api.replyIndex(id);
    expect(api.log[reply]!.at - sent).toBeGreaterThanOrEqual(300);
    expect(api.log[reply]!.json).toMatchObject({ status: 200, result: { clientOrderId: 'late' } });
    const report = await api.indexOf((f) => f.json?.event?.e === 'executionReport' && f.json.event.c === 'late');
    expect(report).toBe(reply + 1);
    // Not an order method: not delayed (nothing queued ahead of it).
    const t = performance.now();
    await api.call('time');
    expect(performance.now() - t).toBeLessThan(300);
  });
});

test.describe('reject_next_orders', () => {
  const it = configured({ reject_next_orders: 2 });
  it('the first 2 orders (REST, WS API) get -2010 and leave nothing; the third is placed', async ({ sim, client }) => {
    const expected = { status: 400, code: -2010, msg: 'Market is closed.' };
    expect(await refusal(client.rest.newOrder(buy('50000')))).toMatchObject(expected);
    const api = await client.wsApi();
    expect(await refusal(api.placeOrder(buy('50000')))).toMatchObject(expected);
    const placed = await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'third' }));
    expect(placed.status).toBe('NEW');
    expect(sim.openClientOrderIds()).toEqual(['third']);
    expect(sim.stats().faults.rejectedOrders).toBe(2);
  });
});

test.describe('rate_limit_next', () => {
  const it = configured({ rate_limit_next: 2 });
  it('the first 2 requests (REST, WS API) get 429 -1003 with Retry-After / retryAfter; the third passes', async ({ sim, client }) => {
    const rest = await client.rest.request<{ code: number }>({ method: 'GET', path: '/api/v3/ping' });
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe(-1003);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const api = await client.wsApi();
    const ws = await api.send('time');
    expect(ws).toMatchObject({ status: 429, error: { code: -1003, data: { retryAfter: expect.any(Number) } } });
    expect((ws.error!.data as { retryAfter: number }).retryAfter).toBeGreaterThan(sim.now());
    await expect(client.rest.ping()).resolves.toEqual({});
    expect(sim.stats().rateLimited).toBe(2);
  });
});

test.describe('clear() before the timers fire', () => {
  const it = configured({ drop_md_after_s: 0.5, timestamp_error_after_s: 0.5, rest_unresponsive_after_s: 0.5, rest_unresponsive_for_s: 1, reject_next_orders: 1, rate_limit_next: 1, delay_ack_ms: 5_000 });
  it('cancels every timed fault not yet fired and the configured counts', async ({ sim, client, faults }) => {
    const md = await RawWs.open(sim, '/ws/btcusdt@trade');
    faults.clear();
    sim.advanceTime(2_000);
    await md.barrier();
    expect(md.isOpen).toBe(true);
    await expect(client.rest.account()).resolves.toMatchObject({ accountType: 'SPOT' });
    const api = await client.wsApi();
    const sent = performance.now();
    await expect(api.placeOrder(buy('50000'))).resolves.toMatchObject({ status: 'NEW' });
    expect(performance.now() - sent).toBeLessThan(5_000);
    expect(sim.stats().faults).toMatchObject({ droppedMarketDataConnections: 0, failedTimestamps: 0, rejectedOrders: 0, rateLimitedRequests: 0 });
  });
});

test.describe('a timed fault on the wall clock', () => {
  const it = withSimConfig({ sim: { generator: { enabled: false }, faults: { drop_ws_api_after_s: 1.5 } } });
  it('drop_ws_api_after_s fires from the driver after that much real time', async ({ sim }) => {
    const api = await RawWs.open(sim, '/ws-api/v3');
    expect((await api.call('ping')).status).toBe(200);
    await api.closedWithin(10_000);
    expect(sim.stats().faults.droppedWsApiConnections).toBe(1);
  });
});
