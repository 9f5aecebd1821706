// The order-list rows of the one endpoint table (API.md 11; rest-api.md and web-socket-api.md
// "Order lists", "Query Order list", "Query all Order lists", "Query Open Order lists"): each
// operation's REST route and WS API method, security, weight and order count (a list counts
// each of its orders), one handler for both transports. Served only with `[sim] order_types =
// "reference"` (`referenceOrderTypes`): with "spec" they answer as the unknown routes and
// methods they were before (REST 404, WS API -1130), so nothing changes for the spec's users.

import { ApiError } from '../core/errors.ts';
import type { Endpoint, HandlerContext } from './endpoint-types.ts';
import { respType, take } from './order-endpoints.ts';
import type { OrderListKind } from './order-list-params.ts';
import { allOrderLists, cancelOrderList, getOrderList, openOrderLists, placeOrderList } from './order-lists.ts';
import type { Params } from './params.ts';

/** A placement row's handler: FULL reports unless `newOrderRespType` says otherwise. */
function place(kind: OrderListKind) {
  return (ctx: HandlerContext, p: Params) => {
    const kindOfReply = respType(p, 'FULL');
    return ctx.service.wire.orderListPlaced(take(ctx, placeOrderList(ctx.exchange, kind, (name) => p.get(name), ctx.now)), kindOfReply);
  };
}

/** What every placement row shares: SIGNED, weight 1 (0 on success), order changes (ack delay). */
const PLACEMENT = { security: 'SIGNED', changesOrders: true, weight: () => 1, countsOrder: true, freeOnSuccess: true, referenceOrderTypes: true } as const;
/** What the query rows share. */
const QUERY = { security: 'SIGNED', referenceOrderTypes: true } as const;

export const ORDER_LIST_ENDPOINTS = [
  {
    // The deprecated OCO (rest-api.md "New OCO - Deprecated"): a LIMIT_MAKER and a stop leg.
    id: 'orderList.place',
    rest: { method: 'POST', path: '/api/v3/order/oco' },
    ws: 'orderList.place',
    ...PLACEMENT,
    ordersPerRequest: 2,
    run: place('ocoDeprecated'),
  },
  {
    id: 'orderList.place.oco',
    rest: { method: 'POST', path: '/api/v3/orderList/oco' },
    ws: 'orderList.place.oco',
    ...PLACEMENT,
    ordersPerRequest: 2,
    run: place('oco'),
  },
  {
    id: 'orderList.place.oto',
    rest: { method: 'POST', path: '/api/v3/orderList/oto' },
    ws: 'orderList.place.oto',
    ...PLACEMENT,
    ordersPerRequest: 2,
    run: place('oto'),
  },
  {
    id: 'orderList.place.otoco',
    rest: { method: 'POST', path: '/api/v3/orderList/otoco' },
    ws: 'orderList.place.otoco',
    ...PLACEMENT,
    ordersPerRequest: 3,
    run: place('otoco'),
  },
  {
    id: 'orderList.cancel',
    rest: { method: 'DELETE', path: '/api/v3/orderList' },
    ws: 'orderList.cancel',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 1,
    freeOnSuccess: true,
    referenceOrderTypes: true,
    run: (ctx, p) => ctx.service.wire.orderListCancelled(take(ctx, cancelOrderList(ctx.exchange, (name) => p.get(name), p.int('orderListId'), ctx.now))),
  },
  {
    id: 'orderList.status',
    rest: { method: 'GET', path: '/api/v3/orderList' },
    ws: 'orderList.status',
    ...QUERY,
    weight: () => 4,
    run: (ctx, p) => {
      const view = getOrderList(ctx.exchange, p.int('orderListId'), p.get('origClientOrderId'));
      if (view instanceof ApiError) throw view;
      return ctx.service.wire.orderList(view);
    },
  },
  {
    id: 'openOrderLists.status',
    rest: { method: 'GET', path: '/api/v3/openOrderList' },
    ws: 'openOrderLists.status',
    ...QUERY,
    weight: () => 6,
    run: (ctx) => openOrderLists(ctx.exchange).map((view) => ctx.service.wire.orderList(view)),
  },
  {
    id: 'allOrderLists',
    rest: { method: 'GET', path: '/api/v3/allOrderList' },
    ws: 'allOrderLists',
    ...QUERY,
    weight: () => 20,
    run: (ctx, p) => {
      const views = allOrderLists(ctx.exchange, { fromId: p.int('fromId'), startTime: p.time('startTime'), endTime: p.time('endTime'), limit: p.int('limit') });
      if (views instanceof ApiError) throw views;
      return views.map((view) => ctx.service.wire.orderList(view));
    },
  },
] as const satisfies readonly Endpoint[];
