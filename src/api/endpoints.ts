// The one endpoint table (ARCHITECTURE rule 3): each operation names its REST route, its WS
// API method, its security type and weight (binance-facts §3, §6), and one handler that both
// transports call, so they cannot drift. An operation's id is its WS API method name when it has
// one (REST-only operations have their own): the same id names it in fault rules
// (`sim.faults.use({ on })`), in the typed client's table lookups and in the docs.

import type { OrderTypesMode } from '../config/types.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Touch } from '../core/types.ts';
import { bookTicker, depthSnapshot } from '../core/queries.ts';
import type { Endpoint, HandlerContext } from './endpoint-types.ts';
import { account, exchangeInfo } from './info-shapes.ts';
import { commissionRates, NO_DISCOUNT, ORDER_ENDPOINTS, ZERO_RATE } from './order-endpoints.ts';
import { ORDER_LIST_ENDPOINTS } from './order-list-endpoints.ts';
import type { Params } from './params.ts';
import { orderRateLimits } from './rate-limit-shapes.ts';
import type { ConnectionControl } from './session.ts';
import { MARKET_DATA_ENDPOINTS } from './market-endpoints.ts';
import { connectionOf, requireSymbol, symbolList } from './symbol-params.ts';

export type { Endpoint, HandlerContext, HandlerServices, HttpMethod, Security } from './endpoint-types.ts';

const DEPTH_MAX_LIMIT = 5000;
/** binance-facts §2.2 (-1101): at most 100 values of `symbols`. */
export const MAX_SYMBOLS = 100;

function depthWeight(limit: number): number {
  if (limit <= 100) return 5;
  if (limit <= 500) return 25;
  if (limit <= 1000) return 50;
  return 250;
}

/** The table with its literal ids and routes (typed, so the client's methods can name them). */
const TABLE = [
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
    run: (ctx, p) => exchangeInfo(ctx.service.config.sim.limits, ctx.exchange, ctx.now, symbolList(ctx, p), ctx.service.config.sim.order_types),
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
      const snap = depthSnapshot(ctx.exchange.state, symbol, limit, ctx.service.config.sim.depth_snapshot);
      if (snap instanceof ApiError) throw snap;
      return ctx.service.wire.depth(symbol, snap);
    },
  },
  {
    id: 'ticker.book',
    rest: { method: 'GET', path: '/api/v3/ticker/bookTicker' },
    ws: 'ticker.book',
    security: 'NONE',
    weight: (p) => (p.has('symbol') ? 2 : 4),
    run: (ctx, p) => {
      const symbols = symbolList(ctx, p);
      const ticker = (s: string) => ctx.service.wire.bookTicker(bookTicker(ctx.exchange.state, s) as Touch);
      if (p.has('symbol')) return ticker(symbols![0]!);
      return (symbols ?? ctx.exchange.instruments.map((i) => i.symbol)).map(ticker);
    },
  },
  {
    id: 'account.status',
    rest: { method: 'GET', path: '/api/v3/account' },
    ws: 'account.status',
    security: 'SIGNED',
    weight: () => 20,
    run: (ctx, p) => account(ctx.service.config.sim.fees, ctx.exchange, p.bool('omitZeroBalances') ?? false),
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
  ...MARKET_DATA_ENDPOINTS,
  ...ORDER_ENDPOINTS,
  ...ORDER_LIST_ENDPOINTS,
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
    id: 'account.rateLimits.orders',
    rest: { method: 'GET', path: '/api/v3/rateLimit/order' },
    ws: 'account.rateLimits.orders',
    security: 'SIGNED',
    weight: () => 40,
    run: (ctx) => orderRateLimits(ctx.service.config.sim.limits, ctx.service.limits.orderCounts(ctx.now)),
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
      // A negative id is malformed (-1100), not an inactive subscription (issue 24).
      const subscriptionId = p.int('subscriptionId');
      if (subscriptionId !== undefined && subscriptionId < 0) throw apiError('ILLEGAL_CHARS', 'subscriptionId', '^[0-9]{1,20}$');
      connectionOf(ctx).unsubscribe(subscriptionId, ctx.now);
      return {};
    },
  },
] as const satisfies readonly Endpoint[];

export const ENDPOINTS: readonly Endpoint[] = TABLE;

/** Ids of the operations with a REST route: the typed client (src/client/rest.ts) calls them by id. */
export type RestEndpointId = Extract<(typeof TABLE)[number], { readonly rest: object }>['id'];

/** WS API methods by name (every row: the typed client signs by it). */
export const WS_METHODS: ReadonlyMap<string, Endpoint> = new Map(ENDPOINTS.filter((e) => e.ws !== undefined).map((e) => [e.ws!, e]));

/** REST routes by "METHOD path" (every row). */
export const REST_ROUTES: ReadonlyMap<string, Endpoint> = routesOf(ENDPOINTS).rest;

/** What the transports serve under one `[sim] order_types` (the order-list rows only with "reference"). */
export interface Routes {
  readonly endpoints: readonly Endpoint[];
  /** REST routes by "METHOD path". */
  readonly rest: ReadonlyMap<string, Endpoint>;
  /** Paths that exist under some method (a wrong method on them is still unknown: 404). */
  readonly paths: ReadonlySet<string>;
  /** WS API methods by name. */
  readonly ws: ReadonlyMap<string, Endpoint>;
}

function routesOf(endpoints: readonly Endpoint[]): Routes {
  return {
    endpoints,
    rest: new Map(endpoints.filter((e) => e.rest !== undefined).map((e) => [`${e.rest!.method} ${e.rest!.path}`, e])),
    paths: new Set(endpoints.flatMap((e) => (e.rest ? [e.rest.path] : []))),
    ws: new Map(endpoints.filter((e) => e.ws !== undefined).map((e) => [e.ws!, e])),
  };
}

const ROUTES_BY_MODE: Readonly<Record<OrderTypesMode, Routes>> = {
  spec: routesOf(ENDPOINTS.filter((e) => e.referenceOrderTypes !== true)),
  reference: routesOf(ENDPOINTS),
};

/** The routes, methods and fault-rule endpoints served under `mode`. */
export function routesFor(mode: OrderTypesMode): Routes {
  return ROUTES_BY_MODE[mode];
}
