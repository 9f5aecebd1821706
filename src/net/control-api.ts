// The HTTP control API (API.md section 5) under `/sim/v1/`, on both listeners, so a bot written
// in any language (or `connectSimulator`) can drive a standalone server: every capability of the
// in-process handle has a route (control-routes.ts: one table, also the source of
// `GET /sim/v1/openapi.json`). Answers are `{"result": ...}` or one error body,
// `{"error": {"message", "code"?, "type"?}}`: 400 bad arguments, 404 unknown route or resource,
// 405 (with Allow) a known route with the wrong method, 409 a state conflict.
// Off for a non-loopback bind unless `control_token` is set; then a bearer token is required.
// It is for local tools, not for web pages (docs/control-api.md "Who may call it"): a request
// whose Host is not a loopback name, `localhost` or the bound address (DNS rebinding) and a
// browser request from any Origin but the server's own are refused with 403, a state-changing
// request without `Content-Type: application/json` (what a page can send with no CORS preflight:
// text/plain, a form, no body) with 415 unless it carries the token, and no CORS header lets a
// page on another origin read an answer or pass a preflight.

import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { isLoopback } from '../config/exposure.ts';
import { FaultError, isFaultUsageError } from '../faults/checks.ts';
import { FAULT_METHODS } from '../faults/methods.ts';
import { SpotSimError } from '../client/errors.ts';
import { nestsDeeperThan } from '../untrusted.ts';
import { controlOpenApi } from './control-openapi.ts';
import { ArgumentRefusal, ControlError, MARKET_ARGUMENTS, routesAt, type ControlHost, type ControlRoute } from './control-routes.ts';
import { CONTROL_PATH, sendJsonWithoutCors } from './rest-server.ts';

export const CONTROL_PREFIX = CONTROL_PATH;
export { MARKET_ARGUMENTS, type ControlHost } from './control-routes.ts';

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

/** The hosts by which a page could be served from this server's own listeners (exact: no other loopback address). */
function ownHosts(bind: string): readonly string[] {
  switch (bind) {
    case 'localhost':
    case '::':
      return ['localhost', '127.0.0.1', '[::1]'];
    case '0.0.0.0':
      return ['localhost', '127.0.0.1'];
    case '127.0.0.1':
      return ['127.0.0.1', 'localhost'];
    case '::1':
      return ['[::1]', 'localhost'];
    default:
      return [bind.includes(':') ? `[${bind}]` : bind];
  }
}

/**
 * The server's own origins, as a browser writes them in Origin: its http and https listeners'
 * URLs on the bound host (and the `localhost` / `127.0.0.1` spellings that reach it). Every
 * other origin is foreign, a page on another port of this machine included.
 */
export function ownOrigins(bind: string, ports: { readonly http: number; readonly https: number }): ReadonlySet<string> {
  const origins = new Set<string>();
  for (const host of ownHosts(bind)) {
    origins.add(new URL(`http://${host}:${ports.http}`).origin);
    origins.add(new URL(`https://${host}:${ports.https}`).origin);
  }
  return origins;
}

/**
 * Why a request may not use the control API (a 403 message), or null. The Host must name this
 * machine the way a local tool does: a loopback address, `localhost`, or the bound address (on a
 * wildcard bind, any IP literal: every interface is bound, and a rebinding page always uses a
 * name). A browser marks its requests with Origin; only the server's own origins pass.
 */
export function controlRefusal(req: IncomingMessage, bind: string, origins: ReadonlySet<string>): string | null {
  const host = req.headers.host ?? '';
  const name = hostName(host);
  const wildcard = bind === '0.0.0.0' || bind === '::';
  const boundName = hostName(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  if (!(isLoopback(name) || name === boundName || (wildcard && isIP(name) !== 0))) {
    return `the control API answers only requests to this machine by address or localhost, not Host ${JSON.stringify(host)}`;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin)) {
    return `the control API is for local tools, not web pages: Origin ${JSON.stringify(origin.slice(0, 200))} is not this server's own origin`;
  }
  return null;
}

/** Whether the body is declared JSON (`application/json`, parameters such as charset allowed). */
function declaresJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

type Route = (req: IncomingMessage, res: ServerResponse, path: string, body: string) => boolean;

/** The one error body (API.md section 5): `code` for a refusal with the reference's code, `type` the in-process class. */
function sendError(res: ServerResponse, status: number, message: string, extra: { code?: number; type?: string } = {}, headers: Record<string, string> = {}): void {
  sendJsonWithoutCors(res, status, { error: { message, ...extra } }, headers);
}

export function createControlRoutes(host: () => ControlHost | undefined, options: ControlOptions): Route {
  if (!controlApiServed(options)) return () => false;
  const token = options.token === undefined ? null : Buffer.from(`Bearer ${options.token}`);
  let openApiText: string | null = null;
  let origins: ReadonlySet<string> | null = null;
  return (req, res, path, body) => {
    if (!path.startsWith(CONTROL_PREFIX)) return false;
    const sim = host();
    if (sim === undefined) return false;
    origins ??= ownOrigins(options.bind, sim.ports);
    const refused = controlRefusal(req, options.bind, origins);
    if (refused !== null) {
      sendError(res, 403, refused);
      return true;
    }
    if (token !== null) {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== token.length || !timingSafeEqual(given, token)) {
        sendError(res, 401, 'the control API needs Authorization: Bearer <control_token>');
        return true;
      }
    }
    const method = req.method ?? 'GET';
    const { routes, id, badId } = routesAt(path.slice(CONTROL_PREFIX.length));
    const route = routes.find((r) => r.method === method);
    if (route === undefined) {
      if (routes.length === 0) sendError(res, 404, notFoundMessage(method, path), { type: 'ControlError' });
      else sendError(res, 405, `${method} is not allowed on ${path}; allowed: ${allowed(routes)}`, { type: 'ControlError' }, { Allow: allowed(routes) });
      return true;
    }
    // A page can send text/plain, a form or no body to any origin without asking (no CORS
    // preflight); JSON it cannot. So a change needs JSON, or the token a page cannot attach.
    if (route.method !== 'GET' && token === null && !declaresJson(req)) {
      sendError(res, 415, `${method} ${path} changes the simulator, so it needs Content-Type: application/json (a web page cannot send that to another origin unasked)`, { type: 'ControlError' });
      return true;
    }
    if (badId !== undefined) {
      sendError(res, 404, `no fault rule with id ${JSON.stringify(badId.slice(0, 40))}`, { type: 'ControlError' });
      return true;
    }
    try {
      if (route.path === 'openapi.json') {
        openApiText ??= JSON.stringify(controlOpenApi());
        res.writeHead(200, { 'Content-Type': 'application/json;charset=UTF-8', 'Content-Length': Buffer.byteLength(openApiText) });
        res.end(openApiText);
        return true;
      }
      const result = route.run(sim, { args: argumentsFor(route, body, req.url ?? ''), id });
      sendJsonWithoutCors(res, 200, { result: result ?? null });
    } catch (error) {
      // A refusal of the scripted market: the reference exchange's code and message.
      if (error instanceof SpotSimError) sendError(res, 400, error.msg, { code: error.code, type: 'SpotSimError' });
      else if (error instanceof ControlError) sendError(res, error.status, error.message, { type: 'ControlError' });
      else if (isFaultUsageError(error)) sendError(res, 400, error.message, { type: error.name });
      else if (error instanceof ArgumentRefusal) sendError(res, 400, error.message, { type: error.refusal.name });
      else throw error;
    }
    return true;
  };
}

function allowed(routes: readonly ControlRoute[]): string {
  return routes.map((r) => r.method).join(', ');
}

/** An unknown route; under faults/ and market/ the message lists the known methods. */
function notFoundMessage(method: string, path: string): string {
  const route = path.slice(CONTROL_PREFIX.length);
  const base = `unknown control route: ${method} ${path}`;
  if (route.startsWith('faults/')) return `${base} (unknown fault method '${route.slice(7, 60)}'; known: ${Object.keys(FAULT_METHODS).join(', ')}; see GET /sim/v1/openapi.json)`;
  if (route.startsWith('market/')) return `${base} (unknown market method '${route.slice(7, 60)}'; known: ${Object.keys(MARKET_ARGUMENTS).join(', ')})`;
  return `${base}; see GET /sim/v1/openapi.json`;
}

/** The body (a GET's query) as the route takes it: named arguments (unknown names refused), a JSON object, or nothing. */
function argumentsFor(route: ControlRoute, body: string, url: string): Record<string, unknown> {
  if (route.method === 'GET') return route.query === undefined ? {} : queryArguments(url, route.query.map((a) => a.name));
  if (route.body === 'object') return jsonBody(body, 'the body must be a JSON object (the fault rule)');
  if (route.body === 'none') return namedArguments(body, []);
  const names = route.body.args.map((a) => a.name);
  return route.body.optionalArgs === true ? namedArguments(body, names) : argumentsOf(body, names);
}

/** A GET's named arguments from the query string (strings); unknown or repeated names are refused. */
function queryArguments(url: string, names: readonly string[]): Record<string, unknown> {
  const q = url.indexOf('?');
  const given: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(q < 0 ? '' : url.slice(q + 1))) {
    if (!names.includes(name)) throw new FaultError(`unknown argument '${name.slice(0, 60)}'; expected ${names.join(', ')}`);
    if (Object.hasOwn(given, name)) throw new FaultError(`argument '${name}' given twice`);
    given[name] = value;
  }
  return given;
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
  if (unknown.length > 0) throw new FaultError(`unknown argument '${unknown[0]!.slice(0, 60)}'; expected ${names.length === 0 ? 'none' : names.join(', ')}`);
  return given;
}

/** How deep a control API body may nest (a fault rule is three levels). */
const MAX_BODY_DEPTH = 16;

/** The body as a JSON object (empty = {}); anything else is refused with `refusal`. */
function jsonBody(body: string, refusal: string): Record<string, unknown> {
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
