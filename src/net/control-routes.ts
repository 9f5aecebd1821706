// The control API's routes (API.md sections 3, 3.1, 5, 8): one table from which both the
// dispatcher (control-api.ts) and the OpenAPI description (control-openapi.ts) are made, so a
// route cannot exist without its description or the other way round. Each route names the
// in-process capability it serves (`call`: `faults.rejectNextOrders`, `market.place`, `reset`,
// ...), which is also the name `connectSimulator` gives it. The fault routes come from the list
// of fault methods (faults/methods.ts), the market routes from MARKET_ARGUMENTS.

import type { Config } from '../config/types.ts';
import type { Faults } from '../faults/controller.ts';
import { FAULT_METHODS, type ArgSchema } from '../faults/methods.ts';
import type { FaultRule } from '../faults/rule.ts';
import type { Market, ScriptedOrder } from '../market.ts';

export interface ControlHost {
  readonly faults: Faults;
  readonly market: Market;
  readonly config: Config;
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string };
  readonly urls: { readonly http: string; readonly https: string; readonly ws: string; readonly wss: string };
  readonly ports: { readonly http: number; readonly https: number };
  stats(): unknown;
  mark(): void;
  openClientOrderIds(): string[];
  openOrders(symbol?: string): unknown[];
  balances(): unknown[];
  reset(): void;
  advanceTime(ms: number): void;
  now(): number;
}

/** A refusal with its HTTP status (404 unknown resource, 409 state conflict; 400 is FaultError's). */
export class ControlError extends Error {
  constructor(
    readonly status: 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

/**
 * An in-process refusal a route passes on as it is (400): the error body's `type` is its class,
 * so `connectSimulator` throws the same class (advanceTime's RangeError stays a RangeError).
 */
export class ArgumentRefusal extends Error {
  constructor(readonly refusal: RangeError | TypeError) {
    super(refusal.message);
    this.name = 'ArgumentRefusal';
  }
}

export type HttpVerb = 'GET' | 'POST' | 'DELETE';

/** One argument of a route's JSON body. */
export interface BodyArg {
  readonly name: string;
  readonly schema: ArgSchema;
}

export interface ControlRoute {
  readonly method: HttpVerb;
  /** Under `/sim/v1/`; `{id}` is a path parameter (a positive integer). */
  readonly path: string;
  /** The in-process capability it serves, as `connectSimulator` names it. */
  readonly call: string;
  readonly summary: string;
  /**
   * The body: named arguments (`args`, each required unless `optionalArgs`), a whole JSON
   * object (`'object'`: a fault rule), or none (an empty body or `{}`; anything else is 400).
   */
  readonly body: { readonly args: readonly BodyArg[]; readonly optionalArgs?: boolean } | 'object' | 'none';
  /** A GET's named arguments, from the query string, each optional (unknown names are refused). */
  readonly query?: readonly BodyArg[];
  readonly result: ArgSchema;
  /** Status codes other than 200 this route answers (beyond 400 for a bad body and 401/403 of access). */
  readonly errors?: readonly (404 | 409)[];
  readonly run: (sim: ControlHost, input: { readonly args: Readonly<Record<string, unknown>>; readonly id: number | undefined }) => unknown;
}

/** Each scripted-market method's arguments by name (API.md section 8); `place` takes the order's fields. */
export const MARKET_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  place: ['symbol', 'side', 'type', 'timeInForce', 'price', 'quantity'],
  cancel: ['symbol', 'id'],
  cancelAll: ['symbol'],
  setMid: ['symbol', 'price'],
};

const MARKET_SCHEMAS: Readonly<Record<string, ArgSchema>> = {
  symbol: { type: 'string' },
  side: { enum: ['BUY', 'SELL'] },
  type: { enum: ['LIMIT', 'LIMIT_MAKER', 'MARKET'] },
  timeInForce: { enum: ['GTC', 'IOC', 'FOK'] },
  price: { type: 'string', description: 'a decimal price' },
  quantity: { type: 'string', description: 'a decimal quantity' },
  id: { type: 'integer', minimum: 1 },
};
const MARKET_SUMMARIES: Readonly<Record<string, string>> = {
  place: 'Places a counterparty order (LIMIT, LIMIT_MAKER or MARKET); returns its id.',
  cancel: 'Cancels a resting counterparty order; false when it no longer rests.',
  cancelAll: "Cancels every counterparty order of the symbol (the generator's included); returns how many.",
  setMid: "Sets the generator's latent mid of the symbol.",
};
const MARKET_RESULTS: Readonly<Record<string, ArgSchema>> = { place: { type: 'integer' }, cancel: { type: 'boolean' }, cancelAll: { type: 'integer' }, setMid: { type: 'null' } };

const ANY: ArgSchema = {};
const NULL: ArgSchema = { type: 'null' };
const OBJECT: ArgSchema = { type: 'object' };
const RULE_VIEW: ArgSchema = { type: 'object', required: ['id', 'on', 'times', 'hits', 'action'] };

function ruleOf(sim: ControlHost, id: number | undefined) {
  const rule = sim.faults.rules().find((r) => r.id === id);
  if (rule === undefined) throw new ControlError(404, `no fault rule with id ${id}`);
  return rule;
}

const FIXED_ROUTES: readonly ControlRoute[] = [
  { method: 'GET', path: 'openapi.json', call: 'openapi', summary: 'This description (OpenAPI 3.1).', body: 'none', result: OBJECT, run: () => undefined },
  { method: 'GET', path: 'stats', call: 'stats', summary: 'Counters of spec 1.7 and 4.5, including sinceMark.', body: 'none', result: OBJECT, run: (sim) => sim.stats() },
  { method: 'POST', path: 'mark', call: 'mark', summary: 'Starts the "since mark" counters.', body: 'none', result: NULL, run: (sim) => sim.mark() },
  { method: 'GET', path: 'open-client-order-ids', call: 'openClientOrderIds', summary: "The client order ids of the account's open orders, oldest first.", body: 'none', result: { type: 'array', items: { type: 'string' } }, run: (sim) => sim.openClientOrderIds() },
  {
    method: 'GET',
    path: 'open-orders',
    call: 'openOrders',
    summary: "The account's open orders (of `symbol`), oldest first, as GET /api/v3/openOrders lists them; spends no request weight.",
    body: 'none',
    query: [{ name: 'symbol', schema: { type: 'string' } }],
    result: { type: 'array', items: { type: 'object', required: ['symbol', 'orderId', 'clientOrderId', 'status'] } },
    run: (sim, { args }) => sim.openOrders(args.symbol as string | undefined),
  },
  {
    method: 'GET',
    path: 'balances',
    call: 'balances',
    summary: "The account's balance of every asset, as GET /api/v3/account lists them; spends no request weight.",
    body: 'none',
    result: { type: 'array', items: { type: 'object', required: ['asset', 'free', 'locked'] } },
    run: (sim) => sim.balances(),
  },
  { method: 'POST', path: 'reset', call: 'reset', summary: 'Back to the starting state (listeners kept; WebSockets closed).', body: 'none', result: NULL, run: (sim) => sim.reset() },
  {
    method: 'POST',
    path: 'advance-time',
    call: 'advanceTime',
    summary: 'Moves a manual clock on by ms (a whole number up to sim.max_advance_ms, default 30 days), everything due on the way happening at its own instant (409 on the wall clock).',
    body: { args: [{ name: 'ms', schema: { type: 'integer', minimum: 0 } }] },
    result: NULL,
    errors: [409],
    run: (sim, { args }) => {
      // advanceTime checks ms first and names the broken rule with a RangeError (docs/time.md): 400.
      try {
        sim.advanceTime(args.ms as number);
      } catch (error) {
        if (error instanceof RangeError) throw new ArgumentRefusal(error);
        if (sim.config.sim.clock !== 'manual') throw new ControlError(409, 'advanceTime needs sim.clock = "manual"; this simulator runs on the wall clock');
        throw error;
      }
      return null;
    },
  },
  { method: 'GET', path: 'now', call: 'now', summary: 'Server time in ms (the clock signed requests are checked against).', body: 'none', result: { type: 'integer' }, run: (sim) => sim.now() },
  { method: 'GET', path: 'config', call: 'config', summary: 'The resolved configuration.', body: 'none', result: OBJECT, run: (sim) => sim.config },
  { method: 'GET', path: 'credentials', call: 'credentials', summary: 'The API key and secret in effect.', body: 'none', result: { type: 'object', required: ['apiKey', 'apiSecret'] }, run: (sim) => sim.credentials },
  { method: 'GET', path: 'urls', call: 'urls', summary: 'Where the listeners are: http, https, ws, wss.', body: 'none', result: { type: 'object', required: ['http', 'https', 'ws', 'wss'] }, run: (sim) => sim.urls },
  { method: 'GET', path: 'ports', call: 'ports', summary: 'The listeners\' ports: http, https.', body: 'none', result: { type: 'object', required: ['http', 'https'] }, run: (sim) => sim.ports },
  // Fault rules (API.md 3.1).
  { method: 'GET', path: 'faults/rules', call: 'faults.rules', summary: 'The rules in force and the spent ones, with their hits.', body: 'none', result: { type: 'array', items: RULE_VIEW }, run: (sim) => sim.faults.rules() },
  {
    method: 'POST',
    path: 'faults/rules',
    call: 'faults.use',
    summary: 'Adds a fault rule {on, transport?, times?, action}; returns its id.',
    body: 'object',
    result: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
    // use() checks every field of what it is given, as for an in-process caller without types.
    run: (sim, { args }) => ({ id: sim.faults.use(args as unknown as FaultRule).id }),
  },
  { method: 'DELETE', path: 'faults/rules', call: 'faults.removeRules', summary: 'Removes every rule (presets too); returns how many.', body: 'none', result: { type: 'integer' }, run: (sim) => sim.faults.removeRules() },
  { method: 'GET', path: 'faults/rules/{id}', call: 'faults.rule', summary: 'One rule with its hits.', body: 'none', result: RULE_VIEW, errors: [404], run: (sim, { id }) => ruleOf(sim, id) },
  {
    method: 'DELETE',
    path: 'faults/rules/{id}',
    call: 'faults.removeRule',
    summary: 'Removes one rule.',
    body: 'none',
    result: NULL,
    errors: [404],
    run: (sim, { id }) => {
      if (!sim.faults.removeRule(ruleOf(sim, id).id)) throw new ControlError(404, `no fault rule with id ${id}`);
      return null;
    },
  },
  { method: 'GET', path: 'faults/endpoints', call: 'faults.endpoints', summary: 'The endpoint ids a rule can name, with transports and REST routes.', body: 'none', result: { type: 'array', items: { type: 'object', required: ['id', 'transports'] } }, run: (sim) => sim.faults.endpoints() },
];

const FAULT_ROUTES: readonly ControlRoute[] = Object.entries(FAULT_METHODS).map(([name, method]) => ({
  method: 'POST',
  path: `faults/${name}`,
  call: `faults.${name}`,
  summary: `sim.faults.${name}(${method.args.join(', ')})`,
  body: method.args.length === 0 ? 'none' : { args: method.schemas },
  result: ANY,
  run: (sim, { args }) => method.invoke(sim.faults, args),
}));

const MARKET_ROUTES: readonly ControlRoute[] = Object.entries(MARKET_ARGUMENTS).map(([name, argNames]) => ({
  method: 'POST',
  path: `market/${name}`,
  call: `market.${name}`,
  summary: MARKET_SUMMARIES[name]!,
  // Missing fields are not refused here: the market answers them as the reference does (-1102).
  body: { args: argNames.map((n) => ({ name: n, schema: MARKET_SCHEMAS[n]! })), optionalArgs: true },
  result: MARKET_RESULTS[name]!,
  run: (sim, { args }) => {
    if (name === 'place') return sim.market.place(args as unknown as ScriptedOrder);
    const fn = (sim.market as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
    return fn.apply(sim.market, argNames.map((n) => args[n])) ?? null;
  },
}));

/** Every route, in the order they are described. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [...FIXED_ROUTES, ...FAULT_ROUTES, ...MARKET_ROUTES];

/** The routes whose path matches (a `{id}` segment takes a positive integer), and the id. */
export function routesAt(path: string): { readonly routes: readonly ControlRoute[]; readonly id: number | undefined; readonly badId?: string } {
  const exact = CONTROL_ROUTES.filter((r) => r.path === path);
  if (exact.length > 0) return { routes: exact, id: undefined };
  const slash = path.lastIndexOf('/');
  const pattern = `${path.slice(0, slash)}/{id}`;
  const withId = CONTROL_ROUTES.filter((r) => r.path === pattern);
  if (withId.length === 0) return { routes: [], id: undefined };
  const raw = path.slice(slash + 1);
  if (!/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) return { routes: withId, id: undefined, badId: raw };
  return { routes: withId, id: Number(raw) };
}
