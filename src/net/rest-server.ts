// REST over node:http / node:https (both listeners serve the same routes): CORS for trading UIs
// on other origins, bounded URLs and bodies, parameters from query and form body, the reply's
// rate-limit headers, and the request's events published only after the response is written
// (spec 4.4).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseRestParams } from '../api/params.ts';
import { jsonText } from '../api/raw-json.ts';
import type { Reply, Service } from '../api/service.ts';
import type { ReplyObserver } from '../api/reply.ts';
import { replyInUnit, timeUnitOf, type TimeUnit } from '../api/time-unit.ts';
import { apiError, isApiError } from '../core/errors.ts';
import type { ReplyFault } from '../faults/rules.ts';
import type { Outbox } from './outbox.ts';

export const MAX_BODY_BYTES = 64 * 1024;
/** Where the control API lives (API.md section 5). */
export const CONTROL_PATH = '/sim/v1/';
export const MAX_URL_BYTES = 8 * 1024;

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers':
    'X-MBX-USED-WEIGHT-1M, X-MBX-USED-WEIGHT, X-MBX-ORDER-COUNT-10S, X-MBX-ORDER-COUNT-1D, Retry-After',
};

export interface RestOptions {
  readonly service: Service;
  /** Where a request's events go once its response is written. */
  readonly outbox: Outbox;
  /** Other handlers tried before the API routes (e.g. the control API); true = handled. */
  readonly extraRoutes?: (req: IncomingMessage, res: ServerResponse, path: string, body: string) => boolean;
  /** Observes every API reply (stats, journal, request log). */
  readonly onReply?: ReplyObserver;
}

export function createRestHandler(options: RestOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { service } = options;
  return (req, res) => {
    const receivedAt = performance.now();
    const url = req.url ?? '/';
    // The control API answers its own preflights (without CORS approval: it is not for pages).
    if (req.method === 'OPTIONS' && !url.startsWith(CONTROL_PATH)) return preflight(req, res);
    if (url.length > MAX_URL_BYTES) return send(res, service.error(apiError('URL_TOO_LONG', MAX_URL_BYTES), service.clock.now()), true);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    // A reset while the body arrives is a barrier (docs/events.md): the request belongs to the
    // world before it and is answered as a closed connection would be.
    const world = options.outbox.stamp();
    readBody(req, (body) => {
      try {
        answer(req, res, path, query, body, world, receivedAt);
      } catch (error) {
        // The last line of defence (issue 18): nothing a client sends takes the process down;
        // the reference's generic error, counted as the defect it is.
        service.unexpected(`REST ${req.method} ${path}`, error);
        if (res.headersSent) res.destroy();
        else send(res, service.error(apiError('UNKNOWN'), service.clock.now()), true);
      }
    });
  };

  function answer(req: IncomingMessage, res: ServerResponse, path: string, query: string, body: string | null, world: number, receivedAt: number): void {
    if (!options.outbox.isCurrent(world)) return void res.destroy();
    if (body === null) return send(res, service.error(apiError('PAYLOAD_TOO_LARGE', MAX_BODY_BYTES), service.clock.now()), true);
    if (options.extraRoutes?.(req, res, path, body)) return;
    const endpoint = service.routes.rest.get(`${req.method} ${path}`);
    // A fault rule may hold the request unanswered and not carried out (set_rest_unresponsive).
    const held = service.faults.arrival(endpoint, 'rest');
    if (held !== null) return void res.once('close', held.hold(() => res.destroy()));
    if (endpoint === undefined) {
      const what = service.routes.paths.has(path) ? `${req.method} ${path}` : path;
      const notFound = service.error(apiError('NOT_FOUND', what), service.clock.now());
      options.onReply?.(undefined, notFound, { method: req.method ?? '', path, receivedAt });
      return send(res, notFound);
    }
    let reply: Reply;
    try {
      const params = parseRestParams(query, body);
      reply = service.handle(endpoint, params, { apiKey: headerValue(req, 'x-mbx-apikey'), transport: 'rest' });
    } catch (error) {
      if (!isApiError(error)) throw error;
      reply = service.error(error, service.clock.now(), endpoint);
    }
    options.onReply?.(endpoint.id, reply, { method: req.method ?? '', path, receivedAt });
    const fault = service.faults.replyFault(endpoint, 'rest');
    const unit = timeUnitOf(headerValue(req, 'x-mbx-time-unit'));
    if (fault.delayMs === 0 && fault.outcome === 'send') {
      send(res, reply, false, unit);
      options.outbox.publish(reply.events);
    } else {
      replyWithFault(res, reply, fault, options.outbox, world, unit);
    }
  }
}

/**
 * A reply a fault rule acts on (API.md 3.1): after `delayMs`, or never (`swallow`: the
 * connection stays open until the rule is removed), or the connection closes instead (`close`).
 * The request was carried out either way; its account events keep their place in the account's
 * stream until the reply's time (later events wait behind them, docs/events.md). A reset before
 * then is a barrier: the connection closes and the events are never delivered.
 */
function replyWithFault(res: ServerResponse, reply: Reply, fault: ReplyFault, outbox: Outbox, world: number, unit: TimeUnit): void {
  const held = outbox.hold(reply.events);
  const finish = () => {
    if (!outbox.isCurrent(world)) return void res.destroy();
    if (fault.outcome === 'send') send(res, reply, false, unit);
    else if (fault.outcome === 'close') res.destroy();
    else res.once('close', fault.hold(() => res.destroy()));
    held.release();
  };
  if (fault.delayMs === 0) return finish();
  setTimeout(finish, fault.delayMs).unref();
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    ...CORS_HEADERS,
    'Access-Control-Allow-Methods': 'GET, POST, PUT, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': headerValue(req, 'access-control-request-headers') ?? 'X-MBX-APIKEY, Content-Type',
    'Access-Control-Max-Age': '600',
  });
  res.end();
  req.resume();
}

/** Reads the body up to the bound; null when it is larger (the connection is then closed). */
function readBody(req: IncomingMessage, done: (body: string | null) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      over = true;
      chunks.length = 0;
      done(null);
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => {
    if (!over) done(chunks.length === 0 ? '' : Buffer.concat(chunks).toString('utf8'));
  });
  req.on('error', () => {
    /* the client went away: nothing to answer */
  });
}

/** The headers every JSON answer carries, as the flat [name, value, ...] list writeHead takes. */
const BASE_HEADERS: readonly string[] = [
  ...Object.entries(CORS_HEADERS).flat(),
  'Content-Type',
  'application/json;charset=UTF-8',
];

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, close = false): void {
  const extra: string[] = [];
  for (const name in headers) extra.push(name, headers[name]!);
  writeJson(res, status, jsonText(body), extra, close);
}

/** A JSON answer without CORS headers (the control API: no page on another origin may read it). */
export function sendJsonWithoutCors(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const extra: string[] = [];
  for (const name in headers) extra.push(name, headers[name]!);
  writeJson(res, status, jsonText(body), extra, false, JSON_ONLY_HEADERS);
}

const JSON_ONLY_HEADERS: readonly string[] = ['Content-Type', 'application/json;charset=UTF-8'];

/** Writes one JSON answer; headers as a flat list (no header objects built per request). */
function writeJson(res: ServerResponse, status: number, text: string, extra: string[], close: boolean, base: readonly string[] = BASE_HEADERS): void {
  if (res.headersSent) return;
  const headers = [...base, 'Content-Length', String(Buffer.byteLength(text)), ...extra];
  if (close) headers.push('Connection', 'close');
  res.writeHead(status, headers);
  res.end(text);
}

function send(res: ServerResponse, reply: Reply, close = false, unit: TimeUnit = 'MILLISECOND'): void {
  const weight = String(reply.usedWeight);
  const headers = ['X-MBX-USED-WEIGHT-1M', weight, 'X-MBX-USED-WEIGHT', weight];
  if (reply.orderCounts !== null) {
    headers.push('X-MBX-ORDER-COUNT-10S', String(reply.orderCounts.tenSeconds), 'X-MBX-ORDER-COUNT-1D', String(reply.orderCounts.day));
  }
  if (reply.retryAfterSeconds !== undefined) headers.push('Retry-After', String(reply.retryAfterSeconds));
  writeJson(res, reply.status, replyInUnit(jsonText(reply.body), unit), headers, close);
}
