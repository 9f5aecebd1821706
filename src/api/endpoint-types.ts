// The shape of one row of the endpoint table (endpoints.ts, order-endpoints.ts): the operation's
// REST route, WS API method, security type and weight, and the one handler both transports call.

import type { Config } from '../config/types.ts';
import type { ApiError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import type { CoreEvent } from '../core/types.ts';
import type { RateLimits } from './limits.ts';
import type { ListenKeys } from './listen-keys.ts';
import type { Params } from './params.ts';
import type { ConnectionControl } from './session.ts';
import type { Wire } from './wire.ts';

export type Security = 'NONE' | 'API_KEY' | 'SIGNED';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * What handlers use of the service (service.ts implements it): named here, not imported from
 * there, so the table and the pipeline that runs it do not import each other.
 */
export interface HandlerServices {
  readonly config: Config;
  readonly wire: Wire;
  readonly limits: RateLimits;
  readonly listenKeys: ListenKeys;
}

export interface HandlerContext {
  readonly service: HandlerServices;
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
  /** How many orders one request places (an order list counts each of its orders); default 1. */
  readonly ordersPerRequest?: number;
  /**
   * Served only with `[sim] order_types = "reference"` (API.md 11: the order-list operations).
   * With "spec" the route and the method do not exist, as before that setting: REST answers 404,
   * the WS API -1130 on `method`, and fault rules do not list them.
   */
  readonly referenceOrderTypes?: true;
  /** A successful request weighs 0 (binance-facts, 2026-04-02). */
  readonly freeOnSuccess?: boolean;
  /** Changes the account's orders: the WS API reply `set_ack_delay_ms` delays (spec 4.5). */
  readonly changesOrders?: boolean;
  /** Only for an Ed25519 account: an HMAC account answers -4056 (spec 4.3, 5.3). */
  readonly ed25519Only?: boolean;
  /** The HTTP/WS status of a result (cancelReplace answers 200 only when both legs worked). */
  run(ctx: HandlerContext, p: Params): unknown;
  /**
   * Runs instead of the order-count refusal (-1015) when it returns a handler: cancelReplace's
   * `orderRateLimitExceededMode=CANCEL_ONLY` still cancels. Undefined: the plain refusal.
   */
  whenOrderCountExceeded?(p: Params, refusal: ApiError): ((ctx: HandlerContext, p: Params) => unknown) | undefined;
}
