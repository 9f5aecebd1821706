// Typed parameters and replies of the order-list operations (with `[sim] order_types =
// "reference"`; rest-api.md and web-socket-api.md "Order lists"): OCO (new and deprecated), OTO,
// OTOCO, cancel, query, open and all lists (the cancel's reply, an amend's list and the
// `listStatus` event are in types.ts, beside what uses them). The replies' types come from the
// server's own field lists (src/api/order-list-shapes.ts).

import type { OrderListAckWire, OrderListFullWire, OrderListResultWire, OrderListWire } from '../api/order-list-shapes.ts';
import type { Side, TimeInForce } from '../api/wire-types.ts';
import type { Decimal, NewOrderRespType } from './types.ts';

/** The types an OCO leg may have (rest-api.md: aboveType / belowType). */
export type OcoLegType = 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'LIMIT_MAKER' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';
export type OcoBelowType = OcoLegType;

interface ListCommon {
  symbol: string;
  /** Unique among open lists; generated when left out. */
  listClientOrderId?: string;
  /** Default FULL for lists. */
  newOrderRespType?: NewOrderRespType;
  selfTradePreventionMode?: string;
  recvWindow?: number;
}

/** POST /api/v3/orderList/oco, `orderList.place.oco`: an above and a below order of one side and quantity. */
export interface OcoParams extends ListCommon {
  side: Side;
  quantity: Decimal;
  aboveType: OcoLegType;
  aboveClientOrderId?: string;
  aboveIcebergQty?: Decimal;
  abovePrice?: Decimal;
  aboveStopPrice?: Decimal;
  aboveTrailingDelta?: number;
  aboveTimeInForce?: TimeInForce;
  aboveStrategyType?: number;
  belowType: OcoBelowType;
  belowClientOrderId?: string;
  belowIcebergQty?: Decimal;
  belowPrice?: Decimal;
  belowStopPrice?: Decimal;
  belowTrailingDelta?: number;
  belowTimeInForce?: TimeInForce;
  belowStrategyType?: number;
}

/** The deprecated POST /api/v3/order/oco, `orderList.place`: a LIMIT_MAKER at `price` and a STOP_LOSS (STOP_LOSS_LIMIT with `stopLimitPrice`). */
export interface DeprecatedOcoParams extends ListCommon {
  side: Side;
  quantity: Decimal;
  price: Decimal;
  stopPrice: Decimal;
  stopLimitPrice?: Decimal;
  stopLimitTimeInForce?: TimeInForce;
  trailingDelta?: number;
  limitClientOrderId?: string;
  limitIcebergQty?: Decimal;
  limitStrategyType?: number;
  stopClientOrderId?: string;
  stopIcebergQty?: Decimal;
  stopStrategyType?: number;
}

interface Working {
  workingType: 'LIMIT' | 'LIMIT_MAKER';
  workingSide: Side;
  workingClientOrderId?: string;
  workingPrice: Decimal;
  workingQuantity: Decimal;
  workingIcebergQty?: Decimal;
  workingTimeInForce?: TimeInForce;
  workingStrategyType?: number;
}

/** POST /api/v3/orderList/oto, `orderList.place.oto`: a working order and a pending one placed when it has filled. */
export interface OtoParams extends ListCommon, Working {
  pendingType: 'LIMIT' | 'LIMIT_MAKER' | 'MARKET' | 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';
  pendingSide: Side;
  pendingClientOrderId?: string;
  pendingPrice?: Decimal;
  pendingStopPrice?: Decimal;
  pendingTrailingDelta?: number;
  pendingQuantity: Decimal;
  pendingIcebergQty?: Decimal;
  pendingTimeInForce?: TimeInForce;
  pendingStrategyType?: number;
}

/** POST /api/v3/orderList/otoco, `orderList.place.otoco`: a working order and a pending OCO pair. */
export interface OtocoParams extends ListCommon, Working {
  pendingSide: Side;
  pendingQuantity: Decimal;
  pendingAboveType: OcoLegType;
  pendingAboveClientOrderId?: string;
  pendingAbovePrice?: Decimal;
  pendingAboveStopPrice?: Decimal;
  pendingAboveTrailingDelta?: number;
  pendingAboveIcebergQty?: Decimal;
  pendingAboveTimeInForce?: TimeInForce;
  pendingAboveStrategyType?: number;
  pendingBelowType: OcoBelowType;
  pendingBelowClientOrderId?: string;
  pendingBelowPrice?: Decimal;
  pendingBelowStopPrice?: Decimal;
  pendingBelowTrailingDelta?: number;
  pendingBelowIcebergQty?: Decimal;
  pendingBelowTimeInForce?: TimeInForce;
  pendingBelowStrategyType?: number;
}

/** DELETE /api/v3/orderList, `orderList.cancel`: by `orderListId` or `listClientOrderId`. */
export interface CancelOrderListParams {
  symbol: string;
  orderListId?: number;
  listClientOrderId?: string;
  /** The cancel's own id; generated when left out. */
  newClientOrderId?: string;
  recvWindow?: number;
}

/** GET /api/v3/orderList, `orderList.status`: by `orderListId` or `origClientOrderId` (the list's client id). */
export interface OrderListRef {
  orderListId?: number;
  origClientOrderId?: string;
  recvWindow?: number;
}

/** GET /api/v3/allOrderList, `allOrderLists`: `fromId`, or a window of at most 24 h; limit 1..1000 (default 500). */
export interface AllOrderListsParams {
  fromId?: number;
  startTime?: number;
  endTime?: number;
  limit?: number;
  recvWindow?: number;
}

/** An order list's state. */
export interface OrderList extends OrderListWire {}
/** A placed list whose reports are ACK, RESULT or FULL order reports. */
export interface OrderListAck extends OrderListAckWire {}
export interface OrderListResult extends OrderListResultWire {}
export interface OrderListFull extends OrderListFullWire {}

/** The reply of a list placement: its `newOrderRespType`, FULL when left out. */
export type OrderListReply<P extends { readonly newOrderRespType?: NewOrderRespType }> = P extends { readonly newOrderRespType: infer R }
  ? (undefined extends R ? OrderListFull : never) | ListReplyOf<Exclude<R, undefined>>
  : OrderListFull;
type ListReplyOf<R> = R extends 'ACK' ? OrderListAck : R extends 'RESULT' ? OrderListResult : OrderListFull;
