// The scripted market through the fixture (API.md section 8): `market` (and `sim.market`, and
// `POST /sim/v1/market/<method>`) places counterparty orders through the generator's path into
// the book; a client sees them as it sees the generator's: depth, touch, trades, and fills of
// its own orders on the user stream. Bad input is refused with the reference's code and message.
import { test, expect, SpotSimError } from 'spot-sim/fixture';
import { buy, sell, SYMBOL, withSimConfig } from './support/helpers.ts';

const ask = (price: string, quantity: string) => ({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity }) as const;

test.describe('on a quiet book', () => {
  const test = withSimConfig({ sim: { generator: { enabled: false } } });

  test('a scripted SELL rests: REST depth, bookTicker and the bookTicker stream show it', async ({ client, market }) => {
    const ticker = await client.streams('btcusdt@bookTicker');
    expect(await market.place(ask('60010', '0.5'))).toBe(1);
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([['60010.00000000', '0.50000000']]);
    expect(await client.rest.bookTicker({ symbol: SYMBOL })).toMatchObject({ askPrice: '60010.00000000', askQty: '0.50000000', bidPrice: '0.00000000' });
    const update = await ticker.next((m) => 'a' in m.data && m.data.a === '60010.00000000');
    expect(update.data).toMatchObject({ s: SYMBOL, A: '0.50000000' });

    expect(await market.cancel(SYMBOL, 1)).toBe(true);
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([]);
  });

  test('prices and quantities may be numbers, taken in plain decimal notation (1e-7 is 0.0000001, not a malformed "1e-7")', async ({ client, market }) => {
    expect(market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: 60010, quantity: 0.5 })).toBe(1);
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([['60010.00000000', '0.50000000']]);
    // Below the lot size: the filter refuses it (-1013), the number was read as the decimal it is.
    expect(thrownBy(() => market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: 60010, quantity: 1e-7 }))).toMatchObject({ code: -1013, msg: 'Filter failure: LOT_SIZE' });
    market.setMid(SYMBOL, 60000.5);
  });

  test("a scripted BUY trades with the account's resting SELL: the account's executionReport, a public trade, the rest rests", async ({ client, market }) => {
    const user = await client.userData();
    const trades = await client.streams('btcusdt@trade');
    const own = await client.rest.newOrder(sell('60000', '0.002'));
    await user.next((e) => e.e === 'executionReport' && e.x === 'NEW');

    await market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60005', quantity: '0.005' });

    const fill = await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE');
    expect(fill).toMatchObject({ i: own.orderId, X: 'FILLED', l: '0.00200000', L: '60000.00000000', m: true });
    expect((await trades.next()).data).toMatchObject({ e: 'trade', p: '60000.00000000', q: '0.00200000', m: false });
    expect((await client.rest.depth({ symbol: SYMBOL })).bids).toEqual([['60005.00000000', '0.00300000']]);
    const btc = (await client.rest.account()).balances.find((b) => b.asset === 'BTC');
    expect(btc).toEqual({ asset: 'BTC', free: '99.99800000', locked: '0.00000000' });
  });

  test('MARKET and IOC never rest; FOK trades all or nothing', async ({ client, market }) => {
    await client.rest.newOrder(buy('59000', '0.001'));
    await market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: '58000', quantity: '0.01' });
    await market.place({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.01' });
    await market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'FOK', price: '10', quantity: '1' });
    const depth = await client.rest.depth({ symbol: SYMBOL });
    expect([depth.bids, depth.asks]).toEqual([[], []]);
    await expect(client.rest.openOrders({ symbol: SYMBOL })).resolves.toEqual([]);
  });

  test('refusals: a SpotSimError thrown at the caller, through the fixture and in process, 400 on the control API; nothing changes', async ({ sim, market }) => {
    expect(thrownBy(() => market.place({ ...ask('60010', '0.5'), symbol: 'NOPEUSDT' }))).toMatchObject({ code: -1121, msg: 'Invalid symbol.' });
    expect(thrownBy(() => market.place(ask('60010', '0.000001')))).toMatchObject({ code: -1013, msg: 'Filter failure: LOT_SIZE' });
    expect(thrownBy(() => market.place(ask('60010.001', '0.5')))).toMatchObject({ code: -1013, msg: 'Filter failure: PRICE_FILTER' });
    expect(thrownBy(() => market.place(ask('6.0e4', '0.5')))).toMatchObject({ code: -1100 });
    expect(thrownBy(() => market.place(ask('60010', '0.000000001')))).toMatchObject({ code: -1111, msg: "Parameter 'quantity' has too much precision." });
    expect(() => market.setMid(SYMBOL, 'abc')).toThrow(SpotSimError);
    expect(() => sim.market.cancelAll('NOPEUSDT')).toThrow(SpotSimError);
    expect(() => sim.market.place({ ...ask('60010', '0.5'), side: 'HOLD' as 'SELL' })).toThrow('400 -1117: Invalid side.');

    const res = await fetch(`${sim.urls.http}/sim/v1/market/place`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...ask('60010', '0.5'), symbol: 'NOPEUSDT' }) });
    expect([res.status, await res.json()]).toEqual([400, { error: { message: 'Invalid symbol.', code: -1121, type: 'SpotSimError' } }]);
    expect(sim.stats().touch.BTCUSDT).toEqual({ bid: null, ask: null });
    expect(await market.place(ask('60010', '0.5'))).toBe(1);
  });

  test('the control API drives the same market: place and cancelAll by name, {"result": ...} back', async ({ sim, client }) => {
    const post = async (method: string, body: object) => (await fetch(`${sim.urls.http}/sim/v1/market/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json();
    expect(await post('place', ask('60010', '0.5'))).toEqual({ result: 1 });
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([['60010.00000000', '0.50000000']]);
    expect(await post('cancelAll', { symbol: SYMBOL })).toEqual({ result: 1 });
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([]);
  });
});

test.describe('with the generator', () => {
  // A manual clock: the generator acts only when the test moves time, so counts are exact.
  const test = withSimConfig({ sim: { clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { mid_step_max_ticks: 0 } } });

  test("cancelAll removes the generator's orders too, both sides; the account's stay", async ({ client, market }) => {
    const own = await client.rest.newOrder(buy('50000', '0.001'));
    expect((await client.rest.depth({ symbol: SYMBOL, limit: 100 })).asks).toHaveLength(20);
    expect(await market.cancelAll(SYMBOL)).toBe(40);
    const depth = await client.rest.depth({ symbol: SYMBOL, limit: 100 });
    expect(depth).toMatchObject({ bids: [['50000.00000000', '0.00100000']], asks: [] });
    expect((await client.rest.openOrders({ symbol: SYMBOL })).map((o) => o.orderId)).toEqual([own.orderId]);
    expect((await client.rest.depth({ symbol: 'ETHUSDT', limit: 100 })).asks).toHaveLength(20);
  });

  test('setMid: after it, the generator quotes around the new mid', async ({ sim, client, market }) => {
    await market.cancelAll(SYMBOL);
    await market.setMid(SYMBOL, '65000');
    sim.advanceTime(5_000);
    const { bidPrice, askPrice } = await client.rest.bookTicker({ symbol: SYMBOL });
    // touch_offset_ticks 2990 (29.90) from the mid, the spacing 10 ticks.
    expect(Number(bidPrice)).toBeGreaterThan(64_900);
    expect(Number(bidPrice)).toBeLessThanOrEqual(64_970.1);
    expect(Number(askPrice)).toBeGreaterThanOrEqual(65_029.9);
    expect(Number(askPrice)).toBeLessThan(65_100);
  });
});

// simIsolation (API.md section 8): the tests of one file run in order in one worker.
test.describe('simIsolation: test (the default)', () => {
  const test = withSimConfig({ sim: { generator: { enabled: false }, faults: { reject_next_orders: 1 } } });
  let refusedInBeforeEach: number | undefined;

  test.beforeEach(async ({ client }) => {
    // Hooks run after the reset: the configured fault is armed again (it takes this order),
    // and what they leave is part of the test's starting point.
    refusedInBeforeEach = await client.rest.newOrder(buy('49000')).then(() => undefined, (e: SpotSimError) => e.code);
    await client.rest.newOrder(buy('50000', '0.001', { newClientOrderId: 'from-before-each' }));
  });

  for (const n of [1, 2]) {
    test(`test ${n} starts from the configured state, whatever the test before it did`, async ({ sim, client, market }) => {
      expect(refusedInBeforeEach).toBe(-2010);
      expect(sim.openClientOrderIds()).toEqual(['from-before-each']);
      expect((await client.rest.newOrder(buy('50001', '0.001', { newClientOrderId: 'mine' }))).orderId).toBe(2);
      expect(await market.place(ask('60010', '0.5'))).toBe(1);
      expect(sim.stats().touch.BTCUSDT).toEqual({ bid: '50001.00000000', ask: '60010.00000000' });
    });
  }
});

test.describe('simIsolation: worker', () => {
  const test = withSimConfig({ sim: { generator: { enabled: false } } }).extend<object, { simIsolation: 'test' | 'worker' }>({
    simIsolation: ['worker', { scope: 'worker' }],
  });
  const seen: number[] = [];

  for (const n of [1, 2]) {
    test(`test ${n} sees what the tests before it left`, async ({ sim, client }) => {
      seen.push((await client.rest.newOrder(buy(String(50_000 + n), '0.001'))).orderId);
      expect(seen).toEqual(n === 1 ? [1] : [1, 2]);
      expect(sim.openClientOrderIds()).toHaveLength(n);
    });
  }
});

/** What `call` throws (it must throw). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}
