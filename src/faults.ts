// Fault injection (spec 4.5, API.md section 3): the in-process controls, camelCase, each with
// the exact effect the spec names and safe to call at any time. The timed `[sim.faults]`
// settings are scheduled on the simulator's clock and call the same methods, so a manual clock
// fires them from `advanceTime` exactly as the wall clock would.

import type { ServerResponse } from 'node:http';
import type { Service } from './api/service.ts';
import { MAX_TIMER_MS } from './config/fields.ts';
import type { FaultsConfig } from './config/types.ts';
import type { Exchange } from './core/exchange.ts';
import type { CoreEvent } from './core/types.ts';
import { formatScaled } from './core/units.ts';
import { fillOpenOrder } from './api/orders.ts';
import type { WsGateway } from './net/ws-gateway.ts';

export interface FaultHost {
  readonly service: Service;
  readonly exchange: Exchange;
  readonly gateway: WsGateway;
  readonly heldRest: Set<ServerResponse>;
  now(): number;
  publish(events: CoreEvent[]): void;
  /** Moves the server clock's offset (spec 1.9). */
  setClockOffsetMs(ms: number): void;
  /** The configured `clock_offset_ms`, which `clear()` restores. */
  readonly configuredOffsetMs: number;
}

/** A usage error of a fault call (bad argument, unknown order): the control API answers 400. */
export class FaultError extends Error {}

/**
 * A numeric fault argument outside its range (or not an integer): a RangeError like the
 * platform's own, thrown before anything changes; the control API answers 400 as for FaultError.
 * The ranges are the configuration's for the same settings (one place: config/fields.ts).
 */
export class FaultRangeError extends RangeError {}

interface TimedFault {
  readonly atMs: number;
  readonly fire: () => void;
}

/** How often each fault was invoked or took effect (stats, spec 4.5 "counters for all of the above"). */
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

export class Faults {
  private timed: TimedFault[] = [];
  private readonly counts = { droppedMarketDataConnections: 0, droppedWsApiConnections: 0, skippedDepthUpdates: 0, expiredListenKeys: 0, forcedFills: 0, malformedFramesSent: 0, restRequestsSwallowed: 0 };

  constructor(private readonly host: FaultHost) {}

  private get state() {
    return this.host.service.faults;
  }

  dropMarketDataConnections(): number {
    const n = this.host.gateway.dropConnections(['market']);
    this.counts.droppedMarketDataConnections += n;
    return n;
  }

  dropWsApiConnections(includeUserStreams: boolean): number {
    requireBoolean('includeUserStreams', includeUserStreams);
    const n = this.host.gateway.dropConnections(includeUserStreams ? ['api', 'user'] : ['api']);
    this.counts.droppedWsApiConnections += n;
    return n;
  }

  skipNextDepthUpdate(): void {
    this.host.exchange.submit({ type: 'skipDepthUpdate', now: this.host.now(), symbolIndex: null, skip: true });
    this.counts.skippedDepthUpdates++;
  }

  failNextTimestamp(): void {
    this.state.arm('failTimestamp', this.state.armed('failTimestamp') + 1);
  }

  setRestUnresponsive(on: boolean): void {
    requireBoolean('on', on);
    this.state.restUnresponsive = on;
    if (!on) {
      // Requests swallowed meanwhile never get an answer: their connections are closed.
      this.counts.restRequestsSwallowed += this.host.heldRest.size;
      for (const res of this.host.heldRest) res.destroy();
      this.host.heldRest.clear();
    }
  }

  setAckDelayMs(ms: number): void {
    // A timer: 2^31 ms or more overflows it, so the cap of `delay_ack_ms` applies.
    requireInteger(ms, 0, MAX_TIMER_MS, `ms must be an integer from 0 to ${MAX_TIMER_MS}`);
    this.state.ackDelayMs = ms;
  }

  rejectNextOrders(k: number): void {
    requireCount('k', k);
    this.state.arm('rejectOrder', k);
  }

  rateLimitNextRequests(k: number): void {
    requireCount('k', k);
    this.state.arm('rateLimit', k);
  }

  setClockOffsetMs(ms: number): void {
    requireInteger(ms, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'ms must be an integer');
    this.host.setClockOffsetMs(ms);
  }

  expireListenKeys(): number {
    const now = this.host.now();
    const keys = this.host.service.listenKeys.expire(now, true);
    this.host.gateway.expireListenKeys(keys, now);
    this.counts.expiredListenKeys += keys.length;
    return keys.length;
  }

  swallowNextWsApiResponses(k: number): void {
    requireCount('k', k);
    this.state.arm('swallowWsApi', k);
  }

  duplicateNextUserEvents(k: number): void {
    requireCount('k', k);
    this.state.arm('duplicateUserEvent', k);
  }

  setUserStreamMuted(muted: boolean): void {
    requireBoolean('muted', muted);
    this.state.userStreamMuted = muted;
  }

  /** Crosses one of the account's resting orders; returns the quantity filled (decimal string). */
  fillOpenOrder(orderId: number, qty: string): string {
    requireInteger(orderId, 1, Number.MAX_SAFE_INTEGER, 'orderId must be a positive integer');
    if (typeof qty !== 'string' && typeof qty !== 'number') throw new FaultError('qty must be a decimal string');
    const outcome = fillOpenOrder(this.host.exchange, orderId, String(qty), this.host.now());
    if (!outcome.ok) {
      const why = outcome.error.code === -2013 ? `order ${orderId} is not an open order of the account` : `qty: ${outcome.error.msg}`;
      throw new FaultError(why);
    }
    if (outcome.events.length > 0) this.host.publish(outcome.events);
    this.counts.forcedFills++;
    const inst = this.host.exchange.instrument(outcome.value.symbol)!;
    return formatScaled(outcome.value.filled, inst.lotDecimals);
  }

  banNextRequests(k: number): void {
    requireCount('k', k);
    this.state.arm('ban', k);
  }

  failNextAuth(k: number): void {
    requireCount('k', k);
    this.state.arm('failAuth', k);
  }

  sendMalformedFrames(md: boolean, wsApi: boolean): number {
    requireBoolean('md', md);
    requireBoolean('wsApi', wsApi);
    const kinds = [...(md ? (['market', 'user'] as const) : []), ...(wsApi ? (['api'] as const) : [])];
    const n = kinds.length === 0 ? 0 : this.host.gateway.sendMalformedFrames(kinds);
    this.counts.malformedFramesSent += n;
    return n;
  }

  /**
   * Every switch and counter off; timed faults not yet fired are cancelled (API.md §6). The
   * clock offset returns to the configured `clock_offset_ms` (0 unless configured).
   */
  clear(): void {
    this.state.clear();
    this.host.exchange.submit({ type: 'skipDepthUpdate', now: this.host.now(), symbolIndex: null, skip: false });
    this.setRestUnresponsive(false);
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

  /** Arms the `[sim.faults]` settings, the `*_after_s` ones relative to `startMs`. */
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

  /** Fires the timed faults that are due (called from the driver tick). */
  tick(now: number): void {
    while (this.timed.length > 0 && this.timed[0]!.atMs <= now) this.timed.shift()!.fire();
  }
}

/** A one-shot count: any non-negative safe integer (as `reject_next_orders` / `rate_limit_next`). */
function requireCount(name: string, value: unknown): asserts value is number {
  requireInteger(value, 0, Number.MAX_SAFE_INTEGER, `${name} must be a non-negative integer`);
}

/** Not a number: FaultError; a number that is not an integer in [min, max]: FaultRangeError. */
function requireInteger(value: unknown, min: number, max: number, message: string): asserts value is number {
  if (typeof value !== 'number') throw new FaultError(message);
  if (!Number.isInteger(value) || value < min || value > max) throw new FaultRangeError(`${message} (got ${value})`);
}

function requireBoolean(name: string, value: unknown): asserts value is boolean {
  if (typeof value !== 'boolean') throw new FaultError(`${name} must be true or false`);
}
