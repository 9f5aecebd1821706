// Shared support of the REST end-to-end specs: a simulator per test (so no test sees another's
// orders or weight), a Playwright request context that accepts the fixture certificate, and a
// small client that signs like a client library does (HMAC hex, or Ed25519 base64
// percent-encoded) over the query or form body exactly as sent.
import { test as base, expect, request, type APIRequestContext } from '@playwright/test';
import { createHmac, sign, type KeyObject } from 'node:crypto';
import { startSimulator, type SimConfigInput, type Simulator } from '../../src/index.ts';
import type { Side } from '../../src/core/types.ts';
import { parseScaled } from '../../src/core/units.ts';

export type Listener = 'http' | 'https';
export const LISTENERS: readonly Listener[] = ['http', 'https'];

type SimSectionInput = NonNullable<SimConfigInput['sim']>;

/** Starts a simulator on random ports with the generator off; `sim` keys merge over that. */
export function startTestSim(sim: SimSectionInput = {}): Promise<Simulator> {
  return startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false }, ...sim } } });
}

export type ParamValue = string | number | boolean | undefined;
export type ParamList = Record<string, ParamValue>;

/** Form encoding as client libraries write it (encodeURIComponent values, names as given). */
export function encode(params: ParamList): string {
  return Object.entries(params)
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
}

/** Returns the `signature` value to put on the wire for a payload. */
export type Signer = (payload: string) => string;

export function hmacSigner(secret: string): Signer {
  return (payload) => createHmac('sha256', secret).update(payload).digest('hex');
}

/** binance-facts §1.3: Ed25519 over the payload bytes, base64, percent-encoded in REST. */
export function ed25519Signer(privateKey: KeyObject): Signer {
  return (payload) => encodeURIComponent(sign(null, Buffer.from(payload), privateKey).toString('base64'));
}

export interface Reply {
  readonly status: number;
  /** The parsed JSON body (the text when it is not JSON); tests assert it field by field. */
  readonly body: any;
  readonly headers: Record<string, string>;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface SignedOptions {
  /** Where the parameters and signature go: the query string (default) or a form body. */
  readonly in?: 'query' | 'body';
  /** Overrides the timestamp (default: the simulator's clock now). */
  readonly timestamp?: number | string;
  readonly recvWindow?: number | string;
  /** The X-MBX-APIKEY header; null sends none. */
  readonly apiKey?: string | null;
  readonly signer?: Signer;
}

export class RestClient {
  constructor(
    readonly api: APIRequestContext,
    readonly base: string,
    readonly apiKey: string,
    readonly signer: Signer,
    /** The simulator's clock (the wall clock, or its manual clock). */
    readonly now: () => number,
  ) {}

  /** The same client on another listener. */
  on(base: string): RestClient {
    return new RestClient(this.api, base, this.apiKey, this.signer, this.now);
  }

  /** A request sent as given: path with query, optional form body and headers. */
  async raw(method: Method, pathAndQuery: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers = { ...(options.body !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}), ...options.headers };
    const res = await this.api.fetch(`${this.base}${pathAndQuery}`, { method, headers, data: options.body });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the text itself
    }
    return { status: res.status(), body, headers: res.headers() };
  }

  /** A public (NONE) request. */
  get(path: string, params: ParamList = {}): Promise<Reply> {
    const q = encode(params);
    return this.raw('GET', q ? `${path}?${q}` : path);
  }

  /** An API-key-only request (USER_STREAM). */
  keyed(method: Method, path: string, params: ParamList = {}, apiKey: string | null = this.apiKey): Promise<Reply> {
    const q = encode(params);
    return this.raw(method, q ? `${path}?${q}` : path, { headers: apiKey === null ? {} : { 'X-MBX-APIKEY': apiKey } });
  }

  /** A signed request: params, then timestamp (and recvWindow), then the signature last. */
  signed(method: Method, path: string, params: ParamList = {}, o: SignedOptions = {}): Promise<Reply> {
    const payload = encode({ ...params, timestamp: o.timestamp ?? this.now(), recvWindow: o.recvWindow });
    const signed = `${payload}&signature=${(o.signer ?? this.signer)(payload)}`;
    const apiKey = o.apiKey === undefined ? this.apiKey : o.apiKey;
    const headers: Record<string, string> = apiKey === null ? {} : { 'X-MBX-APIKEY': apiKey };
    if (o.in === 'body') return this.raw(method, path, { body: signed, headers });
    return this.raw(method, `${path}?${signed}`, { headers });
  }

  // ------------------------------------------------------------------ shortcuts

  order(params: ParamList, o?: SignedOptions): Promise<Reply> {
    return this.signed('POST', '/api/v3/order', { symbol: 'BTCUSDT', ...params }, o);
  }

  /** A resting LIMIT GTC order (ACK). */
  async rest(side: Side, price: string, quantity: string, extra: ParamList = {}): Promise<{ orderId: number; clientOrderId: string }> {
    const r = await this.order({ side, type: 'LIMIT', timeInForce: 'GTC', price, quantity, newOrderRespType: 'ACK', ...extra });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  }

  async openOrders(symbol?: string): Promise<{ orderId: number; clientOrderId: string; status: string; origQty: string; executedQty: string }[]> {
    const r = await this.signed('GET', '/api/v3/openOrders', { symbol });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  }

  async balances(): Promise<Record<string, { free: string; locked: string }>> {
    const r = await this.signed('GET', '/api/v3/account');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return Object.fromEntries(r.body.balances.map((b: { asset: string; free: string; locked: string }) => [b.asset, { free: b.free, locked: b.locked }]));
  }

  /** What a refused request must leave untouched: every open order and every balance. */
  async state(): Promise<{ open: unknown; balances: unknown }> {
    return { open: await this.openOrders(), balances: await this.balances() };
  }
}

export function clientFor(sim: Simulator, api: APIRequestContext, listener: Listener = 'http', signer?: Signer): RestClient {
  return new RestClient(api, sim.urls[listener], sim.credentials.apiKey, signer ?? hmacSigner(sim.credentials.apiSecret), () => sim.now());
}

/**
 * A counterparty (generator-side) limit order placed straight into the book: the account's own
 * orders cannot fill each other (self-trade prevention is EXPIRE_MAKER), so fills need one.
 * Returns its book key when it rests, 0 when it filled completely.
 */
export function counterparty(sim: Simulator, symbol: string, side: Side, price: string, qty: string): number {
  const inst = sim.exchange.instrument(symbol);
  if (inst === undefined) throw new Error(`no instrument ${symbol}`);
  const ticks = parseScaled(price, inst.tickDecimals);
  const lots = parseScaled(qty, inst.lotDecimals);
  if (ticks <= 0 || lots <= 0) throw new Error(`bad counterparty order ${price} x ${qty}`);
  const placed = sim.exchange.submit({ type: 'counterpartyLimit', now: sim.now(), symbolIndex: inst.index, side, price: ticks, lots });
  return placed.ok ? placed.value : 0;
}

/** Used weight of the minute window from the header every REST reply carries. */
export function weightOf(r: Reply): number {
  return Number(r.headers['x-mbx-used-weight-1m']);
}

/**
 * Fixtures: a fresh simulator per test (`simConfig` is the option a describe block sets with
 * test.use), a request context for both listeners, and a client on the chosen `listener`.
 */
export const test = base.extend<{ simConfig: SimSectionInput; listener: Listener; sim: Simulator; api: APIRequestContext; client: RestClient }>({
  simConfig: [{}, { option: true }],
  listener: ['http', { option: true }],
  sim: async ({ simConfig }, use) => {
    const sim = await startTestSim(simConfig);
    await use(sim);
    await sim.stop();
  },
  api: async ({ sim }, use) => {
    void sim; // torn down before the simulator it talks to
    const ctx = await request.newContext({ ignoreHTTPSErrors: true });
    await use(ctx);
    await ctx.dispose();
  },
  client: async ({ sim, api, listener }, use) => {
    await use(clientFor(sim, api, listener));
  },
});

export { expect };
