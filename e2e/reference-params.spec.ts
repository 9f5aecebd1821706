// Parameters the reference exchange honours (issue 24 item 5; rest-api.md, web-socket-api.md,
// errors.md): cancelRestrictions on cancel and cancelReplace, orderRateLimitExceededMode=
// CANCEL_ONLY, microsecond timestamps with a recvWindow of three decimals, the microsecond time
// unit (X-MBX-TIME-UNIT on REST, timeUnit on the WS API URL), and two smaller checks.
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { counterparty, expect, restTestWith, type Reply } from './support/rest.ts';

const T0 = 1_700_000_000_000;
const test = restTestWith({ clock: 'manual', start_time_ms: T0, driver_tick_ms: 1000, limits: { orders_per_10s: 3 } });
test.afterEach(closeRawConnections);

const RESTRICTED = { code: -2011, msg: 'Order was not canceled due to cancel restrictions.' };
const INVALID_RESTRICTIONS = { code: -1145, msg: 'Invalid cancelRestrictions' };
const limitBuy = (price: string, extra: Record<string, string> = {}) => ({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.002', newOrderRespType: 'ACK', ...extra });

function expectRefusal(r: Reply, status: number, body: { code: number; msg: string }): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toEqual(body);
}

test.describe('cancelRestrictions', () => {
  test('REST: ONLY_PARTIALLY_FILLED refuses a NEW order, ONLY_NEW a partially filled one, and each cancels its own kind; FOO is -1145', async ({ sim, wire }) => {
    const fresh = (await wire.order(limitBuy('50000'))).body;
    expectRefusal(await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: fresh.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }), 400, RESTRICTED);
    expectRefusal(await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: fresh.orderId, cancelRestrictions: 'FOO' }), 400, INVALID_RESTRICTIONS);
    expect(sim.openClientOrderIds()).toEqual([fresh.clientOrderId]);

    const partial = (await wire.order(limitBuy('50010'))).body;
    sim.faults.fillOpenOrder(partial.orderId, '0.001');
    expectRefusal(await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: partial.orderId, cancelRestrictions: 'ONLY_NEW' }), 400, RESTRICTED);
    const cancelled = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: partial.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' });
    expect(cancelled.body).toMatchObject({ orderId: partial.orderId, status: 'CANCELED', executedQty: '0.00100000' });
    const cancelledNew = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: fresh.orderId, cancelRestrictions: 'ONLY_NEW' });
    expect(cancelledNew.body).toMatchObject({ orderId: fresh.orderId, status: 'CANCELED' });
  });

  test('WS API order.cancel and cancelReplace honour it: the cancel leg fails with the restriction, nothing is placed under STOP_ON_FAILURE', async ({ sim, wire }) => {
    const fresh = (await wire.order(limitBuy('50000'))).body;
    const api = await RawWs.open(sim, '/ws-api/v3');
    const cancel = await api.call('order.cancel', { symbol: 'BTCUSDT', orderId: fresh.orderId, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }, true);
    expect(cancel).toMatchObject({ status: 400, error: RESTRICTED });
    expect((await api.call('order.cancel', { symbol: 'BTCUSDT', orderId: fresh.orderId, cancelRestrictions: 'BAR' }, true)).error).toEqual(INVALID_RESTRICTIONS);

    const replace = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '49000', quantity: '0.001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: fresh.orderId };
    const refused = await api.call('order.cancelReplace', { ...replace, cancelRestrictions: 'ONLY_PARTIALLY_FILLED' }, true);
    expect(refused).toMatchObject({ status: 400, error: { code: -2022, msg: 'Order cancel-replace failed.', data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: RESTRICTED, newOrderResponse: null } } });
    const rest = await wire.signed('POST', '/api/v3/order/cancelReplace', { ...replace, cancelRestrictions: 'FOO' });
    expectRefusal(rest, 400, INVALID_RESTRICTIONS);
    expect(sim.openClientOrderIds()).toEqual([fresh.clientOrderId]);
    sim.advanceTime(10_000); // a fresh 10 s order window (this block allows 3 orders per 10 s)
    const done = await api.call('order.cancelReplace', { ...replace, cancelRestrictions: 'ONLY_NEW' }, true);
    expect(done).toMatchObject({ status: 200, result: { cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS' } });
  });
});

test('orderRateLimitExceededMode=CANCEL_ONLY: with the 10 s order count spent, cancelReplace cancels and answers -2021 (new order -1015); DO_NOTHING keeps the order', async ({ sim, wire }) => {
  const target = (await wire.order(limitBuy('50000'))).body;
  await wire.order(limitBuy('50001'));
  await wire.order(limitBuy('50002'));
  const replace = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '49000', quantity: '0.001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: target.orderId };

  const nothing = await wire.signed('POST', '/api/v3/order/cancelReplace', replace);
  expect(nothing.status).toBe(429);
  expect(nothing.body.code).toBe(-1015);
  expect(sim.openClientOrderIds()).toContain(target.clientOrderId);
  expectRefusal(await wire.signed('POST', '/api/v3/order/cancelReplace', { ...replace, orderRateLimitExceededMode: 'SOMETIMES' }), 400, { code: -1130, msg: "Data sent for parameter 'orderRateLimitExceededMode' is not valid." });

  const cancelOnly = await wire.signed('POST', '/api/v3/order/cancelReplace', { ...replace, orderRateLimitExceededMode: 'CANCEL_ONLY' });
  expect(cancelOnly.status, JSON.stringify(cancelOnly.body)).toBe(429);
  expect(cancelOnly.body).toMatchObject({
    code: -2021,
    msg: 'Order cancel-replace partially failed.',
    data: { cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', cancelResponse: { orderId: target.orderId, status: 'CANCELED' }, newOrderResponse: { code: -1015, msg: 'Too many new orders; current limit is 3 orders per 10 SECOND.' } },
  });
  expect(sim.openClientOrderIds()).not.toContain(target.clientOrderId);
  // The cancel leg failing: FAILURE / NOT_ATTEMPTED, still 429.
  const gone = await wire.signed('POST', '/api/v3/order/cancelReplace', { ...replace, orderRateLimitExceededMode: 'CANCEL_ONLY' });
  expect(gone.status).toBe(429);
  expect(gone.body).toMatchObject({ code: -2022, data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: { code: -2011, msg: 'Unknown order sent.' }, newOrderResponse: null } });

  // WS API: the same.
  const other = (await wire.openOrders())[0]!;
  const api = await RawWs.open(sim, '/ws-api/v3');
  const ws = await api.call('order.cancelReplace', { ...replace, cancelOrderId: other.orderId, orderRateLimitExceededMode: 'CANCEL_ONLY' }, true);
  expect(ws).toMatchObject({ status: 429, error: { code: -2021, data: { cancelResult: 'SUCCESS', newOrderResult: 'FAILURE' } } });
});

test('microsecond timestamps with a recvWindow of three decimals are compared to the microsecond', async ({ sim, wire }) => {
  const nowUs = sim.now() * 1000;
  const oldBy = (us: number) => String(nowUs - us);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: oldBy(5_000_500), recvWindow: '5000.6' })).status).toBe(200);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: oldBy(5_000_500), recvWindow: '5000.5' })).status).toBe(200);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: oldBy(5_000_501), recvWindow: '5000.5' })).body.code).toBe(-1021);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: oldBy(-999_999) })).status).toBe(200);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: oldBy(-1_000_000) })).body.code).toBe(-1021);
  // Milliseconds with a fractional window.
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: sim.now() - 5001, recvWindow: '5000.999' })).body.code).toBe(-1021);
  expect((await wire.signed('GET', '/api/v3/account', {}, { timestamp: sim.now() - 5001, recvWindow: '5001.000' })).status).toBe(200);
});

test('X-MBX-TIME-UNIT: MICROSECOND (REST) and timeUnit=MICROSECOND (WS API) give times in microseconds, events included', async ({ sim, wire }) => {
  const us = { 'X-MBX-TIME-UNIT': 'MICROSECOND' };
  const time = await wire.raw('GET', '/api/v3/time', { headers: us });
  expect(time.body).toEqual({ serverTime: T0 * 1000 });
  expect((await wire.raw('GET', '/api/v3/time', { headers: { 'X-MBX-TIME-UNIT': 'microsecond' } })).body).toEqual({ serverTime: T0 * 1000 });
  expect((await wire.get('/api/v3/time')).body).toEqual({ serverTime: T0 });

  const api = await RawWs.open(sim, '/ws-api/v3?timeUnit=MICROSECOND');
  await api.subscribeUserData();
  const placed = await api.call('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newOrderRespType: 'RESULT' }, true);
  expect(placed.result).toMatchObject({ transactTime: T0 * 1000, workingTime: T0 * 1000 });
  const report = await api.frame((f) => f.json?.event?.e === 'executionReport');
  expect(report.json.event).toMatchObject({ E: T0 * 1000, T: T0 * 1000, O: T0 * 1000, W: T0 * 1000 });
  const position = await api.frame((f) => f.json?.event?.e === 'outboundAccountPosition');
  expect(position.json.event).toMatchObject({ E: T0 * 1000, u: T0 * 1000 });
  expect((await api.call('time')).result).toEqual({ serverTime: T0 * 1000 });

  const open = await wire.raw('GET', `/api/v3/openOrders?${await signedQuery(wire)}`, { headers: { ...us, 'X-MBX-APIKEY': wire.apiKey } });
  expect(open.body[0]).toMatchObject({ time: T0 * 1000, updateTime: T0 * 1000, workingTime: T0 * 1000 });
  counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.001');
  const trades = await wire.raw('GET', `/api/v3/myTrades?${await signedQuery(wire, { symbol: 'BTCUSDT' })}`, { headers: { ...us, 'X-MBX-APIKEY': wire.apiKey } });
  expect(trades.body[0]).toMatchObject({ time: T0 * 1000 });
  // A plain connection still gets milliseconds.
  const plain = await RawWs.open(sim, '/ws-api/v3');
  expect((await plain.call('time')).result).toEqual({ serverTime: T0 });
});

test('timeUnit=MICROSECOND on a market stream URL: trade and kline times in microseconds, ids as they are; a plain connection keeps milliseconds', async ({ sim, wire }) => {
  const micro = await RawWs.open(sim, '/stream?streams=btcusdt@trade/btcusdt@kline_1m&timeUnit=MICROSECOND');
  const rawMicro = await RawWs.open(sim, '/ws/btcusdt@trade?timeUnit=microsecond');
  const plain = await RawWs.open(sim, '/ws/btcusdt@trade');
  counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.001');
  expect((await wire.order(limitBuy('50000', { quantity: '0.001' }))).status).toBe(200);
  const inMs = (await plain.frame((f) => f.json?.e === 'trade')).json;
  expect(inMs).toMatchObject({ E: T0, T: T0 });
  const trade = (await micro.frame((f) => f.json?.stream === 'btcusdt@trade')).json.data;
  expect(trade).toEqual({ ...inMs, E: T0 * 1000, T: T0 * 1000 });
  expect((await rawMicro.frame((f) => f.json?.e === 'trade')).json).toEqual(trade);

  sim.advanceTime(2000);
  const kline = (await micro.frame((f) => f.json?.stream === 'btcusdt@kline_1m')).json.data;
  const minute = T0 - (T0 % 60_000);
  expect(kline.k).toMatchObject({ t: minute * 1000, T: (minute + 59_999) * 1000, f: inMs.t, L: inMs.t });
  expect(kline.E % 1000).toBe(0);
  expect(kline.E / 1000).toBeGreaterThanOrEqual(T0);
  expect(kline.E / 1000).toBeLessThanOrEqual(sim.now());
});

test('timeUnit=MICROSECOND on a bare /ws or /stream URL holds for streams subscribed later: aggTrade, depthUpdate, 24hrTicker and avgPrice times in microseconds', async ({ sim, wire }) => {
  const streams = ['btcusdt@aggTrade', 'btcusdt@depth@100ms', 'btcusdt@ticker', 'btcusdt@avgPrice'];
  const raw = await RawWs.open(sim, '/ws?timeUnit=MICROSECOND');
  const combined = await RawWs.open(sim, '/stream?timeUnit=MICROSECOND');
  const plain = await RawWs.open(sim, '/ws');
  for (const ws of [raw, combined, plain]) {
    ws.send({ method: 'SUBSCRIBE', params: streams, id: 1 });
    await ws.frame((f) => f.json?.id === 1);
  }
  counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.001');
  expect((await wire.order(limitBuy('50000', { quantity: '0.001' }))).status).toBe(200);
  sim.advanceTime(2000);
  // Per event (web-socket-streams.md), the fields that hold times; every other field as it is.
  const timeFields: Record<string, string[]> = { aggTrade: ['E', 'T'], depthUpdate: ['E'], '24hrTicker': ['E', 'O', 'C'], avgPrice: ['E', 'T'] };
  for (const [event, fields] of Object.entries(timeFields)) {
    const inMs = (await plain.frame((f) => f.json?.e === event)).json;
    const inUs = { ...inMs, ...Object.fromEntries(fields.map((k) => [k, inMs[k] * 1000])) };
    expect((await raw.frame((f) => f.json?.e === event)).json, event).toEqual(inUs);
    expect((await combined.frame((f) => f.json?.data?.e === event)).json.data, event).toEqual(inUs);
  }
});

async function signedQuery(wire: { signer: (p: string) => string; now: () => number }, params: Record<string, string> = {}): Promise<string> {
  const payload = new URLSearchParams({ ...params, timestamp: String(wire.now()) }).toString();
  return `${payload}&signature=${wire.signer(payload)}`;
}

test('userDataStream.unsubscribe with a negative subscriptionId is -1100; strategyType below 1000000 is -1134', async ({ sim, wire }) => {
  const api = await RawWs.open(sim, '/ws-api/v3');
  await api.subscribeUserData();
  const negative = await api.call('userDataStream.unsubscribe', { subscriptionId: -1 });
  expect(negative).toMatchObject({ status: 400, error: { code: -1100 } });
  expect(negative.error.msg).toContain("'subscriptionId'");

  const low = await wire.order({ ...limitBuy('50000'), strategyType: '999999' });
  expectRefusal(low, 400, { code: -1134, msg: 'strategyType was less than 1000000.' });
  expect((await wire.order({ ...limitBuy('50000'), strategyType: '1000000', strategyId: '7' })).status).toBe(200);
  const ws = await api.call('order.place', { symbol: 'BTCUSDT', ...limitBuy('50001'), strategyType: 5 }, true);
  expect(ws.error).toEqual({ code: -1134, msg: 'strategyType was less than 1000000.' });
});
