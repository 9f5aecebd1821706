// Compatibility: the official @binance/spot connector's WebSocket clients against the fixture's
// simulator, pointed at it only through its configuration (client-requests.md §1):
// - WebSocket API: `configurationWebsocketAPI.wsURL = <ws>/ws-api/v3` (used verbatim). It sends
//   32-hex string ids, every numeric parameter as a string, no recvWindow, and signs
//   userDataStream.subscribe.signature with the HMAC key (§6);
// - streams: `configurationWebsocketStreams.wsURL = <ws>`; the library opens
//   `/stream?streams=` and sends one SUBSCRIBE per stream with a 32-hex id, then routes frames
//   only by the combined `stream` field (§5);
// - over wss:// the `agent` option (an https.Agent with rejectUnauthorized: false) switches the
//   certificate check off.
// Timeouts are raised from the 5 s default: the machine running the suite is shared.
import { Agent } from 'node:https';
import { Spot, SpotRestAPI, SpotWebsocketAPI, SpotWebsocketStreams } from '@binance/spot';
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { Inbox, quietBidPrice, within } from './support.ts';
import { LocalBook, type DepthDiff as DepthEvent } from '../support/local-book.ts';

test.describe.configure({ timeout: 120_000 });

const { OrderPlaceSideEnum: Side, OrderPlaceTypeEnum: Type, OrderPlaceTimeInForceEnum: Tif, OrderPlaceNewOrderRespTypeEnum: RespType } = SpotWebsocketAPI;

type UserEvent = Record<string, unknown>;

function spotAt(sim: Simulator, tls: boolean): Spot {
  const agent = tls ? new Agent({ rejectUnauthorized: false }) : undefined;
  const ws = tls ? sim.urls.wss : sim.urls.ws;
  const credentials = { apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret };
  return new Spot({
    configurationRestAPI: { ...credentials, basePath: tls ? sim.urls.https : sim.urls.http, timeout: 15_000, retries: 0, ...(agent ? { httpsAgent: agent } : {}) },
    configurationWebsocketAPI: { ...credentials, wsURL: `${ws}/ws-api/v3`, timeout: 15_000, ...(agent ? { agent } : {}) },
    configurationWebsocketStreams: { wsURL: ws, ...(agent ? { agent } : {}) },
  });
}

/** The depth event as the library delivers it (U/u may be bigint after its JSON parse). */
function depthEvent(m: SpotWebsocketStreams.DiffBookDepthResponse): DepthEvent {
  return { U: Number(m.U), u: Number(m.u), b: (m.b ?? []) as [string, string][], a: (m.a ?? []) as [string, string][] };
}

async function bestBid(spot: Spot): Promise<number> {
  const ticker = await (await spot.restAPI.tickerBookTicker({ symbol: 'BTCUSDT' })).data();
  return Number((ticker as SpotRestAPI.TickerBookTickerResponse1).bidPrice);
}

test('@binance/spot WebSocket API: place, status, open orders, cancel, a filled MARKET order, with the user-data events of each', async ({ sim }) => {
  const spot = spotAt(sim, false);
  const api = await spot.websocketAPI.connect();
  try {
    const time = await api.time();
    expect(Math.abs(Number(time.data.serverTime) - sim.now())).toBeLessThan(5000);

    const events = new Inbox<UserEvent>();
    const { response, stream } = await api.userDataStreamSubscribeSignature();
    expect(Number.isInteger(response.data.subscriptionId)).toBe(true);
    stream.on('message', (event) => events.push(event as unknown as UserEvent));

    const price = quietBidPrice(await bestBid(spot), 1300);
    const placed = (await api.orderPlace({ symbol: 'BTCUSDT', side: Side.BUY, type: Type.LIMIT, timeInForce: Tif.GTC, quantity: 0.00217, price })).data;
    expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', type: 'LIMIT', side: 'BUY', origQty: '0.00217000', executedQty: '0.00000000' });
    expect(Number(placed.price)).toBe(price);
    // The library sends no newClientOrderId: the server made one.
    expect(placed.clientOrderId).toMatch(/^[.A-Z:/a-z0-9_-]{1,36}$/);
    const orderId = Number(placed.orderId);

    const isOurs = (x: string) => (e: UserEvent) => e.e === 'executionReport' && Number(e.i) === orderId && e.x === x;
    expect(await events.waitFor(isOurs('NEW'), 'executionReport NEW')).toMatchObject({ s: 'BTCUSDT', S: 'BUY', o: 'LIMIT', X: 'NEW', c: placed.clientOrderId, q: '0.00217000' });
    const locked = await events.waitFor((e) => e.e === 'outboundAccountPosition', 'outboundAccountPosition after the order');
    expect((locked.B as { a: string; l: string }[]).find((b) => b.a === 'USDT')!.l).not.toBe('0.00000000');

    const status = (await api.orderStatus({ symbol: 'BTCUSDT', orderId })).data;
    expect(status).toMatchObject({ symbol: 'BTCUSDT', clientOrderId: placed.clientOrderId, status: 'NEW', isWorking: true });
    expect(Number(status.orderId)).toBe(orderId);
    const open = (await api.openOrdersStatus({ symbol: 'BTCUSDT' })).data;
    expect(open.map((o) => Number(o.orderId))).toContain(orderId);

    const cancelled = (await api.orderCancel({ symbol: 'BTCUSDT', orderId })).data;
    expect(cancelled).toMatchObject({ status: 'CANCELED', origClientOrderId: placed.clientOrderId });
    expect(await events.waitFor(isOurs('CANCELED'), 'executionReport CANCELED')).toMatchObject({ X: 'CANCELED', C: placed.clientOrderId });
    expect((await api.openOrdersStatus({ symbol: 'BTCUSDT' })).data.map((o) => Number(o.orderId))).not.toContain(orderId);

    const market = (await api.orderPlace({ symbol: 'BTCUSDT', side: Side.BUY, type: Type.MARKET, quantity: 0.00117, newOrderRespType: RespType.FULL })).data;
    expect(market).toMatchObject({ status: 'FILLED', type: 'MARKET', executedQty: '0.00117000' });
    expect(market.fills!.length).toBeGreaterThan(0);
    const marketId = Number(market.orderId);
    const filled = await events.waitFor((e) => e.e === 'executionReport' && Number(e.i) === marketId && e.X === 'FILLED', 'executionReport FILLED');
    expect(filled).toMatchObject({ x: 'TRADE', z: '0.00117000', m: false });
    const lastFill = market.fills!.at(-1)!;
    expect(Number(filled.t)).toBe(Number(lastFill.tradeId));
    expect(filled.L).toBe(lastFill.price);

    const account = (await api.accountStatus()).data;
    expect(Number(account.balances!.find((b) => b.asset === 'USDT')!.free)).toBeGreaterThan(1000);
    stream.unsubscribe();
  } finally {
    await api.disconnect();
  }
});

test('@binance/spot WebSocket streams: a local book from diffBookDepth + REST depth shows our bid, trade shows our fill, bookTicker the touch', async ({ sim }) => {
  const spot = spotAt(sim, false);
  const streams = await spot.websocketStreams.connect();
  try {
    const trades = new Inbox<SpotWebsocketStreams.TradeResponse>();
    streams.trade({ symbol: 'btcusdt' }).on('message', trades.push);
    const tickers = new Inbox<SpotWebsocketStreams.BookTickerResponse>();
    streams.bookTicker({ symbol: 'btcusdt' }).on('message', tickers.push);
    // Subscribed last: the server takes SUBSCRIBE frames in order, so a first depth event also
    // proves the two subscriptions above are in place.
    const book = new LocalBook();
    const depthSeen = new Inbox<number>();
    streams.diffBookDepth({ symbol: 'btcusdt', updateSpeed: SpotWebsocketStreams.DiffBookDepthUpdateSpeedEnum.UPDATE_SPEED_100ms }).on('message', (m) => {
      book.onEvent(depthEvent(m));
      depthSeen.push(Number(m.u));
    });

    // Buffer from the first event on, then seed from the REST snapshot (binance-facts §5).
    await depthSeen.waitFor(() => true, 'a first btcusdt@depth@100ms event');
    const snapshot = await (await spot.restAPI.depth({ symbol: 'BTCUSDT', limit: 1000 })).data();
    book.seed({ lastUpdateId: Number(snapshot.lastUpdateId), bids: snapshot.bids as [string, string][], asks: snapshot.asks as [string, string][] });
    await book.until((b) => b.applied > 0, 'a depth event applied after the snapshot');
    expect(book.bestBid()).toBeLessThan(book.bestAsk());

    const price = quietBidPrice(book.bestBid(), 1400);
    const placed = await (await spot.restAPI.newOrder({ symbol: 'BTCUSDT', side: SpotRestAPI.NewOrderSideEnum.BUY, type: SpotRestAPI.NewOrderTypeEnum.LIMIT, timeInForce: SpotRestAPI.NewOrderTimeInForceEnum.GTC, quantity: 0.00219, price })).data();
    await book.until((b) => b.quantityAt('bids', price) === 0.00219, `our bid ${price} in the local book`);
    await spot.restAPI.deleteOrder({ symbol: 'BTCUSDT', orderId: placed.orderId! });
    await book.until((b) => b.quantityAt('bids', price) === undefined, `our bid ${price} gone from the local book`);

    const market = await (await spot.restAPI.newOrder({ symbol: 'BTCUSDT', side: SpotRestAPI.NewOrderSideEnum.BUY, type: SpotRestAPI.NewOrderTypeEnum.MARKET, quantity: 0.00109, newOrderRespType: SpotRestAPI.NewOrderNewOrderRespTypeEnum.FULL })).data();
    for (const fill of market.fills!) {
      const trade = await trades.waitFor((t) => Number(t.t) === Number(fill.tradeId), `trade ${fill.tradeId} on btcusdt@trade`);
      expect(trade).toMatchObject({ e: 'trade', s: 'BTCUSDT', p: fill.price, q: fill.qty, m: false });
    }

    const ticker = await tickers.waitFor(() => true, 'a btcusdt@bookTicker update');
    expect(ticker.s).toBe('BTCUSDT');
    expect(Number(ticker.b)).toBeLessThan(Number(ticker.a));
    expect(Number(ticker.u)).toBeGreaterThan(0);
    expect(book.failure).toBeNull();
  } finally {
    await streams.disconnect();
  }
});

test('@binance/spot legacy user data: REST listen key, then websocketStreams.userData(listenKey) on /stream', async ({ sim }) => {
  const spot = spotAt(sim, false);
  // v32 has no REST listen-key helper; sendRequest is the library's own escape hatch (§1).
  const created = await (await spot.restAPI.sendRequest<{ listenKey: string }>('/api/v3/userDataStream', 'POST')).data();
  expect(created.listenKey).toMatch(/^[A-Za-z0-9]{64}$/);
  const streams = await spot.websocketStreams.connect();
  try {
    const events = new Inbox<UserEvent>();
    streams.userData(created.listenKey).on('message', (e) => events.push(e as unknown as UserEvent));
    // The subscription is a SUBSCRIBE frame the library does not await: a trade stream on the
    // same connection, subscribed after it, proves the server has taken both.
    const trades = new Inbox<unknown>();
    streams.trade({ symbol: 'btcusdt' }).on('message', trades.push);
    await trades.waitFor(() => true, 'a trade on the same connection');

    const market = await (await spot.restAPI.newOrder({ symbol: 'BTCUSDT', side: SpotRestAPI.NewOrderSideEnum.BUY, type: SpotRestAPI.NewOrderTypeEnum.MARKET, quantity: 0.00103 })).data();
    const report = await events.waitFor((e) => e.e === 'executionReport' && Number(e.i) === Number(market.orderId) && e.X === 'FILLED', 'executionReport FILLED by listen key');
    expect(report).toMatchObject({ s: 'BTCUSDT', S: 'BUY', o: 'MARKET', x: 'TRADE' });
    await events.waitFor((e) => e.e === 'outboundAccountPosition', 'outboundAccountPosition by listen key');
  } finally {
    await streams.disconnect();
  }
});

test('@binance/spot over TLS: WebSocket API and streams on wss:// with the certificate check off through `agent`', async ({ sim }) => {
  const spot = spotAt(sim, true);
  const api = await spot.websocketAPI.connect();
  const streams = await spot.websocketStreams.connect();
  try {
    const time = await api.time();
    expect(Math.abs(Number(time.data.serverTime) - sim.now())).toBeLessThan(5000);
    const trades = new Inbox<SpotWebsocketStreams.TradeResponse>();
    streams.trade({ symbol: 'btcusdt' }).on('message', trades.push);
    // The library does not await its SUBSCRIBE; a first (generator) trade shows it is in place.
    await trades.waitFor(() => true, 'a first trade over wss');
    const placed = (await api.orderPlace({ symbol: 'BTCUSDT', side: Side.BUY, type: Type.MARKET, quantity: 0.00101, newOrderRespType: RespType.FULL })).data;
    const fill = placed.fills![0]!;
    expect(await trades.waitFor((t) => Number(t.t) === Number(fill.tradeId), 'our fill over wss')).toMatchObject({ s: 'BTCUSDT', p: fill.price });
  } finally {
    await streams.disconnect();
    await api.disconnect();
  }
});
