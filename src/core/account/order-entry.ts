// Entering new account orders, shared by a single placement (account-desk.ts) and an order
// list's legs (list-desk.ts): the matching engine's state filters of issue 33
// (MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS), the reasons it refuses an order now
// (LIMIT_MAKER would take, a stop would trigger at once), building the order with its
// conditional fields, and putting it to work (a conditional order waits off the book).

import { Order, type Matcher } from '../book/index.ts';
import type { ListLeg } from '../commands.ts';
import { apiError, type ApiError } from '../errors.ts';
import type { Instrument } from '../markets.ts';
import type { PreventedMatch, Fill, RejectReason } from '../types.ts';
import { AccountOrder, isConditional, type AccountBookOrder } from './account-order.ts';
import type { AccountReports } from './account-reports.ts';
import { lockPriceOf } from './holds.ts';
import type { OpenOrders } from './open-orders.ts';
import type { OrderRunner } from './order-runner.ts';
import { wouldTrigger, type StopBook } from './stops.ts';

/** The account's parts an order's entry uses. */
export interface EntryRoom {
  readonly matcher: Matcher<AccountOrder>;
  readonly open: OpenOrders;
  readonly stops: StopBook;
  readonly runner: OrderRunner;
  readonly reports: AccountReports;
}

/**
 * The state filters beyond MAX_NUM_ORDERS for `legs` about to open on the symbol: untriggered
 * conditional orders (MAX_NUM_ALGO_ORDERS) and icebergs (MAX_NUM_ICEBERG_ORDERS).
 */
export function stateFilterError(room: EntryRoom, inst: Instrument, legs: readonly ListLeg[]): ApiError | null {
  let algo = 0;
  let icebergs = 0;
  for (const leg of legs) {
    if (isConditional(leg.orderType)) algo++;
    if ((leg.icebergQty ?? 0) !== 0) icebergs++;
  }
  if (algo !== 0 && inst.watchedStops + algo > inst.maxNumAlgoOrders) return apiError('MAX_NUM_ALGO_ORDERS');
  if (icebergs !== 0 && room.open.icebergs[inst.index]! + icebergs > inst.maxNumIcebergOrders) return apiError('MAX_NUM_ICEBERG_ORDERS');
  return null;
}

/** MAX_NUM_ORDERS and duplicate client ids (among open orders and among the legs themselves). */
export function entryError(room: EntryRoom, inst: Instrument, legs: readonly ListLeg[]): ApiError | null {
  if (inst.accountOpenOrders + legs.length > inst.maxNumOrders) return apiError('MAX_NUM_ORDERS');
  const open = room.open.clientIds[inst.index]!;
  const seen = new Set<string>();
  for (const leg of legs) {
    const id = leg.clientOrderId;
    if (id === null) continue;
    if (open.has(id) || seen.has(id)) return apiError('DUPLICATE_ORDER');
    seen.add(id);
  }
  return stateFilterError(room, inst, legs);
}

/** Why the matching engine refuses the order at this moment, or NONE (balances aside). */
export function rejectReasonOf(room: EntryRoom, inst: Instrument, leg: ListLeg): RejectReason {
  if (leg.orderType === 'LIMIT_MAKER') return room.matcher.crossesBest(inst, leg.side, leg.price) ? 'WOULD_MATCH_IMMEDIATELY' : 'NONE';
  if (isConditional(leg.orderType) && wouldTrigger(leg.orderType, leg.side, leg.stopPrice ?? 0, inst.lastPrice)) return 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY';
  return 'NONE';
}

/** The -2010 answer of a refusal. */
export function rejectionError(reason: RejectReason): ApiError {
  switch (reason) {
    case 'WOULD_MATCH_IMMEDIATELY':
      return apiError('WOULD_TAKE');
    case 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY':
      return apiError('WOULD_TRIGGER');
    case 'OCO_BAD_PRICES':
      return apiError('OCO_BAD_PRICES');
    default:
      return apiError('INSUFFICIENT_BALANCE');
  }
}

/**
 * A new account order, its orderId taken now: a conditional one waits (a BUY market form locks
 * at its stop price, or a trailing one without at the last price, or the start mid when the
 * symbol never traded: API.md 11 "Amounts and locks"); an iceberg shows its visible part.
 */
export function newOrder(room: EntryRoom, inst: Instrument, leg: ListLeg, now: number, orderListId: number): AccountBookOrder {
  const acct = new AccountOrder(room.reports.nextOrderId++, inst.symbol, leg.clientOrderId ?? room.reports.generateClientId(), leg.side, leg.orderType, leg.timeInForce, leg.price, leg.quantity, now);
  const order: AccountBookOrder = new Order(acct.orderId, inst.index, leg.side, leg.price, leg.quantity, acct);
  acct.orderListId = orderListId;
  if (leg.icebergQty !== undefined && leg.icebergQty !== 0) order.display = acct.icebergQty = leg.icebergQty;
  if (isConditional(leg.orderType)) {
    acct.phase = 'waiting';
    acct.stopPrice = leg.stopPrice ?? 0;
    acct.trailingDelta = leg.trailingDelta ?? 0;
    acct.lockPrice = lockPriceOf(inst, leg.price, acct.stopPrice);
  }
  return order;
}

/**
 * An accepted order's start, set before its NEW report so the reply, the order's view and the
 * report agree: `workingTime` for one that works from now; `trailingTime` for a trailing stop
 * without a stop price on a symbol that traded, which tracks from now with the last trade as
 * its first reference (trailing-stop FAQ scenario E). One that waits for its stop price or for
 * the symbol's first trade keeps -1 until that trade (stops.ts).
 */
export function markStart(inst: Instrument, acct: AccountOrder, now: number): void {
  if (acct.phase === 'working') acct.workingTime = now;
  else if (acct.phase === 'waiting' && acct.trailingDelta !== 0 && acct.stopPrice === 0 && inst.lastPrice !== 0) acct.trailingTime = now;
}

/**
 * Puts an accepted order that holds what it must to work: a conditional one waits off the book
 * for its trigger, any other runs as a taker and rests or ends (OrderRunner.work). `isOpen`: it
 * already is one of the open orders (activated from an order list). Its prevented matches.
 */
export function startOrder(room: EntryRoom, inst: Instrument, order: AccountBookOrder, now: number, fills: Fill[] | null, isOpen: boolean): PreventedMatch[] {
  if (isConditional(order.account!.type)) {
    if (!isOpen) room.open.add(inst, order, true);
    room.stops.add(inst, order);
    return [];
  }
  return room.runner.work(inst, order, now, fills, isOpen);
}
