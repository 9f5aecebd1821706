// Compatibility: tiagosiebler's SDK (npm package `binance`) against the fixture's simulator,
// pointed at it only through its options (client-requests.md §1):
// - REST `MainClient({ baseUrl })`. `disableTimeSync: true` because getServerTime() ignores
//   baseUrl and calls api.binance.com; time is read with `get('api/v3/time')` instead.
//   amendOrderKeepPriority() sends PUT /fapi/v1/order/amend/keepPriority, so the amend goes
//   through the library's `putPrivate('api/v3/order/amend/keepPriority', …)`.
// - `WebsocketAPIClient({ wsUrl })` and `WebsocketClient({ wsUrl })`: wsUrl replaces the host
//   of every wsKey; the library appends `/ws-api/v3`, `/stream` or `/ws/<listenKey>`.
//   With an HMAC key it signs every WS API request; the caller passes `timestamp` on
//   order.place / order.status / order.cancel (the library adds none: the venue's -1102).
//   `beautify: true` turns on its `formattedMessage` / `formattedUserDataMessage` events.
// - over TLS: axios `httpsAgent` (REST) and `wsOptions.rejectUnauthorized: false` (WS).
import { Agent } from 'node:https';
import { MainClient, WebsocketAPIClient, WebsocketClient, WS_KEY_MAP, type WSAPINewSpotOrderRequest } from 'binance';
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { Inbox, quietBidPrice, within } from './support.ts';
import { LocalBook } from '../support/local-book.ts';

test.describe.configure({ timeout: 120_000 });

type Formatted = Record<string, any>;

/** The library logs connection chatter at info level; keep only its errors. */
const logger = { trace: () => {}, info: () => {}, error: (...params: unknown[]) => console.error('[binance]', ...params) };

function restAt(sim: Simulator, tls = false): MainClient {
  return new MainClient(
    { api_key: sim.credentials.apiKey, api_secret: sim.credentials.apiSecret, baseUrl: tls ? sim.urls.https : sim.urls.http, disableTimeSync: true },
    { timeout: 15_000, ...(tls ? { httpsAgent: new Agent({ rejectUnauthorized: false }) } : {}) },
  );
}

function wsOptions(sim: Simulator, tls = false) {
  return {
    api_key: sim.credentials.apiKey,
    api_secret: sim.credentials.apiSecret,
    wsUrl: tls ? sim.urls.wss : sim.urls.ws,
    beautify: true,
    restOptions: { baseUrl: tls ? sim.urls.https : sim.urls.http, disableTimeSync: true },
    ...(tls ? { wsOptions: { rejectUnauthorized: false } } : {}),
  };
}

function wsApiAt(sim: Simulator, tls = false): WebsocketAPIClient {
  return new WebsocketAPIClient({ ...wsOptions(sim, tls), attachEventListeners: false, muteLatencyWarning: true }, logger);
}

/** order.place params; `timestamp` is not in the library's request type but the venue needs it. */
function spotOrder(params: WSAPINewSpotOrderRequest): WSAPINewSpotOrderRequest {
  const withTimestamp = { ...params, timestamp: Date.now() };
  return withTimestamp;
}

test('binance MainClient REST: ping, time, exchangeInfo, book, bookTicker, account, LIMIT place/get/amend/list/cancel, MARKET, myTrades', async ({ sim }) => {
  const rest = restAt(sim);
  expect(await rest.testConnectivity()).toEqual({});
  const time = (await rest.get('api/v3/time')) as { serverTime: number };
  expect(Math.abs(time.serverTime - sim.now())).toBeLessThan(5000);

  const info = await rest.getExchangeInfo();
  expect(info.symbols.find((s) => s.symbol === 'BTCUSDT')).toMatchObject({ status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT' });

  const book = await rest.getOrderBook({ symbol: 'BTCUSDT', limit: 10 });
  expect(book.bids.length).toBeGreaterThan(0);
  expect(Number(book.bids[0]![0])).toBeLessThan(Number(book.asks[0]![0]));
  const touch = (await rest.getSymbolOrderBookTicker({ symbol: 'BTCUSDT' })) as { bidPrice: string | number; askPrice: string | number };
  expect(Number(touch.bidPrice)).toBeLessThan(Number(touch.askPrice));

  const account = await rest.getAccountInformation();
  expect(Number(account.balances.find((b) => b.asset === 'USDT')!.free)).toBeGreaterThan(1000);

  const price = quietBidPrice(Number(book.bids[0]![0]), 1200);
  const placed = (await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.00223, price })) as Formatted;
  expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', origQty: '0.00223000' });
  // The library's broker prefix plus a nanoid (client-requests §0.5).
  expect(placed.clientOrderId).toMatch(/^x-U5D79M5B[A-Za-z0-9_-]{22}$/);
  const orderId = placed.orderId as number;

  expect(await rest.getOrder({ symbol: 'BTCUSDT', orderId })).toMatchObject({ orderId, status: 'NEW', clientOrderId: placed.clientOrderId });
  const amended = (await rest.putPrivate('api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId, newQty: 0.00113 })) as Formatted;
  expect(amended.amendedOrder).toMatchObject({ orderId, qty: '0.00113000', status: 'NEW' });
  const open = await rest.getOpenOrders({ symbol: 'BTCUSDT' });
  expect(open.find((o) => o.orderId === orderId)).toMatchObject({ origQty: '0.00113000' });

  expect(await rest.cancelOrder({ symbol: 'BTCUSDT', orderId })).toMatchObject({ orderId, status: 'CANCELED' });
  expect((await rest.getOpenOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).not.toContain(orderId);

  const market = (await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.00121, newOrderRespType: 'FULL' })) as Formatted;
  expect(market).toMatchObject({ status: 'FILLED', executedQty: '0.00121000' });
  const trades = await rest.getAccountTradeList({ symbol: 'BTCUSDT', orderId: market.orderId });
  expect(trades.map((t) => t.id).sort()).toEqual((market.fills as { tradeId: number }[]).map((f) => f.tradeId).sort());
  expect(trades[0]).toMatchObject({ orderId: market.orderId, isBuyer: true, isMaker: false });
});

test('binance WebsocketAPIClient: user-data subscription, order place/status/cancel and a filled MARKET order, with their events', async ({ sim }) => {
  const wsApi = wsApiAt(sim);
  const events = new Inbox<Formatted>();
  wsApi.getWSClient().on('formattedUserDataMessage', (event) => events.push(event as Formatted));
  try {
    const time = await wsApi.getSpotServerTime();
    expect(Math.abs(time.result.serverTime - sim.now())).toBeLessThan(5000);
    const subscribed = (await wsApi.subscribeUserDataStream(WS_KEY_MAP.mainWSAPI)) as Formatted;
    expect(subscribed).toMatchObject({ status: 200, result: { subscriptionId: expect.any(Number) } });

    const book = await wsApi.getSpotOrderBook({ symbol: 'BTCUSDT', limit: 5 });
    const price = quietBidPrice(Number(book.result.bids[0]![0]), 1250);
    const placed = (await wsApi.submitNewSpotOrder(spotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.00227', price: String(price) }))).result as Formatted;
    expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', origQty: '0.00227000' });
    expect(placed.clientOrderId).toMatch(/^x-U5D79M5B[A-Za-z0-9_-]{22}$/);
    const orderId = placed.orderId as number;

    const isOurs = (executionType: string) => (e: Formatted) => e.eventType === 'executionReport' && e.orderId === orderId && e.executionType === executionType;
    expect(await events.waitFor(isOurs('NEW'), 'formatted executionReport NEW')).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', orderStatus: 'NEW', price, quantity: 0.00227 });

    const status = await wsApi.getSpotOrderStatus({ symbol: 'BTCUSDT', orderId, timestamp: Date.now() });
    expect(status.result).toMatchObject({ orderId, status: 'NEW', clientOrderId: placed.clientOrderId });

    const cancelled = await wsApi.cancelSpotOrder({ symbol: 'BTCUSDT', orderId, timestamp: Date.now() });
    expect(cancelled.result).toMatchObject({ orderId, status: 'CANCELED' });
    expect(await events.waitFor(isOurs('CANCELED'), 'formatted executionReport CANCELED')).toMatchObject({ orderStatus: 'CANCELED', originalClientOrderId: placed.clientOrderId });

    const market = (await wsApi.submitNewSpotOrder(spotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00119', newOrderRespType: 'FULL' }))).result as Formatted;
    expect(market).toMatchObject({ status: 'FILLED', executedQty: '0.00119000' });
    const filled = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === market.orderId && e.orderStatus === 'FILLED', 'formatted executionReport FILLED');
    expect(filled).toMatchObject({ executionType: 'TRADE', accumulatedQuantity: 0.00119, isMaker: false });
    const position = await events.waitFor((e) => e.eventType === 'outboundAccountPosition', 'formatted outboundAccountPosition');
    expect((position.balances as { asset: string }[]).map((b) => b.asset)).toContain('USDT');
    // Unsubscribed first, so the library does not plan a resubscription when the socket closes.
    await wsApi.unsubscribeUserDataStream(WS_KEY_MAP.mainWSAPI);
  } finally {
    await wsApi.disconnectAll();
  }
});

test('binance WebsocketClient market data: diff depth (its default @depth@1000ms) synced with REST depth, trades, bookTicker', async ({ sim }) => {
  const rest = restAt(sim);
  const ws = new WebsocketClient(wsOptions(sim), logger);
  const trades = new Inbox<Formatted>();
  const tickers = new Inbox<Formatted>();
  const book = new LocalBook();
  const depthSeen = new Inbox<number>();
  ws.on('formattedMessage', (raw) => {
    const m = raw as Formatted;
    if (m.eventType === 'trade') trades.push(m);
    else if (m.eventType === 'bookTicker') tickers.push(m);
    else if (m.eventType === 'depthUpdate') {
      const level = (l: { price: number; quantity: number }) => [l.price, l.quantity] as const;
      book.onEvent({ U: m.firstUpdateId, u: m.lastUpdateId, b: m.bidDepthDelta.map(level), a: m.askDepthDelta.map(level) });
      depthSeen.push(m.lastUpdateId);
    }
  });
  try {
    await ws.subscribeSpotTrades('BTCUSDT');
    await ws.subscribeSpotSymbolBookTicker('BTCUSDT');
    await ws.subscribeSpotDiffBookDepth('BTCUSDT');
    await depthSeen.waitFor(() => true, 'a first btcusdt@depth@1000ms event');
    const snapshot = await rest.getOrderBook({ symbol: 'BTCUSDT', limit: 1000 });
    book.seed({ lastUpdateId: snapshot.lastUpdateId, bids: snapshot.bids, asks: snapshot.asks });

    const price = quietBidPrice(book.bestBid(), 1350);
    const placed = (await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.00229, price })) as Formatted;
    await book.until((b) => b.quantityAt('bids', price) === 0.00229, `our bid ${price} in the local book`);
    await rest.cancelOrder({ symbol: 'BTCUSDT', orderId: placed.orderId });
    await book.until((b) => b.quantityAt('bids', price) === undefined, `our bid ${price} gone from the local book`);
    expect(book.bestBid()).toBeLessThan(book.bestAsk());

    const market = (await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.00111, newOrderRespType: 'FULL' })) as Formatted;
    for (const fill of market.fills as { tradeId: number; price: string; qty: string }[]) {
      const trade = await trades.waitFor((t) => t.tradeId === fill.tradeId, `trade ${fill.tradeId}`);
      expect(trade).toMatchObject({ symbol: 'BTCUSDT', price: Number(fill.price), quantity: Number(fill.qty), maker: false, streamName: 'btcusdt@trade' });
    }
    const ticker = await tickers.waitFor(() => true, 'a bookTicker');
    expect(ticker).toMatchObject({ symbol: 'BTCUSDT', streamName: 'btcusdt@bookTicker' });
    expect(ticker.bidPrice).toBeLessThan(ticker.askPrice);
  } finally {
    ws.closeAll(true);
  }
});

test('binance WebsocketClient user data by listen key: REST listen key, then /ws/<listenKey>', async ({ sim }) => {
  const rest = restAt(sim);
  const ws = new WebsocketClient(wsOptions(sim), logger);
  const events = new Inbox<Formatted>();
  ws.on('formattedUserDataMessage', (event) => events.push(event as Formatted));
  try {
    // Resolves once the listen-key connection is open (the key is the subscription).
    await ws.subscribeSpotUserDataStream();
    const market = (await rest.submitNewOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 0.00102 })) as Formatted;
    const filled = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === market.orderId && e.orderStatus === 'FILLED', 'executionReport FILLED by listen key');
    expect(filled).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET' });
  } finally {
    ws.closeAll(true);
  }
});

test('binance over TLS: MainClient on https and WebsocketAPIClient on wss with certificate checks off', async ({ sim }) => {
  const rest = restAt(sim, true);
  const account = await rest.getAccountInformation();
  expect(account.balances.some((b) => b.asset === 'USDT')).toBe(true);
  const wsApi = wsApiAt(sim, true);
  try {
    const placed = await wsApi.submitNewSpotOrder(spotOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00101', newOrderRespType: 'FULL' }));
    expect(placed.result).toMatchObject({ status: 'FILLED', executedQty: '0.00101000' });
    const time = await within(wsApi.getSpotServerTime(), 'time over wss');
    expect(time.status).toBe(200);
  } finally {
    await wsApi.disconnectAll();
  }
});
