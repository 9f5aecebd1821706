// The transport-neutral request pipeline: weight, authentication, order count, handler, and the
// reply with the figures the transports put in headers (REST) or `rateLimits` (WS API). Events
// a request caused travel with its reply; the transport publishes them after the response.

import type { Config } from '../config/types.ts';
import type { Clock } from '../core/clock.ts';
import { apiError, ApiError, isApiError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import { Authenticator, type Credentials } from './auth.ts';
import type { Endpoint, HandlerContext, HandlerServices } from './endpoint-types.ts';
import { RateLimits } from './limits.ts';
import { ListenKeys } from './listen-keys.ts';
import type { Params } from './params.ts';
import type { ConnectionControl } from './session.ts';
import { FaultRules } from '../faults/rules.ts';
import type { Transport } from '../faults/rule.ts';
import { refusalReply } from './fault-reply.ts';
import { routesFor, type Routes } from './endpoints.ts';
import type { Reply } from './reply.ts';
import { Wire } from './wire.ts';

export type { Refusal, Reply } from './reply.ts';

export interface RequestMeta {
  /** Which transport carries it (fault rules may target one). */
  readonly transport: Transport;
  readonly apiKey: string | undefined;
  /** A WS API request on a logged-on Ed25519 session without its own apiKey/signature (spec 5.3). */
  readonly sessionAuthenticated?: boolean;
  /** The WS API connection, for the session and user-data methods. */
  readonly connection?: ConnectionControl;
}

export type ErrorLogger = (message: string, error: unknown) => void;

export class Service implements HandlerServices {
  readonly wire: Wire;
  readonly auth: Authenticator;
  readonly limits: RateLimits;
  readonly listenKeys: ListenKeys;
  /** The routes and methods served under `[sim] order_types` (the order-list ones only with "reference"). */
  readonly routes: Routes;
  /** The fault rules in force (API.md 3.1), consulted at the named points below; they know the served endpoints only. */
  readonly faults: FaultRules;
  /**
   * Exceptions a handler or a transport's last line of defence caught (each one a defect: no
   * input should reach one); answered with the reference's -1000 and counted in `sim.stats()`.
   */
  internalErrors = 0;

  constructor(
    readonly config: Config,
    /** The current core: a reset replaces it (the simulator holds the reference). */
    private readonly core: () => Exchange,
    readonly clock: Clock,
    credentials: Credentials,
    private readonly logError: ErrorLogger,
    /** A deleted listen key's streams end (the outbox tells the user streams). */
    onListenKeyRemoved: (key: string) => void = () => undefined,
  ) {
    this.routes = routesFor(config.sim.order_types);
    this.faults = new FaultRules(this.routes.endpoints);
    this.wire = new Wire({ instrument: (symbol) => this.exchange.instrument(symbol) });
    this.auth = new Authenticator(credentials, config.sim.limits.max_recv_window_ms);
    this.limits = new RateLimits(config.sim.limits);
    this.listenKeys = new ListenKeys(config.sim.listen_key_validity_ms, onListenKeyRemoved);
  }

  get exchange(): Exchange {
    return this.core();
  }

  handle(endpoint: Endpoint, params: Params, meta: RequestMeta): Reply {
    const now = this.clock.now();
    let weight = 1;
    try {
      weight = endpoint.weight(params);
    } catch {
      // A malformed parameter the weight depends on: the handler reports it.
    }
    const { transport } = meta;
    const admission = this.faults.refusalAt('admission', endpoint, transport);
    if (admission !== null) return refusalReply(this, admission, now, endpoint);
    const refusal = this.limits.chargeWeight(weight, now);
    if (refusal !== null) return this.refused(refusal.error, now, endpoint, refusal.retryAfterSeconds, refusal.retryAtMs);

    if (endpoint.ed25519Only && !this.auth.isEd25519) return this.error(apiError('LOGON_NOT_SUPPORTED'), now, endpoint);
    if (endpoint.security !== 'NONE') {
      const keyFault = this.faults.refusalAt('key', endpoint, transport);
      if (keyFault !== null) return refusalReply(this, keyFault, now, endpoint);
      const keyError = this.auth.checkApiKey(meta.apiKey);
      if (keyError !== null) return this.error(keyError, now, endpoint);
      if (endpoint.security === 'SIGNED') {
        const signatureFault = this.faults.refusalAt('signature', endpoint, transport);
        if (signatureFault !== null) return refusalReply(this, signatureFault, now, endpoint);
        const signError = this.auth.checkSigned(params, now, meta.sessionAuthenticated === true);
        if (signError !== null) return this.error(signError, now, endpoint);
      }
    }
    let run = endpoint.run;
    if (endpoint.countsOrder) {
      const orderRefusal = this.limits.chargeOrder(now, endpoint.ordersPerRequest);
      if (orderRefusal !== null) {
        let instead: typeof run | undefined;
        try {
          instead = endpoint.whenOrderCountExceeded?.(params, orderRefusal.error);
        } catch (thrown) {
          if (!isApiError(thrown)) throw thrown;
          return this.error(thrown, now, endpoint);
        }
        if (instead === undefined) return this.refused(orderRefusal.error, now, endpoint, orderRefusal.retryAfterSeconds, orderRefusal.retryAtMs);
        run = instead;
      }
    }
    // An injected error in place of the handler (reject_next_orders among them): nothing changes.
    const handlerFault = this.faults.refusalAt('handler', endpoint, transport);
    if (handlerFault !== null) return refusalReply(this, handlerFault, now, endpoint);

    const ctx: HandlerContext = { service: this, exchange: this.exchange, now, events: [], connection: meta.connection };
    try {
      const body = run(ctx, params);
      if (endpoint.freeOnSuccess) this.limits.refundWeight(weight, now);
      return { status: 200, body, refusal: null, usedWeight: this.limits.usedWeight(now), orderCounts: this.orderCounts(endpoint, now), events: ctx.events };
    } catch (thrown) {
      if (isApiError(thrown)) return { ...this.error(thrown, now, endpoint), events: ctx.events };
      this.unexpected(endpoint.id, thrown);
      return this.error(apiError('UNKNOWN'), now, endpoint);
    }
  }

  /** Counts and logs an exception caught where it should never have been thrown. */
  unexpected(where: string, error: unknown): void {
    this.internalErrors++;
    this.logError(`unexpected error in ${where}`, error);
  }

  /** A reply for an error found before any handler ran (routing, body limits). */
  error(error: ApiError, now: number, endpoint?: Endpoint): Reply {
    const refusal = error.data === undefined ? { code: error.code, msg: error.msg } : { code: error.code, msg: error.msg, data: error.data };
    return { status: error.http, body: refusal, refusal, usedWeight: this.limits.usedWeight(now), orderCounts: endpoint ? this.orderCounts(endpoint, now) : null, events: [] };
  }

  private refused(error: ApiError, now: number, endpoint: Endpoint, retryAfterSeconds: number, retryAtMs: number): Reply {
    return { ...this.error(error, now, endpoint), retryAfterSeconds, retryAtMs };
  }

  private orderCounts(endpoint: Endpoint, now: number) {
    return endpoint.countsOrder ? this.limits.orderCounts(now) : null;
  }
}

export { ApiError };
