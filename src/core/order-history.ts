// The account's ended orders (FILLED, CANCELED, EXPIRED, EXPIRED_IN_MATCH), kept when
// `[sim.account] ended_orders = "keep"` (API.md section 10) so GET order, order.status and
// allOrders answer them as the reference does; with "forget" (spec 2.4) nothing is kept.
//
// Kept orders live beside the book, never in it: the matcher and the registry do not see them,
// so placing, matching and cancelling cost what they cost without history. An order is handed
// over once, when it ends (`ended`); the rest is work for the queries.
//
// Per symbol: ended orders sorted by orderId (for allOrders), by orderId (GET order by id) and by
// client order id (the most recent ended order that had it). One FIFO over all symbols decides
// which is forgotten first once `max_ended_orders` are kept. A forgotten order leaves the two
// maps at once and the sorted list lazily (compacted when half of it is forgotten).

import type { AccountOrder } from './account-order.ts';

/** Entries forgotten before a sorted list is compacted at all (small lists are left alone). */
const MIN_COMPACTION = 1024;

class SymbolHistory {
  /** Kept orders by ascending orderId; may still hold forgotten ones (not in `byId`). */
  sorted: AccountOrder[] = [];
  readonly byId = new Map<number, AccountOrder>();
  /** The most recent ended order per client order id. */
  readonly byClientId = new Map<string, AccountOrder>();
  forgottenInSorted = 0;

  add(order: AccountOrder): void {
    const sorted = this.sorted;
    // Orders mostly end in the order they were placed: check the end before searching.
    const n = sorted.length;
    if (n === 0 || sorted[n - 1]!.orderId < order.orderId) sorted.push(order);
    else sorted.splice(lowerBound(sorted, order.orderId), 0, order);
    this.byId.set(order.orderId, order);
    this.byClientId.set(order.clientOrderId, order);
  }

  forget(order: AccountOrder): void {
    this.byId.delete(order.orderId);
    if (this.byClientId.get(order.clientOrderId) === order) this.byClientId.delete(order.clientOrderId);
    this.forgottenInSorted++;
    if (this.forgottenInSorted >= MIN_COMPACTION && this.forgottenInSorted * 2 >= this.sorted.length) {
      this.sorted = this.sorted.filter((o) => this.byId.get(o.orderId) === o);
      this.forgottenInSorted = 0;
    }
  }

  isKept(order: AccountOrder): boolean {
    return this.byId.get(order.orderId) === order;
  }
}

export class OrderHistory {
  private readonly symbols: SymbolHistory[];
  /** Kept orders in the order they ended, from `head` on: the first is forgotten first. */
  private queue: AccountOrder[] = [];
  /** The symbol index of each queued order (AccountOrder carries only the symbol's name). */
  private queueSymbols: number[] = [];
  private head = 0;

  constructor(
    symbolCount: number,
    /** 0 with `ended_orders = "forget"`: nothing is kept. */
    private readonly capacity: number,
  ) {
    this.symbols = Array.from({ length: symbolCount }, () => new SymbolHistory());
  }

  get keeps(): boolean {
    return this.capacity > 0;
  }

  get size(): number {
    return this.queue.length - this.head;
  }

  /** An account order reached a final status. */
  ended(symbolIndex: number, order: AccountOrder): void {
    if (this.capacity === 0) return;
    this.symbols[symbolIndex]!.add(order);
    this.queue.push(order);
    this.queueSymbols.push(symbolIndex);
    if (this.queue.length - this.head > this.capacity) this.forgetOldest();
  }

  /** A kept order of the symbol by orderId. */
  byId(symbolIndex: number, orderId: number): AccountOrder | undefined {
    return this.symbols[symbolIndex]!.byId.get(orderId);
  }

  /** The most recent kept order of the symbol that had this client order id. */
  byClientId(symbolIndex: number, clientOrderId: string): AccountOrder | undefined {
    return this.symbols[symbolIndex]!.byClientId.get(clientOrderId);
  }

  /**
   * The symbol's kept orders in ascending orderId, from the first with an id >= `fromId`
   * (`forward`), or from the last one backwards (`backward`); the caller stops when it has enough.
   */
  *forward(symbolIndex: number, fromId: number): Generator<AccountOrder> {
    const history = this.symbols[symbolIndex]!;
    const sorted = history.sorted;
    for (let i = lowerBound(sorted, fromId); i < sorted.length; i++) if (history.isKept(sorted[i]!)) yield sorted[i]!;
  }

  *backward(symbolIndex: number): Generator<AccountOrder> {
    const history = this.symbols[symbolIndex]!;
    const sorted = history.sorted;
    for (let i = sorted.length - 1; i >= 0; i--) if (history.isKept(sorted[i]!)) yield sorted[i]!;
  }

  private forgetOldest(): void {
    const oldest = this.queue[this.head]!;
    this.queue[this.head] = undefined as never;
    this.symbols[this.queueSymbols[this.head]!]!.forget(oldest);
    this.head++;
    // Drop the consumed front now and then: amortised O(1) per order, no unbounded growth.
    if (this.head >= MIN_COMPACTION && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.queueSymbols = this.queueSymbols.slice(this.head);
      this.head = 0;
    }
  }
}

function lowerBound(sorted: readonly AccountOrder[], orderId: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]!.orderId < orderId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
