// The WebSocket API `/ws-api/v3` (spec 4.3, binance-facts §6): `{id, method, params}` in,
// `{id, status, result|error, rateLimits}` out, through the same endpoint table, service,
// authentication and limits as REST. The id is echoed verbatim with its JSON type. A request's
// events are published only after its response is sent (spec 4.4). Session logon and user-data
// subscriptions live on the connection (ConnectionControl).

import { performance } from 'node:perf_hooks';
import type { RawData } from 'ws';
import type { Endpoint } from '../api/endpoints.ts';
import { parseWsParams } from '../api/params.ts';
import { rateLimitsText, type OrderCounts } from '../api/rate-limit-shapes.ts';
import { parseExact, roundedIntegers } from '../api/exact-json.ts';
import { jsonText } from '../api/raw-json.ts';
import type { Reply, Service } from '../api/service.ts';
import type { ReplyObserver } from '../api/reply.ts';
import type { ConnectionControl, SessionStatus } from '../api/session.ts';
import { eventInUnit, replyInUnit, type TimeUnit } from '../api/time-unit.ts';
import { apiError, isApiError, type ApiError } from '../core/errors.ts';
import { rawText } from './market-streams.ts';
import type { HeldEvents, Outbox } from './outbox.ts';
import { requestIdText } from './request-id.ts';
import type { UserSink, UserStreams } from './user-streams.ts';
import type { Peer } from './ws-peer.ts';

/** binance-facts §6: ≤ 65535 subscription ids over a connection's life, then -2042. */
const MAX_SUBSCRIPTION_IDS = 65535;
const VERSION_PREFIX = /^v[0-9]+\//;

/** A reply held back by an ack delay, with the place of its account events in the account's stream. */
interface Outgoing {
  readonly dueAt: number;
  readonly frame: string | null;
  readonly events: HeldEvents;
}

export interface WsApiHooks {
  readonly service: Service;
  readonly users: UserStreams;
  /** Where a request's events go (user data, public trades) once its response is sent. */
  readonly outbox: Outbox;
  readonly onReply?: ReplyObserver;
}

export class WsApiConnection implements ConnectionControl {
  private session: { apiKey: string; since: number } | null = null;
  private readonly subscriptions = new Map<number, UserSink & { form: 'api' }>();
  private nextSubscriptionId = 0;
  /** Replies held back by an ack delay; later replies queue behind them to keep their order. */
  private readonly outgoing: Outgoing[] = [];
  private drainTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly peer: Peer,
    private readonly hooks: WsApiHooks,
    private readonly returnRateLimitsDefault: boolean,
    /** `timeUnit=MICROSECOND` on the URL: replies and this connection's events in µs. */
    private readonly timeUnit: TimeUnit = 'MILLISECOND',
  ) {
    peer.ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    // Held replies keep their timer after a close: their frames go nowhere, but their events
    // still reach the account's other streams at their time (late, never lost: docs/events.md).
    peer.ws.once('close', () => {
      for (const sink of this.subscriptions.values()) hooks.users.remove(sink);
      this.subscriptions.clear();
    });
  }

  get loggedOn(): boolean {
    return this.session !== null;
  }

  // ------------------------------------------------------------------ requests

  private onMessage(data: RawData, isBinary: boolean): void {
    // A connection being closed (a drop, a reset) carries out nothing more it had buffered.
    if (this.peer.ws.readyState !== this.peer.ws.OPEN) return;
    try {
      this.receive(data, isBinary);
    } catch (error) {
      // The last line of defence (issue 18): the reference's generic error, counted, and the
      // connection and the process live on.
      const service = this.hooks.service;
      service.unexpected('a WS API frame', error);
      try {
        this.send(this.errorFrame('null', apiError('UNKNOWN'), service.clock.now()));
      } catch {
        this.peer.terminate();
      }
    }
  }

  private receive(data: RawData, isBinary: boolean): void {
    const receivedAt = performance.now();
    const text = isBinary ? null : rawText(data);
    const request = this.parse(text);
    if ('error' in request) {
      this.send(this.errorFrame(request.id, request.error, this.hooks.service.clock.now()));
      return;
    }
    const { idJson, endpoint, raw } = request;
    const service = this.hooks.service;
    let reply: Reply;
    let returnRateLimits = this.returnRateLimitsDefault;
    try {
      const params = parseWsParams(raw.params);
      returnRateLimits = params.bool('returnRateLimits') ?? this.returnRateLimitsDefault;
      const ownKey = params.get('apiKey');
      // After session.logon, requests may leave out apiKey and signature (spec 5.3); an explicit
      // apiKey + signature still authenticates that request on its own.
      const sessionAuthenticated = this.session !== null && endpoint.id !== 'session.logon' && ownKey === undefined && !params.has('signature');
      reply = service.handle(endpoint, params, {
        apiKey: ownKey ?? this.session?.apiKey,
        sessionAuthenticated,
        connection: this,
        transport: 'ws-api',
      });
    } catch (error) {
      if (!isApiError(error)) throw error;
      reply = service.error(error, service.clock.now(), endpoint);
    }
    this.hooks.onReply?.(endpoint.id, reply, { method: endpoint.ws ?? endpoint.id, receivedAt });
    // Fault rules: the reply may be lost (swallow_next_ws_api_responses), the connection closed
    // instead, or the reply delayed with its user events (set_ack_delay_ms); it was carried out.
    const fault = service.faults.replyFault(endpoint, 'ws-api');
    if (fault.outcome === 'close') {
      this.peer.terminate();
      this.hooks.outbox.publish(reply.events);
      return;
    }
    const frame = fault.outcome === 'swallow' ? null : this.replyFrame(idJson, reply, endpoint, returnRateLimits);
    const delay = fault.delayMs;
    if (delay === 0 && this.outgoing.length === 0) {
      if (frame !== null) this.send(frame);
      this.hooks.outbox.publish(reply.events);
      return;
    }
    // An ack delay: market data goes out now; the reply and the user events it caused follow
    // after the delay, in request order. The held reply keeps its events' place in the account's
    // stream until then (later account events, of any connection, wait behind them).
    const events = this.hooks.outbox.hold(reply.events);
    const last = this.outgoing.at(-1)?.dueAt ?? 0;
    this.outgoing.push({ dueAt: Math.max(performance.now() + delay, last), frame, events });
    this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (this.drainTimer !== null || this.outgoing.length === 0) return;
    const wait = Math.max(0, this.outgoing[0]!.dueAt - performance.now());
    this.drainTimer = setTimeout(() => {
      this.drainTimer = null;
      const now = performance.now();
      while (this.outgoing.length > 0 && this.outgoing[0]!.dueAt <= now) {
        const next = this.outgoing.shift()!;
        if (next.frame !== null) this.send(next.frame);
        next.events.release();
      }
      this.scheduleDrain();
    }, wait);
    this.drainTimer.unref();
  }

  private parse(text: string | null):
    | { idJson: string; endpoint: Endpoint; raw: Record<string, unknown> }
    | { id: string; error: ApiError } {
    let msg: unknown;
    try {
      if (text === null) throw new SyntaxError('binary frame');
      msg = JSON.parse(text);
    } catch {
      return { id: 'null', error: apiError('INVALID_JSON') };
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return { id: 'null', error: apiError('INVALID_JSON') };
    let raw = msg as Record<string, unknown>;
    // An id or param beyond 2^53 is read as the digits sent (validation and signature alike).
    if (roundedIntegers(raw)) raw = parseExact(text!, raw) as Record<string, unknown>;
    const idJson = requestIdText(raw.id, false);
    if (idJson === null) return { id: 'null', error: apiError('INVALID_PARAMETER', 'id') };
    if (raw.method === undefined || raw.method === null || raw.method === '') return { id: idJson, error: apiError('MANDATORY_PARAM', 'method') };
    if (typeof raw.method !== 'string') return { id: idJson, error: apiError('INVALID_PARAMETER', 'method') };
    const endpoint = this.hooks.service.routes.ws.get(raw.method.charCodeAt(0) === 118 /* v */ ? raw.method.replace(VERSION_PREFIX, '') : raw.method);
    if (endpoint === undefined) return { id: idJson, error: apiError('INVALID_PARAMETER', 'method') };
    return { idJson, endpoint, raw };
  }

  private replyFrame(idJson: string, reply: Reply, endpoint: Endpoint, returnRateLimits: boolean): string {
    const limits = returnRateLimits ? `,"rateLimits":${this.rateLimits(reply.usedWeight, endpoint.countsOrder ? (reply.orderCounts ?? this.hooks.service.limits.orderCounts(this.hooks.service.clock.now())) : null)}` : '';
    const refusal = reply.refusal;
    if (refusal === null) return `{"id":${idJson},"status":${reply.status},"result":${jsonText(reply.body)}${limits}}`;
    // A 429/418 carries data.retryAfter in epoch ms (spec 4.3).
    const error =
      refusal.data === undefined && reply.retryAtMs !== undefined
        ? { code: refusal.code, msg: refusal.msg, data: { serverTime: this.hooks.service.clock.now(), retryAfter: reply.retryAtMs } }
        : refusal;
    return `{"id":${idJson},"status":${reply.status},"error":${JSON.stringify(error)}${limits}}`;
  }

  /** A frame refused before any method ran (bad JSON, id or method): no weight charged. */
  private errorFrame(idJson: string, error: ApiError, now: number): string {
    const limits = this.returnRateLimitsDefault ? `,"rateLimits":${this.rateLimits(this.hooks.service.limits.usedWeight(now), null)}` : '';
    return `{"id":${idJson},"status":${error.http},"error":${JSON.stringify({ code: error.code, msg: error.msg })}${limits}}`;
  }

  /** The limits the request touched (binance-facts §6): weight, plus both ORDERS windows on order methods. */
  private rateLimits(usedWeight: number, orderCounts: OrderCounts | null): string {
    return rateLimitsText(this.hooks.service.config.sim.limits, usedWeight, orderCounts);
  }

  private send(frame: string): void {
    this.peer.send(replyInUnit(frame, this.timeUnit));
  }

  // ------------------------------------------------------------------ ConnectionControl

  logon(apiKey: string, now: number): SessionStatus {
    this.session = { apiKey, since: now };
    return this.status(now);
  }

  logout(now: number): SessionStatus {
    this.session = null;
    // Logout ends only the subscription made through the session (binance-facts §6).
    for (const [id, sink] of this.subscriptions) if (sink.viaSession) this.end(id, now);
    return this.status(now);
  }

  status(now: number): SessionStatus {
    return {
      apiKey: this.session?.apiKey ?? null,
      authorizedSince: this.session?.since ?? null,
      connectedSince: this.peer.connectedAt,
      returnRateLimits: this.returnRateLimitsDefault,
      serverTime: now,
      userDataStream: this.subscriptions.size > 0,
    };
  }

  subscribe(viaSession: boolean): number {
    // One subscription per account per connection; the simulator has one account.
    if (this.subscriptions.size > 0) throw apiError('SUBSCRIPTION_ACTIVE');
    if (this.nextSubscriptionId >= MAX_SUBSCRIPTION_IDS) throw apiError('MAX_SUBSCRIPTION_ID');
    const subscriptionId = this.nextSubscriptionId++;
    const sink = { form: 'api' as const, peer: this.peer, subscriptionId, viaSession, timeUnit: this.timeUnit };
    this.subscriptions.set(subscriptionId, sink);
    this.hooks.users.add(sink);
    return subscriptionId;
  }

  unsubscribe(subscriptionId: number | undefined, now: number): void {
    if (subscriptionId === undefined) {
      for (const id of [...this.subscriptions.keys()]) this.end(id, now);
      return;
    }
    if (!this.subscriptions.has(subscriptionId)) throw apiError('SUBSCRIPTION_INACTIVE');
    this.end(subscriptionId, now);
  }

  subscriptionIds(): number[] {
    return [...this.subscriptions.keys()];
  }

  /** Ends a subscription with `eventStreamTerminated` (binance-facts §7.2), after the reply. */
  private end(subscriptionId: number, now: number): void {
    const sink = this.subscriptions.get(subscriptionId)!;
    this.subscriptions.delete(subscriptionId);
    this.hooks.users.remove(sink);
    const payload = eventInUnit(this.hooks.users.eventStreamTerminated(now), this.timeUnit);
    queueMicrotask(() => this.peer.send(`{"subscriptionId":${subscriptionId},"event":${payload}}`));
  }
}
