// One symbol's one-minute bars (API.md section 9): for each minute with trades, its open, high,
// low, close, volumes and first/last trade ids, in one growable Float64Array (stride BAR). Every
// interval from 1m to 1M, the 24 h, rolling and trading-day tickers are folds over these bars
// (quiet minutes have no bar: a fold repeats the previous close). A live trade updates the last
// bar or starts one: a few array writes. Bars outlive the trades the tape lets go.

import { lowerBound } from '../lower-bound.ts';

export const BAR = 11;
export const T = 0;
export const O = 1;
export const H = 2;
export const L = 3;
export const C = 4;
/** Volume (lots), quote volume (ticks x lots), taker-buy volume and quote volume. */
export const V = 5;
export const Q = 6;
export const TV = 7;
export const TQ = 8;
export const FIRST = 9;
export const LAST = 10;

export class MinuteBars {
  data: Float64Array;
  count = 0;

  constructor(capacity = 64) {
    this.data = new Float64Array(capacity * BAR);
  }

  /** A copy whose later appends do not touch this one (a core's live bars start from history's). */
  static copyOf(source: MinuteBars, extra = 64): MinuteBars {
    const bars = new MinuteBars(source.count + extra);
    bars.data.set(source.data.subarray(0, source.count * BAR));
    bars.count = source.count;
    return bars;
  }

  get(i: number, field: number): number {
    return this.data[i * BAR + field]!;
  }

  /** Adds a bar-shaped record (a trade, or a whole bar) at minute start `minute`. */
  add(minute: number, open: number, high: number, low: number, close: number, v: number, q: number, tv: number, tq: number, first: number, last: number): void {
    const d = this.data;
    if (this.count > 0) {
      const at = (this.count - 1) * BAR;
      if (d[at + T] === minute) {
        if (high > d[at + H]!) d[at + H] = high;
        if (low < d[at + L]!) d[at + L] = low;
        d[at + C] = close;
        d[at + V] = d[at + V]! + v;
        d[at + Q] = d[at + Q]! + q;
        d[at + TV] = d[at + TV]! + tv;
        d[at + TQ] = d[at + TQ]! + tq;
        d[at + LAST] = last;
        return;
      }
    }
    if ((this.count + 1) * BAR > d.length) {
      const grown = new Float64Array(d.length * 2 + BAR * 64);
      grown.set(d);
      this.data = grown;
    }
    const at = this.count * BAR;
    const g = this.data;
    g[at + T] = minute;
    g[at + O] = open;
    g[at + H] = high;
    g[at + L] = low;
    g[at + C] = close;
    g[at + V] = v;
    g[at + Q] = q;
    g[at + TV] = tv;
    g[at + TQ] = tq;
    g[at + FIRST] = first;
    g[at + LAST] = last;
    this.count++;
  }

  /** One trade at minute start `minute` (the lazy fold's fast path: most trades join the last bar). */
  addTrade(minute: number, price: number, qty: number, takerBuys: boolean, id: number): void {
    const d = this.data;
    const at = (this.count - 1) * BAR;
    const quote = price * qty;
    if (this.count === 0 || d[at + T] !== minute) {
      this.add(minute, price, price, price, price, qty, quote, takerBuys ? qty : 0, takerBuys ? quote : 0, id, id);
      return;
    }
    if (price > d[at + H]!) d[at + H] = price;
    else if (price < d[at + L]!) d[at + L] = price;
    d[at + C] = price;
    d[at + V] = d[at + V]! + qty;
    d[at + Q] = d[at + Q]! + quote;
    if (takerBuys) {
      d[at + TV] = d[at + TV]! + qty;
      d[at + TQ] = d[at + TQ]! + quote;
    }
    d[at + LAST] = id;
  }

  /** First bar index whose minute is >= `time` (count when none). */
  lowerBound(time: number): number {
    return lowerBound(this.count, (i) => this.data[i * BAR + T]!, time);
  }
}

/** A fold of trades and bars into one candle or ticker window. */
export class BarFold {
  open = 0;
  high = 0;
  low = 0;
  close = 0;
  volume = 0;
  quote = 0;
  takerVolume = 0;
  takerQuote = 0;
  firstId = -1;
  lastId = -1;
  /** Time of the last record folded in (a trade's time, a bar's minute). */
  lastTime = 0;

  get empty(): boolean {
    return this.firstId < 0;
  }

  /** Trade count: ids are contiguous per symbol. */
  get count(): number {
    return this.firstId < 0 ? 0 : this.lastId - this.firstId + 1;
  }

  reset(): void {
    this.open = this.high = this.low = this.close = 0;
    this.volume = this.quote = this.takerVolume = this.takerQuote = 0;
    this.firstId = this.lastId = -1;
    this.lastTime = 0;
  }

  add(time: number, open: number, high: number, low: number, close: number, v: number, q: number, tv: number, tq: number, first: number, last: number): void {
    if (this.firstId < 0) {
      this.open = open;
      this.high = high;
      this.low = low;
      this.firstId = first;
    } else {
      if (high > this.high) this.high = high;
      if (low < this.low) this.low = low;
    }
    this.close = close;
    this.volume += v;
    this.quote += q;
    this.takerVolume += tv;
    this.takerQuote += tq;
    this.lastId = last;
    this.lastTime = time;
  }

  addBar(bars: MinuteBars, i: number): void {
    const d = bars.data;
    const at = i * BAR;
    this.add(d[at + T]!, d[at + O]!, d[at + H]!, d[at + L]!, d[at + C]!, d[at + V]!, d[at + Q]!, d[at + TV]!, d[at + TQ]!, d[at + FIRST]!, d[at + LAST]!);
  }
}
