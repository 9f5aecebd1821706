// The replay specs' own reading of the sample files under fixtures/replay/ (the reference's spot
// public-data format), independent of the simulator's reader: every row as written (decimal
// strings), times in ms, and one-minute candles folded from the rows with exact decimals, as
// the reference's klines would show them.
import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import type { Kline } from 'spot-sim';

/** An hour of BTCUSDT aggregate trades, 2025-01-02 from 00:00 UTC, times in microseconds, no header. */
export const HOUR_FILE = 'fixtures/replay/BTCUSDT-aggTrades-2025-01-02.csv';
export const HOUR = Date.UTC(2025, 0, 2);

export interface Row {
  readonly price: string;
  readonly qty: string;
  /** ms: a microsecond time divided by 1000, rounded down. */
  readonly time: number;
  readonly isBuyerMaker: boolean;
}

/** Every row of an aggTrades file: price, quantity, time and side as written. */
export function readAggTrades(file: string): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const cells = line.split(',');
    if (cells.length < 8 || !/^[0-9]+$/.test(cells[0]!)) continue; // a header or the final newline
    const t = Number(cells[5]);
    rows.push({ price: cells[1]!, qty: cells[2]!, time: t >= 1e15 ? Math.floor(t / 1000) : t, isBuyerMaker: cells[6]!.toLowerCase() === 'true' });
  }
  return rows;
}

/** A decimal as the exchange writes prices and quantities: 8 places. */
export function eight(value: Decimal.Value): string {
  return new Decimal(value).toFixed(8);
}

/**
 * The candles of `intervalMs` (a fixed interval: 1s to 1d) from `first` (an open time) to the
 * candle holding `last`; a quiet interval repeats the close before it.
 */
export function klinesOf(rows: readonly Row[], intervalMs: number, first: number, last: number): Kline[] {
  const out: Kline[] = [];
  let i = 0;
  let close: string | undefined;
  for (let open = first; open <= last; open += intervalMs) {
    while (i < rows.length && rows[i]!.time < open) close = rows[i++]!.price;
    const minute: Row[] = [];
    while (i < rows.length && rows[i]!.time < open + intervalMs) minute.push(rows[i++]!);
    if (minute.length > 0) close = minute[minute.length - 1]!.price;
    const prices = minute.map((r) => new Decimal(r.price));
    const sum = (pick: (r: Row) => Decimal.Value, of = minute) => of.reduce((s, r) => s.plus(pick(r)), new Decimal(0));
    const takers = minute.filter((r) => !r.isBuyerMaker);
    const at = close ?? '0';
    out.push([
      open,
      eight(minute[0]?.price ?? at),
      eight(minute.length > 0 ? Decimal.max(...prices) : at),
      eight(minute.length > 0 ? Decimal.min(...prices) : at),
      eight(at),
      eight(sum((r) => r.qty)),
      open + intervalMs - 1,
      eight(sum((r) => new Decimal(r.price).times(r.qty))),
      minute.length,
      eight(sum((r) => r.qty, takers)),
      eight(sum((r) => new Decimal(r.price).times(r.qty), takers)),
      '0',
    ]);
  }
  return out;
}
