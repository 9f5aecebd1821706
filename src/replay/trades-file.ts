// The reference's spot public trades (API.md section 12; its public-data README names the
// columns) read into a Recording: aggTrades rows `aggId, price, qty, firstId, lastId, time,
// isBuyerMaker, isBestMatch`, trades rows `id, price, qty, quoteQty, time, isBuyerMaker,
// isBestMatch`. Used: price and qty (exact on the instrument's tick and lot), time (classed by
// magnitude: >= 10^15 µs, the unit of spot files from 2025, >= 10^12 ms), isBuyerMaker (true or
// false in any case); the ids, quoteQty and isBestMatch are not read. A first line whose first
// field is not an integer is a header; CRLF, a byte-order mark and a final newline are fine.
// Rows in non-decreasing time. The kind is the caller's (format or file name), never guessed
// from the columns: a futures file has fewer and is refused.
//
// A full day is millions of rows, so each line is read from the bytes by one fast pass that
// only says "fine" or "not"; a line it does not take is read again from its text by the exact
// rules, which name every problem by file, line and column (the column's number, from 1).
import type { Recording } from '../core/recording.ts';
import { formatPlain, parseScaled } from '../core/units.ts';
import { RowProblems, shownCell, type FileProblems } from '../file-problems.ts';
import type { ReplayFormat } from '../config/replay.ts';
import { recordingOver, startsAggregate } from './columns.ts';

/** The instrument's grids: prices in ticks, quantities in lots. */
export interface Grid {
  readonly tick: string;
  readonly lot: string;
  readonly tickDecimals: number;
  readonly lotDecimals: number;
}

interface Layout {
  readonly columns: number;
  /** Indexes (from 0) of the cells read. */
  readonly price: number;
  readonly qty: number;
  readonly time: number;
  readonly maker: number;
  readonly names: string;
  /** The columns of the futures file of the same name. */
  readonly futures: number;
}

const LAYOUTS: Readonly<Record<ReplayFormat, Layout>> = {
  aggTrades: { columns: 8, price: 1, qty: 2, time: 5, maker: 6, names: 'aggId, price, qty, firstId, lastId, time, isBuyerMaker, isBestMatch', futures: 7 },
  trades: { columns: 7, price: 1, qty: 2, time: 4, maker: 5, names: 'id, price, qty, quoteQty, time, isBuyerMaker, isBestMatch', futures: 6 },
};

const LF = 10;
const CR = 13;
const COMMA = 44;
const DOT = 46;
const ZERO = 48;
/** 10^15: a time at or above it is in microseconds; 10^12: at or above it, in milliseconds. */
const MICROS_FROM = 1e15;
const MILLIS_FROM = 1e12;
const MAX = Number.MAX_SAFE_INTEGER;
/** The last millisecond whose microseconds stay below 2^53. */
const MAX_MS = Math.floor(MAX / 1000);
const TIME_EXPECTED = `a time in milliseconds (from 10^12) or microseconds (from 10^15), digits only, at most ${MAX} microseconds`;

/**
 * The recording of one file's bytes, or undefined when a row breaks a rule (every problem is
 * then in `problems`, named `file:line:column (cell)`).
 */
export function readTradesCsv(
  bytes: Uint8Array,
  file: string,
  format: ReplayFormat,
  symbol: string,
  grid: Grid,
  problems: FileProblems,
  /** @internal false: every row by the exact rules (a test holds the fast pass to them). */
  fastPass = true,
): Recording | undefined {
  const layout = LAYOUTS[format];
  const before = problems.total;
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const lines = countLines(bytes, start);
  const firstEnd = lineEnd(bytes, start);
  const header = lines > 0 && !startsWithInteger(bytes, start, firstEnd);
  if (header) checkHeader(bytes, start, firstEnd, file, layout, problems);
  const count = lines - (header ? 1 : 0);
  if (count === 0) {
    if (problems.total === before) problems.add(`${file}:1:1 (file)`, 'at least one trade row', 'no rows');
    return undefined;
  }
  const reader = new RowReader(recordingOver(symbol, count), layout, grid, format === 'aggTrades', file, problems);
  let pos = start;
  let line = 1;
  if (header) {
    pos = nextLine(bytes, pos);
    line++;
  }
  for (let row = 0; row < count; row++, line++) {
    const end = lineEnd(bytes, pos);
    const contentEnd = end > pos && bytes[end - 1] === CR ? end - 1 : end;
    if (!fastPass || !reader.fast(bytes, pos, contentEnd, row)) reader.exact(bytes, pos, contentEnd, row, line);
    pos = end + 1;
  }
  return problems.total === before ? reader.recording : undefined;
}

/** Lines from `start`: a final newline ends the last line, it starts none. */
function countLines(bytes: Uint8Array, start: number): number {
  let lines = 0;
  let at = start;
  for (;;) {
    const nl = bytes.indexOf(LF, at);
    if (nl < 0) return lines + (at < bytes.length ? 1 : 0);
    lines++;
    at = nl + 1;
  }
}

function lineEnd(bytes: Uint8Array, pos: number): number {
  const nl = bytes.indexOf(LF, pos);
  return nl < 0 ? bytes.length : nl;
}

function nextLine(bytes: Uint8Array, pos: number): number {
  return lineEnd(bytes, pos) + 1;
}

/** Whether the line's first field is a whole number (a data row) rather than a header's name. */
function startsWithInteger(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && bytes[i]! >= ZERO && bytes[i]! <= ZERO + 9) i++;
  return i > start && (i === end || bytes[i] === COMMA || bytes[i] === CR);
}

function textOf(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

function columnsExpected(layout: Layout, kind: string): string {
  return `the ${layout.columns} columns of a spot ${kind} row: ${layout.names} (futures ${kind} files have ${layout.futures} and are not read)`;
}

function kindOf(layout: Layout): string {
  return layout === LAYOUTS.aggTrades ? 'aggTrades' : 'trades';
}

function checkHeader(bytes: Uint8Array, start: number, end: number, file: string, layout: Layout, problems: FileProblems): void {
  const text = textOf(bytes, start, end > start && bytes[end - 1] === CR ? end - 1 : end);
  const columns = text.split(',').length;
  if (columns !== layout.columns) problems.add(`${file}:1:1 (header)`, columnsExpected(layout, kindOf(layout)), `${columns} columns`);
}

/**
 * A plain decimal (1 to 20 digits, an optional fraction of 1 to 20) in units of 10^-decimals,
 * positive and below 2^53; -1 for anything else. Takes exactly what `parseScaled` takes.
 */
function scaled(b: Uint8Array, start: number, end: number, decimals: number): number {
  let i = start;
  let v = 0;
  while (i < end && b[i] !== DOT) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
    i++;
  }
  if (i === start || i - start > 20) return -1;
  let used = 0;
  if (i < end) {
    i++; // the dot
    if (i === end || end - i > 20) return -1;
    for (; i < end; i++) {
      const d = b[i]! - ZERO;
      if (d < 0 || d > 9) return -1;
      if (used < decimals) {
        v = v * 10 + d;
        used++;
      } else if (d !== 0) return -1;
    }
  }
  for (; used < decimals; used++) v *= 10;
  return v > 0 && v <= MAX ? v : -1;
}

/** A time cell in µs (ms x 1000), or -1. */
function timeUs(b: Uint8Array, start: number, end: number): number {
  if (end - start > 16 || end === start) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const d = b[i]! - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  if (v >= MICROS_FROM) return v <= MAX ? v : -1;
  if (v >= MILLIS_FROM) return v <= MAX_MS ? v * 1000 : -1;
  return -1;
}

/** 1 for true, 0 for false (any case), -1 for anything else. */
function flag(b: Uint8Array, start: number, end: number): number {
  const n = end - start;
  // `| 0x20` lowers an ASCII letter.
  if (n === 4 && (b[start]! | 0x20) === 116 && (b[start + 1]! | 0x20) === 114 && (b[start + 2]! | 0x20) === 117 && (b[start + 3]! | 0x20) === 101) return 1;
  if (n === 5 && (b[start]! | 0x20) === 102 && (b[start + 1]! | 0x20) === 97 && (b[start + 2]! | 0x20) === 108 && (b[start + 3]! | 0x20) === 115 && (b[start + 4]! | 0x20) === 101) return 0;
  return -1;
}

/** Rows into the recording's columns, checking time order across rows. */
class RowReader {
  /** Comma positions of the current line, and the line's end after them. */
  private readonly cuts: Int32Array;
  private previousUs = 0;
  /** Where the previous row's time cell is (start, end), for a message about the order. */
  private previousCell: readonly [Uint8Array, number, number] | undefined;
  private readonly priceExpected: string;
  private readonly qtyExpected: string;

  constructor(
    readonly recording: Recording,
    private readonly layout: Layout,
    private readonly grid: Grid,
    private readonly everyRowNew: boolean,
    private readonly file: string,
    private readonly problems: FileProblems,
  ) {
    this.cuts = new Int32Array(layout.columns + 1);
    this.priceExpected = `a price on the tick ${grid.tick}, from ${grid.tick} to ${formatPlain(MAX, grid.tickDecimals)}`;
    this.qtyExpected = `a quantity on the lot ${grid.lot}, from ${grid.lot} to ${formatPlain(MAX, grid.lotDecimals)}`;
  }

  /** Reads a well-formed row straight from the bytes; false (nothing written) when anything is off. */
  fast(b: Uint8Array, start: number, end: number, row: number): boolean {
    const { cuts, layout } = this;
    let n = 0;
    for (let i = start; i < end; i++) {
      if (b[i] === COMMA) {
        if (n === layout.columns - 1) return false;
        cuts[n++] = i;
      }
    }
    if (n !== layout.columns - 1) return false;
    cuts[n] = end;
    const from = (column: number) => (column === 0 ? start : cuts[column - 1]! + 1);
    const price = scaled(b, from(layout.price), cuts[layout.price]!, this.grid.tickDecimals);
    const qty = scaled(b, from(layout.qty), cuts[layout.qty]!, this.grid.lotDecimals);
    const t = timeUs(b, from(layout.time), cuts[layout.time]!);
    const maker = flag(b, from(layout.maker), cuts[layout.maker]!);
    if (price < 0 || qty < 0 || t < this.previousUs || maker < 0) return false;
    this.store(row, t, price, qty, maker);
    this.previousCell = [b, from(layout.time), cuts[layout.time]!];
    return true;
  }

  /** Reads a row by the exact rules, naming each problem; stores it when it has none. */
  exact(b: Uint8Array, start: number, end: number, row: number, line: number): void {
    const { layout, grid } = this;
    const problems = new RowProblems(`${this.file}:${line}`);
    const text = textOf(b, start, end);
    const cells = text.split(',');
    if (text === '' || cells.length !== layout.columns) {
      problems.add(1, 'row', columnsExpected(layout, kindOf(layout)), text === '' ? 'a blank line' : `${cells.length} column${cells.length === 1 ? '' : 's'}`);
      return problems.flush(this.problems);
    }
    const priceText = cells[layout.price]!;
    const qtyText = cells[layout.qty]!;
    const timeText = cells[layout.time]!;
    const makerText = cells[layout.maker]!;
    const price = parseScaled(priceText, grid.tickDecimals);
    const qty = parseScaled(qtyText, grid.lotDecimals);
    const t = /^[0-9]{1,16}$/.test(timeText) ? timeUs(Buffer.from(timeText, 'latin1'), 0, timeText.length) : -1;
    const maker = /^true$/i.test(makerText) ? 1 : /^false$/i.test(makerText) ? 0 : -1;
    if (!(price > 0 && price <= MAX)) problems.add(layout.price + 1, 'price', this.priceExpected, shownCell(priceText));
    if (!(qty > 0 && qty <= MAX)) problems.add(layout.qty + 1, 'qty', this.qtyExpected, shownCell(qtyText));
    if (t < 0) problems.add(layout.time + 1, 'time', TIME_EXPECTED, shownCell(timeText));
    else if (t < this.previousUs) {
      const [bytes, from, to] = this.previousCell!;
      problems.add(layout.time + 1, 'time', `a time at or after the row before's (${textOf(bytes, from, to)}): rows in time order`, shownCell(timeText));
    }
    if (maker < 0) problems.add(layout.maker + 1, 'isBuyerMaker', 'true or false (in any case)', shownCell(makerText));
    if (t >= this.previousUs) {
      this.previousUs = t;
      // The cell starts after the commas before it (a cell holds no comma).
      const from = start + cells.slice(0, layout.time).reduce((sum, cell) => sum + Buffer.byteLength(cell) + 1, 0);
      this.previousCell = [b, from, from + timeText.length];
    }
    if (problems.count > 0) return problems.flush(this.problems);
    this.store(row, t, price, qty, maker);
  }

  private store(row: number, t: number, price: number, qty: number, maker: number): void {
    const r = this.recording;
    r.timeUs[row] = t;
    r.price[row] = price;
    r.qty[row] = qty;
    r.buyerIsMaker[row] = maker;
    r.newAggregate[row] = startsAggregate(this.everyRowNew, r, row);
    this.previousUs = t;
  }
}
