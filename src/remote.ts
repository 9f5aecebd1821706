// `connectSimulator(url, { apiKey?, apiSecret? })` (API.md section 3.2): one typed handle for a
// running server (`npx spot-sim`, another machine's, another process's), built on the control
// API. It has the names of the in-process handle for everything the control API offers (client,
// market, faults and rules, clock, reset, stats), each returning a Promise of the same result,
// so code that `await`s works against either handle; refusals are rebuilt as the same classes
// (FaultRuleError, FaultRangeError, FaultError, SpotSimError, and advanceTime's RangeError).

import { checkSymbolArgument } from './account-reads.ts';
import { SpotSimClient } from './client/index.ts';
import { SpotSimError, SpotSimNetworkError } from './client/errors.ts';
import { HttpTransport } from './client/http.ts';
import type { Balance, Order } from './client/types.ts';
import type { Config } from './config/types.ts';
import { FaultError, FaultRangeError, FaultRuleError } from './faults/checks.ts';
import type { Faults } from './faults/controller.ts';
import { FAULT_METHODS, type FaultMethodName } from './faults/methods.ts';
import type { FaultRule } from './faults/rule.ts';
import type { FaultEndpoint, FaultRuleView } from './faults/rules.ts';
import type { ScriptedOrder } from './market.ts';
import { MARKET_ARGUMENTS } from './net/control-routes.ts';
import type { Simulator, SimulatorUrls } from './simulator.ts';

export interface ConnectOptions {
  /** The API key the client signs with (default: the server's, from GET /sim/v1/credentials). */
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** The server's `control_token`, when it has one. */
  readonly controlToken?: string;
  /** How long a control call or a client request waits (default 10000 ms). */
  readonly timeoutMs?: number;
}

/** A fault rule of a remote server: `await rule.hits` and `await rule.remove()` as in-process. */
export interface RemoteFaultRuleHandle {
  readonly id: number;
  /** Read from the server on each access. */
  readonly hits: Promise<number>;
  remove(): Promise<void>;
}

type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;

/** `sim.faults` of a remote server: every fault call and the rule calls, each a Promise. */
export type RemoteFaults = { readonly [K in FaultMethodName]: Promised<Faults[K]> } & {
  use(rule: FaultRule): Promise<RemoteFaultRuleHandle>;
  rules(): Promise<FaultRuleView[]>;
  rule(id: number): Promise<FaultRuleView | undefined>;
  endpoints(): Promise<FaultEndpoint[]>;
  removeRule(id: number): Promise<boolean>;
  removeRules(): Promise<number>;
};

/** `sim.market` of a remote server. */
export interface RemoteMarket {
  place(order: ScriptedOrder): Promise<number>;
  cancel(symbol: string, id: number): Promise<boolean>;
  cancelAll(symbol: string): Promise<number>;
  setMid(symbol: string, price: string): Promise<void>;
}

/** A running server driven over its control API, with the in-process handle's names. */
export interface RemoteSimulator {
  /** A typed client of the server (REST, WS API, streams, user data), signed with the credentials. */
  readonly client: SpotSimClient;
  readonly urls: SimulatorUrls;
  readonly ports: { readonly http: number; readonly https: number };
  readonly config: Config;
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string };
  readonly faults: RemoteFaults;
  readonly market: RemoteMarket;
  stats(): Promise<ReturnType<Simulator['stats']>>;
  mark(): Promise<void>;
  openClientOrderIds(): Promise<string[]>;
  /** The account's open orders (of `symbol`), as `sim.openOrders()`: no request weight spent. */
  openOrders(symbol?: string): Promise<Order[]>;
  /** The account's balance of every asset, as `sim.balances()`. */
  balances(): Promise<Balance[]>;
  reset(): Promise<void>;
  /** Only with `sim.clock = "manual"` on the server (otherwise it rejects as in-process). */
  advanceTime(ms: number): Promise<void>;
  /** Server time in ms. */
  now(): Promise<number>;
  /** Closes this handle's sockets (the client's); the server keeps running. */
  close(): Promise<void>;
}

interface ErrorBody {
  readonly error?: { readonly message?: unknown; readonly code?: unknown; readonly type?: unknown };
}

/** The in-process class of a refusal, rebuilt from the control API's error body. */
function rebuild(status: number, body: ErrorBody | null, what: string): Error {
  const e = body?.error;
  const message = typeof e?.message === 'string' ? e.message : `${what}: HTTP ${status}`;
  switch (e?.type) {
    case 'FaultRuleError':
      return new FaultRuleError(message);
    case 'FaultRangeError':
      return new FaultRangeError(message);
    case 'FaultError':
      return new FaultError(message);
    // advanceTime's refusals are the platform's own classes in process.
    case 'RangeError':
      return new RangeError(message);
    case 'TypeError':
      return new TypeError(message);
    case 'SpotSimError':
      return new SpotSimError(status, typeof e.code === 'number' ? e.code : 0, message);
    default:
      return new Error(`${what}: ${message}`);
  }
}

class ControlChannel {
  private readonly http = new HttpTransport();
  constructor(
    private readonly base: string,
    private readonly options: ConnectOptions,
  ) {}

  /** One control call: its `result`, or the refusal rebuilt; `notFound` answers a 404 instead of throwing. */
  async request<T>(method: 'GET' | 'POST' | 'DELETE', route: string, args?: object, notFound?: () => T): Promise<T> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.options.controlToken !== undefined) headers.Authorization = `Bearer ${this.options.controlToken}`;
    const what = `${method} /sim/v1/${route}`;
    let res;
    try {
      res = await this.http.send({ method, url: `${this.base}/sim/v1/${route}`, headers, body: args === undefined ? undefined : JSON.stringify(args), timeoutMs: this.options.timeoutMs });
    } catch (error) {
      throw new SpotSimNetworkError(`control API ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    let body: unknown = null;
    try {
      body = JSON.parse(res.text);
    } catch {
      // not JSON (no control API there): reported below with the status
    }
    if (res.status === 200 && body !== null && typeof body === 'object' && 'result' in body) return (body as { result: T }).result;
    if (res.status === 404 && notFound !== undefined) return notFound();
    if (res.status === 404 && (body as ErrorBody | null)?.error === undefined) {
      throw new SpotSimNetworkError(`control API ${what}: HTTP 404 (is control_api on, and is this a spot-sim server?)`);
    }
    throw rebuild(res.status, body as ErrorBody | null, `control API ${what}`);
  }

  close(): void {
    this.http.close();
  }
}

/** A void call answers `{"result": null}`; in-process it returns undefined. */
function voidOf(result: unknown): unknown {
  return result === null ? undefined : result;
}

function remoteFaults(control: ControlChannel): RemoteFaults {
  const faults: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(FAULT_METHODS)) {
    faults[name] = (...args: unknown[]) => control.request('POST', `faults/${name}`, Object.fromEntries(method.args.map((a, i) => [a, args[i]]))).then(voidOf);
  }
  const ruleId = (id: unknown) => (typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null);
  Object.assign(faults, {
    async use(rule: FaultRule): Promise<RemoteFaultRuleHandle> {
      const { id } = await control.request<{ id: number }>('POST', 'faults/rules', rule);
      let last = 0;
      return {
        id,
        get hits() {
          return control.request<FaultRuleView | undefined>('GET', `faults/rules/${id}`, undefined, () => undefined).then((r) => (last = r?.hits ?? last));
        },
        remove: async () => void (await control.request('DELETE', `faults/rules/${id}`, undefined, () => null)),
      };
    },
    rules: () => control.request('GET', 'faults/rules'),
    rule: (id: number) => (ruleId(id) === null ? Promise.reject(new FaultRangeError(`id must be a positive integer (got ${String(id)})`)) : control.request('GET', `faults/rules/${id}`, undefined, () => undefined)),
    endpoints: () => control.request('GET', 'faults/endpoints'),
    removeRule: async (id: number) => {
      if (ruleId(id) === null) throw new FaultRangeError(`id must be a positive integer (got ${String(id)})`);
      return control.request('DELETE', `faults/rules/${id}`, undefined, () => false).then((r) => r !== false);
    },
    removeRules: () => control.request('DELETE', 'faults/rules'),
  });
  return faults as RemoteFaults;
}

function remoteMarket(control: ControlChannel): RemoteMarket {
  const call = (name: string) => (...args: unknown[]) =>
    control.request('POST', `market/${name}`, name === 'place' ? (args[0] as object) : Object.fromEntries(MARKET_ARGUMENTS[name]!.map((a, i) => [a, args[i]])));
  return { place: call('place'), cancel: call('cancel'), cancelAll: call('cancelAll'), setMid: (...a: unknown[]) => call('setMid')(...a).then(voidOf) } as RemoteMarket;
}

const USAGE = "connectSimulator(url, { apiKey?, apiSecret?, controlToken?, timeoutMs? }) with the server's http(s) URL, e.g. connectSimulator('http://127.0.0.1:9080')";

function checkArguments(url: unknown, options: unknown): { base: string; options: ConnectOptions } {
  if (typeof url !== 'string') throw new TypeError(`${USAGE}; got ${url === null ? 'null' : typeof url} for url`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`${USAGE}; not a URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${USAGE}; the URL must be http: or https:, got ${parsed.protocol}`);
  if (options === undefined) return { base: parsed.origin, options: {} };
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError(`${USAGE}; options must be an object`);
  const o = options as Record<string, unknown>;
  const known = ['apiKey', 'apiSecret', 'controlToken', 'timeoutMs'];
  const unknown = Object.keys(o).find((k) => !known.includes(k));
  if (unknown !== undefined) throw new TypeError(`${USAGE}; unknown option '${unknown.slice(0, 60)}'`);
  for (const k of ['apiKey', 'apiSecret', 'controlToken']) if (o[k] !== undefined && typeof o[k] !== 'string') throw new TypeError(`${USAGE}; ${k} must be a string`);
  if (o.timeoutMs !== undefined && (typeof o.timeoutMs !== 'number' || !Number.isInteger(o.timeoutMs) || o.timeoutMs <= 0)) throw new TypeError(`${USAGE}; timeoutMs must be a positive integer`);
  return { base: parsed.origin, options: o as ConnectOptions };
}

/**
 * Connects to a running spot-sim over its control API (`/sim/v1`) and returns a handle with the
 * in-process handle's names, each returning a Promise.
 * @example
 * const sim = await connectSimulator('http://127.0.0.1:9080');
 * await sim.faults.rejectNextOrders(1);
 * await sim.client.rest.newOrder({ ... });   // refused with -2010
 * await sim.close();
 */
export async function connectSimulator(url: string, options?: ConnectOptions): Promise<RemoteSimulator> {
  const { base, options: opts } = checkArguments(url, options);
  const control = new ControlChannel(base, opts);
  try {
    const [urls, ports, config, credentials] = await Promise.all([
      control.request<SimulatorUrls>('GET', 'urls'),
      control.request<{ http: number; https: number }>('GET', 'ports'),
      control.request<Config>('GET', 'config'),
      control.request<{ apiKey: string; apiSecret: string }>('GET', 'credentials'),
    ]);
    const signing = { apiKey: opts.apiKey ?? credentials.apiKey, apiSecret: opts.apiSecret ?? credentials.apiSecret };
    // With a manual clock, signed timestamps follow the server's clock (as the fixture's client
    // does): the offset is read at connect and after each call that moves the clock.
    const manual = config.sim.clock === 'manual';
    let offsetMs = 0;
    const syncClock = async () => {
      if (manual) offsetMs = (await control.request<number>('GET', 'now')) - Date.now();
    };
    await syncClock();
    // The client reaches the server the way this handle does (the same host and port), not by the
    // server's own bind address, which another machine may not be able to use.
    const client = new SpotSimClient({ baseUrl: base, ...signing }, { now: manual ? () => Date.now() + offsetMs : undefined, timeoutMs: opts.timeoutMs });
    return {
      client,
      urls,
      ports,
      config,
      credentials,
      faults: remoteFaults(control),
      market: remoteMarket(control),
      stats: () => control.request('GET', 'stats'),
      mark: async () => void (await control.request('POST', 'mark')),
      openClientOrderIds: () => control.request('GET', 'open-client-order-ids'),
      openOrders: async (symbol?: string) => {
        checkSymbolArgument(symbol);
        return control.request('GET', symbol === undefined ? 'open-orders' : `open-orders?symbol=${encodeURIComponent(symbol)}`);
      },
      balances: () => control.request('GET', 'balances'),
      reset: async () => {
        await control.request('POST', 'reset');
        await syncClock();
      },
      advanceTime: async (ms: number) => {
        await control.request('POST', 'advance-time', { ms });
        await syncClock();
      },
      now: () => control.request('GET', 'now'),
      close: async () => {
        control.close();
        await client.close();
      },
    };
  } catch (error) {
    control.close();
    throw error;
  }
}
