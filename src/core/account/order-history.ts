// The account's ended orders (FILLED, CANCELED, EXPIRED, EXPIRED_IN_MATCH), kept when
// `[sim.account] ended_orders = "keep"` (API.md section 10) so GET order, order.status and
// allOrders answer them as the reference does; with "forget" (spec 2.4) nothing is kept.
//
// Kept orders live beside the book, never in it, and the matching path pays for one thing
// only: `ended` copies the order's final fields into a row of typed arrays (kept-orders.ts),
// which gives the garbage collector nothing to trace. Everything else happens when a query
// asks (`catchUp`): the rows that ended since the last query are indexed then, by client id
// (client-id-table.ts) and per symbol by orderId (two parallel sorted arrays: orderIds and
// rows). Rows are forgotten in the order they ended once `max_ended_orders` are kept; index
// entries of forgotten rows are skipped and dropped lazily.

import type { AccountOrder } from './account-order.ts';
import { ClientIdTable } from './client-id-table.ts';
import { KeptOrderRows } from './kept-orders.ts';
import type { OrderView } from '../types.ts';
import { lowerBound } from '../lower-bound.ts';

/** Stale entries a symbol's sorted arrays may carry beyond the kept count before compaction. */
const MIN_COMPACTION = 1024;

export class OrderHistory {
  private readonly rows: KeptOrderRows;
  private readonly byClientId: ClientIdTable;
  /** Per symbol: kept orderIds ascending, and the row of each; rows < rows.oldest are stale. */
  private readonly sortedIds: number[][];
  private readonly sortedRows: number[][];
  /** Rows from here on are not indexed yet. */
  private indexedThrough = 0;

  constructor(
    symbols: readonly string[],
    /** 0 with `ended_orders = "forget"`: nothing is kept. */
    private readonly capacity: number,
  ) {
    this.rows = new KeptOrderRows(symbols);
    this.byClientId = new ClientIdTable(this.rows);
    this.sortedIds = symbols.map(() => []);
    this.sortedRows = symbols.map(() => []);
  }

  get keeps(): boolean {
    return this.capacity > 0;
  }

  get size(): number {
    return this.rows.size;
  }

  /** An account order reached a final status: its final fields are kept (with "keep"). */
  ended(symbolIndex: number, order: AccountOrder): void {
    if (this.capacity === 0) return;
    this.rows.add(symbolIndex, order);
    if (this.rows.size > this.capacity) this.rows.releaseOldest();
  }

  /** A kept order of the symbol by orderId. */
  byId(symbolIndex: number, orderId: number): OrderView | undefined {
    const row = this.rowOf(symbolIndex, orderId);
    return row === undefined ? undefined : this.rows.view(row);
  }

  /** The most recent kept order of the symbol that had this client order id. */
  byClientOrderId(symbolIndex: number, clientOrderId: string): OrderView | undefined {
    this.catchUp();
    const row = this.byClientId.get(symbolIndex, clientOrderId);
    return row < 0 ? undefined : this.rows.view(row);
  }

  /** The kept row of the symbol's orderId (for `view` / `updateTime`), or undefined. */
  rowOf(symbolIndex: number, orderId: number): number | undefined {
    this.catchUp();
    const ids = this.sortedIds[symbolIndex]!;
    const at = firstAtLeast(ids, orderId);
    if (ids[at] !== orderId) return undefined;
    const row = this.sortedRows[symbolIndex]![at]!;
    return row >= this.rows.oldest ? row : undefined;
  }

  view(row: number): OrderView {
    return this.rows.view(row);
  }

  updateTime(row: number): number {
    return this.rows.updateTime(row);
  }

  /** The symbol's kept rows by ascending orderId from the first id >= `fromId`; the caller stops when it has enough. */
  *forward(symbolIndex: number, fromId: number): Generator<{ orderId: number; row: number }> {
    this.catchUp();
    const ids = this.sortedIds[symbolIndex]!;
    const rows = this.sortedRows[symbolIndex]!;
    for (let i = firstAtLeast(ids, fromId); i < ids.length; i++) if (rows[i]! >= this.rows.oldest) yield { orderId: ids[i]!, row: rows[i]! };
  }

  /** The symbol's kept rows from the highest orderId down. */
  *backward(symbolIndex: number): Generator<{ orderId: number; row: number }> {
    this.catchUp();
    const ids = this.sortedIds[symbolIndex]!;
    const rows = this.sortedRows[symbolIndex]!;
    for (let i = ids.length - 1; i >= 0; i--) if (rows[i]! >= this.rows.oldest) yield { orderId: ids[i]!, row: rows[i]! };
  }

  /** Indexes the rows that ended since the last query (still kept ones only). */
  private catchUp(): void {
    const end = this.rows.end;
    const start = Math.max(this.indexedThrough, this.rows.oldest);
    this.indexedThrough = end;
    if (start >= end) return;
    const batches = this.sortedIds.map((): [number, number][] => []);
    for (let row = start; row < end; row++) {
      const symbolIndex = this.rows.symbolIndex(row);
      batches[symbolIndex]!.push([this.rows.orderId(row), row]);
      this.byClientId.set(symbolIndex, this.rows.clientOrderId(row), row);
    }
    batches.forEach((batch, symbolIndex) => {
      if (batch.length > 0) this.insertSorted(symbolIndex, batch.sort((a, b) => a[0] - b[0]));
    });
  }

  /** Merges a sorted batch into the symbol's arrays: only the tail from the batch's first id moves. */
  private insertSorted(symbolIndex: number, batch: readonly [number, number][]): void {
    const oldest = this.rows.oldest;
    let ids = this.sortedIds[symbolIndex]!;
    let rows = this.sortedRows[symbolIndex]!;
    // Compact first when stale entries outnumber the kept rows by far.
    if (ids.length > 2 * this.rows.size + MIN_COMPACTION) {
      const keep = rows.map((row) => row >= oldest);
      ids = this.sortedIds[symbolIndex] = ids.filter((_, i) => keep[i]);
      rows = this.sortedRows[symbolIndex] = rows.filter((_, i) => keep[i]);
    }
    const from = firstAtLeast(ids, batch[0]![0]);
    const tailIds = ids.splice(from);
    const tailRows = rows.splice(from);
    let t = 0;
    let b = 0;
    while (t < tailIds.length || b < batch.length) {
      if (b >= batch.length || (t < tailIds.length && tailIds[t]! < batch[b]![0])) {
        ids.push(tailIds[t]!);
        rows.push(tailRows[t++]!);
      } else {
        ids.push(batch[b]![0]);
        rows.push(batch[b++]![1]);
      }
    }
  }
}

function firstAtLeast(sorted: readonly number[], value: number): number {
  return lowerBound(sorted.length, (i) => sorted[i]!, value);
}
