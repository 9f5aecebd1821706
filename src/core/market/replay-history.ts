// A replayed symbol's history (API.md section 12): the recorded rows before `from` are the
// symbol's public trades, aggregate trades and candles, at their recorded spacing (speed 1),
// ending at the simulator's start: a row recorded at t is at start + floor((t - from) / 1 ms),
// so a chart opened at the first second shows the recorded day up to `from`. The recording's
// price, quantity and side columns serve as they are (views, no copy); the times and aggregate
// ids are written when something first reads the trades, the candles when something first
// reads candles, so a start that nobody asks about the past costs nothing.

import { lowerBound } from '../lower-bound.ts';
import type { Recording } from '../recording.ts';
import type { SymbolHistory } from './market-data.ts';
import type { MinuteBars } from './minute-bars.ts';
import { barsOfTrades, TradeColumns, type TradeHistory } from './trade-tape.ts';

/**
 * Where a recording starts printing: the first row at or after `from` (ms; null: the first row),
 * and `from` in µs. Searched among the loaded rows: a recording read lazily holds at least the
 * rows through the first one past `from` (src/replay/), so the answer is the same.
 */
export function firstLiveRow(recording: Recording, from: number | null): { index: number; fromUs: number } {
  if (from === null) return { index: 0, fromUs: recording.count > 0 ? recording.timeUs[0]! : 0 };
  const fromUs = from * 1000;
  return { index: lowerBound(recording.loadedRows, (i) => recording.timeUs[i]!, fromUs), fromUs };
}

/** The history of a replayed symbol whose simulator starts at `start` (ms). */
export function replayHistory(recording: Recording, from: number | null, start: number): SymbolHistory {
  const { index: count, fromUs } = firstLiveRow(recording, from);
  let aggregates = 0;
  for (let i = 0; i < count; i++) if (i === 0 || recording.newAggregate[i] === 1) aggregates++;
  let columns: TradeColumns | null = null;
  const written = (): TradeColumns => (columns ??= historyColumns(recording, count, fromUs, start));
  const trades: TradeHistory = {
    count,
    idsBefore: 0,
    lastAggId: aggregates,
    get columns() {
      return written();
    },
  };
  let bars: MinuteBars | null = null;
  return { trades, bars: () => (bars ??= barsOfTrades({ columns: written(), count, idsBefore: 0, lastAggId: aggregates })) };
}

/** The first `count` rows as trade columns: times moved to end at `start`, aggregate gaps from the rows' flags. */
function historyColumns(recording: Recording, count: number, fromUs: number, start: number): TradeColumns {
  const columns = Object.create(TradeColumns.prototype) as TradeColumns;
  const time = new Float64Array(count);
  const aggGap = new Uint32Array(count);
  let gap = 0;
  for (let i = 0; i < count; i++) {
    time[i] = start + Math.floor((recording.timeUs[i]! - fromUs) / 1000);
    // The gap (trade id - aggregate id) grows by one for each row that continues an aggregate.
    if (i > 0 && recording.newAggregate[i] !== 1) gap++;
    aggGap[i] = gap;
  }
  return Object.assign(columns, {
    capacity: count,
    time,
    price: recording.price.subarray(0, count),
    qty: recording.qty.subarray(0, count),
    aggGap,
    buyerIsMaker: recording.buyerIsMaker.subarray(0, count),
  });
}
