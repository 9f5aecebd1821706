// Compatibility: the official @binance/spot connector drives the simulator over REST, pointed at
// it with configurationRestAPI.basePath only. It signs the query string (no recvWindow, params then
// timestamp then signature), labels every request Content-Type: application/json with an empty body
// and sends X-MBX-APIKEY even on public calls (client-requests.md sections 2-4).
import { Agent } from 'node:https';
import { SpotRestAPI, type Spot } from '@binance/spot';
import { test as simTest, expect } from 'spot-sim/fixture';
import { spotRestAt } from './rest-clients.ts';

// The fixture's simulator with its generator on (the default): the library trades against it.
const test = simTest.extend<{ spot: Spot }>({
  spot: async ({ sim }, use) => {
    await use(spotRestAt(sim));
  },
});

const { NewOrderSideEnum: Side, NewOrderTypeEnum: Type, NewOrderTimeInForceEnum: Tif, NewOrderNewOrderRespTypeEnum: RespType } = SpotRestAPI;

test('@binance/spot: markets, book, balance, LIMIT place/query/list/cancel, a filling MARKET order, myTrades', async ({ spot: client }) => {
  const rest = client.restAPI;

  // Markets.
  const infoRes = await rest.exchangeInfo();
  expect(infoRes.status).toBe(200);
  const info = await infoRes.data();
  const btc = info.symbols?.find((s) => s.symbol === 'BTCUSDT');
  expect(btc).toMatchObject({ symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT' });
  expect(btc?.orderTypes).toEqual(expect.arrayContaining(['LIMIT', 'MARKET']));

  // Order book from the generator: both sides populated, spread around the 60000 mid.
  const depth = await (await rest.depth({ symbol: 'BTCUSDT', limit: 5 })).data();
  expect(depth.bids?.length).toBeGreaterThan(0);
  expect(depth.asks?.length).toBeGreaterThan(0);
  const bestBid = Number(depth.bids![0]![0]);
  const bestAsk = Number(depth.asks![0]![0]);
  expect(bestBid).toBeLessThan(bestAsk);
  expect(bestBid).toBeGreaterThan(50_000);
  expect(bestAsk).toBeLessThan(70_000);

  // Balance.
  const account = await (await rest.getAccount()).data();
  const usdt = account.balances?.find((b) => b.asset === 'USDT');
  expect(Number(usdt?.free)).toBeGreaterThan(1000);
  const btcBefore = Number(account.balances?.find((b) => b.asset === 'BTC')?.free ?? 0);

  // A resting LIMIT BUY far below the touch. @binance/spot sends no newClientOrderId: the server makes one.
  const placedRes = await rest.newOrder({
    symbol: 'BTCUSDT',
    side: Side.BUY,
    type: Type.LIMIT,
    timeInForce: Tif.GTC,
    quantity: 0.001,
    price: 50000,
  });
  expect(placedRes.status).toBe(200);
  const placed = await placedRes.data();
  expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', side: 'BUY', type: 'LIMIT', price: '50000.00000000', origQty: '0.00100000' });
  expect(placed.clientOrderId).toMatch(/^[.A-Z:/a-z0-9_-]{1,36}$/);
  const orderId = placed.orderId!;
  expect(typeof orderId).toBe('number');

  const got = await (await rest.getOrder({ symbol: 'BTCUSDT', orderId })).data();
  expect(got).toMatchObject({ orderId, clientOrderId: placed.clientOrderId, status: 'NEW', executedQty: '0.00000000' });

  const open = await (await rest.getOpenOrders({ symbol: 'BTCUSDT' })).data();
  expect(open.map((o) => o.orderId)).toContain(orderId);

  const cancelled = await (await rest.deleteOrder({ symbol: 'BTCUSDT', orderId })).data();
  expect(cancelled).toMatchObject({ orderId, status: 'CANCELED', origClientOrderId: placed.clientOrderId });
  const openAfter = await (await rest.getOpenOrders({ symbol: 'BTCUSDT' })).data();
  expect(openAfter.map((o) => o.orderId)).not.toContain(orderId);

  // A MARKET BUY takes the generator's ask.
  const marketRes = await rest.newOrder({
    symbol: 'BTCUSDT',
    side: Side.BUY,
    type: Type.MARKET,
    quantity: 0.001,
    newOrderRespType: RespType.FULL,
  });
  const market = await marketRes.data();
  expect(market).toMatchObject({ symbol: 'BTCUSDT', status: 'FILLED', type: 'MARKET', executedQty: '0.00100000' });
  expect(market.fills?.length).toBeGreaterThan(0);
  const fillPrice = Number(market.fills![0]!.price);
  expect(fillPrice).toBeGreaterThan(50_000);
  expect(fillPrice).toBeLessThan(70_000);

  // A LIMIT IOC SELL well below the bid crosses and fills too.
  const crossing = await (
    await rest.newOrder({ symbol: 'BTCUSDT', side: Side.SELL, type: Type.LIMIT, timeInForce: Tif.IOC, quantity: 0.001, price: 55000 })
  ).data();
  expect(crossing).toMatchObject({ status: 'FILLED', executedQty: '0.00100000' });

  // myTrades shows the fills; filtered by orderId, as the library sends it.
  const trades = await (await rest.myTrades({ symbol: 'BTCUSDT', orderId: market.orderId! })).data();
  expect(trades.length).toBe(market.fills!.length);
  expect(trades[0]).toMatchObject({ symbol: 'BTCUSDT', orderId: market.orderId, isBuyer: true, isMaker: false });
  expect(trades.reduce((sum, t) => sum + Number(t.qty), 0)).toBeCloseTo(0.001, 8);
  const allTrades = await (await rest.myTrades({ symbol: 'BTCUSDT' })).data();
  expect(allTrades.map((t) => t.orderId)).toEqual(expect.arrayContaining([market.orderId, crossing.orderId]));

  // Net BTC unchanged apart from commission (bought 0.001, sold 0.001).
  const after = await (await rest.getAccount()).data();
  const btcAfter = Number(after.balances?.find((b) => b.asset === 'BTC')?.free ?? 0);
  expect(btcAfter).toBeLessThanOrEqual(btcBefore);
  expect(btcAfter).toBeGreaterThan(btcBefore - 0.0001);
});

test('@binance/spot over TLS (fixture certificate, verification off through httpsAgent)', async ({ sim }) => {
  const rest = spotRestAt(sim, sim.urls.https, new Agent({ rejectUnauthorized: false })).restAPI;
  const ping = await rest.ping();
  expect(ping.status).toBe(200);
  const time = await (await rest.time()).data();
  expect(Math.abs(Number(time.serverTime) - Date.now())).toBeLessThan(5000);
  const account = await (await rest.getAccount()).data();
  expect(account.balances?.some((b) => b.asset === 'USDT')).toBe(true);
});
