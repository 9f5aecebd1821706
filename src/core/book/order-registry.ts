// Which orders exist: every resting order's book entry by slot and key (OrderStore), the
// account's open orders per symbol by client order id, the counterparty's resting orders per
// symbol (a dense pick list for O(1) random picks by the generator), and a spare taker Order
// reused by the counterparty's commands. It knows nothing of prices or balances: the matcher
// puts orders on and off the book, and tells the registry.

import { apiError, type ApiError } from '../errors.ts';
import { Order, type BookStore, type Level } from './book.ts';
import type { OrderRef } from '../commands.ts';
import { OrderStore } from './order-store.ts';
import type { Instrument } from '../markets.ts';
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

export class OrderRegistry {
  /** Every resting order: slot records, keys, the account's orders by id. */
  readonly orders: BookStore = new OrderStore<Level, Order>();
  /** The account's open orders per symbol by client order id. */
  readonly clientIds: Map<string, Order>[];
  /** The counterparty's resting orders per symbol, for O(1) random picks. */
  readonly counterpartyResting: PickList[];
  /**
   * Counterparty takers that ended, reused for the next ones: the counterparty's commands then
   * allocate no Order (one is enough: a taker is done before the next command).
   */
  private spareTaker: Order | null = null;

  constructor(symbolCount: number) {
    this.clientIds = Array.from({ length: symbolCount }, () => new Map());
    this.counterpartyResting = Array.from({ length: symbolCount }, () => new PickList());
  }

  /** An account order about to rest: it gets its slot (order.slot) and its client id entry. */
  addAccount(inst: Instrument, order: Order): void {
    this.orders.addAccount(order);
    this.clientIds[inst.index]!.set(order.account!.clientOrderId, order);
    inst.accountOpenOrders++;
  }

  /** An account order ended (filled, cancelled, expired in match), already off the book. */
  forgetAccount(inst: Instrument, order: Order): void {
    this.orders.removeAccount(order);
    if (this.clientIds[inst.index]!.delete(order.account!.clientOrderId)) inst.accountOpenOrders--;
  }

  /** A slot (and book key) for a counterparty order about to rest, in its symbol's pick list. */
  addCounterparty(symbolIndex: number): number {
    const resting = this.counterpartyResting[symbolIndex]!;
    const slot = this.orders.allocate(resting.length);
    resting.push(slot);
    return slot;
  }

  /** A counterparty order left the book: out of the pick list, its slot freed. */
  retireCounterparty(symbolIndex: number, slot: number): void {
    const orders = this.orders;
    const position = orders.pick(slot);
    const moved = this.counterpartyResting[symbolIndex]!.removeAt(position);
    if (moved !== -1) orders.setPick(moved, position);
    orders.free(slot);
  }

  /** A counterparty taker (id 0: a counterparty taker's id is never read). */
  newCounterpartyTaker(symbolIndex: number, side: Side, price: number, lots: number): Order {
    const spare = this.spareTaker;
    if (spare === null) return new Order(0, symbolIndex, side, price, lots, null);
    this.spareTaker = null;
    return spare.reuse(symbolIndex, side, price, lots);
  }

  /** Keeps a finished counterparty taker for reuse. */
  spare(order: Order): void {
    this.spareTaker = order;
  }

  /** An open account order of the symbol by id and/or client id (binance-facts §3.8). */
  findAccount(ref: OrderRef, missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER'): Order | ApiError {
    return findAccountOrder(this.orders, this.clientIds, ref, missing);
  }
}

/** Finds an open account order by id and/or client id (both: the id decides, the client id must match). */
export function findAccountOrder(
  orders: { account(orderId: number): Order | undefined },
  clientIds: readonly ReadonlyMap<string, Order>[],
  ref: OrderRef,
  missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER',
): Order | ApiError {
  const { orderId, origClientOrderId: clientOrderId } = ref;
  let order: Order | undefined;
  if (orderId !== undefined) {
    order = orders.account(orderId);
    if (order !== undefined && (order.account === null || order.symbolIndex !== ref.symbolIndex)) order = undefined;
    if (order !== undefined && clientOrderId !== undefined && order.account!.clientOrderId !== clientOrderId) {
      // binance-facts §3.8: a query with both ids finds the order by id; a client id that does
      // not match it is -2039, not -2013.
      if (missing === 'NO_SUCH_ORDER') return apiError('CLIENT_ORDER_ID_MISMATCH');
      order = undefined;
    }
  } else if (clientOrderId !== undefined) {
    order = clientIds[ref.symbolIndex]!.get(clientOrderId);
  }
  return order ?? apiError(missing);
}
