// The one endpoint table (ARCHITECTURE rule 3): each operation names its REST route, its WS
// API method, its security type and weight (binance-facts §3, §6), and one handler that both
// transports call, so they cannot drift.

import { apiError, ApiError } from '../core/errors.ts';
import type { CancelReplaceCommand, Exchange, Outcome } from '../core/exchange.ts';
import type { PlaceOrderCommand } from '../core/order-request.ts';
import type { CoreEvent } from '../core/types.ts';
import { formatScaled } from '../core/units.ts';
import type { Params } from './params.ts';
import type { Service } from './service.ts';
import type { ConnectionControl } from './session.ts';

export type Security = 'NONE' | 'API_KEY' | 'SIGNED';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HandlerContext {
  readonly service: Service;
  readonly exchange: Exchange;
  readonly now: number;
  /** Events the command caused; the transport sends them after the response (spec 4.4). */
  events: CoreEvent[];
  /** The WS API connection the request came on (session and user-data methods). */
  readonly connection?: ConnectionControl;
}

export interface Endpoint {
  readonly id: string;
  readonly rest?: { readonly method: HttpMethod; readonly path: string };
  readonly ws?: string;
  readonly security: Security;
  weight(p: Params): number;
  /** Places a new order: counts toward the ORDERS windows (spec 8). */
  readonly countsOrder?: boolean;
  /** A successful request weighs 0 (binance-facts, 2026-04-02). */
  readonly freeOnSuccess?: boolean;
  /** Changes the account's orders: the WS API reply `set_ack_delay_ms` delays (spec 4.5). */
  readonly changesOrders?: boolean;
  /** Only for an Ed25519 account: an HMAC account answers -4056 (spec 4.3, 5.3). */
  readonly ed25519Only?: boolean;
  /** The HTTP/WS status of a result (cancelReplace answers 200 only when both legs worked). */
  run(ctx: HandlerContext, p: Params): unknown;
}

const RESP_TYPES = new Set(['ACK', 'RESULT', 'FULL']);
const DEPTH_MAX_LIMIT = 5000;

function depthWeight(limit: number): number {
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
}

/** The outcome's value, its events handed to the context; an error is thrown with its events. */
function take<T>(ctx: HandlerContext, outcome: Outcome<T>): T {
  ctx.events = outcome.events;
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

function placeCommand(p: Params): PlaceOrderCommand {
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
  };
}

/** newOrderRespType, or the reference default: FULL for MARKET and LIMIT, ACK otherwise. */
function respType(p: Params): 'ACK' | 'RESULT' | 'FULL' {
  const given = p.get('newOrderRespType');
  if (given !== undefined) {
    if (!RESP_TYPES.has(given)) throw apiError('INVALID_PARAMETER', 'newOrderRespType');
    return given as 'ACK' | 'RESULT' | 'FULL';
  }
  const type = p.get('type');
  return type === 'MARKET' || type === 'LIMIT' ? 'FULL' : 'ACK';
}

function symbolList(ctx: HandlerContext, p: Params): string[] | undefined {
  const one = p.get('symbol');
  const many = p.get('symbols');
  if (one !== undefined && many !== undefined) throw apiError('BAD_PARAM_COMBINATION');
  let symbols: string[] | undefined;
  if (one !== undefined) symbols = [one];
  if (many !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(many);
    } catch {
      throw apiError('INVALID_PARAMETER', 'symbols');
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s) => typeof s === 'string')) {
      throw apiError('INVALID_PARAMETER', 'symbols');
    }
    symbols = parsed as string[];
  }
  for (const s of symbols ?? []) if (ctx.exchange.instrument(s) === undefined) throw apiError('BAD_SYMBOL');
  return symbols;
}

function commissionRates(ctx: HandlerContext) {
  const m = ctx.exchange.markets;
  const rate = (centiBps: bigint) => formatScaled(centiBps, 6);
  return { maker: rate(m.makerCentiBps), taker: rate(m.takerCentiBps), buyer: '0.00000000', seller: '0.00000000' };
}

function connectionOf(ctx: HandlerContext): ConnectionControl {
  if (ctx.connection === undefined) throw apiError('UNAUTHORIZED');
  return ctx.connection;
}

const ZERO_RATE = '0.00000000';
/** The reference's discount block: no BNB discount in the simulator. */
const NO_DISCOUNT = { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: ZERO_RATE } as const;

function requireSymbol(ctx: HandlerContext, p: Params): string {
  const symbol = p.required('symbol');
  if (ctx.exchange.instrument(symbol) === undefined) throw apiError('BAD_SYMBOL');
  return symbol;
}

export const ENDPOINTS: readonly Endpoint[] = [
  {
    id: 'ping',
    rest: { method: 'GET', path: '/api/v3/ping' },
    ws: 'ping',
    security: 'NONE',
    weight: () => 1,
    run: () => ({}),
  },
  {
    id: 'time',
    rest: { method: 'GET', path: '/api/v3/time' },
    ws: 'time',
    security: 'NONE',
    weight: () => 1,
    run: (ctx) => ({ serverTime: ctx.now }),
  },
  {
    id: 'exchangeInfo',
    rest: { method: 'GET', path: '/api/v3/exchangeInfo' },
    ws: 'exchangeInfo',
    security: 'NONE',
    weight: () => 20,
    run: (ctx, p) => ctx.service.exchangeInfo(ctx.now, symbolList(ctx, p)),
  },
  {
    id: 'depth',
    rest: { method: 'GET', path: '/api/v3/depth' },
    ws: 'depth',
    security: 'NONE',
    weight: (p) => depthWeight(Math.min(Number(p.get('limit') ?? 100) || 100, DEPTH_MAX_LIMIT)),
    run: (ctx, p) => {
      const symbol = requireSymbol(ctx, p);
      const limit = p.int('limit') ?? 100;
      if (limit < 1 || limit > DEPTH_MAX_LIMIT) throw apiError('INVALID_PARAMETER', 'limit');
      const snap = ctx.exchange.depthSnapshot(symbol, limit, ctx.service.config.sim.depth_snapshot);
      if (snap instanceof ApiError) throw snap;
      return ctx.service.wire.depth(symbol, snap);
    },
  },
  {
    id: 'bookTicker',
    rest: { method: 'GET', path: '/api/v3/ticker/bookTicker' },
    ws: 'ticker.book',
    security: 'NONE',
    weight: (p) => (p.has('symbol') ? 2 : 4),
    run: (ctx, p) => {
      const symbols = symbolList(ctx, p);
      const ticker = (s: string) => ctx.service.wire.bookTicker(ctx.exchange.bookTicker(s) as never);
      if (p.has('symbol')) return ticker(symbols![0]!);
      return (symbols ?? ctx.exchange.instruments.map((i) => i.symbol)).map(ticker);
    },
  },
  {
    id: 'account',
    rest: { method: 'GET', path: '/api/v3/account' },
    ws: 'account.status',
    security: 'SIGNED',
    weight: () => 20,
    run: (ctx, p) => ctx.service.account(p.bool('omitZeroBalances') ?? false),
  },
  {
    id: 'account.commission',
    rest: { method: 'GET', path: '/api/v3/account/commission' },
    ws: 'account.commission',
    security: 'SIGNED',
    weight: () => 20,
    run: (ctx, p) => {
      const symbol = requireSymbol(ctx, p);
      const zero = { maker: ZERO_RATE, taker: ZERO_RATE, buyer: ZERO_RATE, seller: ZERO_RATE };
      return { symbol, standardCommission: commissionRates(ctx), specialCommission: zero, taxCommission: zero, discount: NO_DISCOUNT };
    },
  },
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
      return ctx.service.wire.placed(take(ctx, ctx.exchange.placeOrder(placeCommand(p), ctx.now)), kind);
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
      const error = ctx.exchange.testOrder(placeCommand(p));
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
      const view = ctx.exchange.getOrder(p.required('symbol'), p.int('orderId'), p.get('origClientOrderId'));
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
      const cmd = { symbol: p.required('symbol'), orderId: p.int('orderId'), origClientOrderId: p.get('origClientOrderId'), newClientOrderId: p.get('newClientOrderId') };
      return ctx.service.wire.cancelled(take(ctx, ctx.exchange.cancelOrder(cmd, ctx.now)));
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
      const kind = respType(p);
      const cmd: CancelReplaceCommand = {
        ...placeCommand(p),
        cancelReplaceMode: p.get('cancelReplaceMode'),
        cancelOrderId: p.int('cancelOrderId'),
        cancelOrigClientOrderId: p.get('cancelOrigClientOrderId'),
        cancelNewClientOrderId: p.get('cancelNewClientOrderId'),
      };
      const outcome = ctx.exchange.cancelReplace(cmd, ctx.now);
      ctx.events = outcome.events;
      if (outcome.ok) return ctx.service.wire.cancelReplace(outcome.value, kind);
      const error = outcome.error;
      if (error.data === undefined) throw error;
      throw new ApiError(error.name, error.msg, ctx.service.wire.cancelReplace(error.data as never, kind));
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
      return ctx.service.wire.amended(take(ctx, ctx.exchange.amendOrder(cmd, ctx.now)));
    },
  },
  {
    id: 'openOrders.status',
    rest: { method: 'GET', path: '/api/v3/openOrders' },
    ws: 'openOrders.status',
    security: 'SIGNED',
    weight: (p) => (p.has('symbol') ? 6 : 80),
    run: (ctx, p) => {
      const views = ctx.exchange.openOrders(p.get('symbol'));
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
    run: (ctx, p) => ctx.service.wire.cancelledList(take(ctx, ctx.exchange.cancelAllOrders(p.required('symbol'), ctx.now))),
  },
  {
    id: 'myTrades',
    rest: { method: 'GET', path: '/api/v3/myTrades' },
    ws: 'myTrades',
    security: 'SIGNED',
    weight: (p) => (p.has('orderId') ? 5 : 20),
    run: (ctx, p) => {
      const trades = ctx.exchange.myTrades({
        symbol: p.required('symbol'),
        orderId: p.int('orderId'),
        fromId: p.int('fromId'),
        startTime: p.int('startTime'),
        endTime: p.int('endTime'),
        limit: p.int('limit'),
      });
      if (trades instanceof ApiError) throw trades;
      return trades.map((t) => ctx.service.wire.myTrade(t));
    },
  },
  {
    id: 'userDataStream.start',
    rest: { method: 'POST', path: '/api/v3/userDataStream' },
    security: 'API_KEY',
    weight: () => 2,
    run: (ctx) => ({ listenKey: ctx.service.listenKeys.create(ctx.now) }),
  },
  {
    id: 'userDataStream.ping',
    rest: { method: 'PUT', path: '/api/v3/userDataStream' },
    security: 'API_KEY',
    weight: () => 2,
    run: (ctx, p) => {
      if (!ctx.service.listenKeys.extend(p.required('listenKey'), ctx.now)) throw apiError('INVALID_LISTEN_KEY');
      return {};
    },
  },
  {
    id: 'userDataStream.stop',
    rest: { method: 'DELETE', path: '/api/v3/userDataStream' },
    security: 'API_KEY',
    weight: () => 2,
    run: (ctx, p) => {
      if (!ctx.service.listenKeys.remove(p.required('listenKey'))) throw apiError('INVALID_LISTEN_KEY');
      return {};
    },
  },
  {
    id: 'rateLimit.order',
    rest: { method: 'GET', path: '/api/v3/rateLimit/order' },
    ws: 'account.rateLimits.orders',
    security: 'SIGNED',
    weight: () => 40,
    run: (ctx) => {
      const limits = ctx.service.config.sim.limits;
      const counts = ctx.service.limits.orderCounts(ctx.now);
      return [
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.orders_per_10s, count: counts.tenSeconds },
        { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: limits.orders_per_day, count: counts.day },
      ];
    },
  },
  // ---------------------------------------------------------------- WS API sessions (spec 4.3)
  {
    id: 'session.logon',
    ws: 'session.logon',
    security: 'SIGNED',
    ed25519Only: true,
    weight: () => 2,
    run: (ctx, p) => connectionOf(ctx).logon(p.required('apiKey'), ctx.now),
  },
  {
    id: 'session.status',
    ws: 'session.status',
    security: 'NONE',
    ed25519Only: true,
    weight: () => 2,
    run: (ctx) => connectionOf(ctx).status(ctx.now),
  },
  {
    id: 'session.logout',
    ws: 'session.logout',
    security: 'NONE',
    ed25519Only: true,
    weight: () => 2,
    run: (ctx) => connectionOf(ctx).logout(ctx.now),
  },
  {
    id: 'session.subscriptions',
    ws: 'session.subscriptions',
    security: 'NONE',
    weight: () => 2,
    run: (ctx) => connectionOf(ctx).subscriptionIds().map((subscriptionId) => ({ subscriptionId })),
  },
  {
    id: 'userDataStream.subscribe',
    ws: 'userDataStream.subscribe',
    security: 'NONE',
    ed25519Only: true,
    weight: () => 2,
    run: (ctx) => {
      const connection = connectionOf(ctx);
      // USER_STREAM security: the unsigned form needs a logged-on session (binance-facts §6).
      if (!connection.loggedOn) throw apiError('UNAUTHORIZED');
      return { subscriptionId: connection.subscribe(true, ctx.now) };
    },
  },
  {
    id: 'userDataStream.subscribe.signature',
    ws: 'userDataStream.subscribe.signature',
    security: 'SIGNED',
    weight: () => 2,
    run: (ctx) => ({ subscriptionId: connectionOf(ctx).subscribe(false, ctx.now) }),
  },
  {
    id: 'userDataStream.unsubscribe',
    ws: 'userDataStream.unsubscribe',
    security: 'NONE',
    weight: () => 2,
    run: (ctx, p) => {
      connectionOf(ctx).unsubscribe(p.int('subscriptionId'), ctx.now);
      return {};
    },
  },
];

/** WS API methods by name. */
export const WS_METHODS: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.filter((e) => e.ws !== undefined).map((e) => [e.ws!, e]));

/** REST routes by "METHOD path". */
export const REST_ROUTES: ReadonlyMap<string, Endpoint> = new Map(
  ENDPOINTS.filter((e) => e.rest !== undefined).map((e) => [`${e.rest!.method} ${e.rest!.path}`, e]),
);

/** Paths that exist under some method (a wrong method on them is still unknown: 404). */
export const REST_PATHS: ReadonlySet<string> = new Set(ENDPOINTS.flatMap((e) => (e.rest ? [e.rest.path] : [])));
