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

/**
 * Which periods came round at an instant, and which of their pushes go out: `tenth`, `second`
 * and `two` (100 ms, 1 s, 2 s) unless the same period comes round again before the horizon;
 * `secondPassed` and `twoPassed` whether or not.
 */
interface Due {
  readonly tenth: boolean;
  readonly second: boolean;
  readonly two: boolean;
  readonly secondPassed: boolean;
  readonly twoPassed: boolean;
}

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

  /**
   * A new world (sim.reset()): what was pushed before is forgotten. A manual clock goes back to
   * its start, and the instants remembered from the world before (its last 100 ms period, its
   * candles) would skip the new world's first pushes.
   */
  forget(): void {
    this.lastTenth = this.lastSecond = this.lastTwoSeconds = -1;
    this.klineOpen.clear();
    this.arraySeen.clear();
  }

  /** Whether a stream pushed on a period (all but aggTrade, which goes out with its trades) has a subscriber. */
  hasTimedSubscribers(): boolean {
    for (const name of this.streams.activeNames()) {
      const spec = this.specs.get(name);
      if (spec !== undefined && spec.kind !== 'aggTrade') return true;
    }
    return false;
  }

  /**
   * Pushes whatever is due at `now` (the simulator's clock). `horizon`: the instant the clock
   * reaches before a client can observe anything (the end of a manual-clock jump; -Infinity on
   * the wall clock). A push of state whose stream pushes again at or before it is left out:
   * a client would only ever see the later one (docs/time.md, "Streams during a jump"). Events
   * (a candle's final `x: true` form) always go out.
   */
  publish(now: number, horizon = -Infinity): void {
    const tenth = Math.floor(now / 100);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    const second = Math.floor(now / 1000);
    const secondDue = second !== this.lastSecond;
    this.lastSecond = second;
    const two = Math.floor(now / 2000);
    const twoDue = two !== this.lastTwoSeconds;
    this.lastTwoSeconds = two;
    const due: Due = {
      tenth: (tenth + 1) * 100 > horizon,
      second: secondDue && (second + 1) * 1000 > horizon,
      two: twoDue && (two + 1) * 2000 > horizon,
      secondPassed: secondDue,
      twoPassed: twoDue,
    };
    for (const name of this.streams.activeNames()) {
      const spec = this.specs.get(name);
      if (spec === undefined) continue;
      const payload = this.payload(name, spec, now, due);
      if (payload !== null) this.streams.send(name, payload);
    }
    for (const name of this.klineOpen.keys()) if (!this.streams.hasSubscribers(name)) this.klineOpen.delete(name);
    for (const name of this.arraySeen.keys()) if (!this.streams.hasSubscribers(name)) this.arraySeen.delete(name);
  }

  private payload(name: string, spec: StreamSpec, now: number, due: Due): string | null {
    const core = this.exchange();
    switch (spec.kind) {
      case 'aggTrade':
        return null;
      case 'kline': {
        const oneSecond = spec.interval.name === '1s';
        return this.kline(name, spec, core, now, oneSecond ? due.secondPassed : due.twoPassed, oneSecond ? due.second : due.two);
      }
      case 'partialDepth': {
        if (!(spec.periodMs === 1000 ? due.second : due.tenth)) return null;
        const snap = depthSnapshot(core.state, spec.symbol, spec.levels, 'live');
        return 'lastUpdateId' in snap ? partialDepthEvent(core.instrument(spec.symbol)!, snap) : null;
      }
      case 'allMini':
      case 'allWindow':
        // Left out, an array's symbols stay changed and join the next one that goes out.
        return due.second ? this.array(name, spec, core, now) : null;
      default: {
        if (!due.second) return null;
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

  /**
   * The open candle on its period (`passed`; sent when `due`, that is unless a later push replaces
   * it before anyone can see it); first, when a candle closed since the last push, its final
   * `x: true` form, which always goes out.
   */
  private kline(name: string, spec: Extract<StreamSpec, { kind: 'kline' }>, core: Exchange, now: number, passed: boolean, due: boolean): string | null {
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
    if (!passed) return null;
    this.klineOpen.set(name, open);
    return due ? klineEvent(inst, md, spec.interval, spec.tz, open, now, false) : null;
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
