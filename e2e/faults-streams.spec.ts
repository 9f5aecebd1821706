// The faults of spec 4.5 / API.md section 3 that act on connections and streams, driven through
// `sim.faults` and asserted on what a client sees over real sockets: the connection that
// closes, the listen key that expires, the event sent twice or not at all, the frame that is not
// JSON. A quiet book (generator off) on the wall clock, reset before each test so ids and
// balances start over. Faults on requests and their replies are in faults-requests.spec.ts;
// depth-stream faults in faults-depth.spec.ts (a manual clock with the generator running).
import { test, expect } from 'spot-sim/fixture';
import type { DepthUpdateEvent } from 'spot-sim';
import { closeRawConnections, RawWs, userEvents } from './support/raw-ws.ts';
import { buy, noConnections, refusal, SYMBOL } from './support/helpers.ts';

test.afterEach(closeRawConnections);

test.use({ simConfig: { sim: { generator: { enabled: false } } } });
test.beforeEach(({ sim }) => sim.reset());

test.describe('faults on a quiet book', () => {
  test('dropMarketDataConnections closes every market-data connection (both listeners) and only those; returns the count', async ({ sim, client, faults }) => {
    await noConnections(sim);
    const depth = await client.streams('btcusdt@depth');
    const trades = await RawWs.open(sim, '/ws/btcusdt@trade', { tls: true });
    const api = await RawWs.open(sim, '/ws-api/v3');
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);

    expect(await faults.dropMarketDataConnections()).toBe(2);
    await expect(depth.next(() => false, { timeout: 5_000 })).rejects.toThrow(/closed before/);
    await trades.closedWithin();
    expect(depth.closed).toBe(true);

    // The WS API and the legacy user stream are not market data: both stay up.
    expect((await api.call('ping')).status).toBe(200);
    const order = await client.rest.newOrder(buy('50000'));
    expect((await legacy.frame((f) => f.json?.e === 'executionReport')).json).toMatchObject({ i: order.orderId, x: 'NEW' });

    // A client that reconnects gets data again; nothing is left to drop.
    expect(await faults.dropMarketDataConnections()).toBe(0);
    const again = await client.streams('btcusdt@depth');
    await client.rest.newOrder(buy('50001'));
    const diff = await again.nextOf<DepthUpdateEvent>('btcusdt@depth');
    expect(diff.b).toContainEqual(['50001.00000000', '0.00100000']);
  });

  test('dropWsApiConnections(false) closes /ws-api/v3 connections but keeps /ws/<listenKey> and market data', async ({ sim, client, faults }) => {
    await noConnections(sim);
    const api = await RawWs.open(sim, '/ws-api/v3', { tls: true });
    const user = await client.userData(); // its own /ws-api/v3 connection
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
    const md = await RawWs.open(sim, '/ws/btcusdt@trade');

    expect(await faults.dropWsApiConnections(false)).toBe(2);
    await api.closedWithin();
    await expect(user.next(() => false)).rejects.toThrow(/closed before/);

    const order = await client.rest.newOrder(buy('50000'));
    expect((await legacy.frame((f) => f.json?.e === 'executionReport')).json).toMatchObject({ i: order.orderId });
    await md.barrier();
    expect(legacy.isOpen && md.isOpen).toBe(true);
  });

  test('dropWsApiConnections(true) also closes the legacy /ws/<listenKey> connections, not market data', async ({ sim, client, faults }) => {
    await noConnections(sim);
    const api = await RawWs.open(sim, '/ws-api/v3');
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`, { tls: true });
    const md = await RawWs.open(sim, '/ws/btcusdt@depth');

    expect(await faults.dropWsApiConnections(true)).toBe(2);
    await api.closedWithin();
    await legacy.closedWithin();
    await md.barrier();
    expect(md.isOpen).toBe(true);
    // Reconnecting works: a new WS API connection answers.
    const fresh = await RawWs.open(sim, '/ws-api/v3');
    expect((await fresh.call('ping')).status).toBe(200);
  });

  test('expireListenKeys: listenKeyExpired on /ws/<listenKey> (raw and combined), the key is gone; returns the count', async ({ sim, client, faults }) => {
    const { listenKey } = await client.rest.startUserDataStream();
    // A second POST returns the same key: the account has one.
    expect((await client.rest.startUserDataStream()).listenKey).toBe(listenKey);
    const raw = await RawWs.open(sim, `/ws/${listenKey}`);
    const combined = await RawWs.open(sim, `/stream?streams=${listenKey}`, { tls: true });

    const before = sim.now();
    expect(await faults.expireListenKeys()).toBe(1);
    const expired = (await raw.frame((f) => f.json?.e === 'listenKeyExpired')).json;
    expect(expired).toEqual({ e: 'listenKeyExpired', E: expect.any(Number), listenKey });
    expect(expired.E).toBeGreaterThanOrEqual(before);
    expect((await combined.frame((f) => f.json?.data?.e === 'listenKeyExpired')).json).toMatchObject({ stream: listenKey, data: { listenKey } });

    // The key no longer exists; its connections get no more events.
    expect(await refusal(client.rest.keepAliveUserDataStream(listenKey))).toMatchObject({ code: -1125 });
    const order = await client.rest.newOrder(buy('50000'));
    expect(order.status).toBe('NEW');
    await raw.barrier();
    expect(userEvents(raw).map((e) => e.e)).toEqual(['listenKeyExpired']);
    expect(await faults.expireListenKeys()).toBe(0);
    // A new key is a different one.
    expect((await client.rest.startUserDataStream()).listenKey).not.toBe(listenKey);
  });

  test('duplicateNextUserEvents(k): the next k user events arrive twice, later ones once', async ({ sim, client, faults }) => {
    const user = await client.userData();
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
    faults.duplicateNextUserEvents(1);
    const a = await client.rest.newOrder(buy('50000'));
    const first = await user.next();
    expect(first).toMatchObject({ e: 'executionReport', i: a.orderId, x: 'NEW' });
    expect(await user.next()).toEqual(first);
    expect(await user.next()).toMatchObject({ e: 'outboundAccountPosition' });

    const b = await client.rest.newOrder(buy('50001'));
    expect(await user.next()).toMatchObject({ e: 'executionReport', i: b.orderId });
    expect(await user.next()).toMatchObject({ e: 'outboundAccountPosition' });
    const c = await client.rest.newOrder(buy('50002'));
    expect(await user.next()).toMatchObject({ e: 'executionReport', i: c.orderId });
    expect(await user.next()).toMatchObject({ e: 'outboundAccountPosition' });

    // Every sink saw the same: the legacy stream too.
    const lastReport = await legacy.indexOf((f) => f.json?.e === 'executionReport' && f.json.i === c.orderId);
    await legacy.indexOf((f) => f.json?.e === 'outboundAccountPosition', lastReport);
    expect(userEvents(legacy).map((e) => `${e.e}:${e.i ?? ''}`)).toEqual([
      `executionReport:${a.orderId}`,
      `executionReport:${a.orderId}`,
      'outboundAccountPosition:',
      `executionReport:${b.orderId}`,
      'outboundAccountPosition:',
      `executionReport:${c.orderId}`,
      'outboundAccountPosition:',
    ]);
  });

  test('setUserStreamMuted: no events while muted, none replayed after unmuting, the connection stays open', async ({ sim, client, faults }) => {
    const user = await client.userData();
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
    faults.setUserStreamMuted(true);
    const muted = await client.rest.newOrder(buy('50000'));
    await client.rest.cancelOrder({ symbol: SYMBOL, orderId: muted.orderId });
    faults.setUserStreamMuted(false);

    const heard = await client.rest.newOrder(buy('50001'));
    // The first event after unmuting is the new order's: nothing of the muted ones came or comes.
    expect(await user.next()).toMatchObject({ e: 'executionReport', i: heard.orderId, x: 'NEW' });
    await legacy.frame((f) => f.json?.e === 'outboundAccountPosition');
    expect(userEvents(legacy).map((e) => `${e.e}:${e.i ?? ''}`)).toEqual([`executionReport:${heard.orderId}`, 'outboundAccountPosition:']);
    expect(user.closed).toBe(false);
    expect(legacy.isOpen).toBe(true);
    // The muted requests were carried out all the same.
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).toEqual([heard.orderId]);
    expect(sim.stats().sinceMark).toMatchObject({ orders: 2, cancels: 1 });
  });

  test('sendMalformedFrames(md, wsApi): one non-JSON text frame on each connection of the chosen kind; returns the count; connections stay usable', async ({ sim, client, faults }) => {
    await noConnections(sim);
    const depth = await RawWs.open(sim, '/ws/btcusdt@depth');
    const combined = await RawWs.open(sim, '/stream?streams=ethusdt@trade', { tls: true });
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
    const api = await RawWs.open(sim, '/ws-api/v3');
    const malformed = (c: RawWs) => c.log.filter((f) => f.json === undefined).length;

    expect(await faults.sendMalformedFrames(false, false)).toBe(0);
    expect(await faults.sendMalformedFrames(true, false)).toBe(3);
    for (const c of [depth, combined, legacy]) await c.frame((f) => f.json === undefined);
    await api.call('ping');
    expect(malformed(api)).toBe(0);

    expect(await faults.sendMalformedFrames(false, true)).toBe(1);
    await api.frame((f) => f.json === undefined);
    expect((await api.call('ping')).status).toBe(200);
    expect(malformed(api)).toBe(1);
    for (const c of [depth, combined, legacy]) {
      await c.barrier();
      expect(malformed(c)).toBe(1);
    }
    expect(api.log.find((f) => f.json === undefined)!.text).not.toBe('');

    expect(await faults.sendMalformedFrames(true, true)).toBe(4);
    for (const c of [depth, combined, legacy, api]) {
      await c.indexOf((f) => f.json === undefined, c.log.findIndex((f) => f.json === undefined) + 1);
      expect(c.isOpen).toBe(true);
    }
  });
});
