// Compatibility of the public market data (API.md section 9): each client library's own candle,
// ticker and trade calls and streams, pointed at the simulator the way the other compat specs
// do, decode what the simulator holds. Candles are compared on closed ones (history and past
// minutes do not move); tickers and trades by id against the simulator's own answers.
import { Agent } from 'node:https';
import ccxt from 'ccxt';
import { Spot, SpotRestAPI, SpotWebsocketStreams } from '@binance/spot';
import { MainClient, WebsocketClient } from 'binance';
import BinanceModule from 'binance-api-node';
import { test, expect, SpotSimClient, type Simulator } from 'spot-sim/fixture';
import type { Kline } from 'spot-sim';
import { Inbox, watchUntil } from './support.ts';

test.describe.configure({ timeout: 120_000 });

const SYMBOL = 'BTCUSDT';

/** The simulator's own closed 1m candles (all but the open one). */
async function closedMinutes(sim: Simulator, limit: number): Promise<Kline[]> {
  const klines = await new SpotSimClient(sim).rest.klines({ symbol: SYMBOL, interval: '1m', limit: limit + 1 });
  return klines.slice(0, -1);
}

test('ccxt: fetchOHLCV, fetchTicker, fetchTickers, fetchTrades, watchTicker, watchOHLCV, watchTrades', async ({ sim }) => {
  const exchange = new ccxt.pro.binance({ timeout: 15_000, options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false } });
  const moveAll = (table: Record<string, unknown>, origin: string): void => {
    for (const [name, url] of Object.entries(table)) {
      if (typeof url === 'string') table[name] = origin + new URL(url).pathname;
      else if (url !== null && typeof url === 'object') moveAll(url as Record<string, unknown>, sim.urls.ws);
    }
  };
  moveAll(exchange.urls['api'] as Record<string, unknown>, sim.urls.http);
  await exchange.loadHttpProxyAgent();
  try {
    await exchange.loadMarkets();
    const own = await closedMinutes(sim, 20);
    const ohlcv = await exchange.fetchOHLCV('BTC/USDT', '1m', own[0]![0], 20);
    expect(ohlcv.slice(0, 20)).toEqual(own.map((k) => [k[0], Number(k[1]), Number(k[2]), Number(k[3]), Number(k[4]), Number(k[5])]));

    const ticker = await exchange.fetchTicker('BTC/USDT');
    expect(ticker.symbol).toBe('BTC/USDT');
    expect(ticker.last).toBeGreaterThan(50_000);
    expect(ticker.baseVolume).toBeGreaterThan(0);
    expect(ticker.bid).toBeLessThan(ticker.ask!);
    const tickers = await exchange.fetchTickers(['BTC/USDT', 'ETH/USDT']);
    expect(Object.keys(tickers).sort()).toEqual(['BTC/USDT', 'ETH/USDT']);

    const trades = await exchange.fetchTrades('BTC/USDT', undefined, 5);
    const aggs = await new SpotSimClient(sim).rest.aggTrades({ symbol: SYMBOL, fromId: Number(trades[0]!.id), limit: 5 });
    expect(trades.map((t) => [Number(t.id), t.price, t.amount, t.timestamp])).toEqual(aggs.map((a) => [a.a, Number(a.p), Number(a.q), a.T]));

    const watched = await watchUntil(() => exchange.watchTicker('BTC/USDT'), (t) => typeof t.last === 'number', 'a watchTicker update');
    expect(watched.last).toBeGreaterThan(50_000);
    const candles = await watchUntil(() => exchange.watchOHLCV('BTC/USDT', '1m'), (c) => c.length > 0, 'a watchOHLCV candle');
    const [openTime, open, high, low, close] = candles[candles.length - 1]!;
    expect(openTime! % 60_000).toBe(0);
    expect(Math.abs(openTime! - sim.now())).toBeLessThan(120_000);
    expect(low!).toBeLessThanOrEqual(Math.min(open!, close!));
    expect(high!).toBeGreaterThanOrEqual(Math.max(open!, close!));
    const live = await watchUntil(() => exchange.watchTrades('BTC/USDT'), (t) => t.length > 0, 'a watchTrades trade');
    const [mine] = await new SpotSimClient(sim).rest.historicalTrades({ symbol: SYMBOL, fromId: Number(live[0]!.id), limit: 1 });
    expect([live[0]!.price, live[0]!.amount]).toEqual([Number(mine!.price), Number(mine!.qty)]);
  } finally {
    await exchange.close();
  }
});

test('@binance/spot: klines, ticker24hr, aggTrades over REST; kline and ticker streams', async ({ sim }) => {
  const spot = new Spot({
    configurationRestAPI: { apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, basePath: sim.urls.http, timeout: 15_000, retries: 0 },
    configurationWebsocketStreams: { wsURL: sim.urls.ws },
  });
  const own = await closedMinutes(sim, 10);
  const klines = await (await spot.restAPI.klines({ symbol: SYMBOL, interval: SpotRestAPI.KlinesIntervalEnum.INTERVAL_1m, startTime: own[0]![0], limit: 10 })).data();
  expect(klines.map((k) => k.map(String))).toEqual(own.map((k) => k.map(String)));
  const day = (await (await spot.restAPI.ticker24hr({ symbol: SYMBOL })).data()) as SpotRestAPI.Ticker24hrResponse1;
  expect(day).toMatchObject({ symbol: SYMBOL });
  expect(Number(day.count)).toBeGreaterThan(0);
  const aggs = await (await spot.restAPI.aggTrades({ symbol: SYMBOL, fromId: 1, limit: 3 })).data();
  expect(aggs.map((a) => Number(a.a))).toEqual([1, 2, 3]);

  const streams = await spot.websocketStreams.connect();
  const klineEvents = new Inbox<Record<string, any>>();
  const tickerEvents = new Inbox<Record<string, any>>();
  try {
    streams.kline({ symbol: 'btcusdt', interval: SpotWebsocketStreams.KlineIntervalEnum.INTERVAL_1m }).on('message', (m) => klineEvents.push(m as Record<string, any>));
    streams.ticker({ symbol: 'btcusdt' }).on('message', (m) => tickerEvents.push(m as Record<string, any>));
    const k = await klineEvents.waitFor(() => true, 'a btcusdt@kline_1m event');
    expect(k).toMatchObject({ e: 'kline', s: SYMBOL, k: { i: '1m', s: SYMBOL } });
    expect(Number(k.k.t) % 60_000).toBe(0);
    const t = await tickerEvents.waitFor(() => true, 'a btcusdt@ticker event');
    expect(t).toMatchObject({ e: '24hrTicker', s: SYMBOL });
    expect(Number(t.n)).toBeGreaterThan(0);
  } finally {
    await streams.disconnect();
  }
});

test('binance (tiagosiebler): getKlines, get24hrChangeStatistics, subscribeSpotKline', async ({ sim }) => {
  const rest = new MainClient({ baseUrl: sim.urls.http, disableTimeSync: true }, { timeout: 15_000 });
  const own = await closedMinutes(sim, 10);
  const klines = await rest.getKlines({ symbol: SYMBOL, interval: '1m', startTime: own[0]![0], limit: 10 });
  expect(klines.map((k) => k.map(String))).toEqual(own.map((k) => k.map(String)));
  const stats = (await rest.get24hrChangeStatistics({ symbol: SYMBOL })) as unknown as Record<string, unknown>;
  expect(stats).toMatchObject({ symbol: SYMBOL });
  expect(Number(stats.count)).toBeGreaterThan(0);

  const ws = new WebsocketClient({ wsUrl: sim.urls.ws, beautify: true, restOptions: { baseUrl: sim.urls.http, disableTimeSync: true } }, { trace: () => {}, info: () => {}, error: () => {} });
  const events = new Inbox<Record<string, any>>();
  ws.on('formattedMessage', (m) => events.push(m as Record<string, any>));
  try {
    await ws.subscribeSpotKline(SYMBOL, '1m');
    const k = await events.waitFor((m) => m.eventType === 'kline', 'a kline event');
    expect(k.kline).toMatchObject({ symbol: SYMBOL, interval: '1m' });
    expect(k.kline.startTime % 60_000).toBe(0);
  } finally {
    ws.closeAll(true);
  }
});

test('binance-api-node: candles, dailyStats, ws.candles, ws.ticker', async ({ sim }) => {
  const client = BinanceModule.default({ httpBase: sim.urls.http, wsBase: `${sim.urls.ws}/ws`, wsApi: `${sim.urls.ws}/ws-api/v3` });
  const own = await closedMinutes(sim, 10);
  const candles = await client.candles({ symbol: SYMBOL, interval: '1m' as never, startTime: own[0]![0], limit: 10 });
  expect(candles.map((c) => [c.openTime, c.open, c.high, c.low, c.close, c.volume, c.closeTime, c.trades])).toEqual(
    own.map((k) => [k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[8]]),
  );
  const stats = (await client.dailyStats({ symbol: SYMBOL })) as Record<string, any>;
  expect(stats).toMatchObject({ symbol: SYMBOL });
  expect(Number(stats.count)).toBeGreaterThan(0);

  const candleEvents = new Inbox<Record<string, any>>();
  const tickerEvents = new Inbox<Record<string, any>>();
  const stopCandles = client.ws.candles(SYMBOL, '1m', (c) => candleEvents.push(c as Record<string, any>));
  const stopTicker = client.ws.ticker(SYMBOL, (t) => tickerEvents.push(t as Record<string, any>));
  try {
    const c = await candleEvents.waitFor(() => true, 'a ws.candles event');
    expect(c).toMatchObject({ symbol: SYMBOL, interval: '1m' });
    expect(c.startTime % 60_000).toBe(0);
    const t = await tickerEvents.waitFor(() => true, 'a ws.ticker event');
    expect(t).toMatchObject({ symbol: SYMBOL });
    expect(Number(t.totalTrades)).toBeGreaterThan(0);
  } finally {
    stopCandles();
    stopTicker();
  }
});
