// A Recording's columns in ONE ArrayBuffer, in the order the cache file stores them: time, price
// and quantity as float64 (whole numbers below 2^53: µs, ticks, lots), then the two flag bytes.
// 26 bytes a print, no object per print; the cache reads a file straight into this buffer.
import type { Recording } from '../core/recording.ts';

/** Bytes of one print: three float64 columns and two byte columns. */
export const BYTES_PER_PRINT = 3 * 8 + 2;

/** A recording of `count` prints over `buffer` (BYTES_PER_PRINT x count bytes; zeroed when new). */
export function recordingOver(symbol: string, count: number, buffer: ArrayBuffer = new ArrayBuffer(BYTES_PER_PRINT * count)): Recording {
  return {
    symbol,
    count,
    timeUs: new Float64Array(buffer, 0, count),
    price: new Float64Array(buffer, 8 * count, count),
    qty: new Float64Array(buffer, 16 * count, count),
    buyerIsMaker: new Uint8Array(buffer, 24 * count, count),
    newAggregate: new Uint8Array(buffer, 25 * count, count),
  };
}

/** The bytes behind a recording made by `recordingOver` (what the cache writes). */
export function bytesOf(recording: Recording): Uint8Array {
  return new Uint8Array(recording.timeUs.buffer, 0, BYTES_PER_PRINT * recording.count);
}

/**
 * API.md 12: every aggTrades row is an aggregate of its own; in a trades file consecutive rows
 * with the same time, price and taker side form one aggregate.
 */
export function startsAggregate(everyRowNew: boolean, r: Recording, i: number): 0 | 1 {
  if (everyRowNew || i === 0) return 1;
  return r.timeUs[i] !== r.timeUs[i - 1] || r.price[i] !== r.price[i - 1] || r.buyerIsMaker[i] !== r.buyerIsMaker[i - 1] ? 1 : 0;
}

/**
 * Whether the columns keep the Recording's promises: times whole, non-decreasing, below 2^53;
 * prices and quantities whole from 1 to 2^53 - 1; flags 0 or 1 and the aggregates as
 * `startsAggregate` says. The cache checks an entry with it before using it.
 */
export function keepsPromises(r: Recording, everyRowNew: boolean): boolean {
  const { timeUs, price, qty, buyerIsMaker, newAggregate } = r;
  let previous = 0;
  for (let i = 0; i < r.count; i++) {
    const t = timeUs[i]!;
    const p = price[i]!;
    const q = qty[i]!;
    // `x === Math.floor(x)` is false for NaN; the bounds refuse the infinities.
    if (!(t >= previous && t <= Number.MAX_SAFE_INTEGER && t === Math.floor(t))) return false;
    if (!(p >= 1 && p <= Number.MAX_SAFE_INTEGER && p === Math.floor(p))) return false;
    if (!(q >= 1 && q <= Number.MAX_SAFE_INTEGER && q === Math.floor(q))) return false;
    if (buyerIsMaker[i]! > 1 || newAggregate[i] !== startsAggregate(everyRowNew, r, i)) return false;
    previous = t;
  }
  return true;
}
