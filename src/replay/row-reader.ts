// One row of the reference's spot public trades at a time, straight from the file's bytes into
// a Recording's columns (trades-file.ts drives it line by line). Each line is read by one fast
// pass that only says "fine" or "not"; a line it does not take is read again from its text by the
// exact rules, which name every problem by file, line and column (the column's number, from 1).
import type { Recording } from '../core/recording.ts';
import type { ReplayFormat } from '../config/replay.ts';
import { formatPlain, parseScaled, POW10 } from '../core/units.ts';
import { RowProblems, shownCell, type FileProblems } from '../file-problems.ts';
import { recordingOver, startsAggregate } from './columns.ts';

/** The instrument's grids: prices in ticks, quantities in lots. */
export interface Grid {
  readonly tick: string;
  readonly lot: string;
  readonly tickDecimals: number;
  readonly lotDecimals: number;
}

export interface Layout {
  readonly kind: ReplayFormat;
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

export const LAYOUTS: Readonly<Record<ReplayFormat, Layout>> = {
  aggTrades: { kind: 'aggTrades', columns: 8, price: 1, qty: 2, time: 5, maker: 6, names: 'aggId, price, qty, firstId, lastId, time, isBuyerMaker, isBestMatch', futures: 7 },
  trades: { kind: 'trades', columns: 7, price: 1, qty: 2, time: 4, maker: 5, names: 'id, price, qty, quoteQty, time, isBuyerMaker, isBestMatch', futures: 6 },
};

export const LF = 10;
export const CR = 13;
export const COMMA = 44;
const DOT = 46;
export const ZERO = 48;
/** 10^15: a time at or above it is in microseconds; 10^12: at or above it, in milliseconds. */
const MICROS_FROM = 1e15;
const MILLIS_FROM = 1e12;
const MAX = Number.MAX_SAFE_INTEGER;
/** The last millisecond whose microseconds stay below 2^53. */
const MAX_MS = Math.floor(MAX / 1000);
const TIME_EXPECTED = `a time in milliseconds (from 10^12) or microseconds (from 10^15), digits only, at most ${MAX} microseconds`;

export function textOf(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

export function columnsExpected({ kind, columns, names, futures }: Layout): string {
  return `the ${columns} columns of a spot ${kind} row: ${names} (futures ${kind} files have ${futures} and are not read)`;
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

const SKIP = 0;
const PRICE = 1;
const QTY = 2;
const TIME = 3;
const MAKER = 4;

/** What each column of a layout is read as. */
function rolesOf(layout: Layout): Uint8Array {
  const roles = new Uint8Array(layout.columns);
  roles[layout.price] = PRICE;
  roles[layout.qty] = QTY;
  roles[layout.time] = TIME;
  roles[layout.maker] = MAKER;
  return roles;
}

/** Rows into the recording's columns, checking time order across rows. */
export class RowReader {
  /** Rows stored so far. */
  rows = 0;
  private previousUs = 0;
  /** Where the previous row's time cell is in the bytes, for a message about the order. */
  private previousFrom = 0;
  private previousTo = 0;
  /** The previous row's time cell when it lies in an earlier window of the bytes (`setWindow`). */
  private previousText = '';
  private readonly roles: Uint8Array;
  private readonly tickDecimals: number;
  private readonly lotDecimals: number;
  private readonly priceExpected: string;
  private readonly qtyExpected: string;

  /** The columns so far: `capacity` rows, `rows` of them stored (grown as rows come, when the count was not known). */
  private recording: Recording;
  private timeUs!: Float64Array;
  private price!: Float64Array;
  private qty!: Float64Array;
  private buyerIsMaker!: Uint8Array;
  private newAggregate!: Uint8Array;

  constructor(
    private readonly symbol: string,
    capacity: number,
    /** The bytes read now (a window of the file: whole lines, or the file's last), positions are in it. */
    private bytes: Uint8Array,
    private readonly layout: Layout,
    private readonly grid: Grid,
    private readonly everyRowNew: boolean,
    private readonly file: string,
    private readonly problems: FileProblems,
  ) {
    this.roles = rolesOf(layout);
    this.tickDecimals = grid.tickDecimals;
    this.lotDecimals = grid.lotDecimals;
    this.recording = this.columns(recordingOver(symbol, capacity));
    this.priceExpected = `a price on the tick ${grid.tick}, from ${grid.tick} to ${formatPlain(MAX, grid.tickDecimals)}`;
    this.qtyExpected = `a quantity on the lot ${grid.lot}, from ${grid.lot} to ${formatPlain(MAX, grid.lotDecimals)}`;
  }

  /**
   * Reads the well-formed row at `start` straight from the bytes, each cell parsed as it is
   * scanned, and returns where the next line starts; -1 (nothing stored) when anything is off
   * (the exact rules then read the line). No allocation: it runs millions of times.
   */
  fast(start: number): number {
    const b = this.bytes;
    const len = b.length;
    const roles = this.roles;
    const last = roles.length - 1;
    let p = start;
    let price = -1;
    let qty = -1;
    let t = -1;
    let maker = -1;
    let timeFrom = 0;
    let timeTo = 0;
    for (let column = 0; column <= last; column++) {
      const role = roles[column];
      const from = p;
      if (role === PRICE || role === QTY) {
        // A plain decimal: 1 to 20 digits, an optional fraction of 1 to 20, none non-zero below the grid.
        const decimals = role === PRICE ? this.tickDecimals : this.lotDecimals;
        let v = 0;
        for (; p < len; p++) {
          const d = b[p]! - ZERO;
          if (d < 0 || d > 9) break;
          v = v * 10 + d;
        }
        if (p === from || p - from > 20) return -1;
        let used = 0;
        if (p < len && b[p] === DOT) {
          const fraction = ++p;
          for (; p < len; p++) {
            const d = b[p]! - ZERO;
            if (d < 0 || d > 9) break;
            if (used < decimals) {
              v = v * 10 + d;
              used++;
            } else if (d !== 0) return -1;
          }
          if (p === fraction || p - fraction > 20) return -1;
        }
        v *= POW10[decimals - used]!;
        if (!(v > 0 && v <= MAX)) return -1;
        if (role === PRICE) price = v;
        else qty = v;
      } else if (role === TIME) {
        let v = 0;
        for (; p < len; p++) {
          const d = b[p]! - ZERO;
          if (d < 0 || d > 9) break;
          v = v * 10 + d;
        }
        if (p === from || p - from > 16) return -1;
        if (v >= MICROS_FROM && v <= MAX) t = v;
        else if (v >= MILLIS_FROM && v <= MAX_MS) t = v * 1000;
        else return -1;
        timeFrom = from;
        timeTo = p;
      } else {
        for (; p < len; p++) {
          const x = b[p];
          if (x === COMMA || x === LF || x === CR) break;
        }
        if (role === MAKER) maker = flag(b, from, p);
      }
      // Every cell but the last ends at a comma.
      if (column < last) {
        if (p >= len || b[p] !== COMMA) return -1;
        p++;
      }
    }
    // The line ends here: LF, CRLF, or the end of the file.
    if (p < len && b[p] === CR) p++;
    if (p < len && b[p++] !== LF) return -1;
    if (maker < 0 || t < this.previousUs) return -1;
    this.store(t, price, qty, maker);
    this.previousFrom = timeFrom;
    this.previousTo = timeTo;
    return p;
  }

  /** Reads a row by the exact rules, naming each problem; stores it when it has none. */
  exact(start: number, end: number, line: number): void {
    const { layout, grid, bytes: b } = this;
    const problems = new RowProblems(`${this.file}:${line}`);
    const text = textOf(b, start, end);
    const cells = text.split(',');
    if (text === '' || cells.length !== layout.columns) {
      problems.add(1, 'row', columnsExpected(layout), text === '' ? 'a blank line' : `${cells.length} column${cells.length === 1 ? '' : 's'}`);
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
      problems.add(layout.time + 1, 'time', `a time at or after the row before's (${this.previousTo > this.previousFrom ? textOf(b, this.previousFrom, this.previousTo) : this.previousText}): rows in time order`, shownCell(timeText));
    }
    if (maker < 0) problems.add(layout.maker + 1, 'isBuyerMaker', 'true or false (in any case)', shownCell(makerText));
    if (t >= this.previousUs) {
      this.previousUs = t;
      // The cell starts after the commas before it (a cell holds no comma).
      this.previousFrom = start + cells.slice(0, layout.time).reduce((sum, cell) => sum + Buffer.byteLength(cell) + 1, 0);
      this.previousTo = this.previousFrom + timeText.length;
    }
    if (problems.count > 0) return problems.flush(this.problems);
    this.store(t, price, qty, maker);
  }

  /** Reads on from another window of the file's bytes (the next piece of an entry inflating). */
  setWindow(bytes: Uint8Array): void {
    this.bytes = bytes;
  }

  /** The window is done with (its bytes may be reused): the previous row's time cell is kept as text. */
  leaveWindow(): void {
    if (this.previousTo > this.previousFrom) this.previousText = textOf(this.bytes, this.previousFrom, this.previousTo);
    this.previousFrom = this.previousTo = 0;
  }

  /** The rows stored: the columns' views cut to the count (their unused tails stay, unread). */
  result(): Recording {
    const { count, timeUs } = this.recording;
    if (this.rows === count) return this.recording;
    return recordingOver(this.symbol, this.rows, count, timeUs.buffer as ArrayBuffer);
  }

  private columns(recording: Recording): Recording {
    ({ timeUs: this.timeUs, price: this.price, qty: this.qty, buyerIsMaker: this.buyerIsMaker, newAggregate: this.newAggregate } = recording);
    return recording;
  }

  /** The rows stored so far in columns of `capacity` rows (one buffer, as the cache stores it). */
  private resized(capacity: number): Recording {
    const next = recordingOver(this.symbol, capacity);
    const n = this.rows;
    for (const column of ['timeUs', 'price', 'qty', 'buyerIsMaker', 'newAggregate'] as const) next[column].set(this.recording[column].subarray(0, n));
    return next;
  }

  private store(t: number, price: number, qty: number, maker: number): void {
    // A count estimated before the rows were read (an entry still inflating) grows by a quarter.
    if (this.rows === this.recording.count) this.recording = this.columns(this.resized(Math.ceil(this.rows * 1.25) + 1024));
    const row = this.rows++;
    this.timeUs[row] = t;
    this.price[row] = price;
    this.qty[row] = qty;
    this.buyerIsMaker[row] = maker;
    this.newAggregate[row] = startsAggregate(this.everyRowNew, this.recording, row);
    this.previousUs = t;
  }
}
