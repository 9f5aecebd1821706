// The market-data streams beyond depth, bookTicker and trade (API.md section 9; reference
// web-socket-streams.md): their names, and their pushes on the simulator's clock at the
// documented speeds: klines every 2000 ms (1s klines every 1000 ms) plus one `x: true` push
// when a candle closes, tickers and avgPrice every 1000 ms, partial depth every 1000 or 100 ms,
// aggregate trades as they happen. `publish(now)` is called from the time driver after each
// depth flush; it does nothing unless one of these streams has a subscriber and a period is due.

import {
  aggTradeEvent,
  avgPriceEvent,
  klineEvent,
  miniTickerEvent,
  partialDepthEvent,
  tickerEvent,
  windowTickerEvent,
} from '../api/market-stream-wire.ts';
import type { Exchange } from '../core/exchange.ts';
import { DAY_MS, HOUR_MS, KLINE_INTERVALS, openTimeOf, parseTimeZone, type KlineInterval } from '../core/market/index.ts';
import type { Instrument } from '../core/markets.ts';
import { bookTicker, depthSnapshot } from '../core/queries.ts';
import type { CoreEvent, PublicTrade, Touch } from '../core/types.ts';

/** The shortest push period (partial depth @100ms): the grid the pushes run on. */
export const MARKET_DATA_PUSH_MS = 100;

const WINDOWS = { '1h': HOUR_MS, '4h': 4 * HOUR_MS, '1d': DAY_MS } as const;
type WindowName = keyof typeof WINDOWS;

/** What one stream name publishes. */
export type StreamSpec =
  | { readonly kind: 'aggTrade'; readonly symbol: string }
  | { readonly kind: 'kline'; readonly symbol: string; readonly interval: KlineInterval; readonly tz: number }
  | { readonly kind: 'miniTicker' | 'ticker' | 'avgPrice'; readonly symbol: string }
  | { readonly kind: 'windowTicker'; readonly symbol: string; readonly window: WindowName }
  | { readonly kind: 'partialDepth'; readonly symbol: string; readonly levels: number; readonly periodMs: number }
  | { readonly kind: 'allMini' }
  | { readonly kind: 'allWindow'; readonly window: WindowName };

/** Every stream name of these kinds for the symbols (lowercase names, as the reference). */
export function marketDataStreams(symbols: readonly string[]): Map<string, StreamSpec> {
  const specs = new Map<string, StreamSpec>();
  const utc8 = parseTimeZone('+08:00')!;
  for (const symbol of symbols) {
    const s = symbol.toLowerCase();
    specs.set(`${s}@aggTrade`, { kind: 'aggTrade', symbol });
    for (const interval of KLINE_INTERVALS.values()) {
      specs.set(`${s}@kline_${interval.name}`, { kind: 'kline', symbol, interval, tz: 0 });
      specs.set(`${s}@kline_${interval.name}@+08:00`, { kind: 'kline', symbol, interval, tz: utc8 });
    }
    specs.set(`${s}@miniTicker`, { kind: 'miniTicker', symbol });
    specs.set(`${s}@ticker`, { kind: 'ticker', symbol });
    specs.set(`${s}@avgPrice`, { kind: 'avgPrice', symbol });
    for (const window of Object.keys(WINDOWS) as WindowName[]) specs.set(`${s}@ticker_${window}`, { kind: 'windowTicker', symbol, window });
    for (const levels of [5, 10, 20]) {
      specs.set(`${s}@depth${levels}`, { kind: 'partialDepth', symbol, levels, periodMs: 1000 });
      specs.set(`${s}@depth${levels}@100ms`, { kind: 'partialDepth', symbol, levels, periodMs: 100 });
    }
  }
  specs.set('!miniTicker@arr', { kind: 'allMini' });
  for (const window of Object.keys(WINDOWS) as WindowName[]) specs.set(`!ticker_${window}@arr`, { kind: 'allWindow', window });
  return specs;
}

/** What the pushes need of the stream fan-out (market-streams.ts). */
export interface StreamFanOut {
  /** Subscribed names with at least one subscriber. */
  activeNames(): Iterable<string>;
  hasSubscribers(name: string): boolean;
  /** `subscribedBefore`: only to connections that subscribed to `name` before that simulated time. */
  send(name: string, payload: string, subscribedBefore?: number): void;
}

export class MarketDataPushes {
  /** Period numbers (now / period) of the last publication. */
  private lastTenth = -1;
  private lastSecond = -1;
  private lastTwoSeconds = -1;
  /** Per kline stream: the open time of the candle last pushed. */
  private readonly klineOpen = new Map<string, number>();
  /** Per array stream: each symbol's last trade id at its last push (only changed ones go out). */
  private readonly arraySeen = new Map<string, number[]>();

  constructor(
    private readonly specs: ReadonlyMap<string, StreamSpec>,
    private readonly streams: StreamFanOut,
    private readonly exchange: () => Exchange,
  ) {}

  /** Whether a stream pushed on a period (all but aggTrade, which goes out with its trades) has a subscriber. */
  hasTimedSubscribers(): boolean {
    for (const name of this.streams.activeNames()) {
      const spec = this.specs.get(name);
      if (spec !== undefined && spec.kind !== 'aggTrade') return true;
    }
    return false;
  }

  /** Pushes whatever is due at `now` (the simulator's clock). */
  publish(now: number): void {
    const tenth = Math.floor(now / 100);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    const second = Math.floor(now / 1000);
    const secondDue = second !== this.lastSecond;
    this.lastSecond = second;
    const two = Math.floor(now / 2000);
    const twoDue = two !== this.lastTwoSeconds;
    this.lastTwoSeconds = two;
    for (const name of this.streams.activeNames()) {
      const spec = this.specs.get(name);
      if (spec === undefined) continue;
      const payload = this.payload(name, spec, now, secondDue, twoDue);
      if (payload !== null) this.streams.send(name, payload);
    }
    for (const name of this.klineOpen.keys()) if (!this.streams.hasSubscribers(name)) this.klineOpen.delete(name);
    for (const name of this.arraySeen.keys()) if (!this.streams.hasSubscribers(name)) this.arraySeen.delete(name);
  }

  private payload(name: string, spec: StreamSpec, now: number, secondDue: boolean, twoDue: boolean): string | null {
    const core = this.exchange();
    switch (spec.kind) {
      case 'aggTrade':
        return null;
      case 'kline':
        return this.kline(name, spec, core, now, spec.interval.name === '1s' ? secondDue : twoDue);
      case 'partialDepth': {
        if (spec.periodMs === 1000 && !secondDue) return null;
        const snap = depthSnapshot(core.state, spec.symbol, spec.levels, 'live');
        return 'lastUpdateId' in snap ? partialDepthEvent(core.instrument(spec.symbol)!, snap) : null;
      }
      case 'allMini':
      case 'allWindow':
        return secondDue ? this.array(name, spec, core, now) : null;
      default: {
        if (!secondDue) return null;
        const inst = core.instrument(spec.symbol)!;
        return JSON.stringify(this.ticker(spec, inst, core, now));
      }
    }
  }

  private ticker(spec: StreamSpec, inst: Instrument, core: Exchange, now: number): object {
    const md = core.marketData.of(inst.index);
    if (spec.kind === 'miniTicker') return miniTickerEvent(inst, md, now);
    if (spec.kind === 'windowTicker') return windowTickerEvent(inst, md, spec.window, WINDOWS[spec.window], now);
    if (spec.kind === 'avgPrice') return avgPriceEvent(inst, md, now);
    return tickerEvent(inst, md, bookTicker(core.state, inst.symbol) as Touch, now);
  }

  /** The open candle on its period; first, when a candle closed since the last push, its final `x: true` form. */
  private kline(name: string, spec: Extract<StreamSpec, { kind: 'kline' }>, core: Exchange, now: number, due: boolean): string | null {
    const inst = core.instrument(spec.symbol)!;
    const md = core.marketData.of(inst.index);
    const open = openTimeOf(spec.interval, spec.tz, now);
    const last = this.klineOpen.get(name);
    if (last !== undefined && last !== open) {
      // Only to those subscribed while it was open: on the reference the final form goes out at
      // the close, so a client that subscribes later (after reading klines that already hold the
      // next candle) never gets a candle older than its last one.
      const closed = klineEvent(inst, md, spec.interval, spec.tz, last, now, true);
      if (closed !== null) this.streams.send(name, closed, open);
      this.klineOpen.set(name, open);
    }
    if (!due) return null;
    this.klineOpen.set(name, open);
    return klineEvent(inst, md, spec.interval, spec.tz, open, now, false);
  }

  private array(name: string, spec: Extract<StreamSpec, { kind: 'allMini' | 'allWindow' }>, core: Exchange, now: number): string | null {
    const seen = this.arraySeen.get(name) ?? [];
    const items: object[] = [];
    for (const inst of core.instruments) {
      const md = core.marketData.of(inst.index);
      if (seen[inst.index] === md.lastTradeId) continue;
      seen[inst.index] = md.lastTradeId;
      items.push(spec.kind === 'allMini' ? miniTickerEvent(inst, md, now) : windowTickerEvent(inst, md, spec.window, WINDOWS[spec.window], now));
    }
    this.arraySeen.set(name, seen);
    return items.length === 0 ? null : JSON.stringify(items);
  }

  /** `<sym>@aggTrade`: the trades of one command, grouped by aggregate, as they happen. */
  publishAggTrades(events: readonly CoreEvent[]): void {
    // The account's reports sit between a taker's fills: group the trades alone.
    const trades: PublicTrade[] = [];
    for (const e of events) if (e.type === 'trade' && this.streams.hasSubscribers(`${e.symbol.toLowerCase()}@aggTrade`)) trades.push(e);
    if (trades.length === 0) return;
    const core = this.exchange();
    for (let i = 0; i < trades.length; ) {
      const e = trades[i++]!;
      const inst = core.instrument(e.symbol)!;
      const tape = core.marketData.of(inst.index).tape;
      const at = tape.indexOfId(e.tradeId);
      if (at < 0) continue;
      const aggId = tape.aggId(at);
      let qty = e.qty;
      let lastId = e.tradeId;
      for (let next = trades[i]; next !== undefined && next.symbol === e.symbol; next = trades[i]) {
        const j = tape.indexOfId(next.tradeId);
        if (j < 0 || tape.aggId(j) !== aggId) break;
        qty += next.qty;
        lastId = next.tradeId;
        i++;
      }
      const agg = { aggId, price: e.price, qty, firstId: e.tradeId, lastId, time: e.time, buyerIsMaker: e.buyerIsMaker };
      this.streams.send(`${e.symbol.toLowerCase()}@aggTrade`, aggTradeEvent(inst, agg));
    }
  }
}
