// The fault calls as the control API offers them (API.md sections 5 and 6): each method of
// `sim.faults` with its arguments by name, in call order, and their checks. The control API's
// `POST /sim/v1/faults/<method>` routes are generated from this list, so a method is added in
// one place; the compiler checks that every entry calls a method of `Faults` with the types of
// its arguments, and the checks are the very ones the methods run in-process.

import { requireBoolean, requireCount, requireOffsetMs, requireOrderId, requireQty, requireTimerMs } from './checks.ts';
import type { Faults } from './controller.ts';
import { MAX_TIMER_MS } from '../config/fields.ts';

/** A JSON Schema of one argument (the control API's OpenAPI description). */
export type ArgSchema = Readonly<Record<string, unknown>>;

interface Arg<T> {
  readonly name: string;
  readonly check: (value: unknown, name: string) => T;
  readonly schema: ArgSchema;
}

export interface FaultMethod {
  readonly args: readonly string[];
  /** Each argument's JSON Schema, by name, in call order. */
  readonly schemas: readonly { readonly name: string; readonly schema: ArgSchema }[];
  /** Checks the arguments (given by name) and calls the method. */
  invoke(faults: Faults, given: Readonly<Record<string, unknown>>): unknown;
}

function method<A extends unknown[]>(args: { readonly [I in keyof A]: Arg<A[I]> }, call: (faults: Faults, ...args: A) => unknown): FaultMethod {
  const list: readonly Arg<unknown>[] = args;
  return {
    args: list.map((a) => a.name),
    schemas: list.map((a) => ({ name: a.name, schema: a.schema })),
    invoke: (faults, given) => call(faults, ...(list.map((a) => a.check(given[a.name], a.name)) as A)),
  };
}

const count = (name: string): Arg<number> => ({ name, check: requireCount, schema: { type: 'integer', minimum: 0 } });
const flag = (name: string): Arg<boolean> => ({ name, check: requireBoolean, schema: { type: 'boolean' } });
const arg = <T>(name: string, check: (value: unknown, name: string) => T, schema: ArgSchema): Arg<T> => ({ name, check, schema });
const TIMER_MS: ArgSchema = { type: 'integer', minimum: 0, maximum: MAX_TIMER_MS };
const OFFSET_MS: ArgSchema = { type: 'integer' };
const ORDER_ID: ArgSchema = { type: 'integer', minimum: 1 };
const QTY: ArgSchema = { type: ['string', 'number'], description: 'a decimal quantity' };

/** `POST /sim/v1/faults/<name>`: the spec's calls (4.5) and `clear`. */
const METHODS = {
  dropMarketDataConnections: method([], (f) => f.dropMarketDataConnections()),
  dropWsApiConnections: method([flag('includeUserStreams')], (f, all) => f.dropWsApiConnections(all)),
  skipNextDepthUpdate: method([], (f) => f.skipNextDepthUpdate()),
  failNextTimestamp: method([], (f) => f.failNextTimestamp()),
  setRestUnresponsive: method([flag('on')], (f, on) => f.setRestUnresponsive(on)),
  setAckDelayMs: method([arg('ms', requireTimerMs, TIMER_MS)], (f, ms) => f.setAckDelayMs(ms)),
  rejectNextOrders: method([count('k')], (f, k) => f.rejectNextOrders(k)),
  rateLimitNextRequests: method([count('k')], (f, k) => f.rateLimitNextRequests(k)),
  setClockOffsetMs: method([arg('ms', requireOffsetMs, OFFSET_MS)], (f, ms) => f.setClockOffsetMs(ms)),
  expireListenKeys: method([], (f) => f.expireListenKeys()),
  swallowNextWsApiResponses: method([count('k')], (f, k) => f.swallowNextWsApiResponses(k)),
  duplicateNextUserEvents: method([count('k')], (f, k) => f.duplicateNextUserEvents(k)),
  setUserStreamMuted: method([flag('muted')], (f, muted) => f.setUserStreamMuted(muted)),
  fillOpenOrder: method([arg('orderId', requireOrderId, ORDER_ID), arg('qty', requireQty, QTY)], (f, orderId, qty) => f.fillOpenOrder(orderId, qty)),
  banNextRequests: method([count('k')], (f, k) => f.banNextRequests(k)),
  failNextAuth: method([count('k')], (f, k) => f.failNextAuth(k)),
  sendMalformedFrames: method([flag('md'), flag('wsApi')], (f, md, wsApi) => f.sendMalformedFrames(md, wsApi)),
  clear: method([], (f) => f.clear()),
};

/** The fault calls the control API offers, by name. */
export type FaultMethodName = keyof typeof METHODS;
export const FAULT_METHODS: Readonly<Record<FaultMethodName, FaultMethod>> = Object.freeze(METHODS);

/** The method of that name, or undefined (own entries only: never `constructor`, `toString`...). */
export function faultMethod(name: string): FaultMethod | undefined {
  return Object.hasOwn(FAULT_METHODS, name) ? FAULT_METHODS[name as FaultMethodName] : undefined;
}
