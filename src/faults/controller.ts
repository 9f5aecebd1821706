// Fault injection (spec 4.5, API.md sections 3 and 3.1): `sim.faults`. The calls that act on
// requests are presets of the rule model (./presets.ts, ./rules.ts); `use()` adds rules of the
// user's own. The calls that act at once (drops, expiry, fills, malformed frames, the clock) and
// the event-delivery switches are direct actions here. The timed `[sim.faults]` settings are
// scheduled on the simulator's clock and call the same methods, so a manual clock fires them
// from `advanceTime` exactly as the wall clock would. The control API is generated from
// ./methods.ts, which lists these methods with their arguments.

import type { FaultsConfig } from '../config/types.ts';
import type { Outcome } from '../core/commands.ts';
import type { Exchange } from '../core/exchange.ts';
import type { CoreEvent } from '../core/types.ts';
import { formatScaled } from '../core/units.ts';
import { FaultError, requireBoolean, requireCount, requireOffsetMs, requireOrderId, requireQty, requireTimerMs } from './checks.ts';
import type { FaultRule } from './rule.ts';
import type { FaultEndpoint, FaultRuleHandle, FaultRules, FaultRuleView } from './rules.ts';

export type ConnectionKind = 'market' | 'api' | 'user';

/** What the faults act on, wired at the composition root (src/simulator.ts). */
export interface FaultHost {
  readonly rules: FaultRules;
  readonly exchange: Exchange;
  /** The account's order `orderId` filled by `qty` (decimal) from the other side: the edge parses, the core fills. */
  fillOpenOrder(orderId: number, qty: string, now: number): Outcome<{ readonly symbol: string; readonly filled: number }>;
  now(): number;
  publish(events: CoreEvent[]): void;
  /** Closes every WebSocket connection of the kinds; returns how many. */
  dropConnections(kinds: readonly ConnectionKind[]): number;
  /** One non-JSON text frame on every connection of the kinds; returns how many. */
  sendMalformedFrames(kinds: readonly ConnectionKind[]): number;
  /** Expires every listen key now (listenKeyExpired to its streams); returns how many. */
  expireListenKeys(): number;
  /** Moves the server clock's offset (spec 1.9). */
  setClockOffsetMs(ms: number): void;
  /** The configured `clock_offset_ms`, which `clear()` restores. */
  readonly configuredOffsetMs: number;
}

interface TimedFault {
  readonly atMs: number;
  readonly fire: () => void;
}

/**
 * How often each fault was invoked or took effect (part of `sim.stats()`).
 * @example
 * sim.faults.rejectNextOrders(2);
 * const counters: FaultCounters = sim.faults.counters();
 * console.log(counters.rejectedOrders);
 */
export interface FaultCounters {
  droppedMarketDataConnections: number;
  droppedWsApiConnections: number;
  skippedDepthUpdates: number;
  failedTimestamps: number;
  restRequestsSwallowed: number;
  rejectedOrders: number;
  rateLimitedRequests: number;
  expiredListenKeys: number;
  swallowedWsApiResponses: number;
  duplicatedUserEvents: number;
  forcedFills: number;
  bannedRequests: number;
  failedAuths: number;
  malformedFramesSent: number;
}

/**
 * The fault controls of a simulator (`sim.faults`; the fixture's `faults` records each call as a
 * report step): fixed calls such as `rejectNextOrders(k)` or `dropMarketDataConnections()`, and
 * fault rules on any endpoint (`use`). Every call acts at once; a bad argument throws before
 * anything changes.
 * @example
 * sim.faults.rejectNextOrders(1);   // the next placement answers -2010
 * const rule = sim.faults.use({ on: 'order.cancel', transport: 'ws-api', action: { error: -2011 } });
 * console.log(rule.hits, sim.faults.rules().length);
 * sim.faults.clear();
 */
export class Faults {
  private timed: TimedFault[] = [];
  private readonly counts = { droppedMarketDataConnections: 0, droppedWsApiConnections: 0, skippedDepthUpdates: 0, expiredListenKeys: 0, forcedFills: 0, malformedFramesSent: 0, restRequestsSwallowed: 0 };

  /** @internal Made by the simulator (`sim.faults`). */
  constructor(private readonly host: FaultHost) {}

  private get state(): FaultRules {
    return this.host.rules;
  }

  // ------------------------------------------------------------------ rules (API.md 3.1)

  /**
   * Adds a rule: `on` endpoint ids (`endpoints()`), an array of them or '*'; `transport` 'rest' or
   * 'ws-api' (both when left out); `times` (default 1, 0 = until removed); `action` one of
   * `{ error: code }`, `{ status, code, msg }`, `{ delayMs }`, `{ swallow: true }`, `{ close: true }`.
   * An unknown endpoint, action or field throws a TypeError naming it.
   * @example const rule = sim.faults.use({ on: 'order.cancel', transport: 'ws-api', action: { error: -2011 } });
   */
  use(rule: FaultRule): FaultRuleHandle {
    return this.state.use(rule);
  }

  /** The rules in force (the presets the fixed fault calls such as `rejectNextOrders` armed among them) and your spent ones, with their hits. */
  rules(): FaultRuleView[] {
    return this.state.list();
  }

  /** The endpoint ids a rule can name, with their transports and REST routes. */
  endpoints(): FaultEndpoint[] {
    return this.state.endpoints();
  }

  /** Removes a rule by id (`rules()`); false when there is none. */
  removeRule(id: number): boolean {
    requireOrderId(id, 'id');
    return this.state.remove(id);
  }

  /** Removes every rule `rules()` lists (the fault calls' presets too); switches stay as they are (`clear()` turns everything off). Returns how many. */
  removeRules(): number {
    let removed = 0;
    for (const rule of this.state.list()) if (this.state.remove(rule.id)) removed++;
    return removed;
  }

  /** One rule by id as `rules()` lists it, or undefined. */
  rule(id: number): FaultRuleView | undefined {
    requireOrderId(id, 'id');
    return this.state.list().find((r) => r.id === id);
  }

  // ------------------------------------------------------------------ the spec's calls (4.5)

  /** Closes every market-data connection (`/ws`, `/stream`) abruptly (the client sees 1006); returns how many (the `[sim.faults]` key `drop_md_after_s` does it on a timer). */
  dropMarketDataConnections(): number {
    const n = this.host.dropConnections(['market']);
    this.counts.droppedMarketDataConnections += n;
    return n;
  }

  /** Closes every `/ws-api/v3` connection abruptly, and with `true` every legacy `/ws/<listenKey>` one too; returns how many. */
  dropWsApiConnections(includeUserStreams: boolean): number {
    requireBoolean(includeUserStreams, 'includeUserStreams');
    const n = this.host.dropConnections(includeUserStreams ? ['api', 'user'] : ['api']);
    this.counts.droppedWsApiConnections += n;
    return n;
  }

  /** The next depth batch of each symbol is not sent: the next diff's `U` jumps, so a client must detect the gap and resync. */
  skipNextDepthUpdate(): void {
    this.host.exchange.submit({ type: 'skipDepthUpdate', now: this.host.now(), symbolIndex: null, skip: true });
    this.counts.skippedDepthUpdates++;
  }

  /** The next signed request is refused with -1021 (timestamp outside of the recvWindow), on REST or the WS API. */
  failNextTimestamp(): void {
    this.state.arm('failTimestamp', this.state.armed('failTimestamp') + 1);
  }

  /** `true`: REST requests get no answer (held open) and are not carried out until switched off (then closed). WebSockets are unaffected. */
  setRestUnresponsive(on: boolean): void {
    requireBoolean(on, 'on');
    if (on) {
      if (this.state.armed('restUnresponsive') === 0) this.state.arm('restUnresponsive', 0);
      return;
    }
    // Requests swallowed meanwhile never get an answer: their connections are closed.
    this.counts.restRequestsSwallowed += this.state.disarm('restUnresponsive');
  }

  /**
   * Holds each WS API reply to an order-changing request (and the user events it caused) for `ms` ms; 0 turns it off. At most 2^31-1.
   * Later account events wait behind held ones (first in, first out); held events reach every user stream even if the placing connection closes.
   */
  setAckDelayMs(ms: number): void {
    requireTimerMs(ms, 'ms');
    if (ms === 0) this.state.disarm('ackDelay');
    else this.state.arm('ackDelay', 0, ms);
  }

  /** The next `k` order placements are refused with -2010 ("Market is closed."), on REST or the WS API; an order list's placement is one of them, refused whole. */
  rejectNextOrders(k: number): void {
    armCount(this.state, 'rejectOrder', requireCount(k, 'k'));
  }

  /** The next `k` requests (REST or WS API) get 429 / -1003 with Retry-After, as on a request-weight overrun. */
  rateLimitNextRequests(k: number): void {
    armCount(this.state, 'rateLimit', requireCount(k, 'k'));
  }

  /** Moves the server clock by `ms` (server time = wall or manual clock + this offset): server time, event times and the recvWindow check all shift. */
  setClockOffsetMs(ms: number): void {
    this.host.setClockOffsetMs(requireOffsetMs(ms, 'ms'));
  }

  /** Expires every listen key now: each stream gets `listenKeyExpired` and closes; returns how many keys. */
  expireListenKeys(): number {
    const n = this.host.expireListenKeys();
    this.counts.expiredListenKeys += n;
    return n;
  }

  /** The next `k` WS API requests are carried out but get no reply (their events still flow): test reconciliation by client order id. */
  swallowNextWsApiResponses(k: number): void {
    armCount(this.state, 'swallowWsApi', requireCount(k, 'k'));
  }

  /** The next `k` user-data events are delivered twice: test that the client dedupes. */
  duplicateNextUserEvents(k: number): void {
    this.state.duplicateNextUserEvents(requireCount(k, 'k'));
  }

  /** `true`: user-data events are not delivered while muted (the connections stay open); `false` resumes delivery. */
  setUserStreamMuted(muted: boolean): void {
    this.state.userStreamMuted = requireBoolean(muted, 'muted');
  }

  /**
   * Crosses one of the account's resting orders with a counterparty order; returns the quantity
   * filled on it (decimal string). Price-time priority holds: every order ahead of it (better
   * prices, and earlier ones at its price) is filled first, so those levels leave the book and
   * the depth stream shows them go. An unknown or closed order throws (the control API: 400).
   */
  fillOpenOrder(orderId: number, qty: string): string {
    requireOrderId(orderId, 'orderId');
    const outcome = this.host.fillOpenOrder(orderId, requireQty(qty, 'qty'), this.host.now());
    if (!outcome.ok) {
      const why = outcome.error.code === -2013 ? `order ${orderId} is not an open order of the account` : `qty: ${outcome.error.msg}`;
      throw new FaultError(why);
    }
    if (outcome.events.length > 0) this.host.publish(outcome.events);
    this.counts.forcedFills++;
    const inst = this.host.exchange.instrument(outcome.value.symbol)!;
    return formatScaled(outcome.value.filled, inst.lotDecimals);
  }

  /** The next `k` requests (REST or WS API) get 418 / -1003 (IP banned) with Retry-After. */
  banNextRequests(k: number): void {
    armCount(this.state, 'ban', requireCount(k, 'k'));
  }

  /** The next `k` requests that need an API key are refused with -2015 (invalid API key, IP or permissions). */
  failNextAuth(k: number): void {
    armCount(this.state, 'failAuth', requireCount(k, 'k'));
  }

  /** Sends one non-JSON text frame on every market-data (`md`) and/or WS API (`wsApi`) connection; returns how many. */
  sendMalformedFrames(md: boolean, wsApi: boolean): number {
    requireBoolean(md, 'md');
    requireBoolean(wsApi, 'wsApi');
    const kinds: ConnectionKind[] = [...(md ? (['market', 'user'] as const) : []), ...(wsApi ? (['api'] as const) : [])];
    const n = kinds.length === 0 ? 0 : this.host.sendMalformedFrames(kinds);
    this.counts.malformedFramesSent += n;
    return n;
  }

  /**
   * Every rule, switch and counter off; timed faults not yet fired are cancelled.
   * The clock offset returns to the configured `clock_offset_ms` (0 unless configured).
   */
  clear(): void {
    this.setRestUnresponsive(false);
    this.state.clear();
    this.host.exchange.submit({ type: 'skipDepthUpdate', now: this.host.now(), symbolIndex: null, skip: false });
    this.host.setClockOffsetMs(this.host.configuredOffsetMs);
    this.timed = [];
  }

  counters(): FaultCounters {
    const fired = this.state.fired;
    return {
      ...this.counts,
      failedTimestamps: fired.failTimestamp,
      rejectedOrders: fired.rejectOrder,
      rateLimitedRequests: fired.rateLimit,
      swallowedWsApiResponses: fired.swallowWsApi,
      duplicatedUserEvents: fired.duplicateUserEvent,
      bannedRequests: fired.ban,
      failedAuths: fired.failAuth,
    };
  }

  // ------------------------------------------------------------------ timed settings

  /** @internal Arms the `[sim.faults]` settings, the `*_after_s` ones relative to `startMs` (the simulator calls it). */
  schedule(config: FaultsConfig, startMs: number): void {
    const at = (seconds: number, fire: () => void) => {
      if (seconds > 0) this.timed.push({ atMs: startMs + Math.round(seconds * 1000), fire });
    };
    at(config.drop_md_after_s, () => this.dropMarketDataConnections());
    at(config.drop_ws_api_after_s, () => this.dropWsApiConnections(true));
    at(config.skip_depth_update_after_s, () => this.skipNextDepthUpdate());
    at(config.timestamp_error_after_s, () => this.failNextTimestamp());
    if (config.rest_unresponsive_after_s > 0) {
      at(config.rest_unresponsive_after_s, () => this.setRestUnresponsive(true));
      if (config.rest_unresponsive_for_s > 0) at(config.rest_unresponsive_after_s + config.rest_unresponsive_for_s, () => this.setRestUnresponsive(false));
    }
    if (config.delay_ack_ms > 0) this.setAckDelayMs(config.delay_ack_ms);
    if (config.reject_next_orders > 0) this.rejectNextOrders(config.reject_next_orders);
    if (config.rate_limit_next > 0) this.rateLimitNextRequests(config.rate_limit_next);
    this.timed.sort((a, b) => a.atMs - b.atMs);
  }

  /** @internal When the next timed fault fires, on the time `schedule` and `tick` use (Infinity: none). */
  nextTimedAt(): number {
    return this.timed.length > 0 ? this.timed[0]!.atMs : Infinity;
  }

  /** @internal Fires the timed faults that are due (called by the scheduler). */
  tick(now: number): void {
    while (this.timed.length > 0 && this.timed[0]!.atMs <= now) this.timed.shift()!.fire();
  }
}

/** A count preset: k requests from now (0 disarms it). */
function armCount(rules: FaultRules, slot: 'rejectOrder' | 'rateLimit' | 'ban' | 'failAuth' | 'swallowWsApi', k: number): void {
  if (k === 0) rules.disarm(slot);
  else rules.arm(slot, k);
}
