// REST account endpoints end to end: account (omitZeroBalances, locks, updateTime),
// account/commission, myTrades (fromId, time windows, -1127/-1128, the 1000 cap, oldest first,
// weight 20 or 5) and the legacy listen key (API key only, -1125). Time-dependent checks run on
// the manual clock, so trade times and weight windows are exact.
import { counterparty, expect, LISTENERS, test, restTestWith, weightOf, type Wire } from './support/rest.ts';

const T0 = 1_700_000_000_000;
const HOUR = 3_600_000;
const MANUAL = { clock: 'manual', start_time_ms: T0, driver_tick_ms: 1000 } as const;
const ACCOUNT_KEYS = [
  'makerCommission', 'takerCommission', 'buyerCommission', 'sellerCommission', 'commissionRates', 'canTrade', 'canWithdraw', 'canDeposit',
  'brokered', 'requireSelfTradePrevention', 'preventSor', 'updateTime', 'accountType', 'balances', 'permissions', 'uid',
];
const TRADE_KEYS = ['symbol', 'id', 'orderId', 'orderListId', 'price', 'qty', 'quoteQty', 'commission', 'commissionAsset', 'time', 'isBuyer', 'isMaker', 'isBestMatch'];
const ZERO = '0.00000000';
const BAD_COMBINATION = { code: -1128, msg: 'Combination of optional parameters invalid.' };

async function tradeIds(wire: Wire, params: Record<string, string | number>): Promise<number[]> {
  const r = await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', ...params });
  expect(r.status, `${JSON.stringify(params)} -> ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.map((t: { id: number }) => t.id);
}

for (const listener of LISTENERS) {
  test.describe(`account over ${listener}`, () => {
    const test = restTestWith({ account: { balances: { ETH: 0 } } });
    test.use({ listener });

    test('account: reference fields, omitZeroBalances, locks and updateTime follow the orders', async ({ wire }) => {
      const fresh = await wire.signed('GET', '/api/v3/account');
      expect(fresh.status).toBe(200);
      expect(Object.keys(fresh.body)).toEqual(ACCOUNT_KEYS);
      expect(fresh.body).toMatchObject({
        makerCommission: 1,
        takerCommission: 4,
        buyerCommission: 0,
        sellerCommission: 0,
        commissionRates: { maker: '0.00010000', taker: '0.00040000', buyer: ZERO, seller: ZERO },
        canTrade: true,
        accountType: 'SPOT',
        permissions: ['SPOT'],
        updateTime: 0,
      });
      expect(fresh.body.balances).toEqual([
        { asset: 'BTC', free: '100.00000000', locked: ZERO },
        { asset: 'ETH', free: ZERO, locked: ZERO },
        { asset: 'USDT', free: '10000000.00000000', locked: ZERO },
      ]);
      const omitted = await wire.signed('GET', '/api/v3/account', { omitZeroBalances: true });
      expect(omitted.body.balances.map((b: { asset: string }) => b.asset)).toEqual(['BTC', 'USDT']);
      const notOmitted = await wire.signed('GET', '/api/v3/account', { omitZeroBalances: false });
      expect(notOmitted.body.balances).toEqual(fresh.body.balances);

      // A resting SELL locks base; the account says so and dates the change.
      const placed = await wire.order({ side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '70000', quantity: '1.5', newOrderRespType: 'ACK' });
      const after = await wire.signed('GET', '/api/v3/account', { omitZeroBalances: true });
      expect(after.body.balances[0]).toEqual({ asset: 'BTC', free: '98.50000000', locked: '1.50000000' });
      expect(after.body.updateTime).toBe(placed.body.transactTime);

      const bad = await wire.signed('GET', '/api/v3/account', { omitZeroBalances: 'maybe' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ code: -1130, msg: "Data sent for parameter 'omitZeroBalances' is not valid." });
    });

    test('account/commission: the configured rates as standard, zero special and tax', async ({ wire }) => {
      const r = await wire.signed('GET', '/api/v3/account/commission', { symbol: 'ETHUSDT' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        symbol: 'ETHUSDT',
        standardCommission: { maker: '0.00010000', taker: '0.00040000', buyer: ZERO, seller: ZERO },
        specialCommission: { maker: ZERO, taker: ZERO, buyer: ZERO, seller: ZERO },
        taxCommission: { maker: ZERO, taker: ZERO, buyer: ZERO, seller: ZERO },
        discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: ZERO },
      });
      const missing = await wire.signed('GET', '/api/v3/account/commission');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
      expect((await wire.signed('GET', '/api/v3/account/commission', { symbol: 'NOPE' })).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
      // Signed: no signature, no answer.
      const unsigned = await wire.keyed('GET', '/api/v3/account/commission', { symbol: 'ETHUSDT', timestamp: wire.now() });
      expect(unsigned.body).toEqual({ code: -1102, msg: "Mandatory parameter 'signature' was not sent, was empty/null, or malformed." });
    });

    test('userDataStream: API key only; POST returns one key until it is deleted; PUT/DELETE of an unknown key -1125', async ({ wire }) => {
      const created = await wire.keyed('POST', '/api/v3/userDataStream');
      expect(created.status).toBe(200);
      expect(Object.keys(created.body)).toEqual(['listenKey']);
      const listenKey: string = created.body.listenKey;
      expect(listenKey).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(weightOf(created)).toBe(2);
      // A second POST while the key is valid returns the same key (binance-facts §3.15).
      expect((await wire.keyed('POST', '/api/v3/userDataStream')).body).toEqual({ listenKey });

      const ping = await wire.keyed('PUT', '/api/v3/userDataStream', { listenKey });
      expect(ping.status).toBe(200);
      expect(ping.body).toEqual({});
      // The key may also travel in a form body.
      const pingBody = await wire.raw('PUT', '/api/v3/userDataStream', { body: `listenKey=${listenKey}`, headers: { 'X-MBX-APIKEY': wire.apiKey } });
      expect(pingBody.body).toEqual({});
      const closed = await wire.keyed('DELETE', '/api/v3/userDataStream', { listenKey });
      expect(closed.status).toBe(200);
      expect(closed.body).toEqual({});

      for (const method of ['PUT', 'DELETE'] as const) {
        for (const key of [listenKey, 'not-a-listen-key']) {
          const r = await wire.keyed(method, '/api/v3/userDataStream', { listenKey: key });
          expect(r.status, `${method} ${key}`).toBe(400);
          expect(r.body, `${method} ${key}`).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
        }
      }
      const missing = await wire.keyed('PUT', '/api/v3/userDataStream');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ code: -1102, msg: "Mandatory parameter 'listenKey' was not sent, was empty/null, or malformed." });
      const next = await wire.keyed('POST', '/api/v3/userDataStream');
      expect(next.body.listenKey).toMatch(/^[A-Za-z0-9]{64}$/);
      expect(next.body.listenKey).not.toBe(listenKey);

      // The API key is still checked.
      const noKey = await wire.keyed('POST', '/api/v3/userDataStream', {}, null);
      expect(noKey.status).toBe(401);
      expect(noKey.body).toEqual({ code: -2014, msg: 'API-key format invalid.' });
      const wrongKey = await wire.keyed('PUT', '/api/v3/userDataStream', { listenKey: next.body.listenKey }, 'someone-else');
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.body).toEqual({ code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    });
  });
}

test.describe('configured fees and listen key lifetime', () => {
  const test = restTestWith({ ...MANUAL, fees: { maker_bps: '7.5', taker_bps: 10 }, listen_key_validity_ms: 60_000 });

  test('account/commission and account follow the configured fees', async ({ wire }) => {
    const r = await wire.signed('GET', '/api/v3/account/commission', { symbol: 'BTCUSDT' });
    expect(r.body.standardCommission).toEqual({ maker: '0.00075000', taker: '0.00100000', buyer: ZERO, seller: ZERO });
    const account = await wire.signed('GET', '/api/v3/account');
    expect(account.body.commissionRates).toEqual({ maker: '0.00075000', taker: '0.00100000', buyer: ZERO, seller: ZERO });
    expect(weightOf(account) - weightOf(r)).toBe(20);
  });

  test('a listen key lives listen_key_validity_ms; PUT extends it, then it expires to -1125', async ({ sim, wire }) => {
    const { listenKey } = (await wire.keyed('POST', '/api/v3/userDataStream')).body;
    sim.advanceTime(59_000);
    expect((await wire.keyed('PUT', '/api/v3/userDataStream', { listenKey })).body).toEqual({});
    sim.advanceTime(59_000); // 118 s after creation, 59 s after the keepalive
    expect((await wire.keyed('PUT', '/api/v3/userDataStream', { listenKey })).body).toEqual({});
    sim.advanceTime(60_000);
    expect((await wire.keyed('PUT', '/api/v3/userDataStream', { listenKey })).body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
    const renewed = (await wire.keyed('POST', '/api/v3/userDataStream')).body.listenKey;
    expect(renewed).not.toBe(listenKey);
  });
});

test.describe('myTrades', () => {
  const test = restTestWith(MANUAL);

  test('rows, oldest first; fromId, startTime/endTime, orderId; -1128 and -1127; weight 20 or 5 with orderId', async ({ sim, wire }) => {
    // Five executions at T0, T0+1s, T0+2s and T0+3s: two taker buys of one order, one more
    // taker buy, a taker sell and a maker buy.
    counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.001');
    counterparty(sim, 'BTCUSDT', 'SELL', '60020', '0.001');
    const first = await wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.002' });
    expect(first.body.fills.map((f: { tradeId: number }) => f.tradeId)).toEqual([1, 2]);
    sim.advanceTime(1000);
    counterparty(sim, 'BTCUSDT', 'SELL', '60030', '0.01');
    const second = await wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.001' });
    sim.advanceTime(1000);
    counterparty(sim, 'BTCUSDT', 'BUY', '59990', '0.01');
    const third = await wire.order({ side: 'SELL', type: 'MARKET', quantity: '0.001' });
    sim.advanceTime(1000);
    const maker = await wire.rest('BUY', '59995', '0.001'); // the best bid: the sell meets it first
    counterparty(sim, 'BTCUSDT', 'SELL', '59995', '0.001');

    const all = await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    expect(all.status).toBe(200);
    expect(all.body.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4, 5]);
    for (const row of all.body) expect(Object.keys(row)).toEqual(TRADE_KEYS);
    expect(all.body[0]).toEqual({
      symbol: 'BTCUSDT',
      id: 1,
      orderId: first.body.orderId,
      orderListId: -1,
      price: '60010.00000000',
      qty: '0.00100000',
      quoteQty: '60.01000000',
      commission: '0.02400400',
      commissionAsset: 'USDT',
      time: T0,
      isBuyer: true,
      isMaker: false,
      isBestMatch: true,
    });
    expect(all.body.map((t: { orderId: number }) => t.orderId)).toEqual([first.body.orderId, first.body.orderId, second.body.orderId, third.body.orderId, maker.orderId]);
    expect(all.body.map((t: { time: number }) => t.time - T0)).toEqual([0, 0, 1000, 2000, 3000]);
    expect(all.body[3]).toMatchObject({ isBuyer: false, isMaker: false, price: '59990.00000000' });
    expect(all.body[4]).toMatchObject({ isBuyer: true, isMaker: true, commission: '0.00599950' });
    expect((await wire.signed('GET', '/api/v3/myTrades', { symbol: 'ETHUSDT' })).body).toEqual([]);

    expect(await tradeIds(wire, { fromId: 3 })).toEqual([3, 4, 5]);
    expect(await tradeIds(wire, { fromId: 3, limit: 2 })).toEqual([3, 4]);
    expect(await tradeIds(wire, { limit: 2 })).toEqual([4, 5]); // the most recent, oldest first
    expect(await tradeIds(wire, { startTime: T0 + 500, endTime: T0 + 2500 })).toEqual([3, 4]);
    expect(await tradeIds(wire, { startTime: (T0 + 500) * 1000, endTime: (T0 + 2500) * 1000 })).toEqual([3, 4]); // microseconds
    expect(await tradeIds(wire, { startTime: T0 + 1000 })).toEqual([3, 4, 5]);
    expect(await tradeIds(wire, { endTime: T0 + 1000 })).toEqual([1, 2, 3]);
    expect(await tradeIds(wire, { startTime: T0, endTime: T0 + 24 * HOUR })).toEqual([1, 2, 3, 4, 5]);
    expect(await tradeIds(wire, { orderId: first.body.orderId })).toEqual([1, 2]);
    expect(await tradeIds(wire, { orderId: first.body.orderId, fromId: 2 })).toEqual([2]);

    const refusals: [Record<string, number>, object][] = [
      [{ fromId: 1, startTime: T0 }, BAD_COMBINATION],
      [{ fromId: 1, endTime: T0 + 1000 }, BAD_COMBINATION],
      [{ fromId: 1, startTime: T0, endTime: T0 + 1000 }, BAD_COMBINATION],
      [{ orderId: first.body.orderId, startTime: T0 }, BAD_COMBINATION],
      [{ startTime: T0, endTime: T0 + 24 * HOUR + 1 }, { code: -1127, msg: 'More than 24 hours between startTime and endTime.' }],
      [{ startTime: T0 * 1000, endTime: (T0 + 24 * HOUR + 1) * 1000 }, { code: -1127, msg: 'More than 24 hours between startTime and endTime.' }],
      [{ limit: 0 }, { code: -1130, msg: "Data sent for parameter 'limit' is not valid." }],
    ];
    for (const [params, error] of refusals) {
      const r = await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', ...params });
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body, JSON.stringify(params)).toEqual(error);
    }
    const noSymbol = await wire.signed('GET', '/api/v3/myTrades');
    expect(noSymbol.body).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });

    // Weight: 20, or 5 with orderId (spec 8); the manual clock keeps one minute window.
    const w0 = weightOf(await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' }));
    const w1 = weightOf(await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: maker.orderId }));
    const w2 = weightOf(await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', fromId: 1 }));
    expect([w1 - w0, w2 - w1]).toEqual([5, 20]);
  });

  // 1005 one-lot fills: the scripted market checks its orders' filters like an account's, so
  // BTCUSDT's minimum notional is lowered to let 0.00001 at 50000 (0.5 USDT) through.
  const oneLotFills = restTestWith(MANUAL, {
    instruments: [
      { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '0.5' },
      { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', tick: '0.01', lot: '0.0001', min_qty: '0.0001', max_qty: '100000', min_notional: '5' },
    ],
  });
  oneLotFills('limit defaults to 500 and caps at 1000; without fromId the most recent, always oldest first', async ({ sim, wire }) => {
    // One resting buy filled by 1005 one-lot counterparty sells: 1005 executions.
    await wire.rest('BUY', '50000', '0.02');
    for (let i = 0; i < 1005; i++) counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.00001');
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    expect(await tradeIds(wire, {})).toEqual(range(506, 1005));
    expect(await tradeIds(wire, { limit: 5000 })).toEqual(range(6, 1005));
    expect(await tradeIds(wire, { limit: 1000 })).toEqual(range(6, 1005));
    expect(await tradeIds(wire, { fromId: 1, limit: 1001 })).toEqual(range(1, 1000));
    expect(await tradeIds(wire, { fromId: 1000, limit: 1000 })).toEqual(range(1000, 1005));
    expect((await wire.openOrders())[0]).toMatchObject({ executedQty: '0.01005000', status: 'PARTIALLY_FILLED' });
  });
});
