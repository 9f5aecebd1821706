// A Recording's columns in ONE ArrayBuffer, in the order the cache file stores them: time, price
// and quantity as float64 (whole numbers below 2^53: µs, ticks, lots), then the two flag bytes.
// 26 bytes a print, no object per print; the cache reads a file straight into this buffer. A
// parse whose row count was estimated leaves each column's unused tail in place (a few percent)
// rather than copying the day into a buffer of the exact size.
import type { Recording } from '../core/recording.ts';

/** Bytes of one print: three float64 columns and two byte columns. */
export const BYTES_PER_PRINT = 3 * 8 + 2;

/**
 * A recording of `count` prints over `buffer`, whose columns have room for `capacity` rows each
 * (BYTES_PER_PRINT x capacity bytes; zeroed when new).
 */
export function recordingOver(symbol: string, count: number, capacity = count, buffer: ArrayBuffer = new ArrayBuffer(BYTES_PER_PRINT * capacity)): Recording {
  return {
    symbol,
    count,
    loadedRows: count,
    timeUs: new Float64Array(buffer, 0, count),
    price: new Float64Array(buffer, 8 * capacity, count),
    qty: new Float64Array(buffer, 16 * capacity, count),
    buyerIsMaker: new Uint8Array(buffer, 24 * capacity, count),
    newAggregate: new Uint8Array(buffer, 25 * capacity, count),
  };
}

/** Each column's bytes, in the order of the cache file (what the cache writes: header, then these). */
export function columnBytes(recording: Recording): Uint8Array[] {
  return COLUMNS.map(({ name }) => {
    const column = recording[name];
    return new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
  });
}

/**
 * API.md 12: every aggTrades row is an aggregate of its own; in a trades file consecutive rows
 * with the same time, price and taker side form one aggregate.
 */
export function startsAggregate(everyRowNew: boolean, r: Recording, i: number): 0 | 1 {
  if (everyRowNew || i === 0) return 1;
  return r.timeUs[i] !== r.timeUs[i - 1] || r.price[i] !== r.price[i - 1] || r.buyerIsMaker[i] !== r.buyerIsMaker[i - 1] ? 1 : 0;
}

const MAX = Number.MAX_SAFE_INTEGER;

/** The columns in the order of the buffer (and of the cache file), each with its element size. */
export const COLUMNS = [
  { name: 'timeUs', bytes: 8 },
  { name: 'price', bytes: 8 },
  { name: 'qty', bytes: 8 },
  { name: 'buyerIsMaker', bytes: 1 },
  { name: 'newAggregate', bytes: 1 },
] as const;

/** Byte offset of column `c` (an index of COLUMNS) in the buffer of `count` prints. */
export function columnOffset(c: number, count: number): number {
  let offset = 0;
  for (let i = 0; i < c; i++) offset += COLUMNS[i]!.bytes * count;
  return offset;
}

function wholeTimes(t: Float64Array, from: number, to: number): boolean {
  let previous = from === 0 ? 0 : t[from - 1]!;
  for (let i = from; i < to; i++) {
    const x = t[i]!;
    // `x === Math.floor(x)` is false for NaN; the bounds refuse the infinities.
    if (!(x >= previous && x <= MAX && x === Math.floor(x))) return false;
    previous = x;
  }
  return true;
}

function wholeUnits(a: Float64Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const x = a[i]!;
    if (!(x >= 1 && x <= MAX && x === Math.floor(x))) return false;
  }
  return true;
}

function flags(a: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (a[i]! > 1) return false;
  return true;
}

function aggregatesStarted(r: Recording, everyRowNew: boolean, from: number, to: number): boolean {
  const starts = r.newAggregate;
  for (let i = from; i < to; i++) if (starts[i] !== startsAggregate(everyRowNew, r, i)) return false;
  return true;
}

/**
 * Whether rows [from, to) of column `c` keep the Recording's promises: times whole,
 * non-decreasing, below 2^53; prices and quantities whole from 1 to 2^53 - 1; flags 0 or 1; the
 * aggregates as `startsAggregate` says (checked after the columns it reads). The cache checks
 * each piece of an entry as it reads it, while the piece is still in the processor's cache.
 */
export function columnKeepsPromises(r: Recording, c: number, from: number, to: number, everyRowNew: boolean): boolean {
  switch (c) {
    case 0:
      return wholeTimes(r.timeUs, from, to);
    case 1:
      return wholeUnits(r.price, from, to);
    case 2:
      return wholeUnits(r.qty, from, to);
    case 3:
      return flags(r.buyerIsMaker, from, to);
    default:
      return aggregatesStarted(r, everyRowNew, from, to);
  }
}
