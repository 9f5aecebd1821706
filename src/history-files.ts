// History at start (API.md section 9): reads the `[[sim.history.klines]]` CSV files (the one
// place the history touches the file system), checks every cell, and builds the simulator's
// shared history from them and the seed. A file is the reference's kline public data (12
// columns, no header; its public-data README names them): prices and volumes exact on the
// instrument's tick and lot grid, counts whole, candles that make sense, one interval apart and
// closed before the start. Every problem of every file is collected into one ConfigError (the
// command line exits 2), each named by file, line and column (the cell's number, 1 to 12).

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { isMicroseconds } from './api/time-unit.ts';
import type { Config } from './config/types.ts';
import { FileProblems, RowProblems, shownCell } from './file-problems.ts';
import { buildHistory, KLINE_INTERVALS, MINUTE_MS, nextOpenTime, openTimeOf, type CsvCandles, type KlineInterval, type KlineRow, type MarketHistory } from './core/market/index.ts';
import { buildMarkets, type Instrument } from './core/markets.ts';
import type { Recording } from './core/recording.ts';
import { formatPlain, parseScaled } from './core/units.ts';

export type { MarketHistory } from './core/market/index.ts';

const SOURCE = 'sim.history.klines';
const COLUMNS = 12;
const TIME_RE = /^[0-9]{1,19}$/;
/** `-1m-` in `BTCUSDT-1m-2025-01-01.csv`: the reference's public-data file names carry the interval. */
const NAMED_INTERVAL = new RegExp(`-(${[...KLINE_INTERVALS.keys()].join('|')})(?=[-.])`);

/** The history of every symbol; a replayed symbol's is its recording's rows before `from` (API.md 12). */
export function loadMarketHistory(config: Config, start: number, recordings: ReadonlyMap<string, Recording> = new Map()): MarketHistory {
  const markets = buildMarkets(config);
  const problems = new FileProblems();
  const csv: CsvCandles[] = config.sim.history.klines.map((entry, i) => {
    const inst = markets.bySymbol.get(entry.symbol)!;
    let text: string;
    try {
      text = readFileSync(entry.file, 'utf8');
    } catch (error) {
      problems.add(`${SOURCE}[${i}].file`, 'a readable kline CSV file', `${entry.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      return { symbolIndex: inst.index, rows: [] };
    }
    return { symbolIndex: inst.index, rows: readKlineCsv(text, entry.file, inst, start, problems) };
  });
  problems.throwIfAny(SOURCE);
  return buildHistory(config, markets.instruments, start, csv, recordings);
}

/** A checked time cell: its value as written, in ms, and the unit it was written in. */
interface TimeCell {
  readonly sent: number;
  readonly ms: number;
  readonly micro: boolean;
}

/** The cells of a row, read; undefined where a cell was refused. */
interface RowCells {
  readonly open?: TimeCell;
  readonly close?: TimeCell;
  /** Open, high, low, close in ticks. */
  readonly prices: readonly (number | undefined)[];
  readonly volume?: number;
  readonly quoteVolume?: number;
  readonly trades?: number;
  readonly takerVolume?: number;
  readonly takerQuote?: number;
}

const PRICE_NAMES = ['open', 'high', 'low', 'close'];

/** The rows of one file; its problems go to `problems`. */
function readKlineCsv(text: string, file: string, inst: Instrument, start: number, problems: FileProblems): KlineRow[] {
  const reader = new KlineFile(file, inst, start);
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.endsWith('\r') ? lines[n]!.slice(0, -1) : lines[n]!;
    if (line.trim() !== '') reader.row(line.split(',').map((cell) => cell.trim()), n + 1, problems);
  }
  if (reader.rows.length === 0 && problems.total === 0) problems.add(`${file}:1:1 (file)`, 'at least one kline row', 'no candles');
  return reader.rows;
}

/** One file's rows, read in order: the file's interval and the row before are what a row is checked against. */
class KlineFile {
  readonly rows: KlineRow[] = [];
  /** From the file's name, else from the first row's open and close times. */
  private interval: KlineInterval | undefined;
  private readonly intervalSource: string;
  private previousOpen: number | undefined;
  /** Trade ids the rows so far use up. */
  private tradeIds = 0;
  /** A file of 1s candles is refused once. */
  private shortRefused = false;

  constructor(
    private readonly file: string,
    private readonly inst: Instrument,
    private readonly start: number,
  ) {
    this.interval = intervalOfName(file);
    this.intervalSource = this.interval === undefined ? '' : ` (the file name says ${this.interval.name})`;
  }

  row(cells: readonly string[], line: number, problems: FileProblems): void {
    const row = new RowProblems(`${this.file}:${line}`);
    if (cells.length !== COLUMNS) {
      row.add(1, 'row', 'the 12 columns of a kline row', `${cells.length} column${cells.length === 1 ? '' : 's'}`);
      row.flush(problems);
      this.previousOpen = undefined; // the next row's spacing is unknown, not wrong
      return;
    }
    const v = readCells(cells, this.inst, row);
    checkSense(v, cells, row);
    if (v.trades !== undefined) {
      this.tradeIds += v.trades;
      if (this.tradeIds > Number.MAX_SAFE_INTEGER) row.add(9, 'number of trades', 'counts that sum to less than 2^53 over the file (each trade takes an id)', cells[8]);
    }
    this.checkTimes(v, cells, row);
    this.previousOpen = v.open?.ms;
    if (row.count > 0) return row.flush(problems);
    const [open, high, low, close] = v.prices as number[];
    this.rows.push({
      openTime: v.open!.ms,
      open: open!,
      high: high!,
      low: low!,
      close: close!,
      volume: v.volume!,
      quoteVolume: v.quoteVolume!,
      trades: v.trades!,
      takerBuyVolume: v.takerVolume!,
      takerBuyQuoteVolume: v.takerQuote!,
    });
  }

  /** Open on the interval's boundary, one interval after the row before, closing one interval later, before the start. */
  private checkTimes({ open, close }: RowCells, cells: readonly string[], row: RowProblems): void {
    if (open !== undefined && open.micro && open.sent % 1000 !== 0) row.add(1, 'open time', 'a whole millisecond (the simulator keeps ms)', cells[0]);
    if (this.interval === undefined && open !== undefined && close !== undefined) {
      this.interval = intervalOfRow(open.ms, close.ms);
      if (this.interval === undefined) row.add(7, 'close time', 'one interval (1s .. 1M) after the open time, minus 1 ms', cells[6]);
    }
    const interval = this.interval;
    if (interval !== undefined && !this.shortRefused && interval.months === 0 && interval.ms < MINUTE_MS) {
      // The candles become minute bars: a second's candles would merge, their trade ids with them.
      this.shortRefused = true;
      row.add(7, 'close time', `candles of 1m or longer (history is kept by the minute), not ${interval.name}${this.intervalSource}`, cells[6]);
    }
    let closes = close?.ms;
    if (interval !== undefined && open !== undefined) {
      const next = nextOpenTime(interval, 0, open.ms);
      closes = next - 1;
      const after = this.previousOpen === undefined ? undefined : nextOpenTime(interval, 0, this.previousOpen);
      if (openTimeOf(interval, 0, open.ms) !== open.ms) {
        row.add(1, 'open time', `the open time of a ${interval.name} candle${this.intervalSource}`, `${cells[0]} (${iso(open.ms)})`);
      } else if (after !== undefined && open.ms !== after) {
        row.add(1, 'open time', `${after} (${iso(after)}), one ${interval.name} interval after the row before${this.intervalSource}: rows in order, without gaps`, `${cells[0]} (${iso(open.ms)})`);
      }
      const closeSent = close?.micro ? next * 1000 - 1 : next - 1;
      if (close !== undefined && close.sent !== closeSent) row.add(7, 'close time', `${closeSent}, the close of a ${interval.name} candle opening at ${cells[0]}${this.intervalSource}`, cells[6]);
    }
    if (closes !== undefined && closes >= this.start) {
      row.add(7, 'close time', `a candle closed before the simulator's start (${iso(this.start)}): history precedes the start`, `${cells[6]} (${iso(closes)})`);
    }
  }
}

/** Every cell of a 12-column row read exactly, or reported. */
function readCells(cells: readonly string[], inst: Instrument, row: RowProblems): RowCells {
  const cell = new Cells(cells, row);
  const lot = `the lot ${inst.config.lot}`;
  const quoteDecimals = inst.tickDecimals + inst.lotDecimals;
  const quoteGrid = `${quoteDecimals} decimals (tick x lot)`;
  return {
    open: cell.time(1, 'open time'),
    prices: PRICE_NAMES.map((name, i) => cell.price(2 + i, name, inst)),
    volume: cell.amount(6, 'volume', inst.lotDecimals, lot),
    close: cell.time(7, 'close time'),
    quoteVolume: cell.amount(8, 'quote asset volume', quoteDecimals, quoteGrid),
    trades: cell.count(9, 'number of trades'),
    takerVolume: cell.amount(10, 'taker buy base asset volume', inst.lotDecimals, lot),
    takerQuote: cell.amount(11, 'taker buy quote asset volume', quoteDecimals, quoteGrid),
  };
}

/** A candle that makes sense: high and low around open and close, taker volumes within the totals. */
function checkSense(v: RowCells, cells: readonly string[], row: RowProblems): void {
  const [open, high, low, close] = v.prices;
  const prices = () => cells.slice(1, 5).map((text, i) => `${PRICE_NAMES[i]} ${text}`).join(', ');
  if (high !== undefined && [open, low, close].some((p) => p !== undefined && p > high)) row.add(3, 'high', 'a high of at least the open, close and low', prices());
  if (low !== undefined && [open, close].some((p) => p !== undefined && p < low)) row.add(4, 'low', 'a low of at most the open and close', prices());
  if (v.volume !== undefined && v.takerVolume !== undefined && v.takerVolume > v.volume) {
    row.add(10, 'taker buy base asset volume', `at most the volume (${cells[5]})`, cells[9]);
  }
  if (v.quoteVolume !== undefined && v.takerQuote !== undefined && v.takerQuote > v.quoteVolume) {
    row.add(11, 'taker buy quote asset volume', `at most the quote asset volume (${cells[7]})`, cells[10]);
  }
}

/** The cells of one row, each read exactly or reported (undefined then). */
class Cells {
  constructor(
    private readonly cells: readonly string[],
    private readonly problems: RowProblems,
  ) {}

  private text(column: number): string {
    return this.cells[column - 1]!;
  }

  private refuse(column: number, name: string, expected: string): undefined {
    const text = this.text(column);
    this.problems.add(column, name, expected, shownCell(text));
    return undefined;
  }

  /** Milliseconds or microseconds, classed by magnitude as every time the simulator reads. */
  time(column: number, name: string): TimeCell | undefined {
    const text = this.text(column);
    if (!TIME_RE.test(text)) return this.refuse(column, name, 'a time in milliseconds or microseconds (digits only)');
    const sent = Number(text);
    const micro = isMicroseconds(sent);
    return { sent, ms: micro ? Math.floor(sent / 1000) : sent, micro };
  }

  /** A price in PRICE_FILTER's range (from one tick, no maximum) on the tick grid, in ticks held exactly. */
  price(column: number, name: string, inst: Instrument): number | undefined {
    const ticks = parseScaled(this.text(column), inst.tickDecimals);
    if (ticks > 0 && Number.isFinite(ticks)) return ticks;
    const most = formatPlain(Number.MAX_SAFE_INTEGER, inst.tickDecimals);
    return this.refuse(column, name, `a price on the tick ${inst.config.tick}, from ${inst.config.tick} (PRICE_FILTER's minimum) to ${most}`);
  }

  /** A decimal from 0 with no digit below `decimals`, held exactly (below 2^53 units). */
  amount(column: number, name: string, decimals: number, grid: string): number | undefined {
    const units = parseScaled(this.text(column), decimals);
    if (units >= 0 && Number.isFinite(units)) return units;
    return this.refuse(column, name, `a decimal on ${grid}, from 0 to ${formatPlain(Number.MAX_SAFE_INTEGER, decimals)}`);
  }

  /** A whole number below 2^53. */
  count(column: number, name: string): number | undefined {
    const text = this.text(column);
    if (/^[0-9]{1,16}$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER) return Number(text);
    return this.refuse(column, name, 'a whole number below 2^53');
  }
}

function intervalOfName(file: string): KlineInterval | undefined {
  const m = NAMED_INTERVAL.exec(basename(file));
  return m === null ? undefined : KLINE_INTERVALS.get(m[1]!);
}

/** The interval whose candle opening at `open` closes at `close`, if any. */
function intervalOfRow(open: number, close: number): KlineInterval | undefined {
  for (const interval of KLINE_INTERVALS.values()) if (nextOpenTime(interval, 0, open) === close + 1) return interval;
  return undefined;
}

function iso(ms: number): string {
  return Number.isFinite(ms) && Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(ms);
}
