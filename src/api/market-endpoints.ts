// The public market-data rows of the endpoint table (API.md section 9; reference rest-api.md
// "Market Data endpoints" and web-socket-api.md "Market data requests"): routes, WS API
// methods, weights and parameters as documented, read from the core's market-data model.
// Refusals use the error table: -1102 for a missing parameter, -1120 for an unknown interval,
// -1100 for a bad `timeZone` or a `limit` below 1 (above the maximum it is capped), -1128 for
// `fromId` with times, -1139 for a ticker type other than FULL/MINI, -1130 for a bad windowSize.

import { apiError } from '../core/errors.ts';
import { DAY_MS, HOUR_MS, klineInterval, MINUTE_MS, openTimeOf, parseTimeZone } from '../core/market/index.ts';
import type { SymbolMarketData } from '../core/market/index.ts';
import type { Instrument } from '../core/markets.ts';
import { bookTicker } from '../core/queries.ts';
import type { Touch } from '../core/types.ts';
import type { Endpoint, HandlerContext } from './endpoint-types.ts';
import { aggTradeRow, averagePrice, dayTicker, klinesText, lastPrice, miniTicker, tradeRow, windowTicker, type WindowStats } from './market-shapes.ts';
import type { Params } from './params.ts';
import type { RawJson } from './raw-json.ts';
import { requireSymbol, symbolList } from './symbol-params.ts';
import { timeWindow } from './time-unit.ts';

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 1000;
const ONE_DAY = klineInterval('1d')!;

/** `limit`: default, capped at the maximum; below 1 is -1100 (API.md 9 decisions). */
function limitOf(p: Params, fallback = DEFAULT_LIMIT, max = MAX_LIMIT): number {
  const limit = p.int('limit') ?? fallback;
  if (limit < 1) throw apiError('ILLEGAL_CHARS_ANY', 'limit');
  return Math.min(limit, max);
}

function timeZoneOf(p: Params): number {
  const text = p.get('timeZone');
  if (text === undefined) return 0;
  const tz = parseTimeZone(text);
  if (tz === undefined) throw apiError('ILLEGAL_CHARS_ANY', 'timeZone');
  return tz;
}

function tickerType(p: Params): 'FULL' | 'MINI' {
  const type = p.get('type') ?? 'FULL';
  if (type !== 'FULL' && type !== 'MINI') throw apiError('INVALID_TICKER_TYPE');
  return type;
}

const WINDOW_RE = /^([1-9][0-9]?)([mhd])$/;
const WINDOW_UNITS = { m: [MINUTE_MS, 59], h: [HOUR_MS, 23], d: [DAY_MS, 7] } as const;

/** `windowSize`: 1m..59m, 1h..23h, 1d..7d (default 1d), in ms. */
function windowSizeOf(p: Params): number {
  const text = p.get('windowSize') ?? '1d';
  const m = WINDOW_RE.exec(text);
  const unit = m === null ? undefined : WINDOW_UNITS[m[2] as keyof typeof WINDOW_UNITS];
  if (m === null || unit === undefined || Number(m[1]) > unit[1]) throw apiError('INVALID_PARAMETER', 'windowSize');
  return Number(m[1]) * unit[0];
}

function modelOf(ctx: HandlerContext, symbol: string): { inst: Instrument; md: SymbolMarketData } {
  const inst = ctx.exchange.instrument(symbol)!;
  return { inst, md: ctx.exchange.marketData.of(inst.index) };
}

/** Symbols of `symbol` | `symbols`, or -1102 when neither (ticker, ticker/tradingDay). */
function requiredSymbols(ctx: HandlerContext, p: Params): string[] {
  const symbols = symbolList(ctx, p);
  if (symbols === undefined) throw apiError('EITHER_PARAM', 'symbol', 'symbols');
  return symbols;
}

/** Object for `symbol`, array for `symbols` or all (the reference's reply forms). */
function perSymbol<T>(ctx: HandlerContext, p: Params, symbols: readonly string[] | undefined, one: (symbol: string) => T): T | T[] {
  if (p.has('symbol')) return one(symbols![0]!);
  return (symbols ?? ctx.exchange.instruments.map((i) => i.symbol)).map(one);
}

/** How many symbols `symbols` names (weights are computed before the handler runs). */
function symbolCount(p: Params): number | undefined {
  const many = p.get('symbols');
  if (many === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(many);
    return Array.isArray(parsed) ? parsed.length : 1;
  } catch {
    return 1;
  }
}

/** ticker/24hr: symbol 2, symbols 1-20: 2, 21-100: 40, more or all: 80. */
function dayTickerWeight(p: Params): number {
  if (p.has('symbol')) return 2;
  const n = symbolCount(p);
  if (n === undefined || n > 100) return 80;
  return n <= 20 ? 2 : 40;
}

/** ticker and ticker/tradingDay: 4 per symbol, 200 beyond 50 symbols. */
function perSymbolWeight(p: Params): number {
  const n = p.has('symbol') ? 1 : (symbolCount(p) ?? 1);
  return n > 50 ? 200 : 4 * n;
}

function dayStats(md: SymbolMarketData, now: number): { stats: WindowStats; prevClose: number; lastQty: number } {
  const from = now - DAY_MS;
  const w = md.window(from);
  return { stats: { fold: w.fold, openTime: from, closeTime: now }, prevClose: w.prevClose, lastQty: w.lastQty };
}

/**
 * Klines texts per symbol model, by query, current candle and last trade: the same request
 * between two trades (a chart polling) gets the same bytes without folding and formatting up
 * to 1000 candles again. A reset makes a new model, so nothing outlives its core.
 */
const klinesCache = new WeakMap<SymbolMarketData, Map<string, RawJson>>();
const KLINES_CACHED = 16;

function klines(ctx: HandlerContext, p: Params) {
  const symbol = requireSymbol(ctx, p);
  const interval = klineInterval(p.required('interval'));
  if (interval === undefined) throw apiError('BAD_INTERVAL');
  const tz = timeZoneOf(p);
  const { startTime, endTime } = timeWindow(p.time('startTime'), p.time('endTime'));
  const limit = limitOf(p);
  const { inst, md } = modelOf(ctx, symbol);
  // Nothing else moves a reply: the candles change only with a trade or a new current interval.
  const key = `${interval.name} ${tz} ${startTime} ${endTime} ${limit} ${openTimeOf(interval, tz, ctx.now)} ${md.lastTradeId}`;
  let cache = klinesCache.get(md);
  if (cache === undefined) klinesCache.set(md, (cache = new Map()));
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const text = klinesText(inst, md.klines({ interval, tz, startTime, endTime, limit, now: ctx.now }));
  if (cache.size >= KLINES_CACHED) cache.clear();
  cache.set(key, text);
  return text;
}

function trades(ctx: HandlerContext, p: Params, fromId: number | undefined) {
  const symbol = requireSymbol(ctx, p);
  const limit = limitOf(p);
  const { inst, md } = modelOf(ctx, symbol);
  return md.trades(fromId, limit).map((t) => tradeRow(inst, t));
}

export const MARKET_DATA_ENDPOINTS = [
  {
    id: 'trades.recent',
    rest: { method: 'GET', path: '/api/v3/trades' },
    ws: 'trades.recent',
    security: 'NONE',
    weight: () => 25,
    run: (ctx, p) => trades(ctx, p, undefined),
  },
  {
    id: 'trades.historical',
    rest: { method: 'GET', path: '/api/v3/historicalTrades' },
    ws: 'trades.historical',
    security: 'NONE',
    weight: () => 25,
    run: (ctx, p) => trades(ctx, p, p.int('fromId')),
  },
  {
    id: 'trades.aggregate',
    rest: { method: 'GET', path: '/api/v3/aggTrades' },
    ws: 'trades.aggregate',
    security: 'NONE',
    weight: () => 4,
    run: (ctx, p) => {
      const symbol = requireSymbol(ctx, p);
      const fromId = p.int('fromId');
      const { startTime, endTime } = timeWindow(p.time('startTime'), p.time('endTime'));
      if (fromId !== undefined && (startTime !== undefined || endTime !== undefined)) throw apiError('BAD_PARAM_COMBINATION');
      const limit = limitOf(p);
      const { inst, md } = modelOf(ctx, symbol);
      return md.aggTrades({ fromId, startTime, endTime, limit }).map((a) => aggTradeRow(inst, a));
    },
  },
  {
    id: 'klines',
    rest: { method: 'GET', path: '/api/v3/klines' },
    ws: 'klines',
    security: 'NONE',
    weight: () => 2,
    run: klines,
  },
  {
    // binance-facts: uiKlines and klines return the same data.
    id: 'uiKlines',
    rest: { method: 'GET', path: '/api/v3/uiKlines' },
    ws: 'uiKlines',
    security: 'NONE',
    weight: () => 2,
    run: klines,
  },
  {
    id: 'avgPrice',
    rest: { method: 'GET', path: '/api/v3/avgPrice' },
    ws: 'avgPrice',
    security: 'NONE',
    weight: () => 2,
    run: (ctx, p) => {
      const { inst, md } = modelOf(ctx, requireSymbol(ctx, p));
      const avg = averagePrice(inst, md, ctx.now);
      return { mins: 5, price: avg.price, closeTime: avg.closeTime };
    },
  },
  {
    id: 'ticker.24hr',
    rest: { method: 'GET', path: '/api/v3/ticker/24hr' },
    ws: 'ticker.24hr',
    security: 'NONE',
    weight: dayTickerWeight,
    run: (ctx, p) => {
      const type = tickerType(p);
      return perSymbol(ctx, p, symbolList(ctx, p), (symbol) => {
        const { inst, md } = modelOf(ctx, symbol);
        const day = dayStats(md, ctx.now);
        if (type === 'MINI') return miniTicker(inst, day.stats);
        return dayTicker(inst, day.stats, day.prevClose, day.lastQty, bookTicker(ctx.exchange.state, symbol) as Touch);
      });
    },
  },
  {
    id: 'ticker.price',
    rest: { method: 'GET', path: '/api/v3/ticker/price' },
    ws: 'ticker.price',
    security: 'NONE',
    weight: (p) => (p.has('symbol') ? 2 : 4),
    run: (ctx, p) =>
      perSymbol(ctx, p, symbolList(ctx, p), (symbol) => {
        const { inst, md } = modelOf(ctx, symbol);
        return { symbol, price: lastPrice(inst, md) };
      }),
  },
  {
    id: 'ticker',
    rest: { method: 'GET', path: '/api/v3/ticker' },
    ws: 'ticker',
    security: 'NONE',
    weight: perSymbolWeight,
    run: (ctx, p) => {
      const symbols = requiredSymbols(ctx, p);
      const size = windowSizeOf(p);
      const type = tickerType(p);
      // The reference's rolling windows open on a minute (rest-api.md "Rolling window").
      const from = Math.floor((ctx.now - size) / MINUTE_MS) * MINUTE_MS;
      return perSymbol(ctx, p, symbols, (symbol) => {
        const { inst, md } = modelOf(ctx, symbol);
        const stats = { fold: md.barsFrom(from), openTime: from, closeTime: ctx.now };
        return type === 'MINI' ? miniTicker(inst, stats) : windowTicker(inst, stats);
      });
    },
  },
  {
    id: 'ticker.tradingDay',
    rest: { method: 'GET', path: '/api/v3/ticker/tradingDay' },
    ws: 'ticker.tradingDay',
    security: 'NONE',
    weight: perSymbolWeight,
    run: (ctx, p) => {
      const symbols = requiredSymbols(ctx, p);
      const tz = timeZoneOf(p);
      const type = tickerType(p);
      const from = openTimeOf(ONE_DAY, tz, ctx.now);
      return perSymbol(ctx, p, symbols, (symbol) => {
        const { inst, md } = modelOf(ctx, symbol);
        const stats = { fold: md.barsFrom(from), openTime: from, closeTime: from + DAY_MS - 1 };
        return type === 'MINI' ? miniTicker(inst, stats) : windowTicker(inst, stats);
      });
    },
  },
] as const satisfies readonly Endpoint[];
