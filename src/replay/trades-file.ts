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
// A full day is millions of rows, read line by line by row-reader.ts. The bytes may arrive in
// pieces (a .zip's entry inflating, zip-stream.ts): `TradesCsvParser.push` reads each piece's
// whole lines as it comes, so parsing goes on while the rest inflates, and every problem is
// named at the same file, line and column as when the file is read at once.
import type { Recording } from '../core/recording.ts';
import type { FileProblems } from '../file-problems.ts';
import type { ReplayFormat } from '../config/replay.ts';
import { columnsExpected, COMMA, CR, LAYOUTS, LF, RowReader, textOf, ZERO, type Grid, type Layout } from './row-reader.ts';

export type { Grid } from './row-reader.ts';
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
  // One slot a line (a native count of newlines): the columns are allocated once, at their size.
  const parser = new TradesCsvParser(file, format, symbol, grid, problems, (all, dataStart) => countLines(all, dataStart), fastPass);
  parser.push(bytes, true);
  return parser.finish();
}

/**
 * A file's rows read from its bytes in pieces, in order (an entry inflating: no buffer of the
 * whole file, whose first touch alone costs here as much as the parse). A line split between two
 * pieces is carried over and read whole. `capacityOf(firstPiece, dataStart)` says how many rows
 * to make room for (the columns grow if more come).
 */
export class TradesCsvParser {
  private reader: RowReader | null = null;
  private line = 1;
  private first: Uint8Array | null = null;
  /** The bytes of a line begun in an earlier piece and not yet whole. */
  private carry = new Uint8Array(256);
  private carried = 0;
  private readonly before: number;
  private readonly layout: Layout;

  constructor(
    private readonly file: string,
    private readonly format: ReplayFormat,
    private readonly symbol: string,
    private readonly grid: Grid,
    private readonly problems: FileProblems,
    private readonly capacityOf: (firstPiece: Uint8Array, dataStart: number) => number,
    private readonly fastPass = true,
  ) {
    this.before = problems.total;
    this.layout = LAYOUTS[format];
  }

  /** Reads the next piece of the file's bytes; `final`: the file ends with it. */
  push(piece: Uint8Array, final: boolean): void {
    this.first ??= piece;
    let rest = piece;
    if (this.carried > 0 || this.reader === null) {
      // The carried line (or the first one), completed up to this piece's first newline.
      const nl = piece.indexOf(LF);
      const take = nl < 0 ? piece.length : nl + 1;
      this.append(piece.subarray(0, take));
      rest = piece.subarray(take);
      if (nl < 0 && !final) return;
      const whole = this.carry.subarray(0, this.carried);
      this.carried = 0;
      this.read(whole);
    }
    if (final) return this.read(rest);
    const end = rest.lastIndexOf(LF) + 1;
    if (end > 0) this.read(rest.subarray(0, end));
    this.append(rest.subarray(end));
  }

  /** After the final piece: the recording, or undefined when a row broke a rule or there is none. */
  finish(): Recording | undefined {
    if (this.reader === null) this.read(new Uint8Array(0));
    const reader = this.reader!;
    if (this.problems.total > this.before) return undefined;
    if (reader.rows === 0) {
      this.problems.add(`${this.file}:1:1 (file)`, 'at least one trade row', 'no rows');
      return undefined;
    }
    return reader.result();
  }

  private append(bytes: Uint8Array): void {
    if (this.carried + bytes.length > this.carry.length) {
      const grown = new Uint8Array(Math.max(2 * this.carry.length, this.carried + bytes.length));
      grown.set(this.carry.subarray(0, this.carried));
      this.carry = grown;
    }
    this.carry.set(bytes, this.carried);
    this.carried += bytes.length;
  }

  /** Reads the lines of `bytes` (whole lines, or the file's last ones). */
  private read(bytes: Uint8Array): void {
    let pos = 0;
    if (this.reader === null) pos = this.begin(bytes);
    else this.reader.setWindow(bytes);
    const reader = this.reader!;
    let line = this.line;
    for (; pos < bytes.length; line++) {
      const next = this.fastPass ? reader.fast(pos) : -1;
      if (next >= 0) {
        pos = next;
        continue;
      }
      const end = lineEnd(bytes, pos);
      reader.exact(pos, end > pos && bytes[end - 1] === CR ? end - 1 : end, line);
      pos = end + 1;
    }
    this.line = line;
    reader.leaveWindow();
  }

  /** The first line: a header or a row (a byte-order mark before it is skipped); where the rows start. */
  private begin(bytes: Uint8Array): number {
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const firstEnd = lineEnd(bytes, start);
    const header = start < bytes.length && !startsWithInteger(bytes, start, firstEnd);
    if (header) checkHeader(bytes, start, firstEnd, this.file, this.layout, this.problems);
    const pos = header ? firstEnd + 1 : start;
    this.line = header ? 2 : 1;
    // The first piece holds the first line (or the whole file): its data start is the same.
    const capacity = this.capacityOf(this.first ?? bytes, pos);
    this.reader = new RowReader(this.symbol, capacity, bytes, this.layout, this.grid, this.format === 'aggTrades', this.file, this.problems);
    return pos;
  }
}

/** Lines from `start`: a final newline ends the last line, it starts none. */
export function countLines(bytes: Uint8Array, start: number): number {
  let lines = 0;
  for (let at = start; at < bytes.length; lines++) {
    const nl = bytes.indexOf(LF, at);
    at = nl < 0 ? bytes.length : nl + 1;
  }
  return lines;
}

function lineEnd(bytes: Uint8Array, pos: number): number {
  const nl = bytes.indexOf(LF, pos);
  return nl < 0 ? bytes.length : nl;
}

/** Whether the line's first field is a whole number (a data row) rather than a header's name. */
function startsWithInteger(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end && bytes[i]! >= ZERO && bytes[i]! <= ZERO + 9) i++;
  return i > start && (i === end || bytes[i] === COMMA || bytes[i] === CR);
}

function checkHeader(bytes: Uint8Array, start: number, end: number, file: string, layout: Layout, problems: FileProblems): void {
  const text = textOf(bytes, start, end > start && bytes[end - 1] === CR ? end - 1 : end);
  const columns = text.split(',').length;
  if (columns !== layout.columns) problems.add(`${file}:1:1 (header)`, columnsExpected(layout), `${columns} columns`);
}

