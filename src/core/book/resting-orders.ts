// Which orders rest: every resting order's book entry by slot and key (OrderStore), the
// counterparty's resting orders per symbol (a dense pick list for O(1) random picks by the
// generator, and one of the orders a test scripted, which the generator never picks), and a
// spare taker Order reused by the counterparty's commands. It knows nothing of
// prices or balances, nor of the account's client ids (the account room keeps those): the
// matcher puts orders on and off the book, and tells it.

import { Order, type BookStore, type Level } from './book.ts';
import { OrderStore } from './order-store.ts';
import type { Side } from '../types.ts';

/**
 * A symbol's resting counterparty orders as a dense list of slots: the generator's random cancel
 * picks by position, and removal swaps the last one in (the order seeded flows depend on).
 */
export class PickList {
  private slots = new Int32Array(64);
  length = 0;

  /** The slot at `position` (0 <= position < length). */
  at(position: number): number {
    return this.slots[position]!;
  }

  /** Appends a slot; its position. */
  push(slot: number): number {
    if (this.length === this.slots.length) {
      const grown = new Int32Array(this.slots.length * 2);
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[this.length] = slot;
    return this.length++;
  }

  /** Removes the slot at `position`, the last one taking its place; the slot moved (or -1). */
  removeAt(position: number): number {
    const last = this.slots[--this.length]!;
    if (position === this.length) return -1;
    this.slots[position] = last;
    return last;
  }
}

/**
 * A scripted order's pick as the order store keeps it, from its position in the scripted list,
 * and back (the map is its own inverse): -2, -3, ... stay clear of NONE (-1, an account order)
 * and of the generator's positions (0, 1, ...).
 */
export function scriptedPick(positionOrPick: number): number {
  return -2 - positionOrPick;
}

export class RestingOrders<A = unknown> {
  /** Every resting order: slot records, keys, the account's orders by id. */
  readonly orders: BookStore<A> = new OrderStore<Level, Order<A>>();
  /** The generator's (and a replay's synthetic) resting orders per symbol, for O(1) random picks. */
  readonly counterpartyResting: PickList[];
  /**
   * The scripted market's resting orders per symbol (API.md section 8): a test's order rests
   * until it trades or the test cancels it, so the generator's random cancels never pick it.
   * Their slots hold `scriptedPick(position)`, below NONE, as their pick.
   */
  readonly scriptedResting: PickList[];
  /**
   * Counterparty takers that ended, reused for the next ones: the counterparty's commands then
   * allocate no Order (one is enough: a taker is done before the next command).
   */
  private spareTaker: Order<A> | null = null;

  constructor(symbolCount: number) {
    this.counterpartyResting = Array.from({ length: symbolCount }, () => new PickList());
    this.scriptedResting = Array.from({ length: symbolCount }, () => new PickList());
  }

  /** A slot (and book key) for a counterparty order about to rest, in its symbol's pick list (or the scripted one). */
  addCounterparty(symbolIndex: number, scripted = false): number {
    const resting = (scripted ? this.scriptedResting : this.counterpartyResting)[symbolIndex]!;
    const slot = this.orders.allocate(scripted ? scriptedPick(resting.length) : resting.length);
    resting.push(slot);
    return slot;
  }

  /** A counterparty order left the book: out of its pick list, its slot freed. */
  retireCounterparty(symbolIndex: number, slot: number): void {
    const orders = this.orders;
    const pick = orders.pick(slot);
    if (pick >= 0) {
      const moved = this.counterpartyResting[symbolIndex]!.removeAt(pick);
      if (moved !== -1) orders.setPick(moved, pick);
    } else {
      const position = scriptedPick(pick);
      const moved = this.scriptedResting[symbolIndex]!.removeAt(position);
      if (moved !== -1) orders.setPick(moved, pick);
    }
    orders.free(slot);
  }

  /** A counterparty taker (id 0: a counterparty taker's id is never read). */
  newCounterpartyTaker(symbolIndex: number, side: Side, price: number, lots: number): Order<A> {
    const spare = this.spareTaker;
    if (spare === null) return new Order<A>(0, symbolIndex, side, price, lots, null);
    this.spareTaker = null;
    return spare.reuse(symbolIndex, side, price, lots);
  }

  /** Keeps a finished counterparty taker for reuse. */
  spare(order: Order<A>): void {
    this.spareTaker = order;
  }
}
