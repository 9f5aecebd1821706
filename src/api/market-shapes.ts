// Public market-data replies (API.md section 9; reference rest-api.md "Market Data endpoints"):
// field names and order as the reference writes them, amounts as strings at the instrument's
// decimals (8 at least), `priceChangePercent` at 3 decimals, ids and times as numbers. The
// stream payloads (market-stream-wire.ts) reuse these figures. The client's types
// (src/client/market-types.ts) describe the same objects.

import type { AggTrade, BarFold, Candle, SymbolMarketData, TradeRow } from '../core/market/index.ts';
import type { Instrument } from '../core/markets.ts';
import type { Touch } from '../core/types.ts';
import { formatScaled, pow10n } from '../core/units.ts';
import { price, qty, ZERO } from './order-shapes.ts';
import { RawJson } from './raw-json.ts';

/** Quote volume: ticks x lots, at tick + lot decimals. */
export const quoteVolume = (inst: Instrument, units: number): string => formatScaled(Math.round(units), inst.tickDecimals + inst.lotDecimals);

/** quote / volume as a price at 8 decimals (half up); "0.00000000" without volume. */
export function weightedPrice(inst: Instrument, quote: number, volume: number): string {
  if (volume <= 0) return ZERO;
  const num = BigInt(Math.round(quote)) * 10n ** 8n * 2n;
  const den = BigInt(Math.round(volume)) * pow10n(inst.tickDecimals) * 2n;
  return formatScaled((num + den / 2n) / den, 8);
}

/**
 * The last price (`ticker/price`): the last trade's; a symbol that never traded (no history, no
 * trade yet) has its `start_mid`, as the reference always has a last price and a UI pricing a
 * MARKET order from it must get a number (windowed tickers keep their no-trade zeros).
 */
export function lastPrice(inst: Instrument, md: SymbolMarketData): string {
  return price(inst, md.lastTrade()?.price ?? inst.startMid);
}

/** `avgPrice` (REST, WS API, `@avgPrice`): the 5-minute VWAP, else the last price; `closeTime` the last trade's, 0 if none. */
export function averagePrice(inst: Instrument, md: SymbolMarketData, now: number): { price: string; closeTime: number } {
  const avg = md.avgPrice(now);
  if (avg.volume > 0) return { price: weightedPrice(inst, avg.quote, avg.volume), closeTime: avg.closeTime };
  return { price: lastPrice(inst, md), closeTime: avg.closeTime };
}

/** (last - open) / open in percent, 3 decimals, rounded half away from zero; "0.000" from 0. */
export function changePercent(open: number, last: number): string {
  if (open === 0) return '0.000';
  const num = BigInt(last - open) * 100_000n;
  const den = BigInt(open);
  const neg = num < 0n;
  const abs = neg ? -num : num;
  const rounded = (abs * 2n + den) / (den * 2n);
  const text = formatScaled(rounded, 3, 3);
  return neg && rounded !== 0n ? `-${text}` : text;
}

export function tradeRow(inst: Instrument, t: TradeRow) {
  return {
    id: t.id,
    price: price(inst, t.price),
    qty: qty(inst, t.qty),
    quoteQty: quoteVolume(inst, t.price * t.qty),
    time: t.time,
    isBuyerMaker: t.buyerIsMaker,
    isBestMatch: true,
  };
}

export function aggTradeRow(inst: Instrument, a: AggTrade) {
  return { a: a.aggId, p: price(inst, a.price), q: qty(inst, a.qty), f: a.firstId, l: a.lastId, T: a.time, m: a.buyerIsMaker, M: true };
}

/** Klines as JSON text (up to 1000 rows of 12 fields: written once, in order). */
export function klinesText(inst: Instrument, candles: readonly Candle[]): RawJson {
  let text = '[';
  for (let i = 0; i < candles.length; i++) {
    const c = candles[i]!;
    const f = c.fold;
    text +=
      `${i === 0 ? '' : ','}[${c.openTime},"${price(inst, f.open)}","${price(inst, f.high)}","${price(inst, f.low)}","${price(inst, f.close)}",` +
      `"${qty(inst, f.volume)}",${c.closeTime},"${quoteVolume(inst, f.quote)}",${f.count},"${qty(inst, f.takerVolume)}","${quoteVolume(inst, f.takerQuote)}","0"]`;
  }
  return new RawJson(`${text}]`);
}

/** A window's figures: the fold, and its open and close times. */
export interface WindowStats {
  readonly fold: Readonly<BarFold>;
  readonly openTime: number;
  readonly closeTime: number;
}

function prices(inst: Instrument, f: Readonly<BarFold>) {
  const empty = f.empty;
  return {
    open: empty ? ZERO : price(inst, f.open),
    high: empty ? ZERO : price(inst, f.high),
    low: empty ? ZERO : price(inst, f.low),
    last: empty ? ZERO : price(inst, f.close),
  };
}

export function miniTicker(inst: Instrument, w: WindowStats) {
  const f = w.fold;
  const p = prices(inst, f);
  return {
    symbol: inst.symbol,
    openPrice: p.open,
    highPrice: p.high,
    lowPrice: p.low,
    lastPrice: p.last,
    volume: qty(inst, f.volume),
    quoteVolume: quoteVolume(inst, f.quote),
    openTime: w.openTime,
    closeTime: w.closeTime,
    firstId: f.firstId,
    lastId: f.lastId,
    count: f.count,
  };
}

/** ticker (rolling) and ticker/tradingDay FULL: the MINI fields with the change and average after `symbol` (the reference's order). */
export function windowTicker(inst: Instrument, w: WindowStats) {
  const f = w.fold;
  const { symbol, ...mini } = miniTicker(inst, w);
  return {
    symbol,
    priceChange: f.empty ? ZERO : price(inst, f.close - f.open),
    priceChangePercent: f.empty ? '0.000' : changePercent(f.open, f.close),
    weightedAvgPrice: weightedPrice(inst, f.quote, f.volume),
    ...mini,
  };
}

/** ticker/24hr FULL: the window ticker plus the previous close, last quantity and the touch. */
export function dayTicker(inst: Instrument, w: WindowStats, prevClose: number, lastQty: number, touch: Touch) {
  const f = w.fold;
  const p = prices(inst, f);
  return {
    symbol: inst.symbol,
    priceChange: f.empty ? ZERO : price(inst, f.close - f.open),
    priceChangePercent: f.empty ? '0.000' : changePercent(f.open, f.close),
    weightedAvgPrice: weightedPrice(inst, f.quote, f.volume),
    prevClosePrice: price(inst, prevClose),
    lastPrice: p.last,
    lastQty: qty(inst, lastQty),
    bidPrice: price(inst, touch.bidPrice),
    bidQty: qty(inst, touch.bidQty),
    askPrice: price(inst, touch.askPrice),
    askQty: qty(inst, touch.askQty),
    openPrice: p.open,
    highPrice: p.high,
    lowPrice: p.low,
    volume: qty(inst, f.volume),
    quoteVolume: quoteVolume(inst, f.quote),
    openTime: w.openTime,
    closeTime: w.closeTime,
    firstId: f.firstId,
    lastId: f.lastId,
    count: f.count,
  };
}
