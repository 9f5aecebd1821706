// The order endpoints of the one endpoint table (ARCHITECTURE rule 3): placing, testing,
// querying, cancelling, replacing and amending orders, open orders, the order history and the
// account's trades.
// Each handler reads its wire fields and calls one operation of orders.ts (parse, then one
// command to the core); the events of the command travel with the reply.

import type { OrderTypesMode } from '../config/types.ts';
import type { CancelReplaceResult, Outcome } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import { formatScaled } from '../core/units.ts';
import type { Endpoint, HandlerContext } from './endpoint-types.ts';
import type { PlaceOrderFields } from './order-params.ts';
import { allOrders, amendOrder, cancelAllOrders, cancelOnly, cancelOrder, cancelReplace, getOrder, myTrades, openOrders, placeOrder, testOrder } from './orders.ts';
import type { Params } from './params.ts';

const RESP_TYPES = new Set(['ACK', 'RESULT', 'FULL']);

export const ZERO_RATE = '0.00000000';
/** The reference's discount block: no BNB discount in the simulator. */
export const NO_DISCOUNT = { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: ZERO_RATE } as const;

/** `[sim] order_types`: which order types and parameters placements take. */
export function orderTypes(ctx: HandlerContext): OrderTypesMode {
  return ctx.service.config.sim.order_types;
}

/** The outcome's value, its events handed to the context; an error is thrown with its events. */
export function take<T>(ctx: HandlerContext, outcome: Outcome<T>): T {
  ctx.events = outcome.events;
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

function placeFields(p: Params): PlaceOrderFields {
  return {
    symbol: p.get('symbol'),
    side: p.get('side'),
    type: p.get('type'),
    timeInForce: p.get('timeInForce'),
    quantity: p.get('quantity'),
    price: p.get('price'),
    newClientOrderId: p.get('newClientOrderId'),
    selfTradePreventionMode: p.get('selfTradePreventionMode'),
    quoteOrderQty: p.get('quoteOrderQty'),
    stopPrice: p.get('stopPrice'),
    icebergQty: p.get('icebergQty'),
    trailingDelta: p.get('trailingDelta'),
    pegPriceType: p.get('pegPriceType'),
    pegOffsetValue: p.get('pegOffsetValue'),
    pegOffsetType: p.get('pegOffsetType'),
    strategyType: p.get('strategyType'),
  };
}

/**
 * newOrderRespType, or the reference default: FULL for MARKET and LIMIT, ACK otherwise (stops,
 * take-profits, LIMIT_MAKER); `fallback` instead for order lists (FULL, API.md 11).
 */
export function respType(p: Params, fallback?: 'FULL'): 'ACK' | 'RESULT' | 'FULL' {
  const given = p.get('newOrderRespType');
  if (given !== undefined) {
    if (!RESP_TYPES.has(given)) throw apiError('INVALID_PARAMETER', 'newOrderRespType');
    return given as 'ACK' | 'RESULT' | 'FULL';
  }
  if (fallback !== undefined) return fallback;
  const type = p.get('type');
  return type === 'MARKET' || type === 'LIMIT' ? 'FULL' : 'ACK';
}

export function commissionRates(ctx: HandlerContext) {
  const m = ctx.exchange.markets;
  const rate = (centiBps: bigint) => formatScaled(centiBps, 6);
  return { maker: rate(m.makerCentiBps), taker: rate(m.takerCentiBps), buyer: '0.00000000', seller: '0.00000000' };
}

function cancelReplaceFields(p: Params) {
  return {
    ...placeFields(p),
    cancelReplaceMode: p.get('cancelReplaceMode'),
    cancelOrderId: p.int('cancelOrderId'),
    cancelOrigClientOrderId: p.get('cancelOrigClientOrderId'),
    cancelNewClientOrderId: p.get('cancelNewClientOrderId'),
    cancelRestrictions: p.get('cancelRestrictions'),
  };
}

/** orderRateLimitExceededMode (cancelReplace): DO_NOTHING (default) or CANCEL_ONLY, else -1130. */
function rateLimitMode(p: Params): 'DO_NOTHING' | 'CANCEL_ONLY' {
  const mode = p.get('orderRateLimitExceededMode') ?? 'DO_NOTHING';
  if (mode !== 'DO_NOTHING' && mode !== 'CANCEL_ONLY') throw apiError('INVALID_PARAMETER', 'orderRateLimitExceededMode');
  return mode;
}

/** The cancelReplace body, or its failure with the legs as `data` (binance-facts §2.5), at the failure's status. */
function cancelReplaceReply(ctx: HandlerContext, kind: 'ACK' | 'RESULT' | 'FULL', outcome: Outcome<CancelReplaceResult>) {
  ctx.events = outcome.events;
  if (outcome.ok) return ctx.service.wire.cancelReplace(outcome.value, kind);
  const error = outcome.error;
  if (error.data === undefined) throw error;
  throw new ApiError(error.name, error.msg, ctx.service.wire.cancelReplace(error.data as CancelReplaceResult, kind), error.http);
}

export const ORDER_ENDPOINTS = [
  {
    id: 'order.place',
    rest: { method: 'POST', path: '/api/v3/order' },
    ws: 'order.place',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 1,
    countsOrder: true,
    freeOnSuccess: true,
    run: (ctx, p) => {
      const kind = respType(p);
      return ctx.service.wire.placed(take(ctx, placeOrder(ctx.exchange, placeFields(p), ctx.now, orderTypes(ctx))), kind);
    },
  },
  {
    id: 'order.test',
    rest: { method: 'POST', path: '/api/v3/order/test' },
    ws: 'order.test',
    security: 'SIGNED',
    weight: (p) => (p.get('computeCommissionRates') === 'true' ? 20 : 1),
    run: (ctx, p) => {
      respType(p);
      const error = testOrder(ctx.exchange, placeFields(p), orderTypes(ctx));
      if (error !== null) throw error;
      if (!(p.bool('computeCommissionRates') ?? false)) return {};
      const { maker, taker } = commissionRates(ctx);
      const zero = { maker: ZERO_RATE, taker: ZERO_RATE };
      return { standardCommissionForOrder: { maker, taker }, specialCommissionForOrder: zero, taxCommissionForOrder: zero, discount: NO_DISCOUNT };
    },
  },
  {
    id: 'order.status',
    rest: { method: 'GET', path: '/api/v3/order' },
    ws: 'order.status',
    security: 'SIGNED',
    weight: () => 4,
    run: (ctx, p) => {
      const view = getOrder(ctx.exchange, p.required('symbol'), p.int('orderId'), p.get('origClientOrderId'));
      if (view instanceof ApiError) throw view;
      return ctx.service.wire.order(view);
    },
  },
  {
    id: 'order.cancel',
    rest: { method: 'DELETE', path: '/api/v3/order' },
    ws: 'order.cancel',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 1,
    freeOnSuccess: true,
    run: (ctx, p) => {
      const cmd = {
        symbol: p.required('symbol'),
        orderId: p.int('orderId'),
        origClientOrderId: p.get('origClientOrderId'),
        newClientOrderId: p.get('newClientOrderId'),
        cancelRestrictions: p.get('cancelRestrictions'),
      };
      return ctx.service.wire.cancelled(take(ctx, cancelOrder(ctx.exchange, cmd, ctx.now)));
    },
  },
  {
    id: 'order.cancelReplace',
    rest: { method: 'POST', path: '/api/v3/order/cancelReplace' },
    ws: 'order.cancelReplace',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 1,
    countsOrder: true,
    freeOnSuccess: true,
    run: (ctx, p) => {
      rateLimitMode(p);
      const kind = respType(p);
      return cancelReplaceReply(ctx, kind, cancelReplace(ctx.exchange, cancelReplaceFields(p), ctx.now, orderTypes(ctx)));
    },
    whenOrderCountExceeded: (p, refusal) => {
      if (rateLimitMode(p) !== 'CANCEL_ONLY') return undefined;
      const kind = respType(p);
      return (ctx) => cancelReplaceReply(ctx, kind, cancelOnly(ctx.exchange, cancelReplaceFields(p), refusal, ctx.now, orderTypes(ctx)));
    },
  },
  {
    id: 'order.amend.keepPriority',
    rest: { method: 'PUT', path: '/api/v3/order/amend/keepPriority' },
    ws: 'order.amend.keepPriority',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 4,
    run: (ctx, p) => {
      const cmd = {
        symbol: p.required('symbol'),
        orderId: p.int('orderId'),
        origClientOrderId: p.get('origClientOrderId'),
        newClientOrderId: p.get('newClientOrderId'),
        newQty: p.required('newQty'),
      };
      return ctx.service.wire.amended(take(ctx, amendOrder(ctx.exchange, cmd, ctx.now, orderTypes(ctx))));
    },
  },
  {
    id: 'openOrders.status',
    rest: { method: 'GET', path: '/api/v3/openOrders' },
    ws: 'openOrders.status',
    security: 'SIGNED',
    weight: (p) => (p.has('symbol') ? 6 : 80),
    run: (ctx, p) => {
      const views = openOrders(ctx.exchange, p.get('symbol'));
      if (views instanceof ApiError) throw views;
      return views.map((v) => ctx.service.wire.order(v));
    },
  },
  {
    id: 'openOrders.cancelAll',
    rest: { method: 'DELETE', path: '/api/v3/openOrders' },
    ws: 'openOrders.cancelAll',
    security: 'SIGNED',
    changesOrders: true,
    weight: () => 1,
    freeOnSuccess: true,
    run: (ctx, p) => ctx.service.wire.cancelledList(take(ctx, cancelAllOrders(ctx.exchange, p.required('symbol'), ctx.now))),
  },
  {
    id: 'myTrades',
    rest: { method: 'GET', path: '/api/v3/myTrades' },
    ws: 'myTrades',
    security: 'SIGNED',
    weight: (p) => (p.has('orderId') ? 5 : 20),
    run: (ctx, p) => {
      const trades = myTrades(ctx.exchange, {
        symbol: p.required('symbol'),
        orderId: p.int('orderId'),
        fromId: p.int('fromId'),
        startTime: p.time('startTime'),
        endTime: p.time('endTime'),
        limit: p.int('limit'),
      });
      if (trades instanceof ApiError) throw trades;
      return trades.map((t) => ctx.service.wire.myTrade(t));
    },
  },
  {
    // API.md section 10: open and kept ended orders, rows as GET order.
    id: 'allOrders',
    rest: { method: 'GET', path: '/api/v3/allOrders' },
    ws: 'allOrders',
    security: 'SIGNED',
    weight: () => 20,
    run: (ctx, p) => {
      const views = allOrders(ctx.exchange, {
        symbol: p.required('symbol'),
        orderId: p.int('orderId'),
        startTime: p.time('startTime'),
        endTime: p.time('endTime'),
        limit: p.int('limit'),
      });
      if (views instanceof ApiError) throw views;
      return views.map((v) => ctx.service.wire.order(v));
    },
  },
] as const satisfies readonly Endpoint[];
