// Compatibility: ccxt's binance class drives the simulator over REST. Every urls.api entry is moved
// onto the simulator's origin (path kept), so a stray sapi/fapi/dapi call shows up as the
// simulator's 404 instead of reaching the real venue. ccxt sends signed POSTs as a form body with
// timestamp first and recvWindow=10000, and adds newClientOrderId=x-TKT5PX2F… and
// newOrderRespType=FULL to every order (client-requests.md sections 0, 2, 7).
import ccxt from 'ccxt';
import { test as simTest, expect } from 'spot-sim/fixture';
import { ccxtAt, type Ccxt } from './rest-clients.ts';

// The fixture's simulator with its generator on (the default): the library trades against it.
const test = simTest.extend<{ exchange: Ccxt }>({
  exchange: async ({ sim }, use) => {
    const exchange = ccxtAt(sim);
    await use(exchange);
    await exchange.close();
  },
});

test('ccxt: loadMarkets, fetchOrderBook, fetchBalance, createOrder/fetchOrder/cancelOrder, a filling market order, fetchMyTrades', async ({ exchange }) => {
  const markets = await exchange.loadMarkets();
  const market = markets['BTC/USDT'];
  expect(market).toMatchObject({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', spot: true, active: true });
  expect(Object.values(markets).every((m) => m?.spot)).toBe(true);

  const book = await exchange.fetchOrderBook('BTC/USDT');
  expect(book.bids.length).toBeGreaterThan(0);
  expect(book.asks.length).toBeGreaterThan(0);
  const bestBid = Number(book.bids[0]![0]);
  const bestAsk = Number(book.asks[0]![0]);
  expect(bestBid).toBeLessThan(bestAsk);
  expect(bestBid).toBeGreaterThan(50_000);
  expect(bestAsk).toBeLessThan(70_000);
  expect(book.nonce).toBeGreaterThan(0);

  const balance = await exchange.fetchBalance();
  expect(Number(balance['USDT']?.free)).toBeGreaterThan(1000);

  // A resting LIMIT BUY far below the touch.
  const placed = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
  expect(placed).toMatchObject({ symbol: 'BTC/USDT', type: 'limit', side: 'buy', status: 'open', price: 50000, amount: 0.001, filled: 0 });
  expect(placed.clientOrderId).toMatch(/^x-TKT5PX2F/);
  const id = placed.id!; // ccxt types the unified id as optional

  const fetched = await exchange.fetchOrder(id, 'BTC/USDT');
  expect(fetched).toMatchObject({ id, clientOrderId: placed.clientOrderId, status: 'open' });

  const open = await exchange.fetchOpenOrders('BTC/USDT');
  expect(open.map((o) => o.id)).toContain(id);

  const cancelled = await exchange.cancelOrder(id, 'BTC/USDT');
  expect(cancelled).toMatchObject({ id, status: 'canceled' });
  // SPEC.md: cancelled and filled orders are forgotten (-2013), unlike the real venue, which keeps
  // them queryable; ccxt maps -2013 to OrderNotFound.
  await expect(exchange.fetchOrder(id, 'BTC/USDT')).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  expect((await exchange.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).not.toContain(id);

  // A MARKET BUY takes the generator's ask; FULL response carries the fills as trades.
  const bought = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.001);
  expect(bought).toMatchObject({ type: 'market', side: 'buy', status: 'closed', filled: 0.001 });
  expect(bought.trades.length).toBeGreaterThan(0);
  expect(bought.average).toBeGreaterThan(50_000);
  expect(bought.average).toBeLessThan(70_000);

  const trades = await exchange.fetchMyTrades('BTC/USDT');
  const mine = trades.filter((t) => t.order === bought.id);
  expect(mine.length).toBe(bought.trades.length);
  expect(mine[0]).toMatchObject({ symbol: 'BTC/USDT', side: 'buy', takerOrMaker: 'taker' });
  expect(mine.reduce((sum, t) => sum + (t.amount ?? 0), 0)).toBeCloseTo(0.001, 8);
});

test('ccxt over TLS (fixture certificate, validateServerSsl: false)', async ({ sim }) => {
  const exchange = ccxtAt(sim, sim.urls.https, { validateServerSsl: false });
  try {
    expect(Math.abs((await exchange.fetchTime())! - Date.now())).toBeLessThan(5000);
    const balance = await exchange.fetchBalance();
    expect(Number(balance['USDT']?.free)).toBeGreaterThan(1000);
  } finally {
    await exchange.close();
  }
});
