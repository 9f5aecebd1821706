// The fault rule model (API.md 3.1, ARCHITECTURE rule 10): a rule names endpoint ids of the
// endpoint table and a transport, how many times it takes effect, and one action. Each action
// takes effect at one named point of the request pipeline:
//
//   arrival    REST, before routing        (the REST-unresponsive preset only)
//   admission  before the request weight   (-1003, -1015: rate limits and bans)
//   key        where the API key is checked, endpoints that need one   (-2014, -2015)
//   signature  where the signature is checked, SIGNED endpoints       (-1021, -1022)
//   handler    in place of the handler     (every other error code: nothing changes)
//   delay      the reply (and the events it caused) leaves later     ({ delayMs })
//   reply      the request was carried out; its reply is lost or the connection closes
//
// so an injected code comes where the reference exchange would answer it, with what it sends
// for it (the error table's HTTP status and message; Retry-After on 429/418).

import { ERRORS, type ErrorName } from '../core/errors.ts';
import { describeUntrusted } from '../untrusted.ts';
import { FaultRuleError, requireInteger, requireTimerMs } from './checks.ts';

export type Transport = 'rest' | 'ws-api';
export type Point = 'arrival' | 'admission' | 'key' | 'signature' | 'handler' | 'delay' | 'reply';
export const POINTS: readonly Point[] = ['arrival', 'admission', 'key', 'signature', 'handler', 'delay', 'reply'];

/**
 * What a rule does: `{ error: code }` refuses with the simulator's reply for that code (its HTTP
 * status and message, docs/errors.md) where the reference checks it; `{ status, code, msg }`
 * refuses with exactly that; `{ delayMs }` sends the reply (and its events) later;
 * `{ swallow: true }` carries the request out and sends no reply; `{ close: true }` carries it
 * out and closes the connection instead of replying.
 * @example
 * const actions: FaultAction[] = [{ error: -1003 }, { status: 503, code: -1008, msg: 'Server is currently overloaded' }, { delayMs: 2_000 }, { swallow: true }, { close: true }];
 */
export type FaultAction =
  | { readonly error: number }
  | { readonly status: number; readonly code: number; readonly msg: string }
  | { readonly delayMs: number }
  | { readonly swallow: true }
  | { readonly close: true };

/**
 * A rule as `sim.faults.use()` and `POST /sim/v1/faults/rules` take it.
 * @example
 * const rule: FaultRule = { on: ['order.place', 'order.cancel'], transport: 'rest', times: 3, action: { error: -1003 } };
 * sim.faults.use(rule);
 */
export interface FaultRule {
  /** Endpoint ids (`sim.faults.endpoints()`), one or several, or '*' for every request. */
  readonly on: string | readonly string[];
  /** 'rest' or 'ws-api'; both when left out. */
  readonly transport?: Transport;
  /** How many requests it takes effect on (default 1); 0 = until removed. */
  readonly times?: number;
  readonly action: FaultAction;
}

/** What an endpoint of the endpoint table tells the rules (api/endpoints.ts satisfies it). */
export interface EndpointInfo {
  readonly id: string;
  readonly ws?: string;
  readonly rest?: { readonly method: string; readonly path: string };
  readonly security: 'NONE' | 'API_KEY' | 'SIGNED';
  readonly changesOrders?: boolean;
}

/** The id a rule names an endpoint by: the endpoint table's id (its WS API method name, or its own id when it is REST-only). */
export function faultId(endpoint: EndpointInfo): string {
  return endpoint.id;
}

/** An injected error reply: a row of the error table (message filled in later) or given outright. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  /** The row whose message (placeholders filled from the configuration) is sent; null = `msg`. */
  readonly row: ErrorName | null;
  readonly msg: string;
}

export type Effect =
  | { readonly kind: 'refuse'; readonly point: 'admission' | 'key' | 'signature' | 'handler'; readonly refusal: Refusal }
  | { readonly kind: 'delay'; readonly point: 'delay'; readonly ms: number }
  | { readonly kind: 'swallow' | 'close'; readonly point: 'reply' }
  | { readonly kind: 'unresponsive'; readonly point: 'arrival' };

/** A rule ready to match: endpoint ids as a set (null = every endpoint). */
export interface CompiledRule {
  readonly on: ReadonlySet<string> | null;
  readonly transport: Transport | null;
  readonly times: number;
  readonly effect: Effect;
  /** The rule as given (normalized), for listing. */
  readonly shown: { readonly on: string | readonly string[]; readonly transport?: Transport; readonly action: FaultAction | { readonly unresponsive: true } };
}

const RULE_FIELDS = new Set(['on', 'transport', 'times', 'action']);
const MAX_MSG_LENGTH = 1000;

/** The point where an error code is answered (see the header). */
export function pointOfCode(code: number): 'admission' | 'key' | 'signature' | 'handler' {
  if (code === -1003 || code === -1015) return 'admission';
  if (code === -2014 || code === -2015) return 'key';
  if (code === -1021 || code === -1022) return 'signature';
  return 'handler';
}

/** The error table's row for a code: the first row with that code (API.md 3.1). */
export function rowOfCode(code: number): ErrorName | undefined {
  for (const name of Object.keys(ERRORS) as ErrorName[]) if (ERRORS[name].code === code) return name;
  return undefined;
}

/** Checks a rule and compiles it; a FaultRuleError (TypeError) or FaultRangeError names the problem. */
export function compileRule(input: unknown, endpoints: readonly EndpointInfo[]): CompiledRule {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new FaultRuleError('a fault rule must be an object { on, transport?, times?, action }');
  const rule = input as Record<string, unknown>;
  const extra = Object.keys(rule).find((k) => !RULE_FIELDS.has(k));
  if (extra !== undefined) throw new FaultRuleError(`unknown rule field '${extra}'; expected on, transport, times, action`);
  const transport = transportOf(rule.transport);
  const times = rule.times === undefined ? 1 : requireInteger(rule.times, 0, Number.MAX_SAFE_INTEGER, 'times must be a non-negative integer');
  const effect = effectOf(rule.action);
  const { ids, shown } = endpointsOf(rule.on, endpoints);
  if (ids !== null) for (const id of ids) checkReachable(id, endpoints, transport, effect);
  const action = rule.action as FaultAction;
  return { on: ids, transport, times, effect, shown: { on: shown, ...(transport === null ? {} : { transport }), action: { ...action } } };
}

function transportOf(value: unknown): Transport | null {
  if (value === undefined) return null;
  if (value === 'rest' || value === 'ws-api') return value;
  throw new FaultRuleError(`unknown transport ${describeUntrusted(value)}; expected 'rest' or 'ws-api' (or leave it out for both)`);
}

function endpointsOf(on: unknown, endpoints: readonly EndpointInfo[]): { ids: Set<string> | null; shown: string | string[] } {
  if (on === '*') return { ids: null, shown: '*' };
  const list = typeof on === 'string' ? [on] : on;
  if (!Array.isArray(list) || list.length === 0 || !list.every((id): id is string => typeof id === 'string')) {
    throw new FaultRuleError("on must be an endpoint id, a non-empty array of them, or '*' (see sim.faults.endpoints())");
  }
  const known = new Set(endpoints.map(faultId));
  const unknown = list.find((id) => !known.has(id));
  if (unknown !== undefined) throw new FaultRuleError(`unknown endpoint '${unknown}'; see sim.faults.endpoints() (GET /sim/v1/faults/endpoints)`);
  return { ids: new Set(list), shown: typeof on === 'string' ? on : [...list] };
}

function effectOf(action: unknown): Effect {
  if (typeof action !== 'object' || action === null || Array.isArray(action)) {
    throw new FaultRuleError('action must be one of { error }, { status, code, msg }, { delayMs }, { swallow: true }, { close: true }');
  }
  const a = action as Record<string, unknown>;
  const keys = Object.keys(a).sort().join(',');
  switch (keys) {
    case 'error': {
      const code = requireInteger(a.error, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'error must be an error code of the error table');
      const row = rowOfCode(code);
      if (row === undefined) throw new FaultRuleError(`unknown error code ${code}: not in the error table (give { status, code, msg } for a code of your own)`);
      return { kind: 'refuse', point: pointOfCode(code), refusal: { status: ERRORS[row].http, code, row, msg: ERRORS[row].msg } };
    }
    case 'code,msg,status': {
      const status = requireInteger(a.status, 400, 599, 'status must be an HTTP error status from 400 to 599');
      const code = requireInteger(a.code, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'code must be an integer');
      if (typeof a.msg !== 'string' || a.msg.length > MAX_MSG_LENGTH) throw new FaultRuleError(`msg must be a string of at most ${MAX_MSG_LENGTH} characters`);
      return { kind: 'refuse', point: pointOfCode(code), refusal: { status, code, row: null, msg: a.msg } };
    }
    case 'delayMs':
      return { kind: 'delay', point: 'delay', ms: requireTimerMs(a.delayMs, 'delayMs') };
    case 'swallow':
    case 'close':
      if (a[keys] !== true) throw new FaultRuleError(`${keys} must be true`);
      return { kind: keys, point: 'reply' };
    default:
      throw new FaultRuleError(`unknown action ${describeUntrusted(action)}; expected { error }, { status, code, msg }, { delayMs }, { swallow: true } or { close: true }`);
  }
}

/** A named endpoint must be able to meet the rule: on its transport, at its point. */
function checkReachable(id: string, endpoints: readonly EndpointInfo[], transport: Transport | null, effect: Effect): void {
  const endpoint = endpoints.find((e) => faultId(e) === id)!;
  if (transport === 'rest' && endpoint.rest === undefined) throw new FaultRuleError(`endpoint '${id}' has no REST route; use transport 'ws-api'`);
  if (transport === 'ws-api' && endpoint.ws === undefined) throw new FaultRuleError(`endpoint '${id}' is not a WS API method; use transport 'rest'`);
  if (effect.point === 'key' && endpoint.security === 'NONE') {
    throw new FaultRuleError(`endpoint '${id}' needs no API key, so it never answers ${effect.refusal.code}`);
  }
  if (effect.point === 'signature' && endpoint.security !== 'SIGNED') {
    throw new FaultRuleError(`endpoint '${id}' is not SIGNED, so it never answers ${effect.refusal.code}`);
  }
}
