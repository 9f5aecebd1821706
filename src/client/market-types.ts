// Types of the public market-data replies and stream events (API.md section 9): the shapes of
// src/api/market-shapes.ts and market-stream-wire.ts as the reference writes them (amounts as
// decimal strings, ids and times as numbers).

/**
 * The reference's kline intervals (case-sensitive).
 * @example
 * const interval: KlineIntervalName = '15m';
 */
export type KlineIntervalName = '1s' | '1m' | '3m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '8h' | '12h' | '1d' | '3d' | '1w' | '1M';

/**
 * One kline: open time, open, high, low, close, volume, close time, quote volume, trade count,
 * taker buy base volume, taker buy quote volume, and an unused "0".
 * @example
 * const candles: Kline[] = await client.rest.klines({ symbol: 'BTCUSDT', interval: '1m', limit: 5 });
 * for (const [openTime, open, high, low, close] of candles) console.log(openTime, open, high, low, close);
 */
export type Kline = [number, string, string, string, string, string, number, string, number, string, string, string];

/**
 * The parameters of klines and uiKlines: symbol, interval, an optional time window (ms or µs), time
 * zone and limit.
 * @example
 * const params: KlineParams = { symbol: 'BTCUSDT', interval: '1h', timeZone: '+08:00', limit: 24 };
 * const candles = await client.rest.klines(params);
 */
export interface KlineParams {
  symbol: string;
  interval: KlineIntervalName;
  startTime?: number;
  endTime?: number;
  /** `-1:00`, `05:45`, `8`, in [-12:00, +14:00]; candles open in this zone. */
  timeZone?: string;
  /** Default 500, at most 1000. */
  limit?: number;
}

/**
 * One public trade (GET /api/v3/trades, historicalTrades, `trades.recent`).
 * @example
 * const trades: PublicTrade[] = await client.rest.trades({ symbol: 'BTCUSDT', limit: 10 });
 */
export interface PublicTrade {
  id: number;
  price: string;
  qty: string;
  quoteQty: string;
  time: number;
  isBuyerMaker: boolean;
  isBestMatch: boolean;
}

/**
 * One aggregate trade: the fills of one taker order at one price and time (GET /api/v3/aggTrades).
 * @example
 * const aggregates: AggTrade[] = await client.rest.aggTrades({ symbol: 'BTCUSDT', limit: 10 });
 */
export interface AggTrade {
  /** Aggregate trade id. */
  a: number;
  p: string;
  q: string;
  /** First and last trade id. */
  f: number;
  l: number;
  T: number;
  m: boolean;
  M: boolean;
}

/** The volume-weighted price of the last 5 minutes (GET /api/v3/avgPrice). @example const { price }: AvgPrice = await client.rest.avgPrice({ symbol: 'BTCUSDT' }); */
export interface AvgPrice {
  mins: number;
  price: string;
  closeTime: number;
}

/**
 * The MINI statistics of a window: open, high, low, last price and volumes.
 * @example
 * const mini: MiniTicker = await client.rest.ticker24hr({ symbol: 'BTCUSDT', type: 'MINI' });
 */
export interface MiniTicker {
  symbol: string;
  openPrice: string;
  highPrice: string;
  lowPrice: string;
  lastPrice: string;
  volume: string;
  quoteVolume: string;
  openTime: number;
  closeTime: number;
  firstId: number;
  lastId: number;
  count: number;
}

/**
 * `ticker` (rolling window) and `ticker/tradingDay`, type FULL.
 * @example
 * const hour: WindowTicker = await client.rest.ticker({ symbol: 'BTCUSDT', windowSize: '1h' });
 */
export interface WindowTicker extends MiniTicker {
  priceChange: string;
  priceChangePercent: string;
  weightedAvgPrice: string;
}

/**
 * `ticker/24hr`, type FULL.
 * @example
 * const day: Ticker24hr = await client.rest.ticker24hr({ symbol: 'BTCUSDT' });
 */
export interface Ticker24hr extends WindowTicker {
  prevClosePrice: string;
  lastQty: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

/** A symbol's last trade price (GET /api/v3/ticker/price). @example const { price }: PriceTicker = await client.rest.tickerPrice({ symbol: 'BTCUSDT' }); */
export interface PriceTicker {
  symbol: string;
  price: string;
}

/**
 * The ticker replies' `type`: FULL (default) or MINI.
 * @example
 * const type: TickerType = 'MINI';
 * const tickers = await client.rest.ticker24hr({ symbols: ['BTCUSDT', 'ETHUSDT'], type });
 */
export type TickerType = 'FULL' | 'MINI';

// ------------------------------------------------------------------ stream events

/**
 * A `<symbol>@aggTrade` push: one aggregate trade, at once.
 * @example
 * const stream = await client.streams('btcusdt@aggTrade');
 * const aggregate: AggTradeEvent = await stream.nextOf('btcusdt@aggTrade');
 */
export interface AggTradeEvent extends AggTrade {
  e: 'aggTrade';
  E: number;
  s: string;
}

/**
 * A `<symbol>@kline_<interval>` push: the open candle (`k.x` false), or its final push when it
 * closes (`k.x` true).
 * @example
 * const stream = await client.streams('btcusdt@kline_1m');
 * const closed: KlineEvent = await stream.nextOf('btcusdt@kline_1m', (e) => e.k.x);
 */
export interface KlineEvent {
  e: 'kline';
  E: number;
  s: string;
  k: {
    t: number;
    T: number;
    s: string;
    i: KlineIntervalName;
    f: number;
    L: number;
    o: string;
    c: string;
    h: string;
    l: string;
    v: string;
    n: number;
    /** Whether the candle is closed (its final push). */
    x: boolean;
    q: string;
    V: string;
    Q: string;
    B: string;
  };
}

/**
 * A `<symbol>@miniTicker` push (and each item of `!miniTicker@arr`): 24-hour open, high, low, close
 * and volumes.
 * @example
 * const stream = await client.streams('btcusdt@miniTicker');
 * const mini: MiniTickerEvent = await stream.nextOf('btcusdt@miniTicker');
 */
export interface MiniTickerEvent {
  e: '24hrMiniTicker';
  E: number;
  s: string;
  c: string;
  o: string;
  h: string;
  l: string;
  v: string;
  q: string;
}

/**
 * A `<symbol>@ticker` push: the 24-hour statistics with the best bid and ask.
 * @example
 * const stream = await client.streams('btcusdt@ticker');
 * const ticker: TickerEvent = await stream.nextOf('btcusdt@ticker');
 */
export interface TickerEvent {
  e: '24hrTicker';
  E: number;
  s: string;
  p: string;
  P: string;
  w: string;
  x: string;
  c: string;
  Q: string;
  b: string;
  B: string;
  a: string;
  A: string;
  o: string;
  h: string;
  l: string;
  v: string;
  q: string;
  O: number;
  C: number;
  F: number;
  L: number;
  n: number;
}

/**
 * `<sym>@ticker_<1h|4h|1d>` (e: `1hTicker`, `4hTicker`, `1dTicker`).
 * @example
 * const stream = await client.streams('btcusdt@ticker_1h');
 * const hour: WindowTickerEvent = await stream.nextOf('btcusdt@ticker_1h');
 */
export interface WindowTickerEvent {
  e: '1hTicker' | '4hTicker' | '1dTicker';
  E: number;
  s: string;
  p: string;
  P: string;
  o: string;
  h: string;
  l: string;
  c: string;
  w: string;
  v: string;
  q: string;
  O: number;
  C: number;
  F: number;
  L: number;
  n: number;
}

/**
 * A `<symbol>@avgPrice` push: the 5-minute volume-weighted price.
 * @example
 * const stream = await client.streams('btcusdt@avgPrice');
 * const average: AvgPriceEvent = await stream.nextOf('btcusdt@avgPrice');
 */
export interface AvgPriceEvent {
  e: 'avgPrice';
  E: number;
  s: string;
  i: '5m';
  w: string;
  T: number;
}

/**
 * `<sym>@depth<5|10|20>[@100ms]`: the top levels.
 * @example
 * const stream = await client.streams('btcusdt@depth5@100ms');
 * const top: PartialDepthEvent = await stream.nextOf('btcusdt@depth5@100ms');
 */
export interface PartialDepthEvent {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

/**
 * Every payload of the market-data streams beyond depth diffs, trades and bookTicker (klines,
 * tickers, aggregate trades, avgPrice, partial depth).
 * @example
 * const stream = await client.streams('btcusdt@kline_1m', 'btcusdt@avgPrice');
 * const { data }: { data: MarketDataEvent } = await stream.next();
 */
export type MarketDataEvent =
  | AggTradeEvent
  | KlineEvent
  | MiniTickerEvent
  | MiniTickerEvent[]
  | TickerEvent
  | WindowTickerEvent
  | WindowTickerEvent[]
  | AvgPriceEvent
  | PartialDepthEvent;

/**
 * The payload type of a market-data stream by its name (see StreamEventOf in types.ts).
 * @example
 * const candle: MarketDataEventOf<'btcusdt@kline_1m'> = await (await client.streams('btcusdt@kline_1m')).nextOf('btcusdt@kline_1m');   // a KlineEvent
 */
export type MarketDataEventOf<N extends string> = N extends `${string}@aggTrade`
  ? AggTradeEvent
  : N extends `${string}@kline_${string}`
    ? KlineEvent
    : N extends `${string}@miniTicker`
      ? MiniTickerEvent
      : N extends '!miniTicker@arr'
        ? MiniTickerEvent[]
        : N extends `${string}@ticker`
          ? TickerEvent
          : N extends `!ticker_${string}@arr`
            ? WindowTickerEvent[]
            : N extends `${string}@ticker_${string}`
              ? WindowTickerEvent
              : N extends `${string}@avgPrice`
                ? AvgPriceEvent
                : N extends `${string}@depth${5 | 10 | 20}` | `${string}@depth${5 | 10 | 20}@100ms`
                  ? PartialDepthEvent
                  : unknown;
