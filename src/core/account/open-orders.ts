// The account's open orders as the account sees them: per symbol by client order id (a client id
// is unique among a symbol's open orders, binance-facts §3.8), with each symbol's count of open
// account orders (MAX_NUM_ORDERS). The book keeps the slots of those that rest; this keeps their
// ids, and the orders open off the book (issue 33: conditional orders waiting for their
// trigger, order lists' PENDING_NEW orders) by orderId, and each symbol's open icebergs
// (MAX_NUM_ICEBERG_ORDERS).

import { apiError, type ApiError } from '../errors.ts';
import type { OrderRef } from '../commands.ts';
import type { Instrument } from '../markets.ts';
import type { AccountOrder } from './account-order.ts';
import type { AccountBookOrder } from './account-order.ts';

export class OpenOrders {
  /** The account's open orders per symbol by client order id. */
  readonly clientIds: Map<string, AccountBookOrder>[];
  /** Open orders that are not on the book (waiting, triggered, pending), by orderId. */
  readonly offBook = new Map<number, AccountBookOrder>();
  /** Open icebergs per symbol. */
  readonly icebergs: number[];

  constructor(
    symbolCount: number,
    /** Resting account orders by orderId (the book's store keeps them). */
    private readonly byId: { account(orderId: number): AccountBookOrder | undefined },
  ) {
    this.clientIds = Array.from({ length: symbolCount }, () => new Map());
    this.icebergs = new Array<number>(symbolCount).fill(0);
  }

  /** An account order about to rest (or, `offBook`, to wait off the book): its client id entry. */
  add(inst: Instrument, order: AccountBookOrder, offBook = false): void {
    const acct = order.account!;
    this.clientIds[inst.index]!.set(acct.clientOrderId, order);
    inst.accountOpenOrders++;
    if (acct.icebergQty !== 0) this.icebergs[inst.index]!++;
    if (offBook) this.offBook.set(order.id, order);
  }

  /** An open order off the book goes on it (triggered, activated): it stays open. */
  onBook(orderId: number): void {
    this.offBook.delete(orderId);
  }

  /** An account order is no longer open (filled, cancelled, expired). */
  forget(inst: Instrument, acct: AccountOrder): void {
    if (!this.clientIds[inst.index]!.delete(acct.clientOrderId)) return;
    inst.accountOpenOrders--;
    if (acct.icebergQty !== 0) this.icebergs[inst.index]!--;
    if (this.offBook.size !== 0) this.offBook.delete(acct.orderId);
  }

  /** A resting account order by orderId, whatever its symbol. */
  byOrderId(orderId: number): AccountBookOrder | undefined {
    return this.byId.account(orderId);
  }

  /** An open account order by orderId, on the book or off it. */
  account(orderId: number): AccountBookOrder | undefined {
    return this.byId.account(orderId) ?? (this.offBook.size === 0 ? undefined : this.offBook.get(orderId));
  }

  /** An open account order of the symbol by id and/or client id (binance-facts §3.8). */
  find(ref: OrderRef, missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER'): AccountBookOrder | ApiError {
    return findAccountOrder(this, this.clientIds, ref, missing);
  }
}

/** Finds an open account order by id and/or client id (both: the id decides, the client id must match). */
export function findAccountOrder(
  orders: { account(orderId: number): AccountBookOrder | undefined },
  clientIds: readonly ReadonlyMap<string, AccountBookOrder>[],
  ref: OrderRef,
  missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER',
): AccountBookOrder | ApiError {
  const { orderId, origClientOrderId: clientOrderId } = ref;
  let order: AccountBookOrder | undefined;
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
