// The WebSocket API end to end on both listeners (spec 4.3, binance-facts §6): the request and
// response envelope (ids echoed with their JSON type, -1135 / -1130 / -1102 for frames that are
// not requests, version prefixes, rateLimits and returnRateLimits), every method with its
// result and its error rows, the authentication rows of spec 5.4 in their WS form, the 429
// with data.retryAfter, and user-data subscriptions: the response before the events it
// caused, executionReports before outboundAccountPosition, eventStreamTerminated on unsubscribe.
import { counterparty } from './support/rest.ts';
import { apiOn, expect, ok, SCHEMES, test, wsTestWith, wsPayload, type Frame, type WsApi, type WsParams } from './support/ws.ts';

const WEIGHT_LIMIT = { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000, count: expect.any(Number) };

/** The error of a response: status, code and (exact or matching) message. */
function expectError(r: Frame, status: number, code: number, msg?: string | RegExp): void {
  expect(r.status, JSON.stringify(r)).toBe(status);
  expect(r.error.code, JSON.stringify(r)).toBe(code);
  if (typeof msg === 'string') expect(r.error.msg).toBe(msg);
  else if (msg !== undefined) expect(r.error.msg).toMatch(msg);
  expect(r.result).toBeUndefined();
}

const mandatory = (name: string) => `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`;
const invalid = (name: string) => `Data sent for parameter '${name}' is not valid.`;

/** Weight charged by a request: the REQUEST_WEIGHT count it reports minus the one before. */
async function weightOf(api: WsApi, method: string, params?: WsParams, signed = false): Promise<number> {
  const before = (await api.call('ping')).rateLimits[0].count as number;
  const r = signed ? await api.signed(method, params) : await api.call(method, params);
  expect(r.status, JSON.stringify(r.error)).toBe(200);
  const after = r.rateLimits[0].count as number;
  // A fixed minute window may roll over between the two requests.
  return after >= before ? after - before : after;
}

for (const scheme of SCHEMES) {
  test.describe(scheme, () => {
    test.use({ scheme });

    test('envelope: ids echoed with their JSON type, version prefix, frames that are not requests', async ({ wsApi }) => {
      const api = await wsApi();
      for (const id of [7, 0, -5, 'abc-XYZ_1', '', null]) {
        expect(await api.call('ping', {}, id)).toEqual({ id, status: 200, result: {}, rateLimits: [WEIGHT_LIMIT] });
      }
      // int64 ids beyond 2^53 come back digit for digit.
      api.client.send('{"id":9223372036854775807,"method":"ping"}');
      await api.client.until(() => api.client.texts.find((t) => t.startsWith('{"id":9223372036854775807,"status":200,"result":{}')), 5000, 'the int64 id echoed');
      expect(ok(await api.call('v3/time')).serverTime).toBeGreaterThan(0);
      expect(ok(await api.call('v3/ping'))).toEqual({});

      const refused = async (text: string, id: string | number | null, code: number, msg: string) => {
        api.client.send(text);
        const r = await api.response(id, text);
        expect(r, text).toEqual({ id, status: 400, error: { code, msg }, rateLimits: [WEIGHT_LIMIT] });
      };
      await refused('not json', null, -1135, 'Invalid JSON Request');
      await refused('[1,2]', null, -1135, 'Invalid JSON Request');
      await refused('{"id":1.5,"method":"ping"}', null, -1130, invalid('id'));
      await refused(`{"id":"${'x'.repeat(37)}","method":"ping"}`, null, -1130, invalid('id'));
      await refused('{"id":{"a":1},"method":"ping"}', null, -1130, invalid('id'));
      await refused('{"id":9223372036854775808,"method":"ping"}', null, -1130, invalid('id'));
      await refused('{"id":3,"params":{}}', 3, -1102, mandatory('method'));
      await refused('{"id":4,"method":"trades.blocks","params":{"symbol":"BTCUSDT"}}', 4, -1130, invalid('method'));
      await refused('{"id":5,"method":5}', 5, -1130, invalid('method'));
      await refused('{"id":"v","method":"v3/nothing"}', 'v', -1130, invalid('method'));
      // params that are not an object of scalars (deliberately outside WsParams).
      expectError(await api.call('depth', [1] as never), 400, -1130, invalid('params'));
      expectError(await api.call('depth', { symbol: { a: 1 } } as never), 400, -1130, invalid('symbol'));
      // Still serving.
      expect(ok(await api.call('ping'))).toEqual({});
    });

    test('rateLimits: the limits a request touched; hidden per request or per connection', async ({ wsApi }) => {
      const api = await wsApi();
      const time = await api.call('time');
      expect(time.rateLimits).toEqual([WEIGHT_LIMIT]);
      const info = await api.call('exchangeInfo');
      expect(info.rateLimits[0].count).toBe(time.rateLimits[0].count + 20);
      const order = await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' });
      ok(order);
      expect(order.rateLimits).toEqual([
        WEIGHT_LIMIT,
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 1000, count: 1 },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 1000000, count: 1 },
      ]);
      const hidden = await api.call('time', { returnRateLimits: false });
      expect(hidden.rateLimits).toBeUndefined();
      expect(hidden.result.serverTime).toBeGreaterThan(0);
      const hiddenSigned = await api.signed('account.status', { returnRateLimits: false, omitZeroBalances: true });
      expect(hiddenSigned.status).toBe(200);
      expect(hiddenSigned.rateLimits).toBeUndefined();

      const quiet = await wsApi('?returnRateLimits=false');
      const r = await quiet.call('ping');
      expect(r).toEqual({ id: r.id, status: 200, result: {} });
      expect(Object.keys(await quiet.call('depth', { symbol: 'NOPE' }))).toEqual(['id', 'status', 'error']);
      // Limits still apply when hidden, and a request can ask for them back.
      const shown = await quiet.call('ping', { returnRateLimits: true });
      expect(shown.rateLimits).toEqual([WEIGHT_LIMIT]);
      expect(shown.rateLimits[0].count).toBeGreaterThan(info.rateLimits[0].count);
    });

    test('public methods: ping, time, exchangeInfo, depth, ticker.book with results, weights and error rows', async ({ sim, wsApi, rest }) => {
      const api = await wsApi();
      expect(ok(await api.call('ping'))).toEqual({});
      expect(Math.abs(ok(await api.call('time')).serverTime - sim.now())).toBeLessThan(1000);

      const all = ok(await api.call('exchangeInfo'));
      expect(all.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect({ ...all, serverTime: 0 }).toEqual({ ...(await rest.get('/api/v3/exchangeInfo')).body, serverTime: 0 });
      expect(ok(await api.call('exchangeInfo', { symbol: 'ETHUSDT' })).symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['ETHUSDT']);
      expect(ok(await api.call('exchangeInfo', { symbols: ['BTCUSDT'] })).symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT']);
      expect(ok(await api.call('exchangeInfo', { symbols: '["ETHUSDT","BTCUSDT"]' })).symbols).toHaveLength(2);
      expectError(await api.call('exchangeInfo', { symbol: 'BTCUSDT', symbols: ['BTCUSDT'] }), 400, -1128, 'Combination of optional parameters invalid.');
      expectError(await api.call('exchangeInfo', { symbol: 'NOPE' }), 400, -1121, 'Invalid symbol.');
      expectError(await api.call('exchangeInfo', { symbols: '[' }), 400, -1130, invalid('symbols'));

      await rest.rest('BUY', '50000', '0.001');
      await rest.rest('SELL', '70000', '0.002');
      const depth = ok(await api.call('depth', { symbol: 'BTCUSDT', limit: 5 }));
      expect(depth).toEqual({ lastUpdateId: expect.any(Number), bids: [['50000.00000000', '0.00100000']], asks: [['70000.00000000', '0.00200000']] });
      expect(depth).toEqual((await rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 })).body);
      expectError(await api.call('depth', {}), 400, -1102, mandatory('symbol'));
      expectError(await api.call('depth', { symbol: 'NOPE' }), 400, -1121, 'Invalid symbol.');
      expectError(await api.call('depth', { symbol: 'BTCUSDT', limit: 0 }), 400, -1130, invalid('limit'));
      expectError(await api.call('depth', { symbol: 'BTCUSDT', limit: 5001 }), 400, -1130, invalid('limit'));
      expectError(await api.call('depth', { symbol: 'BTCUSDT', limit: 'ten' }), 400, -1100);

      const one = ok(await api.call('ticker.book', { symbol: 'BTCUSDT' }));
      expect(one).toEqual({ symbol: 'BTCUSDT', bidPrice: '50000.00000000', bidQty: '0.00100000', askPrice: '70000.00000000', askQty: '0.00200000' });
      expect(ok(await api.call('ticker.book')).map((t: { symbol: string }) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect(ok(await api.call('ticker.book', { symbols: ['BTCUSDT'] }))).toEqual([one]);
      expectError(await api.call('ticker.book', { symbol: 'NOPE' }), 400, -1121, 'Invalid symbol.');
      expectError(await api.call('ticker.book', { symbol: 'BTCUSDT', symbols: ['BTCUSDT'] }), 400, -1128);

      // Weights of binance-facts §3 / §6.
      const weights: [string, WsParams | undefined, number][] = [
        ['ping', undefined, 1],
        ['time', undefined, 1],
        ['exchangeInfo', undefined, 20],
        ['depth', { symbol: 'BTCUSDT', limit: 100 }, 5],
        ['depth', { symbol: 'BTCUSDT', limit: 500 }, 25],
        ['depth', { symbol: 'BTCUSDT', limit: 1000 }, 50],
        ['depth', { symbol: 'BTCUSDT', limit: 5000 }, 250],
        ['ticker.book', { symbol: 'BTCUSDT' }, 2],
        ['ticker.book', undefined, 4],
      ];
      for (const [method, params, weight] of weights) expect(await weightOf(api, method, params), `${method} ${JSON.stringify(params)}`).toBe(weight);
      expect(await weightOf(api, 'account.status', {}, true)).toBe(20);
      expect(await weightOf(api, 'account.rateLimits.orders', {}, true)).toBe(40);
    });

    test('signed requests: the authentication rows of spec 5.4 in WS form; the payload is the sorted params', async ({ sim, wsApi }) => {
      const api = await wsApi();
      const account = ok(await api.signed('account.status', { omitZeroBalances: true }));
      expect(account.balances).toContainEqual({ asset: 'USDT', free: '10000000.00000000', locked: '0.00000000' });
      expect(account.accountType).toBe('SPOT');

      const now = sim.now();
      expectError(await api.signed('account.status', {}, { apiKey: null }), 401, -2014, 'API-key format invalid.');
      expectError(await api.signed('account.status', {}, { apiKey: 'not-the-key' }), 401, -2015, 'Invalid API-key, IP, or permissions for action.');
      expectError(await api.signed('account.status', {}, { timestamp: null }), 400, -1102, mandatory('timestamp'));
      expectError(await api.signed('account.status', {}, { signer: null }), 400, -1102, mandatory('signature'));
      expectError(await api.call('account.status', { ...api.signedParams(), signature: '0'.repeat(64) }), 400, -1022, 'Signature for this request is not valid.');
      expectError(await api.signed('account.status', {}, { timestamp: now + 5000 }), 400, -1021, "Timestamp for this request was 1000ms ahead of the server's time.");
      expectError(await api.signed('account.status', {}, { timestamp: now - 10_000 }), 400, -1021, 'Timestamp for this request is outside of the recvWindow.');
      expectError(await api.signed('account.status', { recvWindow: 60_001 }), 400, -1131);
      ok(await api.signed('account.status', { recvWindow: 20_000 }, { timestamp: now - 10_000 }));
      // The same signature with the params joined in the order given (not sorted) is refused.
      const params = { omitZeroBalances: true, apiKey: sim.credentials.apiKey, timestamp: sim.now() };
      const unsorted = Object.entries(params).map(([k, v]) => `${k}=${v}`).join('&');
      expect(unsorted).not.toBe(wsPayload(params));
      expectError(await api.call('account.status', { ...params, signature: api.signer(unsorted) }), 400, -1022);
      ok(await api.call('account.status', { ...params, signature: api.signer(wsPayload(params)) }));
      // An explicit apiKey + signature on a numeric-string timestamp works too (ccxt sends numbers, others strings).
      ok(await api.signed('account.status', {}, { timestamp: String(sim.now()) }));
    });

    test('order methods: place, test, status, amend, cancelReplace, openOrders, cancel, cancelAll, myTrades, commission, rate limits', async ({ sim, wsApi }) => {
      const api = await wsApi();
      const placed = await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.002', newClientOrderId: 'ws-1' });
      expect(ok(placed)).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: 'ws-1', status: 'NEW', price: '50000.00000000', origQty: '0.00200000', fills: [] });
      const orderId = placed.result.orderId as number;
      // Order parameters as numbers (binance-sdk) are read like strings.
      const ack = ok(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: 49000, quantity: 0.001, newOrderRespType: 'ACK', newClientOrderId: 'ws-2' }));
      expect(Object.keys(ack)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
      counterparty(sim, 'BTCUSDT', 'SELL', '60000.00', '0.01');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '60000', quantity: '0.001' }), 400, -2010, 'Order would immediately match and take.');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.000001' }), 400, -1013, 'Filter failure: LOT_SIZE');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.000000001' }), 400, -1111);
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.00001' }), 400, -1013, 'Filter failure: NOTIONAL');
      expectError(await api.signed('order.place', { symbol: 'NOPE', side: 'BUY', type: 'MARKET', quantity: '1' }), 400, -1121, 'Invalid symbol.');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'UP', type: 'MARKET', quantity: '1' }), 400, -1117, 'Invalid side.');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '1000' }), 400, -2010, 'Account has insufficient balance for requested action.');
      expectError(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001', newClientOrderId: 'ws-1' }), 400, -2010, 'Duplicate order sent.');

      expect(ok(await api.signed('order.test', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }))).toEqual({});
      expect(ok(await api.signed('order.test', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001', computeCommissionRates: true }))).toMatchObject({
        standardCommissionForOrder: { maker: '0.00010000', taker: '0.00040000' },
      });
      expectError(await api.signed('order.test', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.001', price: '50000' }), 400, -1102, mandatory('timeInForce'));

      expect(ok(await api.signed('order.status', { symbol: 'BTCUSDT', orderId }))).toMatchObject({ orderId, clientOrderId: 'ws-1', status: 'NEW', executedQty: '0.00000000' });
      expect(ok(await api.signed('order.status', { symbol: 'BTCUSDT', origClientOrderId: 'ws-2' }))).toMatchObject({ orderId: ack.orderId, status: 'NEW' });
      expectError(await api.signed('order.status', { symbol: 'BTCUSDT', orderId: 999_999 }), 400, -2013, 'Order does not exist.');

      const amended = ok(await api.signed('order.amend.keepPriority', { symbol: 'BTCUSDT', orderId, newQty: '0.001', newClientOrderId: 'ws-1b' }));
      expect(amended.amendedOrder).toMatchObject({ orderId, clientOrderId: 'ws-1b', origClientOrderId: 'ws-1', qty: '0.00100000' });
      expectError(await api.signed('order.amend.keepPriority', { symbol: 'BTCUSDT', orderId, newQty: '0.005' }), 400, -2038, 'Order amend (quantity increase) is not supported.');
      expectError(await api.signed('order.amend.keepPriority', { symbol: 'BTCUSDT', orderId }), 400, -1102, mandatory('newQty'));

      const open = ok(await api.signed('openOrders.status', { symbol: 'BTCUSDT' }));
      expect(open.map((o: { clientOrderId: string }) => o.clientOrderId)).toEqual(['ws-1b', 'ws-2']);
      expect(ok(await api.signed('openOrders.status'))).toEqual(open);
      expectError(await api.signed('openOrders.status', { symbol: 'NOPE' }), 400, -1121);

      const replaced = ok(await api.signed('order.cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '48000', quantity: '0.001',
        cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: 'ws-2', newClientOrderId: 'ws-3',
      }));
      expect(replaced).toMatchObject({
        cancelResult: 'SUCCESS',
        newOrderResult: 'SUCCESS',
        cancelResponse: { origClientOrderId: 'ws-2', status: 'CANCELED' },
        newOrderResponse: { clientOrderId: 'ws-3', status: 'NEW' },
      });
      const failed = await api.signed('order.cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '48000', quantity: '0.001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 999_999,
      });
      expectError(failed, 400, -2022, 'Order cancel-replace failed.');
      expect(failed.error.data).toEqual({
        cancelResult: 'FAILURE',
        newOrderResult: 'NOT_ATTEMPTED',
        cancelResponse: { code: -2011, msg: 'Unknown order sent.' },
        newOrderResponse: null,
      });
      const partial = await api.signed('order.cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '60000', quantity: '0.001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: 'ws-3',
      });
      expectError(partial, 409, -2021, 'Order cancel-replace partially failed.');
      expect(partial.error.data).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', newOrderResponse: { code: -2010, msg: 'Order would immediately match and take.' } });

      const cancelled = ok(await api.signed('order.cancel', { symbol: 'BTCUSDT', origClientOrderId: 'ws-1b', newClientOrderId: 'ws-cancel' }));
      expect(cancelled).toMatchObject({ orderId, origClientOrderId: 'ws-1b', clientOrderId: 'ws-cancel', status: 'CANCELED' });
      expectError(await api.signed('order.cancel', { symbol: 'BTCUSDT', orderId }), 400, -2011, 'Unknown order sent.');
      expectError(await api.signed('order.cancel', { symbol: 'BTCUSDT' }), 400, -1102);

      await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '40000', quantity: '0.001', newClientOrderId: 'ws-4' });
      await api.signed('order.place', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '80000', quantity: '0.001', newClientOrderId: 'ws-5' });
      const all = ok(await api.signed('openOrders.cancelAll', { symbol: 'BTCUSDT' }));
      expect(all.map((c: { origClientOrderId: string; status: string }) => [c.origClientOrderId, c.status])).toEqual([['ws-4', 'CANCELED'], ['ws-5', 'CANCELED']]);
      expectError(await api.signed('openOrders.cancelAll', { symbol: 'BTCUSDT' }), 400, -2011, 'Unknown order sent.');
      expectError(await api.signed('openOrders.cancelAll'), 400, -1102, mandatory('symbol'));

      // A fill, then myTrades.
      const bought = ok(await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.003' }));
      expect(bought).toMatchObject({ status: 'FILLED', executedQty: '0.00300000' });
      const trades = ok(await api.signed('myTrades', { symbol: 'BTCUSDT' }));
      expect(trades).toHaveLength(1);
      expect(trades[0]).toMatchObject({ symbol: 'BTCUSDT', orderId: bought.orderId, id: bought.fills[0].tradeId, price: '60000.00000000', qty: '0.00300000', isBuyer: true, isMaker: false });
      expectError(await api.signed('myTrades', { symbol: 'BTCUSDT', fromId: 1, startTime: 1 }), 400, -1128);
      expectError(await api.signed('myTrades', {}), 400, -1102, mandatory('symbol'));

      expect(ok(await api.signed('account.commission', { symbol: 'BTCUSDT' }))).toMatchObject({
        symbol: 'BTCUSDT',
        standardCommission: { maker: '0.00010000', taker: '0.00040000', buyer: '0.00000000', seller: '0.00000000' },
      });
      expectError(await api.signed('account.commission', {}), 400, -1102, mandatory('symbol'));
      expectError(await api.signed('account.commission', { symbol: 'NOPE' }), 400, -1121);

      const orderCounts = ok(await api.signed('account.rateLimits.orders'));
      expect(orderCounts).toEqual([
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 1000, count: expect.any(Number) },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 1000000, count: expect.any(Number) },
      ]);
      expect(orderCounts[1].count).toBeGreaterThanOrEqual(6);
      expectError(await api.signed('account.rateLimits.orders', {}, { signer: null }), 400, -1102, mandatory('signature'));
    });

    test('user data: subscribe.signature, the response before its events, executionReport before outboundAccountPosition, unsubscribe', async ({ sim, wsApi, rest }) => {
      const api = await wsApi();
      const other = await wsApi();
      expect(ok(await api.signed('userDataStream.subscribe.signature'))).toEqual({ subscriptionId: 0 });
      expectError(await api.signed('userDataStream.subscribe.signature'), 400, -2035, 'User Data Stream subscription already active.');
      expectError(await other.signed('userDataStream.subscribe.signature', {}, { signer: () => '0'.repeat(64) }), 400, -1022);
      expectError(await other.signed('userDataStream.subscribe.signature', {}, { apiKey: null }), 401, -2014);
      expect(ok(await other.signed('userDataStream.subscribe.signature'))).toEqual({ subscriptionId: 0 });
      expect(ok(await api.call('session.subscriptions'))).toEqual([{ subscriptionId: 0 }]);

      // A fill: response, then NEW and TRADE reports, then the account position, all after it.
      counterparty(sim, 'BTCUSDT', 'SELL', '60000.00', '0.002');
      const r = await api.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.002', newClientOrderId: 'ud-1' });
      ok(r);
      const events = [await api.event(), await api.event(), await api.event()];
      const at = (f: Frame) => api.client.log.indexOf(f);
      expect(at(events[0])).toBeGreaterThan(at(r));
      expect(events.map((f) => [f.subscriptionId, f.event.e, f.event.x])).toEqual([
        [0, 'executionReport', 'NEW'],
        [0, 'executionReport', 'TRADE'],
        [0, 'outboundAccountPosition', undefined],
      ]);
      expect(events[1].event).toMatchObject({ s: 'BTCUSDT', c: 'ud-1', S: 'BUY', X: 'FILLED', i: r.result.orderId, l: '0.00200000', L: '60000.00000000', t: r.result.fills[0].tradeId, N: 'USDT', m: false });
      const balances = Object.fromEntries(events[2].event.B.map((b: { a: string; f: string; l: string }) => [b.a, b]));
      const rest_ = await rest.balances();
      expect(balances.BTC).toEqual({ a: 'BTC', f: rest_.BTC!.free, l: rest_.BTC!.locked });
      expect(balances.USDT).toEqual({ a: 'USDT', f: rest_.USDT!.free, l: rest_.USDT!.locked });
      // Every subscription gets the account's events, whichever connection caused them.
      const seen = [await other.event(), await other.event(), await other.event()];
      expect(seen.map((f) => f.event)).toEqual(events.map((f) => f.event));
      // A REST order's events reach WS API subscribers too.
      const restOrder = await rest.rest('BUY', '50000', '0.001');
      expect((await api.event((e) => e.e === 'executionReport')).event).toMatchObject({ x: 'NEW', i: restOrder.orderId, X: 'NEW' });
      expect((await api.event()).event.e).toBe('outboundAccountPosition');

      // Unsubscribe: the response, then eventStreamTerminated; then no more events.
      const u = await api.call('userDataStream.unsubscribe', { subscriptionId: 0 });
      expect(ok(u)).toEqual({});
      const terminated = await api.event((e) => e.e === 'eventStreamTerminated');
      expect(terminated).toEqual({ subscriptionId: 0, event: { e: 'eventStreamTerminated', E: expect.any(Number) } });
      expect(at(terminated)).toBeGreaterThan(at(u));
      expectError(await api.call('userDataStream.unsubscribe', { subscriptionId: 0 }), 400, -2036, 'User Data Stream subscription not active.');
      expect(ok(await api.call('session.subscriptions'))).toEqual([]);
      const quiet = await api.signed('order.cancel', { symbol: 'BTCUSDT', orderId: restOrder.orderId });
      ok(quiet);
      expect(ok(await api.call('ping'))).toEqual({});
      expect(api.client.pending().filter((f) => f.event !== undefined)).toEqual([]);
      expect((await other.event((e) => e.x === 'CANCELED')).event).toMatchObject({ e: 'executionReport', i: restOrder.orderId, X: 'CANCELED' });

      // Ids go on per connection; unsubscribe without an id ends them all.
      expect(ok(await api.signed('userDataStream.subscribe.signature'))).toEqual({ subscriptionId: 1 });
      expect(ok(await api.call('userDataStream.unsubscribe'))).toEqual({});
      expect(await api.event((e) => e.e === 'eventStreamTerminated')).toMatchObject({ subscriptionId: 1 });
      expectError(await api.call('userDataStream.unsubscribe', { subscriptionId: 'x' }), 400, -1100);
    });

    test('session methods and userDataStream.subscribe on an HMAC account answer -4056', async ({ wsApi }) => {
      const api = await wsApi();
      const hmac = 'HMAC_SHA256 API key is not supported.';
      expectError(await api.signed('session.logon'), 400, -4056, hmac);
      expectError(await api.call('session.status'), 400, -4056, hmac);
      expectError(await api.call('session.logout'), 400, -4056, hmac);
      expectError(await api.call('userDataStream.subscribe'), 400, -4056, hmac);
      expect(ok(await api.call('session.subscriptions'))).toEqual([]);
    });
  });
}

test.describe('request weight limit', () => {
  const test = wsTestWith({ limits: { weight_per_minute: 30 } });

  for (const scheme of SCHEMES) {
    test(`${scheme}: 429 -1003 with data.retryAfter (epoch ms of the window's end) and the count in rateLimits`, async ({ sim, connect }) => {
      const api = apiOn(sim, await connect('/ws-api/v3'));
      const first = await api.call('exchangeInfo');
      expect(first.status).toBe(200);
      expect(first.rateLimits).toEqual([{ ...WEIGHT_LIMIT, limit: 30 }]);
      const second = await api.call('exchangeInfo');
      expectError(second, 429, -1003, /^Too much request weight used; current limit is 30 request weight per .+\. Please use WebSocket Streams for live updates to avoid polling the API\.$/);
      const { serverTime, retryAfter } = second.error.data;
      expect(Math.abs(serverTime - sim.now())).toBeLessThan(1000);
      expect(retryAfter).toBeGreaterThan(serverTime);
      expect(retryAfter - serverTime).toBeLessThanOrEqual(60_000);
      expect(retryAfter % 60_000).toBe(0);
      expect(second.rateLimits[0].count).toBeGreaterThan(30);
      // The window stays spent until retryAfter, even for the lightest request.
      expectError(await api.call('ping'), 429, -1003);
    });
  }
});
