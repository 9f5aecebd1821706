// Types of the public market-data replies and stream events (API.md section 9): the shapes of
// src/api/market-shapes.ts and market-stream-wire.ts as the reference writes them (amounts as
// decimal strings, ids and times as numbers).

/** The reference's kline intervals (case-sensitive). */
export type KlineIntervalName = '1s' | '1m' | '3m' | '5m' | '15m' | '30m' | '1h' | '2h' | '4h' | '6h' | '8h' | '12h' | '1d' | '3d' | '1w' | '1M';

/**
 * One kline: open time, open, high, low, close, volume, close time, quote volume, trade count,
 * taker buy base volume, taker buy quote volume, and an unused "0".
 */
export type Kline = [number, string, string, string, string, string, number, string, number, string, string, string];

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

export interface PublicTrade {
  id: number;
  price: string;
  qty: string;
  quoteQty: string;
  time: number;
  isBuyerMaker: boolean;
  isBestMatch: boolean;
}

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

export interface AvgPrice {
  mins: number;
  price: string;
  closeTime: number;
}

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

/** `ticker` (rolling window) and `ticker/tradingDay`, type FULL. */
export interface WindowTicker extends MiniTicker {
  priceChange: string;
  priceChangePercent: string;
  weightedAvgPrice: string;
}

/** `ticker/24hr`, type FULL. */
export interface Ticker24hr extends WindowTicker {
  prevClosePrice: string;
  lastQty: string;
  bidPrice: string;
  bidQty: string;
  askPrice: string;
  askQty: string;
}

export interface PriceTicker {
  symbol: string;
  price: string;
}

export type TickerType = 'FULL' | 'MINI';

// ------------------------------------------------------------------ stream events

export interface AggTradeEvent extends AggTrade {
  e: 'aggTrade';
  E: number;
  s: string;
}

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

/** `<sym>@ticker_<1h|4h|1d>` (e: `1hTicker`, `4hTicker`, `1dTicker`). */
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

export interface AvgPriceEvent {
  e: 'avgPrice';
  E: number;
  s: string;
  i: '5m';
  w: string;
  T: number;
}

/** `<sym>@depth<5|10|20>[@100ms]`: the top levels. */
export interface PartialDepthEvent {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

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

/** The payload type of a market-data stream by its name (see StreamEventOf in types.ts). */
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
