// Which orders exist: every resting order by book key (OrderIndex), the account's open orders
// per symbol by client order id, the counterparty's resting orders per symbol (a dense list for
// O(1) random picks by the generator), and the pool of finished counterparty Order objects
// reused for the next ones. It knows nothing of prices or balances: the matcher puts orders on
// and off the book, and tells the registry.

import { apiError, type ApiError } from './errors.ts';
import { Order } from './book.ts';
import type { OrderRef } from './commands.ts';
import { OrderIndex } from './order-index.ts';
import type { Instrument } from './markets.ts';
import type { Side } from './types.ts';

/** Spare counterparty Order objects kept: enough for a book shrinking by that many at once. */
const MAX_SPARE_ORDERS = 16_384;

export class OrderRegistry {
  /** Every resting order by book key (account: orderId > 0; counterparty: < 0). */
  readonly orders = new OrderIndex();
  /** The account's open orders per symbol by client order id. */
  readonly clientIds: Map<string, Order>[];
  /** The counterparty's resting orders per symbol, for O(1) random picks. */
  readonly counterpartyResting: Order[][];
  /**
   * Counterparty orders that ended (filled, cancelled, or takers done matching), reused for the
   * next ones: the counterparty's commands then allocate no Order, and new resting orders no
   * longer survive young-generation collections (each was copied twice, then promoted).
   */
  private readonly spareOrders: Order[] = [];

  constructor(symbolCount: number) {
    this.clientIds = Array.from({ length: symbolCount }, () => new Map());
    this.counterpartyResting = Array.from({ length: symbolCount }, () => []);
  }

  /** An account order went onto the book. */
  addAccount(inst: Instrument, order: Order): void {
    this.orders.set(order.id, order);
    this.clientIds[inst.index]!.set(order.account!.clientOrderId, order);
    inst.accountOpenOrders++;
  }

  /** An account order ended (filled, cancelled, expired in match). */
  forgetAccount(inst: Instrument, order: Order): void {
    this.orders.delete(order.id);
    if (this.clientIds[inst.index]!.delete(order.account!.clientOrderId)) inst.accountOpenOrders--;
  }

  /** A counterparty order about to rest gets its book key and its place in the pick index. */
  addCounterparty(order: Order): void {
    order.id = this.orders.newCounterpartyKey();
    this.orders.set(order.id, order);
    const resting = this.counterpartyResting[order.symbolIndex]!;
    order.slot = resting.length;
    resting.push(order);
  }

  /** A counterparty order left the book: out of both indexes, kept for reuse. */
  retireCounterparty(order: Order): void {
    this.orders.delete(order.id);
    const resting = this.counterpartyResting[order.symbolIndex]!;
    const last = resting.pop()!;
    if (last !== order) {
      resting[order.slot] = last;
      last.slot = order.slot;
    }
    order.slot = -1;
    this.spare(order);
  }

  newCounterpartyOrder(symbolIndex: number, side: Side, price: number, lots: number): Order {
    // Id 0 while it takes (a counterparty taker's id is never read); a book key if it rests.
    const spare = this.spareOrders.pop();
    return spare === undefined ? new Order(0, symbolIndex, side, price, lots, null) : spare.reuse(0, symbolIndex, side, price, lots);
  }

  /** Keeps a finished counterparty order for reuse; beyond the cap it is left to the GC. */
  spare(order: Order): void {
    if (this.spareOrders.length < MAX_SPARE_ORDERS) this.spareOrders.push(order);
  }

  /** An open account order of the symbol by id and/or client id (binance-facts §3.8). */
  findAccount(ref: OrderRef, missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER'): Order | ApiError {
    return findAccountOrder(this.orders, this.clientIds, ref, missing);
  }
}

/** Finds an open account order by id and/or client id (both: the id decides, the client id must match). */
export function findAccountOrder(
  orders: { get(key: number): Order | undefined },
  clientIds: readonly ReadonlyMap<string, Order>[],
  ref: OrderRef,
  missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER',
): Order | ApiError {
  const { orderId, origClientOrderId: clientOrderId } = ref;
  let order: Order | undefined;
  if (orderId !== undefined) {
    order = orders.get(orderId);
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
