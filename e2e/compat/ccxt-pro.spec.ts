// Compatibility: ccxt's websocket class `ccxt.pro.binance` against the fixture's simulator, over
// real sockets, pointed at it only through its own `urls` (client-requests.md §1): REST
// `urls.api.*`, market data `urls.api.ws.spot` (ccxt appends `/<streamIndex>`, so it connects to
// `/ws/0`, `/ws/1`, ...) and the WS API `urls.api.ws['ws-api'].spot`. Options used:
// - `fetchMarkets.types: ['spot']`, `fetchCurrencies: false`, `fetchMargins: false`: loadMarkets
//   reads only /api/v3/exchangeInfo (finding 12: the defaults call /sapi and /fapi first);
// - `createOrder.quoteOrderQty: false`: market buys carry `quantity` even when given a price;
// - ws:// needs `await exchange.loadHttpProxyAgent()` once (finding 13); over wss:// the TLS
//   check is switched off with `validateServerSsl: false` (REST) and
//   `options.ws.options.rejectUnauthorized: false` (ccxt hands `options.ws.options` to `ws`).
// Not used, because the simulator does not serve them (SPEC.md scope): fetchTicker
// (/ticker/24hr; fetchBidsAsks reads /ticker/bookTicker instead), watchTicker (@miniTicker),
// fetchTrades (/aggTrades), fetchOHLCV (/klines), fetchTradingFee and fetchStatus (/sapi).
// Not used because of a ccxt defect: fetchBalanceWs reads the spot `account.status` reply with
// its futures parser (it looks for `assets`, not `balances`), so it returns no balances from
// any server; watchBalance and fetchBalance are the working routes.
import ccxt from 'ccxt';
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { quietBidPrice, userDataSubscribed, watchUntil, within } from './support.ts';

type BinancePro = InstanceType<typeof ccxt.pro.binance>;
type Book = readonly (readonly (number | undefined)[])[];

test.describe.configure({ timeout: 120_000 });

/** A ccxt.pro.binance whose every REST and WebSocket URL is moved onto the simulator (path kept). */
async function proAt(sim: Simulator, tls: boolean): Promise<BinancePro> {
  const exchange = new ccxt.pro.binance({
    apiKey: sim.credentials.apiKey,
    secret: sim.credentials.apiSecret,
    timeout: 15_000,
    ...(tls ? { validateServerSsl: false } : {}),
    options: {
      fetchMarkets: { types: ['spot'] },
      fetchCurrencies: false,
      fetchMargins: false,
      // A market buy given a price would otherwise be sent as quoteOrderQty = amount x price,
      // an order form the simulator answers -1014 (SPEC.md scope); this sends `quantity`.
      createOrder: { quoteOrderQty: false },
      ...(tls ? { ws: { options: { rejectUnauthorized: false } } } : {}),
    },
  });
  const http = tls ? sim.urls.https : sim.urls.http;
  const ws = tls ? sim.urls.wss : sim.urls.ws;
  // Stray sapi/fapi/futures-stream calls would then show up as the simulator's 404, never
  // reaching the real venue.
  const moveAll = (table: Record<string, unknown>, origin: string): void => {
    for (const [name, url] of Object.entries(table)) {
      if (typeof url === 'string') table[name] = origin + new URL(url).pathname;
      else if (url !== null && typeof url === 'object') moveAll(url as Record<string, unknown>, ws);
    }
  };
  moveAll(exchange.urls['api'] as Record<string, unknown>, http);
  if (!tls) await exchange.loadHttpProxyAgent();
  await exchange.loadMarkets();
  return exchange;
}

async function withPro(sim: Simulator, tls: boolean, body: (exchange: BinancePro) => Promise<void>): Promise<void> {
  const exchange = await proAt(sim, tls);
  try {
    await body(exchange);
  } finally {
    await exchange.close();
  }
}

function levelAmount(side: Book, price: number): number | undefined {
  return side.find((level) => level[0] === price)?.[1];
}

function expectSorted(book: { bids: Book; asks: Book }): void {
  const bids = book.bids.map((l) => l[0]!);
  const asks = book.asks.map((l) => l[0]!);
  expect(bids.length).toBeGreaterThan(0);
  expect(asks.length).toBeGreaterThan(0);
  expect(bids).toEqual([...bids].sort((a, b) => b - a));
  expect(asks).toEqual([...asks].sort((a, b) => a - b));
  expect(bids[0]!).toBeLessThan(asks[0]!);
}

test('ccxt.pro REST: markets, fetchBidsAsks, order book, balance, LIMIT open/fetch/list/cancel, a filled MARKET order, fetchMyTrades', async ({ sim }) => {
  await withPro(sim, false, async (ex) => {
    const market = ex.market('BTC/USDT');
    expect(market).toMatchObject({ id: 'BTCUSDT', base: 'BTC', quote: 'USDT', spot: true, active: true });
    expect(Object.keys(ex.markets!).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(market.precision).toMatchObject({ price: 0.01, amount: 0.00001 });

    // The ticker a user gets without /ticker/24hr: best bid and ask from /ticker/bookTicker.
    const quotes = await ex.fetchBidsAsks(['BTC/USDT']);
    const quote = quotes['BTC/USDT']!;
    expect(quote.bid!).toBeLessThan(quote.ask!);
    expect(quote.bidVolume!).toBeGreaterThan(0);
    expect(quote.askVolume!).toBeGreaterThan(0);

    const book = await ex.fetchOrderBook('BTC/USDT', 50);
    expectSorted(book as never);
    expect(book.bids.length).toBeLessThanOrEqual(50);
    expect(book.nonce).toBeGreaterThan(0);

    const before = await ex.fetchBalance();
    expect(before['USDT']!.free).toBeGreaterThan(1000);

    const price = quietBidPrice(Number(book.bids[0]![0]), 1500);
    const placed = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.00211, price);
    expect(placed).toMatchObject({ symbol: 'BTC/USDT', type: 'limit', side: 'buy', status: 'open', price, amount: 0.00211, filled: 0, remaining: 0.00211 });
    expect(placed.clientOrderId).toMatch(/^x-TKT5PX2F[0-9a-f]{22}$/);
    const id = placed.id!;

    expect(await ex.fetchOrder(id, 'BTC/USDT')).toMatchObject({ id, clientOrderId: placed.clientOrderId, status: 'open', price });
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).toContain(id);
    const locked = await ex.fetchBalance();
    expect(locked['USDT']!.used! - before['USDT']!.used!).toBeGreaterThanOrEqual(0.00211 * price - 1e-8);

    expect(await ex.cancelOrder(id, 'BTC/USDT')).toMatchObject({ id, status: 'canceled' });
    expect((await ex.fetchOpenOrders('BTC/USDT')).map((o) => o.id)).not.toContain(id);

    const bought = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.001);
    expect(bought).toMatchObject({ type: 'market', side: 'buy', status: 'closed', filled: 0.001, remaining: 0 });
    expect(bought.trades.length).toBeGreaterThan(0);
    expect(bought.average!).toBeGreaterThanOrEqual(quote.ask! * 0.9);

    // With a price (as code written for other venues passes it), still a base-quantity order.
    const boughtAtPrice = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.00102, quote.ask!);
    expect(boughtAtPrice).toMatchObject({ type: 'market', status: 'closed', filled: 0.00102 });

    const mine = (await ex.fetchMyTrades('BTC/USDT')).filter((t) => t.order === bought.id);
    expect(mine.map((t) => t.id).sort()).toEqual(bought.trades.map((t) => t.id).sort());
    expect(mine[0]).toMatchObject({ symbol: 'BTC/USDT', side: 'buy', takerOrMaker: 'taker' });
    expect(mine[0]!.fee).toMatchObject({ currency: 'USDT' });
  });
});

test('ccxt.pro watchOrderBook syncs its own snapshot and diffs: a resting bid appears at its level and goes on cancel', async ({ sim }) => {
  await withPro(sim, false, async (ex) => {
    const first = await within(ex.watchOrderBook('BTC/USDT'), 'the first watchOrderBook update');
    expectSorted(first as never);
    const firstNonce = first.nonce!;
    expect(firstNonce).toBeGreaterThan(0);

    const price = quietBidPrice(first.bids[0]![0]!, 1700);
    const placed = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.00321, price);
    const withBid = await watchUntil(
      () => ex.watchOrderBook('BTC/USDT'),
      (ob) => levelAmount(ob.bids, price) === 0.00321,
      `our bid ${price} in watchOrderBook`,
    );
    // ccxt hands out its live book object: read what is needed before the next update.
    const nonceWithBid = withBid.nonce!;
    expect(nonceWithBid).toBeGreaterThan(firstNonce);
    expectSorted(withBid as never);

    await ex.cancelOrder(placed.id!, 'BTC/USDT');
    const without = await watchUntil(
      () => ex.watchOrderBook('BTC/USDT'),
      (ob) => levelAmount(ob.bids, price) === undefined,
      `our bid ${price} gone from watchOrderBook`,
    );
    expect(without.nonce!).toBeGreaterThan(nonceWithBid);

    // A second symbol on its own subscription, and the touch from @bookTicker.
    const eth = await within(ex.watchOrderBook('ETH/USDT'), 'the first ETH/USDT book');
    expectSorted(eth as never);
    const touch = await within(ex.watchBidsAsks(['BTC/USDT']), 'a BTC/USDT bookTicker');
    expect(touch['BTC/USDT']!.bid!).toBeLessThan(touch['BTC/USDT']!.ask!);
  });
});

test('ccxt.pro watchTrades: the fills of our market order arrive in the public trade stream', async ({ sim }) => {
  await withPro(sim, false, async (ex) => {
    // The generator trades about once a second: the first update proves the subscription.
    const first = await within(ex.watchTrades('BTC/USDT'), 'a first public trade');
    expect(first[0]).toMatchObject({ symbol: 'BTC/USDT' });

    const bought = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.00107);
    const fills = new Map(bought.trades.map((t) => [t.id, t]));
    expect(fills.size).toBeGreaterThan(0);
    const seen = new Map<string, (typeof first)[number]>();
    await watchUntil(
      () => ex.watchTrades('BTC/USDT'),
      (trades) => {
        for (const t of trades) seen.set(t.id!, t);
        return [...fills.keys()].every((id) => seen.has(id!));
      },
      `trades ${[...fills.keys()].join(',')} in watchTrades`,
    );
    for (const [id, fill] of fills) {
      // A taker buy: the buyer is not the maker, which ccxt reports as side "buy".
      expect(seen.get(id!)).toMatchObject({ id, symbol: 'BTC/USDT', side: 'buy', price: fill.price, amount: fill.amount });
    }
  });
});

test('ccxt.pro watchOrders, watchBalance and watchMyTrades over the WS API user-data subscription', async ({ sim }) => {
  await withPro(sim, false, async (ex) => {
    const since = sim.now();
    let orderUpdate = ex.watchOrders('BTC/USDT');
    const balanceUpdate = ex.watchBalance();
    const tradeUpdate = ex.watchMyTrades('BTC/USDT');
    await userDataSubscribed(sim, since);

    const best = (await ex.fetchBidsAsks(['BTC/USDT']))['BTC/USDT']!;
    const price = quietBidPrice(best.bid!, 1900);
    const placed = await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.00123, price);
    const opened = (await within(orderUpdate, 'watchOrders: the new order')).find((o) => o.id === placed.id);
    expect(opened).toMatchObject({ id: placed.id, clientOrderId: placed.clientOrderId, status: 'open', price, amount: 0.00123, filled: 0 });

    const balance = await within(balanceUpdate, 'watchBalance after the order');
    expect(balance['USDT']!.used!).toBeGreaterThanOrEqual(0.00123 * price - 1e-8);

    orderUpdate = ex.watchOrders('BTC/USDT');
    await ex.cancelOrder(placed.id!, 'BTC/USDT');
    const cancelled = (await within(orderUpdate, 'watchOrders: the cancel')).find((o) => o.id === placed.id);
    expect(cancelled).toMatchObject({ id: placed.id, status: 'canceled' });

    // A market order: its first fill resolves watchMyTrades, its first update watchOrders. The
    // order ccxt hands out is the entry of its order cache, which later executionReports of the
    // same order (sent in the same burst) update in place.
    orderUpdate = ex.watchOrders('BTC/USDT');
    const bought = await ex.createOrder('BTC/USDT', 'market', 'buy', 0.00113);
    const myTrades = await within(tradeUpdate, 'watchMyTrades: the fill');
    expect(myTrades[0]).toMatchObject({ order: bought.id, symbol: 'BTC/USDT', side: 'buy', takerOrMaker: 'taker' });
    const tracked = (await within(orderUpdate, 'watchOrders: the market order')).find((o) => o.id === bought.id)!;
    expect(tracked).toMatchObject({ id: bought.id, type: 'market', side: 'buy' });
    await expect.poll(() => tracked.status, { message: 'the watched market order closes', timeout: 10_000 }).toBe('closed');
    expect(tracked.filled).toBe(0.00113);
  });
});

test('ccxt.pro WS API trading: createOrderWs, fetchOrderWs, fetchOpenOrdersWs, editOrderWs, cancelOrderWs', async ({ sim }) => {
  await withPro(sim, false, async (ex) => {
    const best = (await ex.fetchBidsAsks(['BTC/USDT']))['BTC/USDT']!;
    const price = quietBidPrice(best.bid!, 2100);
    const placed = await ex.createOrderWs('BTC/USDT', 'limit', 'buy', 0.00131, price);
    expect(placed).toMatchObject({ symbol: 'BTC/USDT', status: 'open', price, amount: 0.00131 });
    expect(await ex.fetchOrderWs(placed.id!, 'BTC/USDT')).toMatchObject({ id: placed.id, status: 'open' });
    expect((await ex.fetchOpenOrdersWs('BTC/USDT')).map((o) => o.id)).toContain(placed.id);

    // editOrderWs is order.cancelReplace: a new order replaces the old one.
    const edited = await ex.editOrderWs(placed.id!, 'BTC/USDT', 'limit', 'buy', 0.00141, price);
    expect(edited).toMatchObject({ status: 'open', price, amount: 0.00141 });
    expect(edited.id).not.toBe(placed.id);
    const open = (await ex.fetchOpenOrdersWs('BTC/USDT')).map((o) => o.id);
    expect(open).toContain(edited.id);
    expect(open).not.toContain(placed.id);

    expect(await ex.cancelOrderWs(edited.id!, 'BTC/USDT')).toMatchObject({ id: edited.id, status: 'canceled' });
    expect((await ex.fetchOpenOrdersWs('BTC/USDT')).map((o) => o.id)).not.toContain(edited.id);
  });
});

test('ccxt.pro over TLS: https + wss with certificate checks off through its own options', async ({ sim }) => {
  await withPro(sim, true, async (ex) => {
    const book = await within(ex.watchOrderBook('BTC/USDT'), 'a book over wss');
    expectSorted(book as never);
    const balance = await ex.fetchBalance();
    expect(balance['USDT']!.free).toBeGreaterThan(1000);
    const price = quietBidPrice(book.bids[0]![0]!, 2300);
    const placed = await ex.createOrderWs('BTC/USDT', 'limit', 'buy', 0.00151, price);
    await watchUntil(() => ex.watchOrderBook('BTC/USDT'), (ob) => levelAmount(ob.bids, price) === 0.00151, `our bid ${price} over wss`);
    expect(await ex.cancelOrderWs(placed.id!, 'BTC/USDT')).toMatchObject({ id: placed.id, status: 'canceled' });
  });
});
