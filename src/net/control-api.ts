// The HTTP control API (API.md section 5) under `/sim/v1/`, on both listeners, so a bot written
// in any language can drive the faults of a standalone server: `POST /sim/v1/faults/<method>`
// with the method's arguments by name, `GET /sim/v1/stats`, `POST /sim/v1/mark`,
// `GET /sim/v1/open-client-order-ids` (plus `POST /sim/v1/reset` and `/sim/v1/advance-time`),
// the fault rules (API.md 3.1: `POST|GET /sim/v1/faults/rules`, `DELETE .../rules/<id>`,
// `GET /sim/v1/faults/endpoints`) and the scripted market `POST /sim/v1/market/<method>`
// (API.md section 8). The fault routes are generated from the list of fault methods
// (faults/methods.ts): a method added there is a route here.
// Off for a non-loopback bind unless `control_token` is set; then a bearer token is required.
// It is for local tools, not for web pages: a request whose Host is not a loopback name,
// `localhost` or the bound address (DNS rebinding) and a browser request from a non-loopback
// Origin are refused with 403, and no CORS header lets a page on another origin read an answer.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { isLoopback } from '../config/exposure.ts';
import { FaultError, isFaultUsageError } from '../faults/checks.ts';
import type { Faults } from '../faults/controller.ts';
import { FAULT_METHODS, faultMethod } from '../faults/methods.ts';
import type { FaultRule } from '../faults/rule.ts';
import { SpotSimError } from '../client/errors.ts';
import type { Market, ScriptedOrder } from '../market.ts';
import { nestsDeeperThan } from '../untrusted.ts';
import { CONTROL_PATH, sendJsonWithoutCors as sendJson } from './rest-server.ts';

export const CONTROL_PREFIX = CONTROL_PATH;

/** Each scripted-market method's arguments by name (API.md section 8); `place` takes the order's fields. */
export const MARKET_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  place: ['symbol', 'side', 'type', 'timeInForce', 'price', 'quantity'],
  cancel: ['symbol', 'id'],
  cancelAll: ['symbol'],
  setMid: ['symbol', 'price'],
};

export interface ControlHost {
  readonly faults: Faults;
  readonly market: Market;
  stats(): unknown;
  mark(): void;
  openClientOrderIds(): string[];
  reset(): void;
  advanceTime(ms: number): void;
}

export interface ControlOptions {
  readonly enabled: boolean;
  readonly bind: string;
  readonly token?: string;
}

/** Whether the control API is served (API.md §5: loopback binds, or any bind with a token). */
export function controlApiServed(options: ControlOptions): boolean {
  return options.enabled && (isLoopback(options.bind) || options.token !== undefined);
}


/** The host name of a Host header or URL host ("[::1]:80" -> "::1", "LocalHost:9" -> "localhost"). */
function hostName(host: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  const colon = host.indexOf(':');
  return (colon < 0 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * Why a request may not use the control API (a 403 message), or null. The Host must name this
 * machine the way a local tool does: a loopback address, `localhost`, or the bound address (on a
 * wildcard bind, any IP literal: every interface is bound, and a rebinding page always uses a
 * name). A browser marks its requests with Origin; only pages served from loopback pass.
 */
export function controlRefusal(req: IncomingMessage, bind: string): string | null {
  const host = req.headers.host ?? '';
  const name = hostName(host);
  const wildcard = bind === '0.0.0.0' || bind === '::';
  const boundName = hostName(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  if (!(isLoopback(name) || name === boundName || (wildcard && isIP(name) !== 0))) {
    return `the control API answers only requests to this machine by address or localhost, not Host ${JSON.stringify(host)}`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = hostName(new URL(origin).host);
    } catch {
      // not a URL ("null" from a sandboxed page or a file): refused below
    }
    if (originHost === null || !isLoopback(originHost)) {
      return `the control API is for local tools, not web pages: Origin ${JSON.stringify(origin)} is not a loopback origin`;
    }
  }
  return null;
}

type Route = (req: IncomingMessage, res: ServerResponse, path: string, body: string) => boolean;

export function createControlRoutes(host: () => ControlHost | undefined, options: ControlOptions): Route {
  if (!controlApiServed(options)) return () => false;
  const token = options.token === undefined ? null : Buffer.from(`Bearer ${options.token}`);
  return (req, res, path, body) => {
    if (!path.startsWith(CONTROL_PREFIX)) return false;
    const sim = host();
    if (sim === undefined) return false;
    const refused = controlRefusal(req, options.bind);
    if (refused !== null) {
      sendJson(res, 403, { error: refused });
      return true;
    }
    if (token !== null) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== token.length || !timingSafeEqual(given, token)) {
        sendJson(res, 401, { error: 'the control API needs Authorization: Bearer <control_token>' });
        return true;
      }
    }
    const route = path.slice(CONTROL_PREFIX.length);
    try {
      const result = dispatch(sim, req.method ?? 'GET', route, body);
      if (result === NOT_FOUND) sendJson(res, 404, { error: `unknown control route: ${req.method} ${path}` });
      else sendJson(res, 200, { result: result ?? null });
    } catch (error) {
      // A refusal of the scripted market: the reference exchange's code and message.
      if (error instanceof SpotSimError) sendJson(res, 400, { code: error.code, msg: error.msg });
      else if (isFaultUsageError(error)) sendJson(res, 400, { error: error.message });
      else throw error;
    }
    return true;
  };
}

const NOT_FOUND = Symbol('not found');

function dispatch(sim: ControlHost, method: string, route: string, body: string): unknown {
  if (route.startsWith('faults/')) return faultRoute(sim.faults, method, route.slice('faults/'.length), body);
  if (route.startsWith('market/')) {
    if (method !== 'POST') return NOT_FOUND;
    const name = route.slice('market/'.length);
    const argNames = Object.hasOwn(MARKET_ARGUMENTS, name) ? MARKET_ARGUMENTS[name]! : undefined;
    if (argNames === undefined) throw new FaultError(`unknown market method '${name}'; known: ${Object.keys(MARKET_ARGUMENTS).join(', ')}`);
    // Missing fields are not refused here: the market answers them as the reference does (-1102).
    const given = namedArguments(body, argNames);
    if (name === 'place') return sim.market.place(given as unknown as ScriptedOrder);
    const fn = (sim.market as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
    return fn.apply(sim.market, argNames.map((n) => given[n]));
  }
  switch (`${method} ${route}`) {
    case 'GET stats':
      return sim.stats();
    case 'POST mark':
      sim.mark();
      return null;
    case 'GET open-client-order-ids':
      return sim.openClientOrderIds();
    case 'POST reset':
      sim.reset();
      return null;
    case 'POST advance-time': {
      const { ms } = argumentsOf(body, ['ms']);
      if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0) throw new FaultError('ms must be a non-negative integer');
      try {
        sim.advanceTime(ms);
      } catch (error) {
        throw new FaultError(error instanceof Error ? error.message : String(error));
      }
      return null;
    }
    default:
      return NOT_FOUND;
  }
}

/** `/sim/v1/faults/...`: the rule routes of API.md 3.1, then one route per fault method. */
function faultRoute(faults: Faults, method: string, name: string, body: string): unknown {
  if (name === 'rules') {
    if (method === 'GET') return faults.rules();
    if (method !== 'POST') return NOT_FOUND;
    // use() checks every field of what it is given, as for an in-process caller without types.
    const rule: unknown = jsonBody(body);
    return { id: faults.use(rule as FaultRule).id };
  }
  if (name.startsWith('rules/')) {
    if (method !== 'DELETE') return NOT_FOUND;
    const id = name.slice('rules/'.length);
    if (!/^[1-9][0-9]{0,15}$/.test(id) || !faults.removeRule(Number(id))) throw new FaultError(`no fault rule with id '${id}'`);
    return null;
  }
  if (name === 'endpoints') return method === 'GET' ? faults.endpoints() : NOT_FOUND;
  if (method !== 'POST') return NOT_FOUND;
  const call = faultMethod(name);
  if (call === undefined) throw new FaultError(`unknown fault method '${name}'; known: ${Object.keys(FAULT_METHODS).join(', ')}`);
  return call.invoke(faults, argumentsOf(body, call.args));
}

/** The JSON body's named arguments; missing or unknown names are refused. */
function argumentsOf(body: string, names: readonly string[]): Record<string, unknown> {
  const given = namedArguments(body, names);
  const missing = names.filter((n) => given[n] === undefined);
  if (missing.length > 0) throw new FaultError(`missing argument '${missing[0]}'`);
  return given;
}

/** The JSON body as an object of named arguments; unknown names are refused. */
function namedArguments(body: string, names: readonly string[]): Record<string, unknown> {
  const given = jsonBody(body, 'the body must be a JSON object of named arguments');
  const unknown = Object.keys(given).filter((k) => !names.includes(k));
  if (unknown.length > 0) throw new FaultError(`unknown argument '${unknown[0]}'; expected ${names.length === 0 ? 'none' : names.join(', ')}`);
  return given;
}

/** How deep a control API body may nest (a fault rule is three levels). */
const MAX_BODY_DEPTH = 16;

/** The body as a JSON object (empty = {}); anything else is refused with `refusal`. */
function jsonBody(body: string, refusal = 'the body must be a JSON object (the fault rule)'): Record<string, unknown> {
  let parsed: unknown = {};
  if (body.trim() !== '') {
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new FaultError(refusal);
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new FaultError(refusal);
  // No argument of any route nests deeply: refused before anything walks or describes it.
  if (nestsDeeperThan(parsed, MAX_BODY_DEPTH)) throw new FaultError(`the body nests deeper than ${MAX_BODY_DEPTH} levels`);
  return parsed as Record<string, unknown>;
}
