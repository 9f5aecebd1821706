// Public market data and trading against the counterparty generator, end to end: the seeded
// book in depth and bookTicker on both listeners, exchangeInfo for one symbol, orders that take
// the generator's levels, determinism per seed (spec 1.9), `depth_snapshot = flushed`
// (spec 4.1 rule 2), and a quote near the mid filled by the generator's market orders (spec 1.5).
import { startSimulator } from 'spot-sim';
import { expect, LISTENERS, quietSim, restTestWith, test, type SimSectionInput, type Wire } from './support/rest.ts';

/**
 * The generator seeds 20 levels a side and then stands still: no arrivals, cancels or drift; no
 * history before the start, so trade ids start at 1 (API.md section 9).
 */
const STILL_GENERATOR = {
  seed: 42,
  history: { minutes: 0 },
  generator: { enabled: true, seed_levels: 20, limit_rate_per_s: 0, market_rate_per_s: 0, mid_step_max_ticks: 0, mean_order_lifetime_s: 1e9 },
} as const;

type Level = [string, string];

type Snapshot = { lastUpdateId: number; bids: Level[]; asks: Level[] };
async function depth(wire: Wire, symbol: string, limit?: number): Promise<Snapshot> {
  const r = await wire.get('/api/v3/depth', { symbol, limit });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

for (const listener of LISTENERS) {
  test.describe(`generator book over ${listener}`, () => {
    const test = restTestWith(STILL_GENERATOR);
    test.use({ listener });

    test('depth and bookTicker show the seeded book: touch 2990 ticks from the mid, 10 ticks between levels', async ({ wire }) => {
      const full = await depth(wire, 'BTCUSDT');
      expect(Object.keys(full)).toEqual(['lastUpdateId', 'bids', 'asks']);
      expect(full.lastUpdateId).toBe(40); // one update id per seeded level
      expect(full.bids).toHaveLength(20);
      expect(full.asks).toHaveLength(20);
      const prices = (levels: Level[]) => levels.map(([p]) => p);
      expect(prices(full.bids).slice(0, 3)).toEqual(['59970.10000000', '59970.00000000', '59969.90000000']);
      expect(prices(full.asks).slice(0, 3)).toEqual(['60029.90000000', '60030.00000000', '60030.10000000']);
      expect(prices(full.asks)[19]).toBe('60031.80000000');
      for (const [, qty] of [...full.bids, ...full.asks]) expect(Number(qty)).toBeGreaterThan(0);

      const five = await depth(wire, 'BTCUSDT', 5);
      expect(five).toEqual({ lastUpdateId: 40, bids: full.bids.slice(0, 5), asks: full.asks.slice(0, 5) });
      expect((await depth(wire, 'ETHUSDT', 1)).asks[0]![0]).toBe('3029.90000000');

      const ticker = await wire.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' });
      expect(ticker.status).toBe(200);
      expect(ticker.body).toEqual({ symbol: 'BTCUSDT', bidPrice: full.bids[0]![0], bidQty: full.bids[0]![1], askPrice: full.asks[0]![0], askQty: full.asks[0]![1] });
      const all = await wire.get('/api/v3/ticker/bookTicker');
      expect(all.body.map((t: { symbol: string }) => t.symbol)).toEqual(['BTCUSDT', 'ETHUSDT']);
      expect(all.body[0]).toEqual(ticker.body);
      expect(all.body[1]).toMatchObject({ bidPrice: '2970.10000000', askPrice: '3029.90000000' });
      const some = await wire.get('/api/v3/ticker/bookTicker', { symbols: '["ETHUSDT"]' });
      expect(some.body).toEqual([all.body[1]]);
    });

    test('orders take the generator levels: MARKET BUY sweeps asks, IOC SELL hits the best bid; the book shows it', async ({ wire }) => {
      const before = await depth(wire, 'BTCUSDT', 3);
      const [ask0, ask1] = before.asks;
      const qty = (Number(ask0![1]) + 0.00001).toFixed(5);
      const buy = await wire.order({ side: 'BUY', type: 'MARKET', quantity: qty });
      expect(buy.status).toBe(200);
      expect(buy.body).toMatchObject({ status: 'FILLED', executedQty: Number(qty).toFixed(8) });
      expect(buy.body.fills.map((f: { price: string; qty: string; tradeId: number }) => [f.price, f.qty, f.tradeId])).toEqual([
        [ask0![0], ask0![1], 1],
        [ask1![0], '0.00001000', 2],
      ]);
      const after = await depth(wire, 'BTCUSDT', 3);
      expect(after.asks[0]).toEqual([ask1![0], (Number(ask1![1]) - 0.00001).toFixed(8)]);
      expect(after.lastUpdateId).toBe(before.lastUpdateId + 2);

      const bid0 = before.bids[0]!;
      const sell = await wire.order({ side: 'SELL', type: 'LIMIT', timeInForce: 'IOC', price: bid0[0], quantity: bid0[1] });
      expect(sell.body).toMatchObject({ status: 'FILLED', fills: [expect.objectContaining({ price: bid0[0], qty: bid0[1], tradeId: 3 })] });
      expect((await wire.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' })).body).toMatchObject({ bidPrice: before.bids[1]![0], askPrice: ask1![0] });
      const trades = await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
      expect(trades.body.map((t: { id: number; isBuyer: boolean; isMaker: boolean }) => [t.id, t.isBuyer, t.isMaker])).toEqual([
        [1, true, false],
        [2, true, false],
        [3, false, false],
      ]);
    });
  });
}

test('exchangeInfo for one symbol: its filters from the instrument configuration', async ({ wire }) => {
  const r = await wire.get('/api/v3/exchangeInfo', { symbol: 'ETHUSDT' });
  expect(r.status).toBe(200);
  expect(r.body.symbols).toHaveLength(1);
  expect(r.body.symbols[0]).toMatchObject({
    symbol: 'ETHUSDT',
    status: 'TRADING',
    baseAsset: 'ETH',
    quoteAsset: 'USDT',
    orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
    defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
    allowedSelfTradePreventionModes: ['EXPIRE_MAKER'],
    filters: [
      { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '0.00000000', tickSize: '0.01000000' },
      { filterType: 'LOT_SIZE', minQty: '0.00010000', maxQty: '100000.00000000', stepSize: '0.00010000' },
      { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, avgPriceMins: 0 },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
    ],
  });
  expect(r.body.rateLimits).toEqual([
    { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 6000 },
    { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 1000 },
    { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: 1000000 },
  ]);
  expect(Math.abs(r.body.serverTime - Date.now())).toBeLessThan(5000);
});

// What this test is about is starting a simulator: three started side by side from two seeds
// (a fixture option cannot give one test three simulators), so it starts its own.
const started = (sim: SimSectionInput) => startSimulator({ config: { ...quietSim(sim), sim: { ...quietSim(sim).sim, port: 0, tls_port: 0 } } });

test('the same seed gives the same book; another seed another one (spec 1.9)', async ({ wire }) => {
  await using a = await started(STILL_GENERATOR);
  await using b = await started(STILL_GENERATOR);
  await using c = await started({ ...STILL_GENERATOR, seed: 43 });
  const [da, db, dc] = (await Promise.all([a, b, c].map((s) => depth(wire.on(s.urls.http), 'BTCUSDT', 20)))) as [Snapshot, Snapshot, Snapshot];
  expect(db).toEqual(da);
  expect(dc.asks.map(([p]) => p)).toEqual(da.asks.map(([p]) => p));
  expect(dc.asks.map(([, q]) => q)).not.toEqual(da.asks.map(([, q]) => q));
});

test.describe('depth_snapshot = flushed', () => {
  const test = restTestWith({ clock: 'manual', depth_snapshot: 'flushed', depth_update_ms: 100 });

  test('REST depth is the book as of the last published batch', async ({ sim, wire }) => {
    const empty = await depth(wire, 'BTCUSDT');
    expect(empty).toEqual({ lastUpdateId: 0, bids: [], asks: [] });
    await wire.rest('BUY', '50000', '0.001');
    expect(await depth(wire, 'BTCUSDT')).toEqual(empty); // not published yet
    sim.advanceTime(100);
    expect(await depth(wire, 'BTCUSDT')).toEqual({ lastUpdateId: 1, bids: [['50000.00000000', '0.00100000']], asks: [] });
  });
});

test.describe('live generator', () => {
  const test = restTestWith({ clock: 'manual', seed: 7, generator: { enabled: true } });

  test('a quote near the mid rests ahead of the generator and is filled by its market orders (spec 1.5)', async ({ sim, wire }) => {
    const touch = await depth(wire, 'BTCUSDT', 1);
    const mid = (Number(touch.bids[0]![0]) + Number(touch.asks[0]![0])) / 2;
    const bid = await wire.rest('BUY', (mid - 5).toFixed(2), '0.001', { newClientOrderId: 'near-mid-bid' });
    const ask = await wire.rest('SELL', (mid + 5).toFixed(2), '0.001', { newClientOrderId: 'near-mid-ask' });
    // Both are inside the generator's spread, so they are the touch.
    expect((await wire.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' })).body).toMatchObject({ bidPrice: `${(mid - 5).toFixed(2)}000000`, askPrice: `${(mid + 5).toFixed(2)}000000` });
    // Simulated time moves one second at a time until both have traded (deterministic per seed).
    let open = await wire.openOrders('BTCUSDT');
    for (let second = 0; second < 120 && open.length > 0; second++) {
      sim.advanceTime(1000);
      open = await wire.openOrders('BTCUSDT');
    }
    expect(open).toEqual([]);
    const trades = (await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' })).body;
    const filled = (orderId: number) => trades.filter((t: { orderId: number }) => t.orderId === orderId).reduce((s: number, t: { qty: string }) => s + Number(t.qty), 0);
    expect(filled(bid.orderId)).toBeCloseTo(0.001, 8);
    expect(filled(ask.orderId)).toBeCloseTo(0.001, 8);
    for (const t of trades) expect(t.isMaker).toBe(true);
  });
});
