// Shared support of the REST end-to-end specs, on top of `spot-sim/fixture` and the typed
// client: the fixture's worker simulator (generator off unless a block's configuration says
// otherwise; reset before every test, so no test sees another's orders or weight), a `listener`
// option (http or https) and `wire`, which sends requests through the typed client's raw
// `request()` signed like a client library does (./signing.ts) with every knob a test of the
// wire needs: the parameters in the query or a form body, a chosen timestamp, recvWindow, API
// key or signer.
import { test as simTest, expect, type SimConfigInput, type Simulator } from 'spot-sim/fixture';
import { RestClient, type RawRestRequest } from 'spot-sim';
import { encode, hmacSigner, type ParamList, type Signer } from './signing.ts';

export { encode, ed25519Signer, hmacSigner, type ParamList, type ParamValue, type Signer } from './signing.ts';

export type Listener = 'http' | 'https';
export const LISTENERS: readonly Listener[] = ['http', 'https'];

export type SimSectionInput = NonNullable<SimConfigInput['sim']>;

/** A worker configuration: the generator off, then the given `[sim]` keys over that (and `rest`, e.g. `instruments`, beside it). */
export function quietSim(sim: SimSectionInput = {}, rest: Omit<SimConfigInput, 'sim'> = {}): SimConfigInput {
  return { ...rest, sim: { generator: { enabled: false }, ...sim } };
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

/** Requests as a client library puts them on the wire, through the typed client's raw `request()`. */
export class Wire {
  private readonly others: Wire[] = [];

  constructor(
    readonly client: RestClient,
    readonly apiKey: string,
    readonly signer: Signer,
    /** The simulator's clock (the wall clock, or its manual clock). */
    readonly now: () => number,
  ) {}

  /** The same wire on another listener (`sim.urls.https`, ...); closed with this one. */
  on(baseUrl: string): Wire {
    const client = new RestClient({ baseUrl, credentials: { apiKey: this.apiKey, apiSecret: '' } });
    const other = new Wire(client, this.apiKey, this.signer, this.now);
    this.others.push(other);
    return other;
  }

  /** Closes the keep-alive connections of this wire and of those made by `on`. */
  close(): void {
    this.client.close();
    for (const other of this.others.splice(0)) other.close();
  }

  /** A request sent as given: path with query, optional form body and headers. */
  async raw(method: Method, pathAndQuery: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
    const headers = { ...(options.body !== undefined ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}), ...options.headers };
    // PATCH is not a method of the reference API; the typed client's raw request sends it as given.
    const res = await this.client.request({ method: method as RawRestRequest['method'], path: pathAndQuery, headers, body: options.body });
    return { status: res.status, body: res.body ?? '', headers: res.headers };
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
  async rest(side: 'BUY' | 'SELL', price: string, quantity: string, extra: ParamList = {}): Promise<{ orderId: number; clientOrderId: string }> {
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

/** A Wire on one listener of `sim`, HMAC-signed with its credentials unless told; `close()` it when done. */
export function wireFor(sim: Simulator, listener: Listener = 'http', signer?: Signer): Wire {
  const client = new RestClient({ baseUrl: sim.urls[listener], credentials: sim.credentials });
  return new Wire(client, sim.credentials.apiKey, signer ?? hmacSigner(sim.credentials.apiSecret), () => sim.now());
}

/**
 * A counterparty limit order (GTC) through the scripted market (`sim.market.place`, the
 * generator's own path into the book): the account's own orders cannot fill each other
 * (self-trade prevention is EXPIRE_MAKER), so fills need one.
 */
export function counterparty(sim: Simulator, symbol: string, side: 'BUY' | 'SELL', price: string, quantity: string): number {
  return sim.market.place({ symbol, side, type: 'LIMIT', timeInForce: 'GTC', price, quantity });
}

/** Used weight of the minute window from the header every REST reply carries. */
export function weightOf(r: Reply): number {
  return Number(r.headers['x-mbx-used-weight-1m']);
}

interface WireFixtures {
  listener: Listener;
  /** Requests on the chosen `listener` of this worker's simulator, as a client library sends them. */
  wire: Wire;
}

/** The fixture's `test` with a quiet book by default (the generator off) and `wire` on the `listener` option. */
export const test = simTest.extend<WireFixtures, { simConfig: SimConfigInput }>({
  simConfig: [quietSim(), { scope: 'worker' }],
  listener: ['http', { option: true }],
  wire: async ({ sim, listener }, use) => {
    const wire = wireFor(sim, listener);
    await use(wire);
    wire.close();
  },
});

/** `test` on a worker of its own whose configuration is `quietSim(sim)` (a describe block's configuration). */
export function restTestWith(sim: SimSectionInput, rest: Omit<SimConfigInput, 'sim'> = {}): typeof test {
  return test.extend<object, { simConfig: SimConfigInput }>({ simConfig: [quietSim(sim, rest), { scope: 'worker' }] });
}

export { expect };
