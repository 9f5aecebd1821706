// History at start (API.md section 9, `[sim.history]`): with the generator on, `minutes` of
// synthetic trades before the start, from the seed (same seed, configuration and start time ->
// the same trades and candles); or a symbol's candles from a kline CSV in the reference's
// public-data format. Built once per simulator and shared by every core it makes (a reset keeps
// it): compact typed columns, bars built on first use. The synthetic trades are counted once
// per configuration (times relative to the start; their ids must be known at the start) and
// written out only when something reads them, from the random state the count started at: a
// process whose tests never ask for past market data never holds them.

import type { Config } from '../../config/types.ts';
import type { Instrument } from '../markets.ts';
import { MINUTE_MS } from './kline-time.ts';
import { BAR, MinuteBars, T } from './minute-bars.ts';
import type { SymbolHistory } from './market-data.ts';
import { Rng } from '../rng.ts';
import { barsOfTrades, TradeColumns, type TradeHistory } from './trade-tape.ts';
import { replayHistory } from './replay-history.ts';
import type { Recording } from '../recording.ts';
import { POW10 } from '../units.ts';

/**
 * Every symbol's history by instrument index, the close the latent mid starts at (ticks), and a
 * replayed symbol's recording (API.md section 12), all shared by every core of a simulator.
 */
export interface MarketHistory {
  readonly symbols: readonly SymbolHistory[];
  readonly lastClose: readonly (number | undefined)[];
  readonly recordings: readonly (Recording | undefined)[];
}

interface RelativeTrades {
  /** Times relative to the history's end, a minute boundary (negative ms). Built on first read. */
  readonly columns: TradeColumns;
  readonly count: number;
  readonly lastAggId: number;
  /** Their one-minute bars, relative like the trades: the same for every start. Built on first read. */
  readonly bars: MinuteBars;
}

const relativeCache = new Map<string, RelativeTrades[]>();
const MAX_CACHED = 8;

/** One symbol's candles from a kline CSV (read and checked by src/history-files.ts). */
export interface CsvCandles {
  readonly symbolIndex: number;
  readonly rows: readonly KlineRow[];
}

/** One candle in the symbol's units: open time in ms, prices in ticks, volumes in lots, quote volumes in tick x lot. */
export interface KlineRow {
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
  readonly quoteVolume: number;
  readonly trades: number;
  readonly takerBuyVolume: number;
  readonly takerBuyQuoteVolume: number;
}

/**
 * The history of a simulator starting at `start`: a replayed symbol's rows before `from`, CSV
 * candles for the symbols that have them, synthetic trades for the others when the generator is
 * on and `minutes` > 0.
 */
export function buildHistory(config: Config, instruments: readonly Instrument[], start: number, csv: readonly CsvCandles[], recordings: ReadonlyMap<string, Recording> = new Map()): MarketHistory {
  const minutes = config.sim.history.minutes;
  const synthetic = config.sim.generator.enabled && minutes > 0 ? relativeTrades(config, instruments) : null;
  const symbols: SymbolHistory[] = [];
  const lastClose: (number | undefined)[] = [];
  const replayed: (Recording | undefined)[] = [];
  for (const inst of instruments) {
    const candles = csv.find((c) => c.symbolIndex === inst.index);
    const replay = config.sim.replay.find((r) => r.symbol === inst.symbol);
    const recording = replay === undefined ? undefined : recordings.get(inst.symbol);
    replayed.push(recording);
    if (replay !== undefined && recording !== undefined) {
      symbols.push(replayHistory(recording, replay.from, start));
      lastClose.push(undefined);
    } else if (candles !== undefined) {
      const bars = csvBars(candles.rows);
      symbols.push(bars.history);
      lastClose.push(bars.lastClose);
    } else if (synthetic !== null) {
      // History ends at the minute the simulator starts in: its bars are then the cached
      // relative ones moved by a whole number of minutes, whatever the start time.
      symbols.push(anchored(synthetic[inst.index]!, start - (((start % MINUTE_MS) + MINUTE_MS) % MINUTE_MS)));
      lastClose.push(undefined);
    } else {
      symbols.push(NO_SYMBOL_HISTORY);
      lastClose.push(undefined);
    }
  }
  return { symbols, lastClose, recordings: replayed };
}

const NO_SYMBOL_HISTORY: SymbolHistory = { trades: { columns: new TradeColumns(0), count: 0, idsBefore: 0, lastAggId: 0 }, bars: () => new MinuteBars(0) };

/** The cached relative history placed before `origin` (a minute boundary); columns copied lazily. */
function anchored(rel: RelativeTrades, origin: number): SymbolHistory {
  // The time column is shifted on first read: a start that nobody asks for history costs nothing.
  let columns: TradeColumns | null = null;
  const trades: TradeHistory = {
    count: rel.count,
    idsBefore: 0,
    lastAggId: rel.lastAggId,
    get columns() {
      if (columns === null) {
        columns = Object.assign(Object.create(TradeColumns.prototype) as TradeColumns, rel.columns);
        columns.time = new Float64Array(rel.count);
        for (let i = 0; i < rel.count; i++) columns.time[i] = rel.columns.time[i]! + origin;
      }
      return columns;
    },
  };
  let bars: MinuteBars | null = null;
  return {
    trades,
    bars: () => {
      if (bars === null) {
        bars = MinuteBars.copyOf(rel.bars, 0);
        for (let i = 0; i < bars.count; i++) bars.data[i * BAR + T] = bars.data[i * BAR + T]! + origin;
      }
      return bars;
    },
  };
}

/** The generated trades per instrument (cached by everything they depend on). */
function relativeTrades(config: Config, instruments: readonly Instrument[]): RelativeTrades[] {
  const g = config.sim.generator;
  const key = JSON.stringify([config.sim.seed, config.sim.history.minutes, config.sim.driver_tick_ms, g, instruments.map((i) => [i.config, i.startMid])]);
  const cached = relativeCache.get(key);
  if (cached !== undefined) return cached;
  const rng = new Rng((config.sim.seed ^ 0x68697374) >>> 0);
  const out = instruments.map((inst) => generate(config, inst, rng));
  if (relativeCache.size >= MAX_CACHED) relativeCache.delete(relativeCache.keys().next().value!);
  relativeCache.set(key, out);
  return out;
}

/**
 * A symbol's synthetic past: the generator's takers (Poisson at `market_rate_per_s`, at least
 * one a minute) hit its touch `touch_offset_ticks` from a latent mid that walks like the live
 * one (variance of `mid_step_max_ticks` per `driver_tick_ms`), shifted to end at the start mid.
 * Counted now (advancing `rng` past this symbol's draws); its columns and bars are made from a
 * copy of the starting random state when first read.
 */
function generate(config: Config, inst: Instrument, rng: Rng): RelativeTrades {
  const from = rng.clone();
  const { count, aggs } = walk(config, inst, rng, null);
  let columns: TradeColumns | null = null;
  let bars: MinuteBars | null = null;
  const written = () => (columns ??= write(config, inst, from.clone(), count));
  return {
    count,
    lastAggId: aggs,
    get columns() {
      return written();
    },
    get bars() {
      return (bars ??= barsOfTrades({ columns: written(), count, idsBefore: 0, lastAggId: aggs }));
    },
  };
}

/** The trades' columns (exactly `count` of them) and their latent mids, in one walk of the draws. */
interface Sink {
  readonly cols: TradeColumns;
  readonly mids: Float64Array;
}

/** The draws of one symbol's history, in order; into `sink` when given, else only counted. */
function walk(config: Config, inst: Instrument, rng: Rng, sink: Sink | null): { count: number; aggs: number; mid: number } {
  const g = config.sim.generator;
  const span = config.sim.history.minutes * MINUTE_MS;
  const rate = Math.max(g.market_rate_per_s, 1 / 60);
  const meanGapMs = 1000 / rate;
  const k = g.mid_step_max_ticks;
  const sigmaPerMs = Math.sqrt((k * (k + 1)) / 3 / config.sim.driver_tick_ms);
  let n = 0;
  let aggs = 0;
  let mid = 0;
  const minNotional = Number(g.market_notional_min);
  const maxNotional = Number(g.market_notional_max);
  for (let t = -span + rng.exponential(meanGapMs); t < 0; t += Math.max(1, rng.exponential(meanGapMs))) {
    const time = Math.floor(t);
    mid += Math.round(sigmaPerMs * Math.sqrt(meanGapMs) * normal(rng));
    const buy = rng.float() < 0.5;
    const fills = 1 + rng.poisson(0.5);
    const notional = minNotional + (maxNotional - minNotional) * rng.float();
    aggs++;
    if (sink === null) {
      n += fills;
      continue;
    }
    const { cols, mids } = sink;
    for (let f = 0; f < fills; f++) {
      cols.time[n] = time;
      cols.price[n] = buy ? 1 : -1; // side for now; the price once the walk's end is known
      cols.qty[n] = notional / fills;
      cols.aggGap[n] = n + 1 - aggs;
      cols.buyerIsMaker[n] = buy ? 0 : 1;
      mids[n] = mid;
      n++;
    }
  }
  return { count: n, aggs, mid };
}

/** The `count` trades the walk from `rng` makes, priced around a mid that ends at the start mid. */
function write(config: Config, inst: Instrument, rng: Rng, count: number): TradeColumns {
  const sink = { cols: new TradeColumns(count), mids: new Float64Array(count) };
  const { mid } = walk(config, inst, rng, sink);
  const { cols, mids } = sink;
  const shift = inst.startMid - mid;
  const offset = config.sim.generator.touch_offset_ticks;
  const lotsPerQuotePerTick = POW10[inst.tickDecimals + inst.lotDecimals]!;
  for (let i = 0; i < count; i++) {
    const m = Math.max(offset + 1, mids[i]! + shift);
    const price = cols.price[i]! > 0 ? m + offset : m - offset;
    cols.price[i] = price;
    const lots = Math.floor((cols.qty[i]! * lotsPerQuotePerTick) / price);
    cols.qty[i] = Math.min(inst.maxQty, Math.max(inst.minQty, lots));
  }
  return cols;
}

/** A standard normal draw (Box-Muller). */
function normal(rng: Rng): number {
  const u = 1 - rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

function csvBars(rows: readonly KlineRow[]): { history: SymbolHistory; lastClose: number | undefined } {
  const bars = new MinuteBars(rows.length);
  let id = 0;
  for (const r of rows) {
    const first = r.trades > 0 ? id + 1 : -1;
    id += r.trades;
    const last = r.trades > 0 ? id : -1;
    const minute = r.openTime - (r.openTime % MINUTE_MS);
    bars.add(minute, r.open, r.high, r.low, r.close, r.volume, r.quoteVolume, r.takerBuyVolume, r.takerBuyQuoteVolume, first, last);
  }
  const trades: TradeHistory = { columns: new TradeColumns(0), count: 0, idsBefore: id, lastAggId: id };
  const lastClose = rows.length === 0 ? undefined : rows[rows.length - 1]!.close;
  return { history: { trades, bars: () => bars }, lastClose };
}
