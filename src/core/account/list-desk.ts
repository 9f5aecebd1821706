// Order lists at work (issue 33; rest-api.md "New Order list - OCO / OTO / OTOCO", "Cancel Order
// list"; API.md 11 "OCO", "OTO/OTOCO", "Ids and history"). Placement checks every leg before any
// id is taken (a refused list sends no event), then gives the orders consecutive ids, reports
// each order's NEW and then the list's EXEC_STARTED. Afterwards:
// - an OCO pair (an OCO, or an OTOCO's pending pair once active): the first fill, the trigger or
//   the expiry of one leg expires the other (OCO_TRIGGER) and the list is ALL_DONE; the pair
//   holds the larger of its legs' needs, and the leg that goes on keeps its own;
// - an OTO / OTOCO working order that fills completely activates the pending order(s) once the
//   command has finished (their checks run again then; failing, they end EXPIRED, REJECTED); one
//   that expires expires them (OTO_PHASE_ONE_EXPIRED);
// - cancelling any order of an open list cancels all its open orders.
// Every list change's `listStatus` comes after its orders' execution reports.

import type { CancelOrderListResult, ListLeg, OrderListRef, OrderListResult, PlaceOrderList, PlaceResult } from '../commands.ts';
import { apiError, ApiError } from '../errors.ts';
import type { Instrument, Markets } from '../markets.ts';
import type { Fill, PreventedMatch, RejectReason } from '../types.ts';
import { isConditional, type AccountBookOrder } from './account-order.ts';
import { feeReservePerLot, largerNeed, lockedAsset, lockPriceOf, needAt, needOf, NOTHING, type Need } from './holds.ts';
import type { Ledger } from './ledger.ts';
import { entryError, markStart, newOrder, rejectionError, rejectReasonOf, startOrder, type EntryRoom } from './order-entry.ts';
import { OrderList, type ListKind, type OrderLists } from './order-lists.ts';
import type { ListHooks } from './order-runner.ts';

interface Arranged {
  readonly kind: ListKind;
  /** Every leg, in orderId order. */
  readonly legs: readonly ListLeg[];
  /** The OCO pair's legs, [above, below] by price (null: no pair). */
  readonly pair: readonly [ListLeg, ListLeg] | null;
}

/** The legs in the reference's order: the working order first; of a pair the STOP_LOSS leg first. */
function arrange(cmd: PlaceOrderList): Arranged {
  const stopFirst = (above: ListLeg, below: ListLeg): ListLeg[] => (isStopLoss(above) && !isStopLoss(below) ? [above, below] : [below, above]);
  switch (cmd.contingency) {
    case 'OCO':
      return { kind: 'OCO', legs: stopFirst(cmd.above, cmd.below), pair: [cmd.above, cmd.below] };
    case 'OTO':
      return { kind: 'OTO', legs: [cmd.working, cmd.pending], pair: null };
    case 'OTOCO':
      return { kind: 'OTOCO', legs: [cmd.working, ...stopFirst(cmd.pendingAbove, cmd.pendingBelow)], pair: [cmd.pendingAbove, cmd.pendingBelow] };
  }
}

function isStopLoss(leg: ListLeg): boolean {
  return leg.orderType === 'STOP_LOSS' || leg.orderType === 'STOP_LOSS_LIMIT';
}

/** The price an OCO leg is compared by (rest-api.md "New Order list - OCO": price restrictions). */
function relationPrice(leg: ListLeg): number {
  return leg.orderType === 'LIMIT_MAKER' || leg.orderType === 'TAKE_PROFIT_LIMIT' ? leg.price : (leg.stopPrice ?? 0);
}

/**
 * Whether the pair's prices break the reference's relation: the above leg's price over the
 * below leg's, and the last price strictly between them (with no trade yet, the first part only).
 */
function badPrices(inst: Instrument, above: ListLeg, below: ListLeg): boolean {
  const a = relationPrice(above);
  const b = relationPrice(below);
  if (a === 0 || b === 0) return false; // a trailing leg without a stop price has no price to compare
  const last = inst.lastPrice;
  return !(a > b) || (last !== 0 && !(b < last && last < a));
}

export class ListDesk implements ListHooks {
  constructor(
    private readonly markets: Markets,
    private readonly room: EntryRoom,
    private readonly ledger: Ledger,
    readonly lists: OrderLists,
    /** Runs the list's activation once the command has finished. */
    private readonly schedule: (list: OrderList) => void,
  ) {}

  // ---------------------------------------------------------------- placement

  place(cmd: PlaceOrderList): OrderListResult | ApiError {
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const now = cmd.now;
    const { kind, legs, pair } = arrange(cmd);
    if (this.lists.openPerSymbol[inst.index]! >= inst.maxNumOrderLists) return apiError('MAX_NUM_ORDER_LISTS');
    if (cmd.listClientOrderId !== null && this.lists.hasOpenClientId(cmd.listClientOrderId)) return apiError('DUPLICATE_ORDER');
    const refused = entryError(this.room, inst, legs) ?? this.refusal(inst, kind, legs, pair);
    if (refused !== null) return refused;
    // The funds: the OCO pair's larger need, or the working order's own (pending orders hold nothing).
    const need = kind === 'OCO' ? largerNeed(this.legNeed(inst, legs[0]!), this.legNeed(inst, legs[1]!)) : this.legNeed(inst, legs[0]!);
    if (this.ledger.spendable(lockedAsset(inst, legs[0]!.side)) < need.lock + need.reserve) return apiError('INSUFFICIENT_BALANCE');

    const orderListId = this.lists.takeId();
    const orders = legs.map((leg) => newOrder(this.room, inst, leg, now, orderListId));
    const list = new OrderList(orderListId, kind, cmd.listClientOrderId ?? this.room.reports.generateClientId(), inst.index, inst.symbol, orders, now);
    if (kind === 'OCO') this.holdPair(inst, list, orders);
    else {
      const working = orders[0]!;
      list.working = working;
      list.pending = orders.slice(1);
      this.room.runner.hold(inst, working.account!, needOf(inst, working.account!, working.remaining, this.room.runner.maxFeeCentiBps));
      for (const p of list.pending) {
        p.account!.status = 'PENDING_NEW';
        p.account!.phase = 'pending';
      }
    }
    for (const o of orders) markStart(inst, o.account!, now);
    this.lists.add(list);
    for (const o of orders) this.room.reports.report(o.account!, 'NEW', now);
    this.room.reports.listStatus(list, now);

    let fills: Fill[] = [];
    let prevented: PreventedMatch[] = [];
    for (const p of list.pending) this.room.open.add(inst, p, true);
    for (const o of orders) {
      if (o.account!.phase === 'pending') continue;
      const own: Fill[] = [];
      const pm = startOrder(this.room, inst, o, now, own, false);
      if (o === list.working) [fills, prevented] = [own, pm];
    }
    const orderReports: PlaceResult[] = orders.map((o) => ({
      order: o.account!.view(),
      fills: o === orders[0] && kind !== 'OCO' ? fills : [],
      preventedMatches: o === orders[0] && kind !== 'OCO' ? prevented : [],
      transactTime: now,
    }));
    return { list: list.view(), orderReports };
  }

  /** The checks that need the book or the last price: the pair's prices, LIMIT_MAKER, stops. */
  private refusal(inst: Instrument, kind: ListKind, legs: readonly ListLeg[], pair: Arranged['pair']): ApiError | null {
    if (pair !== null && badPrices(inst, pair[0], pair[1])) return apiError('OCO_BAD_PRICES');
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i]!;
      // A pending LIMIT_MAKER is judged when it is activated; its stop checks run now and then.
      const pendingMaker = kind !== 'OCO' && i > 0 && leg.orderType === 'LIMIT_MAKER';
      const reason: RejectReason = pendingMaker ? 'NONE' : rejectReasonOf(this.room, inst, leg);
      if (reason !== 'NONE') return rejectionError(reason);
    }
    return null;
  }

  private legNeed(inst: Instrument, leg: ListLeg): Need {
    return needAt(inst, leg.side, lockPriceOf(inst, leg.price, leg.stopPrice ?? 0), leg.quantity, this.room.runner.maxFeeCentiBps);
  }

  // ---------------------------------------------------------------- the pair's hold

  /** The pair holds the larger of its legs' needs; the legs hold nothing of their own. */
  private holdPair(inst: Instrument, list: OrderList, pair: AccountBookOrder[]): boolean {
    const need = this.pairNeed(inst, pair);
    if (!this.ledger.hold(lockedAsset(inst, pair[0]!.side), need.lock, need.reserve)) return false;
    list.pair = pair;
    list.pairHold = need;
    return true;
  }

  private pairNeed(inst: Instrument, pair: readonly AccountBookOrder[]): Need {
    const fee = this.room.runner.maxFeeCentiBps;
    return largerNeed(needOf(inst, pair[0]!.account!, pair[0]!.remaining, fee), needOf(inst, pair[1]!.account!, pair[1]!.remaining, fee));
  }

  private releasePair(inst: Instrument, list: OrderList): void {
    if (list.pair === null) return;
    this.ledger.release(lockedAsset(inst, list.pair[0]!.side), list.pairHold.lock);
    this.ledger.unreserve(inst.quote, list.pairHold.reserve);
    list.pairHold = NOTHING;
  }

  /** A leg goes on alone: it keeps its own need for `lots` open lots, the pair gives back the rest. */
  private takeOwnHold(inst: Instrument, list: OrderList, order: AccountBookOrder, lots: number): void {
    const acct = order.account!;
    const own = needOf(inst, acct, lots, this.room.runner.maxFeeCentiBps);
    this.ledger.release(lockedAsset(inst, order.side), list.pairHold.lock - own.lock);
    this.ledger.unreserve(inst.quote, list.pairHold.reserve - own.reserve);
    list.pairHold = NOTHING;
    acct.locked = own.lock;
    acct.feeReserve = own.reserve;
    acct.feeReservePerLot = own.reserve === 0n ? 0n : feeReservePerLot(inst, acct.lockPrice, this.room.runner.maxFeeCentiBps);
  }

  /** A pair leg's quantity was amended: the pair holds the larger of the new needs. */
  rehold(inst: Instrument, list: OrderList): void {
    if (list.pair === null) return;
    const need = this.pairNeed(inst, list.pair);
    this.ledger.release(lockedAsset(inst, list.pair[0]!.side), list.pairHold.lock - need.lock);
    this.ledger.unreserve(inst.quote, list.pairHold.reserve - need.reserve);
    list.pairHold = need;
  }

  /** The open list `order` is a leg of the open pair of, or null. */
  private pairListOf(order: AccountBookOrder): OrderList | null {
    const list = this.lists.openById(order.account!.orderListId);
    return list !== undefined && list.pairedWith(order) !== null ? list : null;
  }

  // ---------------------------------------------------------------- what the orders do to their list

  beforeFill(inst: Instrument, order: AccountBookOrder, qty: number): void {
    const list = this.pairListOf(order);
    if (list !== null) this.takeOwnHold(inst, list, order, order.remaining + qty);
  }

  afterFill(inst: Instrument, order: AccountBookOrder, now: number): void {
    const list = this.lists.openById(order.account!.orderListId);
    if (list === undefined) return;
    const other = list.pairedWith(order);
    if (other !== null) return this.endPair(inst, list, other, now);
    if (list.working === order && order.remaining === 0) {
      list.working = null;
      this.schedule(list);
    }
  }

  expired(inst: Instrument, order: AccountBookOrder, now: number): void {
    const list = this.lists.openById(order.account!.orderListId);
    if (list === undefined) return;
    const other = list.pairedWith(order);
    if (other !== null) {
      this.releasePair(inst, list);
      return this.endPair(inst, list, other, now);
    }
    if (list.working !== order) return;
    list.working = null;
    const pending = list.pending;
    list.pending = [];
    for (const p of pending) this.room.runner.expireOnly(inst, p, 'OTO_PHASE_ONE_EXPIRED', now);
    this.end(list, now);
  }

  /** A pair leg triggered (its NEW report is out): it keeps its own hold, the other expires. */
  triggered(inst: Instrument, order: AccountBookOrder, now: number): void {
    const list = this.pairListOf(order);
    if (list === null) return;
    this.takeOwnHold(inst, list, order, order.remaining);
    this.endPair(inst, list, list.pairedWith(order)!, now);
  }

  private endPair(inst: Instrument, list: OrderList, other: AccountBookOrder, now: number): void {
    list.pair = null;
    this.room.runner.expireOnly(inst, other, 'OCO_TRIGGER', now);
    this.end(list, now);
  }

  private end(list: OrderList, now: number): void {
    list.listStatusType = 'ALL_DONE';
    list.listOrderStatus = 'ALL_DONE';
    list.transactionTime = now;
    this.lists.end(list);
    this.room.reports.listStatus(list, now);
  }

  /**
   * The working order filled: the pending order(s) become NEW (`cause` activation) and go to
   * work after their checks: a stop that would trigger, a LIMIT_MAKER that would take, an OCO
   * pair whose prices no longer fit the last trade, MAX_NUM_ALGO_ORDERS, or funds end them
   * EXPIRED (REJECTED). An OTO is then ALL_DONE; an OTOCO's pair executes as an OCO.
   */
  activate(list: OrderList, now: number): void {
    if (list.ended || list.pending.length === 0) return;
    const inst = this.markets.instruments[list.symbolIndex]!;
    const pending = list.pending;
    list.pending = [];
    for (const p of pending) {
      const acct = p.account!;
      acct.status = 'NEW';
      acct.phase = isConditional(acct.type) ? 'waiting' : 'working';
      acct.lockPrice = lockPriceOf(inst, acct.price, acct.stopPrice);
      acct.updateTime = now;
      markStart(inst, acct, now);
    }
    const failed = this.activationFails(inst, list, pending);
    for (const p of pending) this.room.reports.report(p.account!, 'NEW', now, { cause: 'activation' });
    if (failed) {
      for (const p of pending) this.room.runner.expireOnly(inst, p, 'REJECTED', now);
      return this.end(list, now);
    }
    if (list.kind === 'OTO') this.end(list, now);
    else {
      list.listStatusType = 'EXEC_STARTED';
      list.transactionTime = now;
      this.room.reports.listStatus(list, now);
    }
    for (const p of pending) startOrder(this.room, inst, p, now, null, true);
  }

  /** The activated orders' checks; on success they hold what they must (a pair: together). */
  private activationFails(inst: Instrument, list: OrderList, pending: AccountBookOrder[]): boolean {
    const legs = pending.map((p) => p.account!);
    const conditional = legs.filter((a) => isConditional(a.type)).length;
    if (conditional !== 0 && inst.watchedStops + conditional > inst.maxNumAlgoOrders) return true;
    for (const p of pending) {
      const a = p.account!;
      const leg: ListLeg = { side: a.side, orderType: a.type, timeInForce: a.timeInForce, price: a.price, quantity: p.remaining, clientOrderId: null, stopPrice: a.stopPrice };
      if (rejectReasonOf(this.room, inst, leg) !== 'NONE') return true;
    }
    if (pending.length === 2) {
      const [first, second] = pending.map((p) => ({ side: p.side, orderType: p.account!.type, price: p.account!.price, stopPrice: p.account!.stopPrice }) as ListLeg);
      // The pair's prices: the one with the higher relation price is the above leg.
      const [above, below] = relationPrice(first!) > relationPrice(second!) ? [first!, second!] : [second!, first!];
      if (badPrices(inst, above, below)) return true;
      return !this.holdPair(inst, list, pending);
    }
    const only = pending[0]!;
    const acct = only.account!;
    if (acct.type === 'MARKET') return this.room.runner.marketRefusal(inst, only.side, only.remaining);
    return !this.room.runner.hold(inst, acct, needOf(inst, acct, only.remaining, this.room.runner.maxFeeCentiBps));
  }

  // ---------------------------------------------------------------- cancelling

  /** DELETE orderList: an open list of the symbol by id or client id (the id decides), else -2011. */
  cancelByRef(ref: OrderListRef, cancelClientOrderId: string | null, now: number): CancelOrderListResult | ApiError {
    const list = this.findOpen(ref);
    if (list === undefined) return apiError('UNKNOWN_ORDER');
    return this.cancelList(this.markets.instruments[list.symbolIndex]!, list, cancelClientOrderId ?? this.room.reports.generateClientId(), now);
  }

  private findOpen(ref: OrderListRef): OrderList | undefined {
    const list = ref.orderListId !== undefined ? this.lists.openById(ref.orderListId) : this.lists.byClientId(ref.listClientOrderId ?? '', true);
    if (list === undefined || list.symbolIndex !== ref.symbolIndex) return undefined;
    if (ref.orderListId !== undefined && ref.listClientOrderId !== undefined && list.listClientOrderId !== ref.listClientOrderId) return undefined;
    return list;
  }

  /** Cancels every open order of the list (one cancel id for all), then its ALL_DONE. */
  cancelList(inst: Instrument, list: OrderList, cancelId: string, now: number): CancelOrderListResult {
    this.releasePair(inst, list);
    list.pair = null;
    list.working = null;
    list.pending = [];
    const orderReports = [];
    for (const o of list.orders) if (this.room.open.account(o.id) === o) orderReports.push(this.room.runner.cancelOpen(inst, o, cancelId, now));
    this.end(list, now);
    return { list: list.view(), orderReports };
  }
}
