// The waiting conditional orders of one symbol and direction, as an indexed binary heap keyed by
// (stop price, orderId): the next stop a trade can reach is at the top, so a trade that triggers
// none looks at one entry, k triggers cost O(k log n), and a cancel O(log n) (each entry knows
// its position). `rising` heaps trigger when the last price reaches their stop from below
// (the lowest stop on top); falling heaps when it reaches it from above (the highest on top).

import type { AccountBookOrder } from './account-order.ts';

/** A conditional order waiting off the book, with what its trigger check needs. */
export class WaitingStop {
  /** Its position in its heap; -1 when it is in none (tracking, or triggered). */
  heapAt = -1;
  /** A trailing stop that tracks: its best price since tracking started (0: from the next trade). */
  reference = 0;

  constructor(
    readonly order: AccountBookOrder,
    /** Ticks; 0 for a trailing stop without one. */
    readonly stopPrice: number,
    /** Its stop condition: last >= stopPrice (rising) or last <= stopPrice. */
    readonly rises: boolean,
    /** BIPS; 0 for a plain stop. */
    readonly trailingDelta: number,
  ) {}

  get orderId(): number {
    return this.order.id;
  }
}

export class StopHeap {
  private readonly items: WaitingStop[] = [];

  constructor(readonly rising: boolean) {}

  get size(): number {
    return this.items.length;
  }

  /** The stop a trade reaches first, if any. */
  top(): WaitingStop | undefined {
    return this.items[0];
  }

  /** Whether the last price `price` meets the top's stop. */
  topReached(price: number): boolean {
    const top = this.items[0];
    return top !== undefined && (this.rising ? price >= top.stopPrice : price <= top.stopPrice);
  }

  push(stop: WaitingStop): void {
    stop.heapAt = this.items.length;
    this.items.push(stop);
    this.up(stop.heapAt);
  }

  pop(): WaitingStop {
    const top = this.items[0]!;
    this.remove(top);
    return top;
  }

  remove(stop: WaitingStop): void {
    const items = this.items;
    const at = stop.heapAt;
    const last = items.pop()!;
    stop.heapAt = -1;
    if (last === stop) return;
    items[at] = last;
    last.heapAt = at;
    this.down(at);
    this.up(last.heapAt);
  }

  /** For the invariant checks: every entry, and whether the heap order and positions hold. */
  entries(): readonly WaitingStop[] {
    return this.items;
  }

  consistent(): boolean {
    const items = this.items;
    for (let i = 0; i < items.length; i++) {
      if (items[i]!.heapAt !== i) return false;
      if (i > 0 && this.before(items[i]!, items[(i - 1) >> 1]!)) return false;
    }
    return true;
  }

  /** Whether `a` belongs above `b`: nearer to triggering, then older. */
  private before(a: WaitingStop, b: WaitingStop): boolean {
    if (a.stopPrice !== b.stopPrice) return this.rising ? a.stopPrice < b.stopPrice : a.stopPrice > b.stopPrice;
    return a.orderId < b.orderId;
  }

  private up(at: number): void {
    const items = this.items;
    const item = items[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = items[parent]!;
      if (!this.before(item, p)) break;
      items[at] = p;
      p.heapAt = at;
      at = parent;
    }
    items[at] = item;
    item.heapAt = at;
  }

  private down(at: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= n) break;
      if (child + 1 < n && this.before(items[child + 1]!, items[child]!)) child++;
      const c = items[child]!;
      if (!this.before(c, item)) break;
      items[at] = c;
      c.heapAt = at;
      at = child;
    }
    items[at] = item;
    item.heapAt = at;
  }
}
