// The account's order lists (issue 33; rest-api.md "Order lists", API.md 11 "OCO", "OTO/OTOCO",
// "Ids and history"): each list's orders and state, the open lists by id and by list client id
// (unique among open lists, account-wide, as the list queries take no symbol), and the ended
// lists kept with `ended_orders = "keep"` (the oldest forgotten beyond `max_ended_orders`).
// What happens to a list when its orders trade, trigger or end is list-desk.ts's.

import type { ContingencyType, ListOrderStatus, ListStatusType, OrderListView } from '../types.ts';
import type { AccountBookOrder } from './account-order.ts';
import type { Need } from './holds.ts';

/** What a list was placed as: OTOCO reports itself as OTO (the reference's response shows so). */
export type ListKind = 'OCO' | 'OTO' | 'OTOCO';

export class OrderList {
  listStatusType: ListStatusType = 'EXEC_STARTED';
  listOrderStatus: ListOrderStatus = 'EXECUTING';
  /** OTO / OTOCO: the working order until it has filled (or ended); then null. */
  working: AccountBookOrder | null = null;
  /** OTO / OTOCO: the PENDING_NEW order(s) until they are activated or end. */
  pending: AccountBookOrder[] = [];
  /**
   * The OCO pair while both legs are open (an OCO from placement, an OTOCO's pending pair from
   * its activation): the STOP_LOSS leg first. Its legs hold nothing of their own: the pair
   * holds `pairHold`, the larger of their needs (API.md 11 "Amounts and locks").
   */
  pair: AccountBookOrder[] | null = null;
  pairHold: Need = { lock: 0n, reserve: 0n };

  constructor(
    readonly orderListId: number,
    readonly kind: ListKind,
    public listClientOrderId: string,
    readonly symbolIndex: number,
    readonly symbol: string,
    /** In orderId order (consecutive ids). */
    readonly orders: readonly AccountBookOrder[],
    public transactionTime: number,
  ) {}

  get ended(): boolean {
    return this.listOrderStatus === 'ALL_DONE';
  }

  get contingencyType(): ContingencyType {
    return this.kind === 'OCO' ? 'OCO' : 'OTO';
  }

  /** The other leg of the open pair, or null when `order` is not in it. */
  pairedWith(order: AccountBookOrder): AccountBookOrder | null {
    const pair = this.pair;
    if (pair === null) return null;
    return pair[0] === order ? pair[1]! : pair[1] === order ? pair[0]! : null;
  }

  view(): OrderListView {
    return {
      orderListId: this.orderListId,
      contingencyType: this.contingencyType,
      listStatusType: this.listStatusType,
      listOrderStatus: this.listOrderStatus,
      listClientOrderId: this.listClientOrderId,
      transactionTime: this.transactionTime,
      symbol: this.symbol,
      orders: this.orders.map((o) => ({ symbol: this.symbol, orderId: o.id, clientOrderId: o.account!.clientOrderId })),
    };
  }
}

export class OrderLists {
  private nextId = 1;
  /** Open lists by orderListId, oldest first (ids are handed out in order). */
  readonly open = new Map<number, OrderList>();
  private readonly openByClientId = new Map<string, OrderList>();
  /** Ended lists kept (ended_orders = "keep"), in the order they ended. */
  private readonly kept = new Map<number, OrderList>();
  /** Open lists per symbol (MAX_NUM_ORDER_LISTS). */
  readonly openPerSymbol: number[];

  constructor(
    symbolCount: number,
    /** max_ended_orders with "keep"; 0 with "forget": an ended list is forgotten at once. */
    private readonly capacity: number,
  ) {
    this.openPerSymbol = new Array<number>(symbolCount).fill(0);
  }

  /** The next list's id (orderListId counts from 1 per run, API.md 11). */
  takeId(): number {
    return this.nextId++;
  }

  hasOpenClientId(listClientOrderId: string): boolean {
    return this.openByClientId.has(listClientOrderId);
  }

  add(list: OrderList): void {
    this.open.set(list.orderListId, list);
    this.openByClientId.set(list.listClientOrderId, list);
    this.openPerSymbol[list.symbolIndex]!++;
  }

  /** A list is done (ALL_DONE): out of the open lists, kept or forgotten. */
  end(list: OrderList): void {
    if (!this.open.delete(list.orderListId)) return;
    this.openByClientId.delete(list.listClientOrderId);
    this.openPerSymbol[list.symbolIndex]!--;
    if (this.capacity === 0) return;
    this.kept.set(list.orderListId, list);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
  }

  /** An open list by id. */
  openById(orderListId: number): OrderList | undefined {
    return this.open.get(orderListId);
  }

  /** An open or kept list by id. */
  byId(orderListId: number): OrderList | undefined {
    return this.open.get(orderListId) ?? this.kept.get(orderListId);
  }

  /** The open list with this client id, else the most recent kept one. */
  byClientId(listClientOrderId: string, openOnly: boolean): OrderList | undefined {
    const open = this.openByClientId.get(listClientOrderId);
    if (open !== undefined || openOnly) return open;
    let found: OrderList | undefined;
    for (const list of this.kept.values()) if (list.listClientOrderId === listClientOrderId && (found === undefined || list.orderListId > found.orderListId)) found = list;
    return found;
  }

  /** Open and kept lists, by ascending orderListId. */
  all(): OrderList[] {
    return [...this.open.values(), ...this.kept.values()].sort((a, b) => a.orderListId - b.orderListId);
  }
}
