// A synthetic but BTCUSDT-like tape in the reference's spot public-data formats, deterministic
// from a seed: the replay samples under fixtures/replay/ and the load benchmark's full day are
// made from it (the package ships no market data). Prices on the 0.01 tick, quantities on the
// 0.00001 lot (the default BTCUSDT instrument), written with 8 decimals as the public files are.
// Takers arrive at random (exponential gaps) and sometimes sweep several levels at one instant;
// the price walks in ticks with fat tails; sizes are log-normal; the taker side comes in runs.
// A trades file is the same tape split into the trades of each aggregate, so the two kinds of
// one seed describe the same market.

export interface TapeOptions {
  readonly seed: number;
  /** Time of the first aggregate, in µs. */
  readonly startUs: number;
  /** Aggregate trades to make. */
  readonly aggregates: number;
  /** Mean time between takers, in µs. */
  readonly meanGapUs: number;
  /** Times are multiples of this (1: µs files; 1000: ms files). */
  readonly resolutionUs: number;
  readonly startPriceTicks: number;
  /**
   * Standard deviation of the price change from one aggregate to the next, in ticks: about
   * 30000 / sqrt(aggregates an hour) gives BTCUSDT's usual hourly range of a few hundred dollars.
   */
  readonly volatilityTicks: number;
}

export interface Aggregate {
  readonly timeUs: number;
  readonly priceTicks: number;
  readonly qtyLots: number;
  readonly buyerIsMaker: boolean;
  /** Trades the aggregate is made of (a trades file has this many rows for it). */
  readonly trades: number;
}

/** mulberry32: a small deterministic generator (no Math.random: same seed, same bytes). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** The aggregates of a tape, in time order. */
export function* aggregates(options: TapeOptions): Generator<Aggregate> {
  const next = random(options.seed);
  const res = options.resolutionUs;
  let time = Math.floor(options.startUs / res) * res;
  let price = options.startPriceTicks;
  let buyerIsMaker = next() < 0.5;
  // Half the moves stay at the touch, a third bounce across the one-tick spread, the rest jump
  // by an exponential number of ticks of mean `jump` (variance 0.15 x 2 jump^2 = volatility^2).
  const jump = options.volatilityTicks / Math.sqrt(0.3);
  for (let i = 0; i < options.aggregates; i++) {
    const sweep = i > 0 && next() < 0.08;
    if (sweep) {
      // The same taker takes the next level: same instant, same side, one to a few ticks further.
      price += (buyerIsMaker ? -1 : 1) * (1 + Math.floor(next() * 3));
    } else {
      time += Math.max(res, Math.floor((-Math.log(1 - next()) * options.meanGapUs) / res) * res);
      if (next() < 0.25) buyerIsMaker = !buyerIsMaker;
      const u = next();
      const step = u < 0.5 ? 0 : u < 0.85 ? 1 + Math.floor(next() * 3) : Math.ceil(-Math.log(1 - next()) * jump);
      // A random walk, turned back inside 3% of the start.
      const sign = price > options.startPriceTicks * 1.03 ? -1 : price < options.startPriceTicks * 0.97 ? 1 : next() < 0.5 ? -1 : 1;
      price += sign * step;
    }
    price = Math.max(1, price);
    const qtyLots = Math.max(1, Math.min(500_000_000, Math.round(Math.exp(Math.log(500) + 1.6 * normal(next)))));
    const trades = Math.min(qtyLots, 1 + Math.floor(-Math.log(1 - next()) * 0.8));
    yield { timeUs: time, priceTicks: price, qtyLots, buyerIsMaker, trades };
  }
}

export interface CsvStyle {
  /** Times written in µs (spot files from 2025) or ms. */
  readonly unit: 'us' | 'ms';
  readonly header: boolean;
  readonly crlf: boolean;
}

const AGG_HEADER = 'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker,is_best_match';
const TRADES_HEADER = 'id,price,qty,quote_qty,time,is_buyer_maker,is_best_match';

const ZEROS = '00000000';

/** `units` of 10^-decimals (a whole number below 2^53), written with 8 decimals ("93500.01000000"). */
function decimal8(units: number, decimals: number): string {
  const scale = 10 ** decimals;
  const fraction = String(units % scale);
  return `${Math.floor(units / scale)}.${ZEROS.slice(fraction.length + 8 - decimals)}${fraction}${ZEROS.slice(decimals)}`;
}

/** Decimals of the default BTCUSDT instrument. */
const TICK_DECIMALS = 2;
const LOT_DECIMALS = 5;

function timeText(timeUs: number, unit: 'us' | 'ms'): string {
  return String(unit === 'us' ? timeUs : Math.floor(timeUs / 1000));
}

const bool = (value: boolean) => (value ? 'True' : 'False');

/** CSV text in pieces of about a megabyte (a full day is hundreds of them). */
function* chunks(lines: Iterable<string>, style: CsvStyle, header: string): Generator<string> {
  const eol = style.crlf ? '\r\n' : '\n';
  let piece: string[] = style.header ? [header] : [];
  let size = 0;
  for (const line of lines) {
    piece.push(line);
    size += line.length;
    if (size > 1 << 20) {
      yield piece.join(eol) + eol;
      piece = [];
      size = 0;
    }
  }
  if (piece.length > 0) yield piece.join(eol) + eol;
}

/** An aggTrades file: one row per aggregate, ids continuing from `firstId`. */
export function* aggTradesCsv(tape: Iterable<Aggregate>, style: CsvStyle, firstId = 3_346_275_000, firstTradeId = 4_392_583_000): Generator<string> {
  function* lines(): Generator<string> {
    let aggId = firstId;
    let tradeId = firstTradeId;
    for (const a of tape) {
      const last = tradeId + a.trades - 1;
      yield `${aggId++},${decimal8(a.priceTicks, TICK_DECIMALS)},${decimal8(a.qtyLots, LOT_DECIMALS)},${tradeId},${last},${timeText(a.timeUs, style.unit)},${bool(a.buyerIsMaker)},True`;
      tradeId = last + 1;
    }
  }
  yield* chunks(lines(), style, AGG_HEADER);
}

/** A trades file: each aggregate split into its trades (same time, price and side; the quantity shared out). */
export function* tradesCsv(tape: Iterable<Aggregate>, style: CsvStyle, firstTradeId = 4_392_583_000): Generator<string> {
  function* lines(): Generator<string> {
    let tradeId = firstTradeId;
    for (const a of tape) {
      let left = a.qtyLots;
      for (let k = 0; k < a.trades; k++) {
        // Half of what is left, keeping a lot for each trade still to come.
        const lots = k === a.trades - 1 ? left : Math.max(1, Math.min(Math.floor(left / 2), left - (a.trades - k - 1)));
        left -= lots;
        // quoteQty = price x qty, exact: ticks x lots in units of 10^-7 (below 2^53 for these sizes).
        const quote = decimal8(a.priceTicks * lots, TICK_DECIMALS + LOT_DECIMALS);
        yield `${tradeId++},${decimal8(a.priceTicks, TICK_DECIMALS)},${decimal8(lots, LOT_DECIMALS)},${quote},${timeText(a.timeUs, style.unit)},${bool(a.buyerIsMaker)},True`;
      }
    }
  }
  yield* chunks(lines(), style, TRADES_HEADER);
}
