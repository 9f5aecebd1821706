// Typed parameters and replies of the order-list operations (with `[sim] order_types =
// "reference"`; rest-api.md and web-socket-api.md "Order lists"): OCO (new and deprecated), OTO,
// OTOCO, cancel, query, open and all lists (the cancel's reply, an amend's list and the
// `listStatus` event are in types.ts, beside what uses them). The replies' types come from the
// server's own field lists (src/api/order-list-shapes.ts).

import type { OrderListAckWire, OrderListFullWire, OrderListResultWire, OrderListWire } from '../api/order-list-shapes.ts';
import type { Side, TimeInForce } from '../api/wire-types.ts';
import type { Decimal, NewOrderRespType } from './types.ts';

/**
 * The types an OCO leg may have (rest-api.md: aboveType / belowType).
 * @example
 * const above: OcoLegType = 'LIMIT_MAKER';   // a SELL OCO's take-profit above the market
 */
export type OcoLegType = 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'LIMIT_MAKER' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';
/**
 * The types an OCO's below leg may have: the same as the above leg's.
 * @example
 * const below: OcoBelowType = 'STOP_LOSS_LIMIT';   // a SELL OCO's protective stop below the market
 */
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

/**
 * POST /api/v3/orderList/oco, `orderList.place.oco`: an above and a below order of one side and quantity.
 * @example
 * const params: OcoParams = { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.001', aboveType: 'LIMIT_MAKER', abovePrice: '62000',
 *   belowType: 'STOP_LOSS_LIMIT', belowStopPrice: '58000', belowPrice: '57900', belowTimeInForce: 'GTC' };
 * const list = await client.rest.newOrderListOco(params);
 */
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

/**
 * The deprecated POST /api/v3/order/oco, `orderList.place`: a LIMIT_MAKER at `price` and a STOP_LOSS (STOP_LOSS_LIMIT with `stopLimitPrice`).
 * @example
 * const params: DeprecatedOcoParams = { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.001', price: '62000', stopPrice: '58000',
 *   stopLimitPrice: '57900', stopLimitTimeInForce: 'GTC' };
 * await client.rest.newOco(params);
 */
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

/**
 * POST /api/v3/orderList/oto, `orderList.place.oto`: a working order and a pending one placed when it has filled.
 * @example
 * const params: OtoParams = { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '59000', workingQuantity: '0.001',
 *   workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '61000', pendingQuantity: '0.001' };
 * await client.rest.newOrderListOto(params);
 */
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

/**
 * POST /api/v3/orderList/otoco, `orderList.place.otoco`: a working order and a pending OCO pair.
 * @example
 * const params: OtocoParams = { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '59000', workingQuantity: '0.001',
 *   workingTimeInForce: 'GTC', pendingSide: 'SELL', pendingQuantity: '0.001', pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '61000',
 *   pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '57000' };
 * await client.rest.newOrderListOtoco(params);
 */
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

/**
 * DELETE /api/v3/orderList, `orderList.cancel`: by `orderListId` or `listClientOrderId`.
 * @example
 * const params: CancelOrderListParams = { symbol: 'BTCUSDT', orderListId: 1 };
 * await client.rest.cancelOrderList(params);
 */
export interface CancelOrderListParams {
  symbol: string;
  orderListId?: number;
  listClientOrderId?: string;
  /** The cancel's own id; generated when left out. */
  newClientOrderId?: string;
  recvWindow?: number;
}

/**
 * GET /api/v3/orderList, `orderList.status`: by `orderListId` or `origClientOrderId` (the list's client id).
 * @example
 * const ref: OrderListRef = { orderListId: 1 };
 * const list = await client.rest.getOrderList(ref);
 */
export interface OrderListRef {
  orderListId?: number;
  origClientOrderId?: string;
  recvWindow?: number;
}

/**
 * GET /api/v3/allOrderList, `allOrderLists`: `fromId`, or a window of at most 24 h; limit 1..1000 (default 500).
 * @example
 * const params: AllOrderListsParams = { fromId: 1, limit: 10 };
 * const lists = await client.rest.allOrderLists(params);
 */
export interface AllOrderListsParams {
  fromId?: number;
  startTime?: number;
  endTime?: number;
  limit?: number;
  recvWindow?: number;
}

/**
 * An order list's state: its id, kind, status and orders.
 * @example
 * const [open]: OrderList[] = await client.rest.openOrderLists();
 */
export interface OrderList extends OrderListWire {}
/**
 * A placed list with ACK order reports (`newOrderRespType: 'ACK'`).
 * @example
 * const ack: OrderListAck = await client.rest.newOrderListOco({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.001', aboveType: 'LIMIT_MAKER',
 *   abovePrice: '62000', belowType: 'STOP_LOSS', belowStopPrice: '58000', newOrderRespType: 'ACK' });
 */
export interface OrderListAck extends OrderListAckWire {}
/**
 * A placed list with RESULT order reports (`newOrderRespType: 'RESULT'`).
 * @example
 * const result: OrderListResult = await client.rest.newOrderListOco({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.001', aboveType: 'LIMIT_MAKER',
 *   abovePrice: '62000', belowType: 'STOP_LOSS', belowStopPrice: '58000', newOrderRespType: 'RESULT' });
 */
export interface OrderListResult extends OrderListResultWire {}
/**
 * A placed list with FULL order reports (fills included): the default of list placements.
 * @example
 * const full: OrderListFull = await client.rest.newOrderListOco({ symbol: 'BTCUSDT', side: 'SELL', quantity: '0.001', aboveType: 'LIMIT_MAKER',
 *   abovePrice: '62000', belowType: 'STOP_LOSS', belowStopPrice: '58000' });
 */
export interface OrderListFull extends OrderListFullWire {}

/**
 * The reply of a list placement: its `newOrderRespType`, FULL when left out.
 * @example
 * type Reply = OrderListReply<{ newOrderRespType: 'ACK' }>;   // OrderListAck
 */
export type OrderListReply<P extends { readonly newOrderRespType?: NewOrderRespType }> = P extends { readonly newOrderRespType: infer R }
  ? (undefined extends R ? OrderListFull : never) | ListReplyOf<Exclude<R, undefined>>
  : OrderListFull;
type ListReplyOf<R> = R extends 'ACK' ? OrderListAck : R extends 'RESULT' ? OrderListResult : OrderListFull;
