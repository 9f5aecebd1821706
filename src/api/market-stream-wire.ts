// Market-data stream payloads beyond depth, bookTicker and trade (API.md section 9; reference
// web-socket-streams.md): aggTrade, kline, 24hrMiniTicker, 24hrTicker, <w>Ticker, avgPrice and
// partial depth, with the reference's one-letter fields in its order. The figures are the REST
// replies' (market-shapes.ts), so a stream and a request never disagree.

import { DAY_MS, MINUTE_MS, type KlineInterval } from '../core/market/index.ts';
import type { AggTrade, SymbolMarketData } from '../core/market/index.ts';
import type { Instrument } from '../core/markets.ts';
import type { DepthSnapshot, Touch } from '../core/types.ts';
import { aggTradeRow, averagePrice, dayTicker, miniTicker, quoteVolume, windowTicker } from './market-shapes.ts';
import { price, qty } from './order-shapes.ts';

export function aggTradeEvent(inst: Instrument, a: AggTrade): string {
  const r = aggTradeRow(inst, a);
  return JSON.stringify({ e: 'aggTrade', E: a.time, s: inst.symbol, a: r.a, p: r.p, q: r.q, f: r.f, l: r.l, T: r.T, m: r.m, M: true });
}

/** The candle of `interval` opening at `open` (or the current one), `x`: closed. */
export function klineEvent(inst: Instrument, md: SymbolMarketData, interval: KlineInterval, tz: number, open: number, now: number, closed: boolean): string | null {
  const [c] = md.klines({ interval, tz, startTime: open, limit: 1, now });
  if (c === undefined || c.openTime !== open) return null;
  const f = c.fold;
  const k = {
    t: c.openTime,
    T: c.closeTime,
    s: inst.symbol,
    i: interval.name,
    f: f.firstId,
    L: f.lastId,
    o: price(inst, f.open),
    c: price(inst, f.close),
    h: price(inst, f.high),
    l: price(inst, f.low),
    v: qty(inst, f.volume),
    n: f.count,
    x: closed,
    q: quoteVolume(inst, f.quote),
    V: qty(inst, f.takerVolume),
    Q: quoteVolume(inst, f.takerQuote),
    B: '0',
  };
  return JSON.stringify({ e: 'kline', E: now, s: inst.symbol, k });
}

function dayWindow(md: SymbolMarketData, now: number) {
  const w = md.window(now - DAY_MS);
  return { stats: { fold: w.fold, openTime: now - DAY_MS, closeTime: now }, prevClose: w.prevClose, lastQty: w.lastQty };
}

export function miniTickerEvent(inst: Instrument, md: SymbolMarketData, now: number): object {
  const t = miniTicker(inst, dayWindow(md, now).stats);
  return { e: '24hrMiniTicker', E: now, s: inst.symbol, c: t.lastPrice, o: t.openPrice, h: t.highPrice, l: t.lowPrice, v: t.volume, q: t.quoteVolume };
}

export function tickerEvent(inst: Instrument, md: SymbolMarketData, touch: Touch, now: number): object {
  const day = dayWindow(md, now);
  const t = dayTicker(inst, day.stats, day.prevClose, day.lastQty, touch);
  return {
    e: '24hrTicker',
    E: now,
    s: inst.symbol,
    p: t.priceChange,
    P: t.priceChangePercent,
    w: t.weightedAvgPrice,
    x: t.prevClosePrice,
    c: t.lastPrice,
    Q: t.lastQty,
    b: t.bidPrice,
    B: t.bidQty,
    a: t.askPrice,
    A: t.askQty,
    o: t.openPrice,
    h: t.highPrice,
    l: t.lowPrice,
    v: t.volume,
    q: t.quoteVolume,
    O: t.openTime,
    C: t.closeTime,
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}

/** `<sym>@ticker_<w>` (w = 1h, 4h, 1d): the window opens on a minute, closes now. */
export function windowTickerEvent(inst: Instrument, md: SymbolMarketData, windowName: string, windowMs: number, now: number): object {
  const from = Math.floor((now - windowMs) / MINUTE_MS) * MINUTE_MS;
  const t = windowTicker(inst, { fold: md.barsFrom(from), openTime: from, closeTime: now });
  return {
    e: `${windowName}Ticker`,
    E: now,
    s: inst.symbol,
    p: t.priceChange,
    P: t.priceChangePercent,
    o: t.openPrice,
    h: t.highPrice,
    l: t.lowPrice,
    c: t.lastPrice,
    w: t.weightedAvgPrice,
    v: t.volume,
    q: t.quoteVolume,
    O: t.openTime,
    C: t.closeTime,
    F: t.firstId,
    L: t.lastId,
    n: t.count,
  };
}

export function avgPriceEvent(inst: Instrument, md: SymbolMarketData, now: number): object {
  const avg = averagePrice(inst, md, now);
  return { e: 'avgPrice', E: now, s: inst.symbol, i: '5m', w: avg.price, T: avg.closeTime };
}

export function partialDepthEvent(inst: Instrument, snap: DepthSnapshot): string {
  const side = (levels: readonly (readonly [number, number])[]) => levels.map(([p, q]) => [price(inst, p), qty(inst, q)]);
  return JSON.stringify({ lastUpdateId: snap.lastUpdateId, bids: side(snap.bids), asks: side(snap.asks) });
}
