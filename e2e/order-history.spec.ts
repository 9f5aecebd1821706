// Order history end to end (API.md section 10), over REST and the WS API: with
// `ended_orders = "keep"` a filled and a cancelled order answer GET order / order.status with
// their final fields, allOrders lists open and ended orders oldest first (weight 20, its
// filters and the 24-hour span), a reset forgets them, a client order id is reused once its
// order ended; with the default "forget", the same queries answer -2013 and allOrders lists
// the open orders only. The endpoint is a row of the endpoint table, so fault rules reach it.
import { counterparty, expect, restTestWith, test as forgetTest, weightOf, type Wire } from './support/rest.ts';
import { ok, wsTestWith } from './support/ws.ts';

const QUERY = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'price', 'origQty', 'executedQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'stopPrice', 'icebergQty', 'time', 'updateTime', 'isWorking', 'workingTime', 'origQuoteOrderQty', 'selfTradePreventionMode'];
const NO_SUCH_ORDER = { code: -2013, msg: 'Order does not exist.' };
const KEEP = { account: { ended_orders: 'keep' as const } };

const keepTest = restTestWith(KEEP);
const keepWsTest = wsTestWith(KEEP);

/** A cancelled LIMIT and a filled MARKET order, plus one LIMIT left open. */
async function threeOrders(wire: Wire, sim: Parameters<typeof counterparty>[0]) {
  const cancelled = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'hist-limit' });
  const cancel = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: cancelled.orderId });
  expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
  counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.002');
  const filled = await wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.002', newClientOrderId: 'hist-market' });
  expect(filled.body.status, JSON.stringify(filled.body)).toBe('FILLED');
  const open = await wire.rest('BUY', '50001', '0.001', { newClientOrderId: 'hist-open' });
  return { cancelled: cancelled.orderId, filled: filled.body.orderId as number, open: open.orderId };
}

const getOrder = (wire: Wire, params: Record<string, string | number>) => wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', ...params });
const allOrders = (wire: Wire, params: Record<string, string | number> = {}) => wire.signed('GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', ...params });

keepTest.describe('ended_orders = "keep" over REST', () => {
  keepTest('a filled MARKET and a cancelled LIMIT answer GET order with their final fields; allOrders lists all three oldest first', async ({ wire, sim }) => {
    const ids = await threeOrders(wire, sim);
    const filled = await getOrder(wire, { orderId: ids.filled });
    expect(filled.status).toBe(200);
    expect(Object.keys(filled.body)).toEqual(QUERY);
    expect(filled.body).toMatchObject({ orderId: ids.filled, clientOrderId: 'hist-market', status: 'FILLED', type: 'MARKET', executedQty: '0.00200000', cummulativeQuoteQty: '120.02000000' });
    const cancelled = await getOrder(wire, { origClientOrderId: 'hist-limit' });
    expect(cancelled.body).toMatchObject({ orderId: ids.cancelled, status: 'CANCELED', type: 'LIMIT', price: '50000.00000000', executedQty: '0.00000000' });
    expect(cancelled.body.updateTime).toBeGreaterThanOrEqual(cancelled.body.time);

    const all = await allOrders(wire);
    expect(all.status).toBe(200);
    expect(all.body.map((o: { orderId: number; status: string }) => [o.orderId, o.status])).toEqual([
      [ids.cancelled, 'CANCELED'],
      [ids.filled, 'FILLED'],
      [ids.open, 'NEW'],
    ]);
    // Rows are the GET order shape, field for field.
    expect(all.body[1]).toEqual(filled.body);
    expect((await allOrders(wire, { orderId: ids.filled })).body.map((o: { orderId: number }) => o.orderId)).toEqual([ids.filled, ids.open]);
    expect((await allOrders(wire, { limit: 1 })).body.map((o: { orderId: number }) => o.orderId)).toEqual([ids.open]);
    // Cancelling an ended order is still -2011.
    const again = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: ids.cancelled });
    expect(again.body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
  });

  keepTest('allOrders weighs 20; symbol required; a span over 24 h is -1127; a fault rule reaches it', async ({ wire, sim }) => {
    const first = await allOrders(wire);
    const second = await allOrders(wire);
    expect(weightOf(second) - weightOf(first)).toBe(20);
    const noSymbol = await wire.signed('GET', '/api/v3/allOrders', {});
    expect(noSymbol.status).toBe(400);
    expect(noSymbol.body).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
    const now = sim.now();
    const tooLong = await allOrders(wire, { startTime: now - 24 * 3_600_000 - 1, endTime: now });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ code: -1127, msg: 'More than 24 hours between startTime and endTime.' });
    expect((await allOrders(wire, { startTime: now - 24 * 3_600_000, endTime: now })).status).toBe(200);
    const unknownSymbol = await allOrders(wire, { symbol: 'NOPEUSDT' });
    expect(unknownSymbol.body).toEqual({ code: -1121, msg: 'Invalid symbol.' });

    const rule = sim.faults.use({ on: 'allOrders', action: { error: -1003 } });
    const faulted = await allOrders(wire);
    expect(faulted.status).toBe(429);
    expect(faulted.body.code).toBe(-1003);
    expect(rule.hits).toBe(1);
    expect((await allOrders(wire)).status).toBe(200);
  });

  keepTest('a reset forgets ended orders (-2013); a client order id is reused once its order ended, and finds the newest', async ({ wire, sim }) => {
    const first = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'reuse-me' });
    const dup = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newClientOrderId: 'reuse-me' });
    expect(dup.body).toEqual({ code: -2010, msg: 'Duplicate order sent.' });
    await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: first.orderId });
    const second = await wire.rest('BUY', '50001', '0.001', { newClientOrderId: 'reuse-me' });
    expect((await getOrder(wire, { origClientOrderId: 'reuse-me' })).body).toMatchObject({ orderId: second.orderId, status: 'NEW' });
    await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: second.orderId });
    expect((await getOrder(wire, { origClientOrderId: 'reuse-me' })).body).toMatchObject({ orderId: second.orderId, status: 'CANCELED' });
    expect((await getOrder(wire, { orderId: first.orderId })).body).toMatchObject({ clientOrderId: 'reuse-me', status: 'CANCELED' });

    sim.reset();
    expect((await getOrder(wire, { orderId: second.orderId })).body).toEqual(NO_SUCH_ORDER);
    expect((await allOrders(wire)).body).toEqual([]);
  });
});

keepTest('the typed client: rest.allOrders and the WS API allOrders list what GET allOrders lists', async ({ wire, sim, client }) => {
  const ids = await threeOrders(wire, sim);
  const rows = await client.rest.allOrders({ symbol: 'BTCUSDT' });
  expect(rows).toEqual((await allOrders(wire)).body);
  expect(rows.map((o) => o.status)).toEqual(['CANCELED', 'FILLED', 'NEW']);
  const api = await client.wsApi();
  expect(await api.allOrders({ symbol: 'BTCUSDT', orderId: ids.filled })).toEqual(rows.slice(1));
  expect((await client.rest.getOrder({ symbol: 'BTCUSDT', orderId: ids.filled })).status).toBe('FILLED');
  expect((await api.orderStatus({ symbol: 'BTCUSDT', origClientOrderId: 'hist-limit' })).status).toBe('CANCELED');
});

keepWsTest.describe('ended_orders = "keep" over the WS API', () => {
  keepWsTest('order.status answers a filled and a cancelled order; allOrders gives the REST rows and weighs 20', async ({ wsApi, wire, sim }) => {
    const ids = await threeOrders(wire, sim);
    const api = await wsApi();
    const status = ok(await api.signed('order.status', { symbol: 'BTCUSDT', orderId: ids.filled }));
    expect(status).toEqual((await getOrder(wire, { orderId: ids.filled })).body);
    expect(ok(await api.signed('order.status', { symbol: 'BTCUSDT', origClientOrderId: 'hist-limit' })).status).toBe('CANCELED');

    const before = (await api.call('ping')).rateLimits[0].count as number;
    const all = await api.signed('allOrders', { symbol: 'BTCUSDT' });
    expect(all.status).toBe(200);
    expect(all.rateLimits[0].count - before).toBe(20);
    expect(all.result).toEqual((await allOrders(wire)).body);
    expect(ok(await api.signed('allOrders', { symbol: 'BTCUSDT', orderId: ids.filled, limit: 1 })).map((o: { orderId: number }) => o.orderId)).toEqual([ids.filled]);
    const now = sim.now();
    const tooLong = await api.signed('allOrders', { symbol: 'BTCUSDT', startTime: now - 25 * 3_600_000, endTime: now });
    expect(tooLong.status).toBe(400);
    expect(tooLong.error).toEqual({ code: -1127, msg: 'More than 24 hours between startTime and endTime.' });
  });
});

forgetTest.describe('ended_orders = "forget" (the default)', () => {
  forgetTest('a filled and a cancelled order answer -2013; allOrders lists the open orders only', async ({ wire, sim }) => {
    const ids = await threeOrders(wire, sim);
    expect((await getOrder(wire, { orderId: ids.filled })).body).toEqual(NO_SUCH_ORDER);
    expect((await getOrder(wire, { origClientOrderId: 'hist-limit' })).body).toEqual(NO_SUCH_ORDER);
    const all = await allOrders(wire);
    expect(all.body.map((o: { orderId: number }) => o.orderId)).toEqual([ids.open]);
  });
});
