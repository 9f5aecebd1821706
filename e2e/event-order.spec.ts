// The account's event stream under delays, closes and resets (issue 24, docs/events.md): a reset
// is a barrier (nothing of the world before it reaches the world after it), an ack delay makes
// events late but never lost and never reordered (the account's events are first in, first out,
// whatever became of the connection that placed the order).
import { test, expect } from 'spot-sim/fixture';
import { closeRawConnections, RawWs, userEvents } from './support/raw-ws.ts';
import { buy, SYMBOL } from './support/helpers.ts';

test.afterEach(closeRawConnections);
test.use({ simConfig: { sim: { generator: { enabled: false } } } });

/** A client's view from its events: open orders by id and the USDT balance. */
function replay(events: any[]) {
  const open = new Map<number, string>();
  let usdt: { free: string; locked: string } | undefined;
  for (const e of events) {
    if (e.e === 'executionReport') {
      if (e.X === 'NEW' || e.X === 'PARTIALLY_FILLED') open.set(e.i, e.c);
      else open.delete(e.i);
    } else if (e.e === 'outboundAccountPosition') {
      const b = e.B.find((x: any) => x.a === 'USDT');
      if (b !== undefined) usdt = { free: b.f, locked: b.l };
    }
  }
  return { open: [...open.keys()], usdt };
}

test('reset is a barrier: a REST order whose reply is delayed is answered as a closed connection after the reset, and none of its events reach the new world', async ({ sim, client, faults }) => {
  faults.use({ on: 'order.place', transport: 'rest', action: { delayMs: 700 } });
  const old = client.rest.newOrder(buy('50000', '0.5', { newClientOrderId: 'before-reset' })).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await expect.poll(() => sim.openClientOrderIds()).toEqual(['before-reset']);
  faults.clear();
  sim.reset();

  const { listenKey } = await client.rest.startUserDataStream();
  const user = await RawWs.open(sim, `/ws/${listenKey}`);
  const fresh = await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'after-reset' }));
  expect(fresh.orderId).toBe(1);

  const outcome = await old;
  // Answered as a closed connection would be (what a `{ close: true }` rule gives: socket hang up).
  expect('error' in outcome && String(outcome.error)).toMatch(/socket hang up/);
  // A barrier on the user stream (a second order's report) after the old reply's due time.
  const second = await client.rest.newOrder(buy('50001', '0.001', { newClientOrderId: 'barrier' }));
  await user.frame((f) => f.json?.e === 'executionReport' && f.json.i === second.orderId);
  const events = userEvents(user);
  expect(events.filter((e) => e.e === 'executionReport').map((e) => e.c)).toEqual(['after-reset', 'barrier']);
  const account = await client.rest.account();
  const usdt = account.balances.find((b) => b.asset === 'USDT')!;
  expect(replay(events).usdt).toEqual({ free: usdt.free, locked: usdt.locked });
  expect(usdt.locked).toBe('100.00100000');
  expect(sim.openClientOrderIds()).toEqual(['after-reset', 'barrier']);
});

for (const how of ['the client terminates it', 'dropWsApiConnections(false)'] as const) {
  test(`held events are not lost when the placing WS API connection closes during the ack delay (${how})`, async ({ sim, client, faults }) => {
    const { listenKey } = await client.rest.startUserDataStream();
    const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
    const other = await RawWs.open(sim, '/ws-api/v3');
    await other.subscribeUserData();
    const placing = await RawWs.open(sim, '/ws-api/v3');
    faults.setAckDelayMs(500);

    placing.request('order.place', { ...buy('50000'), newClientOrderId: 'held' }, true);
    await expect.poll(() => sim.openClientOrderIds()).toEqual(['held']);
    if (how === 'the client terminates it') placing.ws.terminate();
    else expect(await faults.dropWsApiConnections(false)).toBe(2);
    await placing.closed;

    const report = await legacy.frame((f) => f.json?.e === 'executionReport');
    expect(report.json).toMatchObject({ c: 'held', x: 'NEW', X: 'NEW' });
    await legacy.frame((f) => f.json?.e === 'outboundAccountPosition');
    if (how === 'the client terminates it') {
      const viaApi = await other.frame((f) => f.json?.event?.e === 'executionReport');
      expect(viaApi.json.event).toMatchObject({ c: 'held', X: 'NEW' });
    }
    const account = await client.rest.account();
    const usdt = account.balances.find((b) => b.asset === 'USDT')!;
    expect(replay(userEvents(legacy)).usdt).toEqual({ free: usdt.free, locked: usdt.locked });
  });
}

test('a REST cancel during a WS API ack delay does not overtake the placement: NEW, its balance, CANCELED, its balance', async ({ sim, client, faults }) => {
  const user = await RawWs.open(sim, '/ws-api/v3');
  await user.subscribeUserData();
  const placing = await RawWs.open(sim, '/ws-api/v3');
  faults.setAckDelayMs(500);

  const placed = placing.request('order.place', { ...buy('50000', '0.01'), newClientOrderId: 'slow' }, true);
  await expect.poll(() => sim.openClientOrderIds()).toEqual(['slow']);
  const cancelled = await client.rest.cancelOrder({ symbol: SYMBOL, origClientOrderId: 'slow' });
  expect(cancelled.status).toBe('CANCELED');

  await user.frame((f) => f.json?.event?.e === 'executionReport' && f.json.event.X === 'CANCELED');
  await user.frame((f) => f.json?.event?.e === 'outboundAccountPosition', (await user.indexOf((f) => f.json?.event?.X === 'CANCELED')) + 1);
  const events = userEvents(user);
  expect(events.map((e) => (e.e === 'executionReport' ? `${e.e} ${e.X}` : e.e))).toEqual([
    'executionReport NEW',
    'outboundAccountPosition',
    'executionReport CANCELED',
    'outboundAccountPosition',
  ]);
  expect(replay(events)).toEqual({ open: [], usdt: { free: '10000000.00000000', locked: '0.00000000' } });
  expect((await placing.reply(placed)).json).toMatchObject({ status: 200, result: { clientOrderId: 'slow', status: 'NEW' } });
});
