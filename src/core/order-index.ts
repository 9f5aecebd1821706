// Every resting order by book key. The account's orders (key = orderId > 0, at most a few
// hundred) sit in a Map. The counterparty's (hundreds of thousands on a deep book) sit in a
// dense array of slots that are recycled: a key names its slot and the slot's generation, so a
// lookup is one array read plus a check that the order there still has that key, and a key of
// an order that is gone never finds the slot's next occupant. A Map as large as the book (the
// first design) missed the cache on every cancel; keys handed out in sequence (the second) left
// pages of mostly empty slots behind long-lived orders and allocated new ones all the time.

import type { Order } from './book.ts';

/** Counterparty keys are -(generation * SLOT_LIMIT + slot + 1): negative, and exact in a double. */
const SLOT_LIMIT = 2 ** 22;

/**
 * The slot of a counterparty key. Its low 22 bits, read with a bitwise AND: exact for any key
 * below 2^53 (ToInt32 keeps the low 32 bits), where `% SLOT_LIMIT` on a key past the small-integer
 * range (generation 256 on) is a floating-point remainder, a call out of optimized code.
 */
function slotOf(key: number): number {
  return (-key - 1) & (SLOT_LIMIT - 1);
}

export class OrderIndex {
  private readonly account = new Map<number, Order>();
  private readonly slots: (Order | null)[] = [];
  /**
   * Slots no order occupies, reused last-freed first, each as two entries: the slot, then the
   * generation of the last key it handed out. Kept here rather than in a per-slot counter, a
   * rest reads nothing per slot (on a deep book, one cache miss less per resting order).
   */
  private readonly freeSlots: number[] = [];
  private counterpartyCount = 0;

  get size(): number {
    return this.account.size + this.counterpartyCount;
  }

  /**
   * A key for a counterparty order about to rest: a free slot with its next generation. The
   * slot is held for it until `delete(key)`; `set(key, order)` puts the order there.
   */
  newCounterpartyKey(): number {
    const free = this.freeSlots;
    if (free.length > 0) {
      const generation = free.pop()! + 1;
      return -(generation * SLOT_LIMIT + free.pop()! + 1);
    }
    const slot = this.slots.length;
    if (slot >= SLOT_LIMIT) throw new Error(`more than ${SLOT_LIMIT} resting counterparty orders`);
    this.slots.push(null);
    return -(SLOT_LIMIT + slot + 1);
  }

  get(key: number): Order | undefined {
    if (key >= 0) return this.account.get(key);
    const order = this.slots[slotOf(key)];
    return order != null && order.id === key ? order : undefined;
  }

  set(key: number, order: Order): void {
    if (key >= 0) {
      this.account.set(key, order);
      return;
    }
    const slot = slotOf(key);
    if (this.slots[slot] == null) this.counterpartyCount++;
    this.slots[slot] = order;
  }

  delete(key: number): boolean {
    if (key >= 0) return this.account.delete(key);
    const slot = slotOf(key);
    const order = this.slots[slot];
    if (order == null || order.id !== key) return false;
    this.slots[slot] = null;
    this.freeSlots.push(slot, Math.floor((-key - 1) / SLOT_LIMIT));
    this.counterpartyCount--;
    return true;
  }
}
