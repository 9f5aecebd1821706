// Kept orders by (symbol, client order id) -> the row of the most recent one (order-history.ts).
// An open-addressing table over typed arrays (linear probing) instead of a Map<string, ...>: a
// Map would keep every client id string alive on the heap, which is the garbage collector's
// cost kept-orders.ts avoids. Keys are compared against the rows.
//
// Nothing is deleted when a row is forgotten: an entry whose row is older than the oldest kept
// one is stale, and stale entries are skipped (they never answer) and dropped when the table is
// rebuilt. This is sound because rows are forgotten oldest first: once the most recent row
// with an id is forgotten, every older row with that id is gone too.

import { hashClientId, type KeptOrderRows } from './kept-orders.ts';

const EMPTY = 0;
const INITIAL_SLOTS = 1024;

export class ClientIdTable {
  /** seq + 1 of the row in each slot (0: empty). */
  private slots = new Float64Array(INITIAL_SLOTS);
  private hashes = new Uint32Array(INITIAL_SLOTS);
  /** Occupied slots, stale ones included. */
  private used = 0;

  constructor(private readonly rows: KeptOrderRows) {}

  /** Row `seq` is now the most recent kept order with its client id. */
  set(symbolIndex: number, clientOrderId: string, seq: number): void {
    const hash = hashClientId(symbolIndex, clientOrderId);
    const mask = this.slots.length - 1;
    const oldest = this.rows.oldest;
    let reusable = -1;
    let i = hash & mask;
    for (; this.slots[i] !== EMPTY; i = (i + 1) & mask) {
      const row = this.slots[i]! - 1;
      if (row < oldest) {
        if (reusable < 0) reusable = i;
      } else if (this.hashes[i] === hash && this.matches(row, symbolIndex, clientOrderId)) {
        this.slots[i] = seq + 1;
        return;
      }
    }
    const at = reusable >= 0 ? reusable : i;
    this.slots[at] = seq + 1;
    this.hashes[at] = hash;
    if (at === i && ++this.used * 2 > this.slots.length) this.rebuild();
  }

  /** The row of the most recent kept order of the symbol with this id, or -1. */
  get(symbolIndex: number, clientOrderId: string): number {
    const hash = hashClientId(symbolIndex, clientOrderId);
    const mask = this.slots.length - 1;
    const oldest = this.rows.oldest;
    for (let i = hash & mask; this.slots[i] !== EMPTY; i = (i + 1) & mask) {
      const row = this.slots[i]! - 1;
      if (row >= oldest && this.hashes[i] === hash && this.matches(row, symbolIndex, clientOrderId)) return row;
    }
    return -1;
  }

  private matches(row: number, symbolIndex: number, clientOrderId: string): boolean {
    return this.rows.symbolIndex(row) === symbolIndex && this.rows.hasClientOrderId(row, clientOrderId);
  }

  /** Drops stale entries; doubles the table if it is still at least half full. */
  private rebuild(): void {
    const oldSlots = this.slots;
    const oldHashes = this.hashes;
    const oldest = this.rows.oldest;
    let live = 0;
    for (let k = 0; k < oldSlots.length; k++) if (oldSlots[k] !== EMPTY && oldSlots[k]! - 1 >= oldest) live++;
    let size = INITIAL_SLOTS;
    while (live * 4 > size) size *= 2;
    this.slots = new Float64Array(size);
    this.hashes = new Uint32Array(size);
    const mask = size - 1;
    for (let k = 0; k < oldSlots.length; k++) {
      if (oldSlots[k] === EMPTY || oldSlots[k]! - 1 < oldest) continue;
      let i = oldHashes[k]! & mask;
      while (this.slots[i] !== EMPTY) i = (i + 1) & mask;
      this.slots[i] = oldSlots[k]!;
      this.hashes[i] = oldHashes[k]!;
    }
    this.used = live;
  }
}
