// The order-list replies' field lists (rest-api.md "Order lists", "Query Order list"): the list
// itself (orderListId, contingencyType, listStatusType, listOrderStatus, listClientOrderId,
// transactionTime, symbol, orders), and for placements and cancels its `orderReports`, each an
// order report of the kind the request asked for (placements: ACK, RESULT or FULL, default FULL
// for lists, API.md 11; cancels: the cancelled order as DELETE order shows it).

import type { CancelOrderListResult, OrderListResult } from '../core/commands.ts';
import type { Instrument } from '../core/markets.ts';
import type { ListOrderRef, OrderListView } from '../core/types.ts';
import { CANCELLED, ORDER_ACK, ORDER_FULL, ORDER_RESULT } from './order-shapes.ts';
import { fieldsOf, shape, type WireOf } from './shape.ts';

const ref = fieldsOf<ListOrderRef, Instrument>();
/** One item of `orders`. */
export const LIST_ORDER = shape({
  symbol: ref.text((o) => o.symbol),
  orderId: ref.num((o) => o.orderId),
  clientOrderId: ref.str((o) => o.clientOrderId),
});

/** The list's own fields, of whatever reply holds it. */
function listFields<S>(of: (s: S) => OrderListView) {
  const f = fieldsOf<S, Instrument>();
  return {
    orderListId: f.num((s) => of(s).orderListId),
    contingencyType: f.text((s) => of(s).contingencyType),
    listStatusType: f.text((s) => of(s).listStatusType),
    listOrderStatus: f.text((s) => of(s).listOrderStatus),
    listClientOrderId: f.str((s) => of(s).listClientOrderId),
    transactionTime: f.num((s) => of(s).transactionTime),
    symbol: f.text((s) => of(s).symbol),
    orders: f.list(LIST_ORDER, (s) => of(s).orders),
  };
}

/** GET orderList, openOrderList, allOrderList (and orderList.status, ...). */
export const ORDER_LIST = shape(listFields((l: OrderListView) => l));

const amended = fieldsOf<OrderListView, Instrument>();
/** The `listStatus` of a list order's amend (rest-api.md "Order Amend Keep Priority": fewer fields than a query). */
export const AMENDED_LIST_STATUS = shape({
  orderListId: amended.num((l) => l.orderListId),
  contingencyType: amended.text((l) => l.contingencyType),
  listOrderStatus: amended.text((l) => l.listOrderStatus),
  listClientOrderId: amended.str((l) => l.listClientOrderId),
  symbol: amended.text((l) => l.symbol),
  orders: amended.list(LIST_ORDER, (l) => l.orders),
});

const placed = fieldsOf<OrderListResult, Instrument>();
const placedList = listFields((r: OrderListResult) => r.list);
/** A list placement by `newOrderRespType`. */
export const ORDER_LIST_ACK = shape({ ...placedList, orderReports: placed.list(ORDER_ACK, (r) => r.orderReports) });
export const ORDER_LIST_RESULT = shape({ ...placedList, orderReports: placed.list(ORDER_RESULT, (r) => r.orderReports) });
export const ORDER_LIST_FULL = shape({ ...placedList, orderReports: placed.list(ORDER_FULL, (r) => r.orderReports) });

const cancelled = fieldsOf<CancelOrderListResult, Instrument>();
/** DELETE orderList: the list, then each order's cancel report. */
export const ORDER_LIST_CANCELLED = shape({ ...listFields((r: CancelOrderListResult) => r.list), orderReports: cancelled.list(CANCELLED, (r) => r.orderReports) });

export type OrderListWire = WireOf<typeof ORDER_LIST.fields>;
export type AmendedListStatusWire = WireOf<typeof AMENDED_LIST_STATUS.fields>;
export type OrderListAckWire = WireOf<typeof ORDER_LIST_ACK.fields>;
export type OrderListResultWire = WireOf<typeof ORDER_LIST_RESULT.fields>;
export type OrderListFullWire = WireOf<typeof ORDER_LIST_FULL.fields>;
export type OrderListCancelledWire = WireOf<typeof ORDER_LIST_CANCELLED.fields>;
