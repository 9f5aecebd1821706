// The public market-data model (API.md section 9): every public trade of every symbol (the
// account's, the generator's, the scripted market's: all pass the matcher) goes to its
// symbol's tape and minute bars; klines, aggregate trades and tickers are read from them on
// request. Pure and deterministic like the rest of the core; a trade costs a few array writes.
// History (market-history.ts) comes first, shared and never copied except its small bar array.

import type { KlineInterval } from './kline-time.ts';
import { MINUTE_MS, nextOpenTime, openTimeOf, previousOpenTime } from './kline-time.ts';
import { BarFold, C, LAST, MinuteBars, T } from './minute-bars.ts';
import { EMPTY_TRADE_HISTORY, TradeTape, type TradeHistory } from './trade-tape.ts';

/** One symbol's history: its trades (maybe none: CSV candles) and lazily built minute bars. */
export interface SymbolHistory {
  readonly trades: TradeHistory;
  /** Bars of the history (built on first use, then shared). */
  bars(): MinuteBars;
}

export const NO_HISTORY: SymbolHistory = { trades: EMPTY_TRADE_HISTORY, bars: () => EMPTY_BARS };
const EMPTY_BARS = new MinuteBars(0);

export interface Candle {
  readonly openTime: number;
  readonly closeTime: number;
  readonly fold: Readonly<BarFold>;
}

export interface KlineQuery {
  readonly interval: KlineInterval;
  /** Time zone offset, ms east of UTC. */
  readonly tz: number;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
  readonly now: number;
}

export interface AggTrade {
  readonly aggId: number;
  readonly price: number;
  readonly qty: number;
  readonly firstId: number;
  readonly lastId: number;
  readonly time: number;
  readonly buyerIsMaker: boolean;
}

export interface TradeRow {
  readonly id: number;
  readonly price: number;
  readonly qty: number;
  readonly time: number;
  readonly buyerIsMaker: boolean;
}

export interface TradeRange {
  readonly fromId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit: number;
}

export class SymbolMarketData {
  readonly tape: TradeTape;
  private ownBars: MinuteBars | null = null;
  /** Live trades (by the tape's `appended` count) already folded into the minute bars. */
  private folded = 0;

  constructor(
    private readonly history: SymbolHistory,
    cap: number,
  ) {
    this.tape = new TradeTape(history.trades, cap, (upTo) => this.foldPending(upTo));
  }

  /**
   * The minute bars, up to date: history's (copied on first use, so reset stays cheap) plus
   * every live trade. Live trades are folded when asked for here, or just before the tape lets
   * them go (bars outlive the trades): the order path only appends.
   */
  get bars(): MinuteBars {
    this.foldPending();
    return this.ownedBars();
  }

  /** History's bars, copied on first use: a reset that nobody asks for candles costs nothing. */
  private ownedBars(): MinuteBars {
    return (this.ownBars ??= MinuteBars.copyOf(this.history.bars()));
  }

  /** One public trade; `newAggregate`: the first fill of a taker order at this price. */
  record(price: number, qty: number, at: number, buyerIsMaker: boolean, newAggregate: boolean): void {
    this.tape.append(at, price, qty, buyerIsMaker, newAggregate);
  }

  /** Folds the live trades numbered `folded` to `upTo` - 1 into the bars, oldest first. */
  private foldPending(upTo = this.tape.appended): void {
    if (upTo <= this.folded) return;
    this.tape.foldLiveSince(this.folded, upTo, this.ownedBars());
    this.folded = upTo;
  }

  /**
   * The last trade's price (ticks): the tape's, else history's last bar's close; 0: none ever.
   * Reads history's bars without copying them (see `ownedBars`).
   */
  get lastPrice(): number {
    const t = this.tape;
    if (t.size > 0) return t.price(t.size - 1);
    const bars = this.ownBars ?? this.history.bars();
    return bars.count === 0 ? 0 : bars.get(bars.count - 1, C);
  }

  /** Latest trade id (history's when no live trade yet); 0: none ever. */
  get lastTradeId(): number {
    return this.tape.lastId;
  }

  /** Time of the first trade this symbol ever had (kept bars or trades); undefined: none. */
  private firstTime(): number | undefined {
    const bars = this.bars;
    if (bars.count > 0) return bars.get(0, T);
    return this.tape.size > 0 ? this.tape.time(0) : undefined;
  }

  /** The last trade kept: price, qty, time; undefined when none. */
  lastTrade(): TradeRow | undefined {
    const n = this.tape.size;
    if (n > 0) return this.tradeAt(n - 1);
    const bars = this.bars;
    if (bars.count === 0) return undefined;
    const i = bars.count - 1;
    return { id: bars.get(i, LAST), price: bars.get(i, C), qty: 0, time: bars.get(i, T), buyerIsMaker: false };
  }

  tradeAt(i: number): TradeRow {
    const t = this.tape;
    return { id: t.id(i), price: t.price(i), qty: t.qty(i), time: t.time(i), buyerIsMaker: t.buyerIsMaker(i) };
  }

  /** `trades`/`historicalTrades`: from `fromId`, else the most recent `limit`; oldest first. */
  trades(fromId: number | undefined, limit: number): TradeRow[] {
    const t = this.tape;
    let start: number;
    if (fromId === undefined) start = Math.max(0, t.size - limit);
    else start = fromId < t.firstId ? 0 : fromId - t.firstId;
    const out: TradeRow[] = [];
    for (let i = start; i < t.size && out.length < limit; i++) out.push(this.tradeAt(i));
    return out;
  }

  /** `aggTrades` (API.md 9 decisions): oldest first; see TradeRange. */
  aggTrades(q: TradeRange): AggTrade[] {
    const t = this.tape;
    const n = t.size;
    if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime) return [];
    let i: number;
    if (q.fromId !== undefined) i = t.lowerBoundAggId(q.fromId);
    else if (q.startTime !== undefined) i = t.lowerBoundTime(q.startTime);
    else if (q.endTime !== undefined) i = this.aggStartBack(t.lowerBoundTime(q.endTime + 1), q.limit);
    else i = this.aggStartBack(n, q.limit);
    // An aggregate whose first trades left the tape starts at the first whole one.
    if (i > 0 && i < n && t.aggId(i) === t.aggId(i - 1)) {
      const a = t.aggId(i);
      while (i < n && t.aggId(i) === a) i++;
    }
    const out: AggTrade[] = [];
    while (i < n && out.length < q.limit) {
      const time = t.time(i);
      if (q.endTime !== undefined && time > q.endTime) break;
      const aggId = t.aggId(i);
      const first = i;
      let qty = 0;
      while (i < n && t.aggId(i) === aggId) qty += t.qty(i++);
      out.push({ aggId, price: t.price(first), qty, firstId: t.id(first), lastId: t.id(i - 1), time, buyerIsMaker: t.buyerIsMaker(first) });
    }
    return out;
  }

  /** Index of the first trade of the `limit` aggregates ending before index `end`. */
  private aggStartBack(end: number, limit: number): number {
    const t = this.tape;
    let i = end;
    let aggs = 0;
    while (i > 0) {
      const a = t.aggId(i - 1);
      if (aggs === limit) break;
      aggs++;
      while (i > 0 && t.aggId(i - 1) === a) i--;
    }
    return i;
  }

  /**
   * Klines (API.md 9 decisions): candles from the interval of the first trade to the current
   * one; without times the most recent `limit`; with `startTime` the first `limit` opening at
   * or after it; with `endTime` only the last `limit` opening at or before it. Oldest first.
   */
  klines(q: KlineQuery): Candle[] {
    const first = this.firstTime();
    if (first === undefined) return [];
    const { interval: iv, tz } = q;
    if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime) return [];
    const firstOpen = openTimeOf(iv, tz, first);
    let lastOpen = openTimeOf(iv, tz, q.now);
    if (q.endTime !== undefined) lastOpen = Math.min(lastOpen, openTimeOf(iv, tz, q.endTime));
    let open: number;
    if (q.startTime !== undefined) {
      open = openTimeOf(iv, tz, q.startTime);
      if (open < q.startTime) open = nextOpenTime(iv, tz, open);
      if (open < firstOpen) open = firstOpen;
    } else {
      open = lastOpen;
      for (let k = 1; k < q.limit && open > firstOpen; k++) open = previousOpenTime(iv, tz, open);
      if (open < firstOpen) open = firstOpen;
    }
    const opens: number[] = [];
    for (let o = open; o <= lastOpen && opens.length < q.limit; o = nextOpenTime(iv, tz, o)) opens.push(o);
    if (opens.length === 0) return [];
    return iv.name === '1s' ? this.foldTrades(opens, iv, tz) : this.foldBars(opens, iv, tz);
  }

  private foldBars(opens: readonly number[], iv: KlineInterval, tz: number): Candle[] {
    const bars = this.bars;
    let i = bars.lowerBound(opens[0]!);
    let prevClose = i > 0 ? bars.get(i - 1, C) : 0;
    const out: Candle[] = [];
    for (const open of opens) {
      const next = nextOpenTime(iv, tz, open);
      const fold = new BarFold();
      while (i < bars.count && bars.get(i, T) < next) fold.addBar(bars, i++);
      if (fold.empty) quiet(fold, prevClose);
      else prevClose = fold.close;
      out.push({ openTime: open, closeTime: next - 1, fold });
    }
    return out;
  }

  private foldTrades(opens: readonly number[], iv: KlineInterval, tz: number): Candle[] {
    const t = this.tape;
    let i = t.lowerBoundTime(opens[0]!);
    let prevClose = i > 0 ? t.price(i - 1) : this.closeBefore(opens[0]!);
    const out: Candle[] = [];
    for (const open of opens) {
      const next = nextOpenTime(iv, tz, open);
      const fold = new BarFold();
      for (; i < t.size && t.time(i) < next; i++) addTrade(fold, t, i);
      if (fold.empty) quiet(fold, prevClose);
      else prevClose = fold.close;
      out.push({ openTime: open, closeTime: next - 1, fold });
    }
    return out;
  }

  /** Close of the last bar before `time` (0: none). */
  private closeBefore(time: number): number {
    const i = this.bars.lowerBound(time - MINUTE_MS + 1);
    return i > 0 ? this.bars.get(i - 1, C) : 0;
  }

  /**
   * Statistics of the trades in [from, to]: `from` exact (the 24 h ticker). Trades of `from`'s
   * minute come from the tape, whole minutes after it from the bars. Also the last price
   * before the window (`prevClose`).
   */
  window(from: number): { fold: BarFold; prevClose: number; lastQty: number } {
    const fold = new BarFold();
    const t = this.tape;
    const minuteEnd = from - (((from % MINUTE_MS) + MINUTE_MS) % MINUTE_MS) + MINUTE_MS;
    let i = t.lowerBoundTime(from);
    const prevClose = i > 0 ? t.price(i - 1) : this.closeBefore(from);
    if (from % MINUTE_MS === 0) return { fold: this.barsFrom(from, fold), prevClose, lastQty: this.lastQty(fold) };
    for (; i < t.size && t.time(i) < minuteEnd; i++) addTrade(fold, t, i);
    this.barsFrom(minuteEnd, fold);
    return { fold, prevClose, lastQty: this.lastQty(fold) };
  }

  /** Folds every bar from minute `from` on into `fold` (rolling and trading-day tickers). */
  barsFrom(from: number, fold = new BarFold()): BarFold {
    const bars = this.bars;
    for (let i = bars.lowerBound(from); i < bars.count; i++) fold.addBar(bars, i);
    return fold;
  }

  private lastQty(fold: BarFold): number {
    if (fold.empty) return 0;
    const i = this.tape.indexOfId(fold.lastId);
    return i < 0 ? 0 : this.tape.qty(i);
  }

  /** The 5-minute volume-weighted price (ticks, fractional) and the last trade's time. */
  avgPrice(now: number): { price: number; quote: number; volume: number; closeTime: number } {
    const t = this.tape;
    let quote = 0;
    let volume = 0;
    for (let i = t.lowerBoundTime(now - 5 * MINUTE_MS); i < t.size; i++) {
      const q = t.qty(i);
      quote += t.price(i) * q;
      volume += q;
    }
    const last = this.lastTrade();
    if (last === undefined) return { price: 0, quote: 0, volume: 0, closeTime: 0 };
    if (volume === 0) return { price: last.price, quote: 0, volume: 0, closeTime: last.time };
    return { price: quote / volume, quote, volume, closeTime: last.time };
  }
}

function quiet(fold: BarFold, close: number): void {
  fold.open = fold.high = fold.low = fold.close = close;
}

function addTrade(fold: BarFold, t: TradeTape, i: number): void {
  const price = t.price(i);
  const qty = t.qty(i);
  const quote = price * qty;
  const takerBuys = !t.buyerIsMaker(i);
  const id = t.id(i);
  fold.add(t.time(i), price, price, price, price, qty, quote, takerBuys ? qty : 0, takerBuys ? quote : 0, id, id);
}

/** Every symbol's model, by instrument index. */
export class MarketData {
  readonly symbols: SymbolMarketData[];

  constructor(histories: readonly SymbolHistory[], cap: number) {
    this.symbols = histories.map((h) => new SymbolMarketData(h, cap));
  }

  of(symbolIndex: number): SymbolMarketData {
    return this.symbols[symbolIndex]!;
  }
}
