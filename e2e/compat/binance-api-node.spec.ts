// Compatibility: binance-api-node against the fixture's simulator, pointed at it only through its
// own options: `httpBase` (REST origin; it appends /api/v3/…), `wsBase` (the raw-stream base it
// appends `/<symbol>@depth…` to, so `<ws>/ws`) and `wsApi` (used verbatim for `ws.user`, which
// subscribes with userDataStream.subscribe.signature). Quirks met:
// - `wsBase` is written into a module-level table when a client is created, so every client in
//   the process shares the last value; one simulator per worker keeps that harmless here;
// - it sends no recvWindow and adds newClientOrderId=x-TKT5PX2F + 22 hex (ccxt's broker id);
// - `ws.partialDepth` subscribes `<symbol>@depth<N>`, which the simulator does not publish
//   (SPEC.md scope), so the book comes from `ws.depth` plus a REST snapshot;
// - its typings disagree with what it returns at run time: time() resolves to the number, not
//   `{serverTime}`, and book() levels are `{price, quantity}` objects, not tuples;
// - TLS: REST goes through the global fetch and the sockets through `ws` with only a `proxy`
//   option, so there is no option to accept the fixture's self-signed certificate: this library
//   is exercised over http:// and ws:// only.
import { test, expect } from 'spot-sim/fixture';
import { apiNodeAt, type ApiNode as Client } from './rest-clients.ts';
import { Inbox, quietBidPrice } from './support.ts';
import { LocalBook } from '../support/local-book.ts';

test.describe.configure({ timeout: 120_000 });

type Loose = Record<string, any>;
interface Level {
  price: string;
  quantity: string;
}
interface Book {
  lastUpdateId: number;
  bids: Level[];
  asks: Level[];
}

/** book() as it resolves at run time (see the typings quirk above). */
async function bookOf(client: Client, limit: number): Promise<Book> {
  return (await client.book({ symbol: 'BTCUSDT', limit })) as unknown as Book;
}

const tuple = (l: Level) => [l.price, l.quantity] as const;

test('binance-api-node REST: ping, time, exchangeInfo, book, account, LIMIT order/getOrder/openOrders/cancel, MARKET, myTrades', async ({ sim }) => {
  const client = apiNodeAt(sim);
  expect(await client.ping()).toBe(true);
  const serverTime = (await client.time()) as unknown as number;
  expect(Math.abs(serverTime - sim.now())).toBeLessThan(5000);

  const info = await client.exchangeInfo();
  expect((info.symbols as Loose[]).find((s) => s.symbol === 'BTCUSDT')).toMatchObject({ status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT' });

  const book = await bookOf(client, 10);
  expect(book.lastUpdateId).toBeGreaterThan(0);
  expect(Number(book.bids[0]!.price)).toBeLessThan(Number(book.asks[0]!.price));

  const account = await client.accountInfo();
  expect(Number(account.balances.find((b) => b.asset === 'USDT')!.free)).toBeGreaterThan(1000);

  const price = quietBidPrice(Number(book.bids[0]!.price), 1100);
  const placed = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00233', price: String(price) } as never)) as Loose;
  expect(placed).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW', type: 'LIMIT', timeInForce: 'GTC', origQty: '0.00233000' });
  expect(placed.clientOrderId).toMatch(/^x-TKT5PX2F[0-9a-f]{22}$/);
  const orderId = placed.orderId as number;

  expect(await client.getOrder({ symbol: 'BTCUSDT', orderId })).toMatchObject({ orderId, status: 'NEW', clientOrderId: placed.clientOrderId });
  expect((await client.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).toContain(orderId);
  expect(await client.cancelOrder({ symbol: 'BTCUSDT', orderId })).toMatchObject({ orderId, status: 'CANCELED' });
  expect((await client.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).not.toContain(orderId);

  const market = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00131' } as never)) as Loose;
  // MARKET orders answer FULL by default, fills included.
  expect(market).toMatchObject({ status: 'FILLED', executedQty: '0.00131000' });
  const trades = await client.myTrades({ symbol: 'BTCUSDT' });
  const mine = trades.filter((t) => t.orderId === market.orderId);
  expect(mine.map((t) => t.id).sort()).toEqual((market.fills as { tradeId: number }[]).map((f) => f.tradeId).sort());
  expect(mine[0]).toMatchObject({ isBuyer: true, isMaker: false });
});

test('binance-api-node streams: ws.depth + REST book make a local book that shows our bid; ws.trades shows our fill; ws.bookTicker the touch', async ({ sim }) => {
  const client = apiNodeAt(sim);
  const closers: (() => void)[] = [];
  try {
    const trades = new Inbox<Loose>();
    closers.push(client.ws.trades('BTCUSDT', trades.push));
    const tickers = new Inbox<Loose>();
    closers.push(client.ws.bookTicker('BTCUSDT', tickers.push));
    const book = new LocalBook();
    const depthSeen = new Inbox<number>();
    // "BTCUSDT@100ms" selects <symbol>@depth@100ms.
    closers.push(
      client.ws.depth('BTCUSDT@100ms', (event) => {
        book.onEvent({ U: event.firstUpdateId, u: event.finalUpdateId, b: event.bidDepth.map(tuple), a: event.askDepth.map(tuple) });
        depthSeen.push(event.finalUpdateId);
      }),
    );

    await depthSeen.waitFor(() => true, 'a first btcusdt@depth@100ms event');
    const snapshot = await bookOf(client, 1000);
    book.seed({ lastUpdateId: snapshot.lastUpdateId, bids: snapshot.bids.map(tuple), asks: snapshot.asks.map(tuple) });

    const price = quietBidPrice(book.bestBid(), 1150);
    const placed = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00239', price: String(price) } as never)) as Loose;
    await book.until((b) => b.quantityAt('bids', price) === 0.00239, `our bid ${price} in the local book`);
    await client.cancelOrder({ symbol: 'BTCUSDT', orderId: placed.orderId });
    await book.until((b) => b.quantityAt('bids', price) === undefined, `our bid ${price} gone from the local book`);
    expect(book.bestBid()).toBeLessThan(book.bestAsk());

    // The raw-stream connection subscribes on connect; a first (generator) trade shows it is open.
    await trades.waitFor(() => true, 'a first trade');
    const market = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00117' } as never)) as Loose;
    for (const fill of market.fills as { tradeId: number; price: string; qty: string }[]) {
      const trade = await trades.waitFor((t) => t.tradeId === fill.tradeId, `trade ${fill.tradeId}`);
      expect(trade).toMatchObject({ eventType: 'trade', symbol: 'BTCUSDT', price: fill.price, quantity: fill.qty, isBuyerMaker: false });
    }

    const ticker = await tickers.waitFor(() => true, 'a bookTicker');
    expect(ticker.symbol).toBe('BTCUSDT');
    expect(Number(ticker.bestBid)).toBeLessThan(Number(ticker.bestAsk));
  } finally {
    for (const close of closers) close();
  }
});

test('binance-api-node ws.user: WS API user-data subscription delivers the events of our orders', async ({ sim }) => {
  const client = apiNodeAt(sim);
  const events = new Inbox<Loose>();
  // Resolves once the subscription is acknowledged.
  const close = await client.ws.user(events.push);
  try {
    const best = await bookOf(client, 5);
    const price = quietBidPrice(Number(best.bids[0]!.price), 1175);
    const placed = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.00241', price: String(price) } as never)) as Loose;
    const isOurs = (executionType: string) => (e: Loose) => e.eventType === 'executionReport' && e.orderId === placed.orderId && e.executionType === executionType;
    expect(await events.waitFor(isOurs('NEW'), 'executionReport NEW')).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', orderStatus: 'NEW', quantity: '0.00241000' });
    await client.cancelOrder({ symbol: 'BTCUSDT', orderId: placed.orderId });
    expect(await events.waitFor(isOurs('CANCELED'), 'executionReport CANCELED')).toMatchObject({ orderStatus: 'CANCELED', originalClientOrderId: placed.clientOrderId });

    const market = (await client.order({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.00104' } as never)) as Loose;
    const filled = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === market.orderId && e.orderStatus === 'FILLED', 'executionReport FILLED');
    expect(filled).toMatchObject({ executionType: 'TRADE', totalTradeQuantity: '0.00104000' });
    const position = await events.waitFor((e) => e.eventType === 'outboundAccountPosition', 'outboundAccountPosition');
    expect((position.balances as { asset: string }[]).map((b) => b.asset)).toContain('USDT');
  } finally {
    close();
  }
});
