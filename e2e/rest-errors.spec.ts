// Every refusal REST can produce from the spec 7 table and the codes of binance-facts §2 the
// simulator uses, one test per row on each listener: HTTP status, exact code and message, the
// weight header, and no state change (open orders, balances and the book are as before).
// The rows only injected faults produce (418, injected 429 / -2015 / -1021 / -2010) follow.
// Authentication, timestamp and limit rows are in rest.spec.ts and rest-auth-limits.spec.ts;
// cancelReplace and amend rows in rest-orders-managing.spec.ts; myTrades and listen keys in
// rest-account.spec.ts.
import { counterparty, encode, expect, LISTENERS, test, restTestWith, type ParamList, type Reply, type Wire } from './support/rest.ts';

interface Row {
  readonly label: string;
  readonly call: (c: Wire) => Promise<Reply>;
  readonly status: number;
  readonly error: { readonly code: number; readonly msg: string };
}

const ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' };
const DECIMAL = "legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.";
const CLIENT_ID = "legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'.";
const mandatory = (name: string) => ({ code: -1102, msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.` });
const filter = (name: string) => ({ code: -1013, msg: `Filter failure: ${name}` });
const invalid = (name: string) => ({ code: -1130, msg: `Data sent for parameter '${name}' is not valid.` });
const notRequired = (name: string) => ({ code: -1106, msg: `Parameter '${name}' sent when not required.` });
const precision = (name: string) => ({ code: -1111, msg: `Parameter '${name}' has too much precision.` });
const UNSUPPORTED = { code: -1014, msg: 'Unsupported order combination.' };
const BAD_SYMBOL = { code: -1121, msg: 'Invalid symbol.' };
const INSUFFICIENT = { code: -2010, msg: 'Account has insufficient balance for requested action.' };
const EITHER_ID = { code: -1102, msg: "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!" };

/** An order placement with `changes` applied (undefined removes a parameter). */
const place = (changes: ParamList) => (c: Wire) => c.signed('POST', '/api/v3/order', { ...ORDER, ...changes });
const signed = (method: 'GET' | 'POST' | 'DELETE', path: string, params: ParamList) => (c: Wire) => c.signed(method, path, params);
const open = (path: string, params: ParamList) => (c: Wire) => c.get(path, params);
/** A request whose query is written by hand (parse errors come before authentication). */
const rawOrder = (query: string) => (c: Wire) => c.raw('POST', `/api/v3/order?${query}&timestamp=${c.now()}&signature=${'0'.repeat(64)}`, { headers: { 'X-MBX-APIKEY': c.apiKey } });

const ROWS: Row[] = [
  // -1100 ILLEGAL_CHARS
  { label: 'price not a decimal', call: place({ price: 'abc' }), status: 400, error: { code: -1100, msg: `Illegal characters found in parameter 'price'; ${DECIMAL}` } },
  { label: 'negative price', call: place({ price: '-1' }), status: 400, error: { code: -1100, msg: `Illegal characters found in parameter 'price'; ${DECIMAL}` } },
  { label: 'quantity in exponent form', call: place({ quantity: '1e-3' }), status: 400, error: { code: -1100, msg: `Illegal characters found in parameter 'quantity'; ${DECIMAL}` } },
  { label: 'wire order id with a space', call: place({ newClientOrderId: 'has space' }), status: 400, error: { code: -1100, msg: `Illegal characters found in parameter 'newClientOrderId'; ${CLIENT_ID}` } },
  { label: 'wire order id of 37 characters', call: place({ newClientOrderId: 'x'.repeat(37) }), status: 400, error: { code: -1100, msg: `Illegal characters found in parameter 'newClientOrderId'; ${CLIENT_ID}` } },
  { label: 'orderId not an integer', call: signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: 'abc' }), status: 400, error: { code: -1100, msg: "Illegal characters found in parameter 'orderId'; legal range is '^[0-9]{1,20}$'." } },
  // 20 digits beyond int64 match the -1100 pattern, so they are -1130 (issue 18: a message never names a pattern the value matches).
  { label: 'orderId beyond int64', call: signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: '9223372036854775808' }), status: 400, error: { code: -1130, msg: "Data sent for parameter 'orderId' is not valid." } },
  { label: 'broken percent-encoding', call: rawOrder(`${encode(ORDER)}&newClientOrderId=%E0%A4%A`), status: 400, error: { code: -1100, msg: "Illegal characters found in parameter 'newClientOrderId'." } },
  // -1101 TOO_MANY_PARAMETERS
  { label: 'a parameter sent twice', call: rawOrder(`${encode(ORDER)}&symbol=ETHUSDT`), status: 400, error: { code: -1101, msg: 'Duplicate values for a parameter detected.' } },
  { label: 'too many parameters', call: rawOrder(`${encode(ORDER)}&${Array.from({ length: 64 }, (_, i) => `p${i}=1`).join('&')}`), status: 400, error: { code: -1101, msg: 'Too many parameters sent for this endpoint.' } },
  // -1102 MANDATORY_PARAM_EMPTY_OR_MALFORMED, naming the parameter
  { label: 'no symbol', call: place({ symbol: undefined }), status: 400, error: mandatory('symbol') },
  { label: 'no side', call: place({ side: undefined }), status: 400, error: mandatory('side') },
  { label: 'no type', call: place({ type: undefined }), status: 400, error: mandatory('type') },
  { label: 'LIMIT without timeInForce', call: place({ timeInForce: undefined }), status: 400, error: mandatory('timeInForce') },
  { label: 'no quantity', call: place({ quantity: undefined }), status: 400, error: mandatory('quantity') },
  { label: 'LIMIT without price', call: place({ price: undefined }), status: 400, error: mandatory('price') },
  { label: 'empty price', call: place({ price: '' }), status: 400, error: mandatory('price') },
  { label: 'LIMIT_MAKER without price', call: place({ type: 'LIMIT_MAKER', timeInForce: undefined, price: undefined }), status: 400, error: mandatory('price') },
  { label: 'GET order without an id', call: signed('GET', '/api/v3/order', { symbol: 'BTCUSDT' }), status: 400, error: EITHER_ID },
  { label: 'DELETE order without an id', call: signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT' }), status: 400, error: EITHER_ID },
  { label: 'GET order without symbol', call: signed('GET', '/api/v3/order', { orderId: 1 }), status: 400, error: mandatory('symbol') },
  { label: 'depth without symbol', call: open('/api/v3/depth', {}), status: 400, error: mandatory('symbol') },
  // -1106 PARAM_NOT_REQUIRED
  { label: 'MARKET with timeInForce', call: place({ type: 'MARKET', price: undefined }), status: 400, error: notRequired('timeInForce') },
  { label: 'MARKET with price', call: place({ type: 'MARKET', timeInForce: undefined }), status: 400, error: notRequired('price') },
  { label: 'LIMIT_MAKER with timeInForce', call: place({ type: 'LIMIT_MAKER' }), status: 400, error: notRequired('timeInForce') },
  // -1111 BAD_PRECISION: digits beyond the 8 decimals of the assets
  { label: 'price with 9 decimals', call: place({ price: '50000.000000001' }), status: 400, error: precision('price') },
  { label: 'quantity with 9 decimals', call: place({ quantity: '0.001000001' }), status: 400, error: precision('quantity') },
  // -1013 filter failures
  { label: 'price off the tick', call: place({ price: '50000.001' }), status: 400, error: filter('PRICE_FILTER') },
  { label: 'price zero', call: place({ price: '0' }), status: 400, error: filter('PRICE_FILTER') },
  { label: 'quantity zero', call: place({ quantity: '0' }), status: 400, error: filter('LOT_SIZE') },
  { label: 'quantity off the step', call: place({ quantity: '0.000015' }), status: 400, error: filter('LOT_SIZE') },
  { label: 'quantity above maxQty', call: place({ price: '1', quantity: '9000.00001' }), status: 400, error: filter('LOT_SIZE') },
  { label: 'LIMIT notional below minNotional', call: place({ quantity: '0.00009' }), status: 400, error: filter('NOTIONAL') },
  { label: 'MARKET notional below minNotional at the best price', call: place({ type: 'MARKET', timeInForce: undefined, price: undefined, quantity: '0.00008' }), status: 400, error: filter('NOTIONAL') },
  { label: 'notional above maxNotional', call: place({ symbol: 'ETHUSDT', price: '3000', quantity: '34' }), status: 400, error: filter('NOTIONAL') },
  { label: 'a self-trade prevention mode the symbol does not allow', call: place({ selfTradePreventionMode: 'NONE' }), status: 400, error: { code: -1013, msg: 'This symbol does not allow the specified self-trade prevention mode.' } },
  // -1014 UNKNOWN_ORDER_COMPOSITION (spec 1.10: unsupported order types and features)
  { label: 'STOP_LOSS', call: place({ type: 'STOP_LOSS', timeInForce: undefined, price: undefined, stopPrice: '40000' }), status: 400, error: UNSUPPORTED },
  { label: 'TAKE_PROFIT_LIMIT', call: place({ type: 'TAKE_PROFIT_LIMIT', stopPrice: '70000' }), status: 400, error: UNSUPPORTED },
  { label: 'MARKET by quoteOrderQty', call: place({ type: 'MARKET', timeInForce: undefined, price: undefined, quantity: undefined, quoteOrderQty: '100' }), status: 400, error: UNSUPPORTED },
  { label: 'iceberg', call: place({ icebergQty: '0.0005' }), status: 400, error: UNSUPPORTED },
  { label: 'trailing delta', call: place({ trailingDelta: '100' }), status: 400, error: UNSUPPORTED },
  { label: 'pegged', call: place({ pegPriceType: 'PRIMARY_PEG' }), status: 400, error: UNSUPPORTED },
  // -1115 / -1116 / -1117
  { label: 'timeInForce GTD', call: place({ timeInForce: 'GTD' }), status: 400, error: { code: -1115, msg: 'Invalid timeInForce.' } },
  { label: 'type FOO', call: place({ type: 'FOO' }), status: 400, error: { code: -1116, msg: 'Invalid orderType.' } },
  { label: 'type in lower case', call: place({ type: 'limit' }), status: 400, error: { code: -1116, msg: 'Invalid orderType.' } },
  { label: 'side HOLD', call: place({ side: 'HOLD' }), status: 400, error: { code: -1117, msg: 'Invalid side.' } },
  // -1121 BAD_SYMBOL on every endpoint that takes a symbol
  { label: 'order on an unknown symbol', call: place({ symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'order/test on an unknown symbol', call: signed('POST', '/api/v3/order/test', { ...ORDER, symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'GET order on an unknown symbol', call: signed('GET', '/api/v3/order', { symbol: 'NOPE', orderId: 1 }), status: 400, error: BAD_SYMBOL },
  { label: 'DELETE order on an unknown symbol', call: signed('DELETE', '/api/v3/order', { symbol: 'NOPE', orderId: 1 }), status: 400, error: BAD_SYMBOL },
  { label: 'openOrders on an unknown symbol', call: signed('GET', '/api/v3/openOrders', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'DELETE openOrders on an unknown symbol', call: signed('DELETE', '/api/v3/openOrders', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'myTrades on an unknown symbol', call: signed('GET', '/api/v3/myTrades', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'commission on an unknown symbol', call: signed('GET', '/api/v3/account/commission', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'depth on an unknown symbol', call: open('/api/v3/depth', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'bookTicker on an unknown symbol', call: open('/api/v3/ticker/bookTicker', { symbol: 'NOPE' }), status: 400, error: BAD_SYMBOL },
  { label: 'exchangeInfo with an unknown symbol in symbols', call: open('/api/v3/exchangeInfo', { symbols: '["BTCUSDT","NOPE"]' }), status: 400, error: BAD_SYMBOL },
  // -1128 / -1130
  { label: 'exchangeInfo with symbol and symbols', call: open('/api/v3/exchangeInfo', { symbol: 'BTCUSDT', symbols: '["ETHUSDT"]' }), status: 400, error: { code: -1128, msg: 'Combination of optional parameters invalid.' } },
  { label: 'exchangeInfo symbols not a JSON array', call: open('/api/v3/exchangeInfo', { symbols: 'BTCUSDT' }), status: 400, error: invalid('symbols') },
  { label: 'depth limit 0', call: open('/api/v3/depth', { symbol: 'BTCUSDT', limit: 0 }), status: 400, error: invalid('limit') },
  { label: 'depth limit 5001', call: open('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5001 }), status: 400, error: invalid('limit') },
  { label: 'unknown newOrderRespType', call: place({ newOrderRespType: 'BRIEF' }), status: 400, error: invalid('newOrderRespType') },
  { label: 'unknown self-trade prevention mode', call: place({ selfTradePreventionMode: 'BOGUS' }), status: 400, error: invalid('selfTradePreventionMode') },
  // -2010 NEW_ORDER_REJECTED
  { label: 'LIMIT BUY the quote balance cannot cover', call: place({ quantity: '200' }), status: 400, error: INSUFFICIENT },
  { label: 'LIMIT SELL of more base than held', call: place({ side: 'SELL', price: '70000', quantity: '100.00001' }), status: 400, error: INSUFFICIENT },
  { label: 'MARKET BUY the quote balance cannot cover', call: place({ type: 'MARKET', timeInForce: undefined, price: undefined, quantity: '170' }), status: 400, error: INSUFFICIENT },
  { label: 'MARKET SELL of more base than held', call: place({ side: 'SELL', type: 'MARKET', timeInForce: undefined, price: undefined, quantity: '100.00001' }), status: 400, error: INSUFFICIENT },
  { label: 'a wire order id already open', call: place({ price: '50001', newClientOrderId: 'keep' }), status: 400, error: { code: -2010, msg: 'Duplicate order sent.' } },
  { label: 'LIMIT_MAKER BUY that would take', call: place({ type: 'LIMIT_MAKER', timeInForce: undefined, price: '60010' }), status: 400, error: { code: -2010, msg: 'Order would immediately match and take.' } },
  { label: 'LIMIT_MAKER SELL that would take', call: place({ side: 'SELL', type: 'LIMIT_MAKER', timeInForce: undefined, price: '59000' }), status: 400, error: { code: -2010, msg: 'Order would immediately match and take.' } },
  // -2011 / -2013
  { label: 'cancel of an unknown order', call: signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: 424242 }), status: 400, error: { code: -2011, msg: 'Unknown order sent.' } },
  { label: 'query of an unknown order', call: signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'never-placed' }), status: 400, error: { code: -2013, msg: 'Order does not exist.' } },
  // The largest LONG is a valid order id that names no order.
  { label: 'query of order id 2^63-1', call: signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: '9223372036854775807' }), status: 400, error: { code: -2013, msg: 'Order does not exist.' } },
  { label: 'cancel of order id 2^63-1', call: signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: '9223372036854775807' }), status: 400, error: { code: -2011, msg: 'Unknown order sent.' } },
];

for (const listener of LISTENERS) {
  test.describe(`refusals over ${listener}`, () => {
    const test = restTestWith({ symbols: { ETHUSDT: { max_notional: '100000' } } });
    test.use({ listener });

    for (const row of ROWS) {
      test(`${row.error.code} ${row.label}`, async ({ sim, wire }) => {
        // A book on both sides and one open order of the account.
        counterparty(sim, 'BTCUSDT', 'SELL', '60010', '500');
        counterparty(sim, 'BTCUSDT', 'BUY', '59990', '1');
        await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'keep' });
        const before = { ...(await wire.state()), depth: (await wire.get('/api/v3/depth', { symbol: 'BTCUSDT' })).body };

        const r = await row.call(wire);
        expect(r.status, JSON.stringify(r.body)).toBe(row.status);
        expect(r.body).toEqual(row.error);
        expect(r.headers['content-type']).toContain('application/json');
        expect(Number(r.headers['x-mbx-used-weight-1m'])).toBeGreaterThan(0);

        const after = { ...(await wire.state()), depth: (await wire.get('/api/v3/depth', { symbol: 'BTCUSDT' })).body };
        expect(after).toEqual(before);
      });
    }

    test('-2010 Filter failure: MAX_NUM_ORDERS at 200 open orders on the symbol; other symbols unaffected', async ({ wire }) => {
      const first = await wire.rest('BUY', '40000', '0.001');
      for (let i = 1; i < 200; i++) await wire.rest('BUY', (40000 + i).toFixed(2), '0.001');
      const before = await wire.state();
      const refused = await wire.order({ ...ORDER, price: '49000' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: -2010, msg: 'Filter failure: MAX_NUM_ORDERS' });
      expect(await wire.state()).toEqual(before);
      expect((await wire.order({ ...ORDER, symbol: 'ETHUSDT', price: '2000', quantity: '0.01' })).status).toBe(200);
      // One fewer open order makes room again.
      await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: first.orderId });
      expect((await wire.order({ ...ORDER, price: '49000' })).status).toBe(200);
      const rejected = await wire.order({ ...ORDER, price: '49001' });
      expect(rejected.body).toEqual({ code: -2010, msg: 'Filter failure: MAX_NUM_ORDERS' });
    });
  });
}

test.describe('maxNotional', () => {
  const test = restTestWith({ symbols: { ETHUSDT: { max_notional: '100000' } } });

  test('exchangeInfo states a configured maxNotional, and only where configured', async ({ wire }) => {
    const info = (await wire.get('/api/v3/exchangeInfo')).body;
    const notional = (symbol: string) =>
      info.symbols.find((s: { symbol: string }) => s.symbol === symbol).filters.find((f: { filterType: string }) => f.filterType === 'NOTIONAL');
    expect(notional('ETHUSDT')).toEqual({ filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '100000.00000000', applyMaxToMarket: true, avgPriceMins: 0 });
    expect(notional('BTCUSDT')).toEqual({ filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, avgPriceMins: 0 });
    // Exactly at the maximum is fine.
    expect((await wire.order({ symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '2500', quantity: '40', newOrderRespType: 'ACK' })).status).toBe(200);
  });
});

// The rows of spec 7 that only injected faults produce (spec 4.5): each refuses the next k
// requests it applies to, changes nothing, and the request after them is served.
for (const listener of LISTENERS) {
  test.describe(`injected refusals over ${listener}`, () => {
    const test = restTestWith({ clock: 'manual', start_time_ms: 1_700_000_000_000 });
    test.use({ listener });

    const secondsToMinuteEnd = (now: number) => Math.ceil((60_000 - (now % 60_000)) / 1000);

    test('ban_next_requests: 418 -1003 "IP banned until" with Retry-After, for k requests of any kind', async ({ sim, wire }) => {
      const before = await wire.state();
      sim.faults.banNextRequests(2);
      const windowEnd = sim.now() + secondsToMinuteEnd(sim.now()) * 1000;
      for (const r of [await wire.get('/api/v3/ping'), await wire.order(ORDER)]) {
        expect(r.status).toBe(418);
        expect(r.body).toEqual({ code: -1003, msg: `Way too much request weight used; IP banned until ${windowEnd}. Please use WebSocket Streams for live updates to avoid bans.` });
        expect(r.headers['retry-after']).toBe(String(secondsToMinuteEnd(sim.now())));
      }
      expect(await wire.state()).toEqual(before);
      expect((await wire.get('/api/v3/ping')).status).toBe(200);
    });

    test('rate_limit_next_requests: 429 -1003 with Retry-After although the weight is far from the limit', async ({ sim, wire }) => {
      sim.faults.rateLimitNextRequests(1);
      const r = await wire.signed('GET', '/api/v3/account');
      expect(r.status).toBe(429);
      expect(r.body).toEqual({ code: -1003, msg: 'Too much request weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.' });
      expect(r.headers['retry-after']).toBe(String(secondsToMinuteEnd(sim.now())));
      expect((await wire.signed('GET', '/api/v3/account')).status).toBe(200);
    });

    test('fail_next_auth: 401 -2015 on the next authenticated request; public ones pass untouched', async ({ sim, wire }) => {
      const before = await wire.state();
      sim.faults.failNextAuth(1);
      expect((await wire.get('/api/v3/ping')).status).toBe(200);
      const r = await wire.order(ORDER);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
      expect(await wire.state()).toEqual(before);
    });

    test('fail_next_timestamp: 400 -1021 outside the recvWindow for a well-timed request', async ({ sim, wire }) => {
      const before = await wire.state();
      sim.faults.failNextTimestamp();
      const r = await wire.order(ORDER);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
      expect(await wire.state()).toEqual(before);
      expect((await wire.order(ORDER)).status).toBe(200);
    });

    test('reject_next_orders: -2010 for k order placements, nothing placed; other requests unaffected', async ({ sim, wire }) => {
      const before = await wire.state();
      sim.faults.rejectNextOrders(2);
      expect((await wire.signed('POST', '/api/v3/order/test', ORDER)).body).toEqual({});
      for (let i = 0; i < 2; i++) {
        const r = await wire.order(ORDER);
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ code: -2010, msg: 'Market is closed.' });
      }
      expect(await wire.state()).toEqual(before);
      expect((await wire.order(ORDER)).body).toMatchObject({ status: 'NEW' });
    });
  });
}

test('transport refusals: a known path with another method and an unknown path are 404, an oversized URL 414', async ({ wire }) => {
  const wrongMethod = await wire.raw('PATCH', '/api/v3/order');
  expect(wrongMethod.status).toBe(404);
  expect(wrongMethod.body).toEqual({ code: -1000, msg: 'Not found: PATCH /api/v3/order' });
  const getStream = await wire.keyed('GET', '/api/v3/userDataStream');
  expect(getStream.status).toBe(404);
  expect(getStream.body).toEqual({ code: -1000, msg: 'Not found: GET /api/v3/userDataStream' });
  const unknown = await wire.get('/api/v3/historicalBlockTrades', { symbol: 'BTCUSDT' });
  expect(unknown.status).toBe(404);
  expect(unknown.body).toEqual({ code: -1000, msg: 'Not found: /api/v3/historicalBlockTrades' });
  const longUrl = await wire.get('/api/v3/ping', { pad: 'x'.repeat(9000) });
  expect(longUrl.status).toBe(414);
  expect(longUrl.body.code).toBe(-1000);
  expect((await wire.get('/api/v3/ping')).status).toBe(200);
});
