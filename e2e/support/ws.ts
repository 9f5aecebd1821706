// Shared support of the WebSocket end-to-end specs: a `ws` client that keeps every frame it
// receives (so a test can await the next frame matching a predicate without losing the ones
// that arrived earlier, and can check the order frames came in), a WS API client that signs
// like client libraries do (./signing.ts: every param but `signature`, sorted, `k=v&...`, no
// percent-encoding; HMAC hex or Ed25519 base64), and Playwright fixtures on top of the REST ones
// (the fixture's worker simulator, reset before each test) with a `scheme` option (ws:// on the
// HTTP listener, wss:// on the TLS one).
import WebSocket, { type ClientOptions } from 'ws';
import type { SimConfigInput, Simulator } from 'spot-sim/fixture';
import { expect, quietSim, test as restTest, wireFor, type Listener, type SimSectionInput, type Wire } from './rest.ts';
import { hmacSigner, wsPayload, type Signer, type WsParams } from './signing.ts';

export { ed25519Signer, wsPayload, type WsParams } from './signing.ts';

export type Scheme = 'ws' | 'wss';
export const SCHEMES: readonly Scheme[] = ['ws', 'wss'];

/** The REST listener that shares a port with a WebSocket scheme. */
export function listenerOf(scheme: Scheme): Listener {
  return scheme === 'ws' ? 'http' : 'https';
}

export type Frame = any;
export type Predicate = (frame: Frame) => boolean;

export interface Closed {
  readonly code: number;
  readonly reason: string;
}

const DEFAULT_TIMEOUT_MS = 5000;

/** One client connection; every text frame it receives is parsed and kept in arrival order. */
export class WsClient {
  /** Every frame received, in order, parsed; and as the text that came over the wire. */
  readonly log: Frame[] = [];
  readonly texts: string[] = [];
  /** Frames not yet taken by `next`. */
  private readonly inbox: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  /** Resolves when the connection closes (never rejects). */
  readonly closed: Promise<Closed>;
  private closedWith: Closed | null = null;
  /** performance.now() of each server ping received, and of the close. */
  readonly pingTimes: number[] = [];
  closedAt = -1;

  private constructor(
    readonly ws: WebSocket,
    readonly url: string,
  ) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? `<binary ${String(data)}>` : data.toString();
      let frame: Frame;
      try {
        frame = JSON.parse(text);
      } catch {
        frame = { unparsed: text };
      }
      this.log.push(frame);
      this.texts.push(text);
      this.inbox.push(frame);
      this.wake();
    });
    ws.on('ping', () => {
      this.pingTimes.push(performance.now());
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.once('close', (code, reason) => {
        this.closedAt = performance.now();
        this.closedWith = { code, reason: reason.toString() };
        this.wake();
        resolve(this.closedWith);
      });
    });
    ws.on('error', () => {
      // 'close' follows; tests assert on it.
    });
  }

  /** Opens a connection (self-signed certificates accepted); rejects if the upgrade fails. */
  static open(url: string, options: ClientOptions = {}): Promise<WsClient> {
    const ws = new WebSocket(url, { rejectUnauthorized: false, ...options });
    const client = new WsClient(ws, url);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`upgrade of ${url} refused: HTTP ${res.statusCode}`));
        res.resume();
      });
      ws.once('error', reject);
    });
  }

  get pings(): number {
    return this.pingTimes.length;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: object | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /**
   * The first frame not yet taken that matches `predicate` (default: any), taken out of the
   * inbox; frames before it that do not match stay there. Waits up to `timeoutMs`.
   */
  next(predicate: Predicate = () => true, timeoutMs = DEFAULT_TIMEOUT_MS, what = 'a matching frame'): Promise<Frame> {
    return this.until(() => {
      const i = this.inbox.findIndex(predicate);
      return i < 0 ? undefined : this.inbox.splice(i, 1)[0];
    }, timeoutMs, what);
  }

  /** Waits until `check` returns a value other than undefined (re-checked on every frame, ping or close). */
  until<T>(check: () => T | undefined, timeoutMs = DEFAULT_TIMEOUT_MS, what = 'a condition'): Promise<T> {
    const now = check();
    if (now !== undefined) return Promise.resolve(now);
    if (this.closedWith !== null) return Promise.reject(new Error(`${this.url}: closed (${this.closedWith.code}) before ${what}`));
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        const tail = this.log.slice(-3).map((f) => JSON.stringify(f).slice(0, 300));
        const state = this.closedWith ? `closed ${this.closedWith.code}` : 'open';
        reject(new Error(`${this.url}: no ${what} within ${timeoutMs} ms (${state}; last frames: ${tail.join(' | ') || 'none'})`));
      }, timeoutMs);
      const wake = () => {
        const value = check();
        if (value !== undefined) {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve(value);
        } else if (this.closedWith !== null) {
          clearTimeout(timer);
          this.waiters.delete(wake);
          reject(new Error(`${this.url}: closed (${this.closedWith.code}) before ${what}`));
        }
      };
      this.waiters.add(wake);
    });
  }

  /** Frames received and not yet taken. */
  pending(): readonly Frame[] {
    return this.inbox;
  }

  /** Resolves with the close, or rejects after `timeoutMs`. */
  closeWithin(timeoutMs: number): Promise<Closed> {
    return Promise.race([
      this.closed,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${this.url}: still open after ${timeoutMs} ms`)), timeoutMs)),
    ]);
  }

  /** Closes (if still open) and waits for the close. */
  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CONNECTING || this.ws.readyState === WebSocket.OPEN) this.ws.close();
    else if (this.ws.readyState === WebSocket.CLOSED) return;
    await Promise.race([this.closed, new Promise((r) => setTimeout(r, 1000))]);
    this.ws.terminate();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** An upgrade the server refuses: its HTTP status and JSON body. */
export function refusedUpgrade(url: string): Promise<{ status: number; body: any }> {
  const ws = new WebSocket(url, { rejectUnauthorized: false });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error(`upgrade of ${url} was accepted`));
    });
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.on('error', () => {
      // after 'unexpected-response' the request is aborted; the result is already settled
    });
  });
}

// ------------------------------------------------------------------ WS API

/** Returns the `signature` for a WS API payload. */
export type WsSigner = Signer;

export interface SignOptions {
  readonly apiKey?: string | null;
  readonly timestamp?: number | string | null;
  readonly signer?: WsSigner | null;
}

export class WsApi {
  private nextId = 1;

  constructor(
    readonly client: WsClient,
    readonly apiKey: string,
    readonly signer: WsSigner,
    readonly now: () => number,
  ) {}

  /** Sends a request and returns its response (the frame with its id and a `status`). */
  async call(method: string, params?: WsParams, id: string | number | null = this.nextId++): Promise<Frame> {
    const frame: Record<string, unknown> = { id, method };
    if (params !== undefined) frame.params = params;
    this.client.send(frame);
    return this.response(id, method);
  }

  /** The response to request `id` (frames with a status are responses; events have none). */
  response(id: string | number | null, what = String(id)): Promise<Frame> {
    return this.client.next((f) => f !== null && typeof f === 'object' && 'status' in f && f.id === id, DEFAULT_TIMEOUT_MS, `response to ${what}`);
  }

  /** The params of a signed request: `apiKey` and `timestamp` added, `signature` over the sorted rest. */
  signedParams(params: WsParams = {}, o: SignOptions = {}): WsParams {
    const p: WsParams = { ...params };
    const apiKey = o.apiKey === undefined ? this.apiKey : o.apiKey;
    if (apiKey !== null) p.apiKey = apiKey;
    const timestamp = o.timestamp === undefined ? this.now() : o.timestamp;
    if (timestamp !== null) p.timestamp = timestamp;
    const signer = o.signer === undefined ? this.signer : o.signer;
    if (signer !== null) p.signature = signer(wsPayload(p));
    return p;
  }

  signed(method: string, params: WsParams = {}, o: SignOptions = {}): Promise<Frame> {
    return this.call(method, this.signedParams(params, o));
  }

  /** A user-data event of this connection (`{subscriptionId, event}`) whose event matches. */
  event(predicate: Predicate = () => true, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Frame> {
    return this.client.next((f) => f?.subscriptionId !== undefined && f.event !== undefined && predicate(f.event), timeoutMs, 'a user-data event');
  }
}

/** The result of a 200 response; fails the test with the error otherwise. */
export function ok(response: Frame): any {
  expect(response.status, JSON.stringify(response.error)).toBe(200);
  return response.result;
}

// ------------------------------------------------------------------ fixtures

export interface WsFixtures {
  scheme: Scheme;
  /** Opens a connection on this test's simulator and scheme; closed after the test. */
  connect: (pathAndQuery: string, options?: ClientOptions) => Promise<WsClient>;
  /** Opens a WS API connection signing with the account's HMAC secret. */
  wsApi: (query?: string) => Promise<WsApi>;
  /** REST on the listener that shares the scheme's port. */
  rest: Wire;
}

export const test = restTest.extend<WsFixtures>({
  scheme: ['ws', { option: true }],
  connect: async ({ sim, scheme }, use) => {
    const opened: WsClient[] = [];
    await use(async (path, options) => {
      const client = await WsClient.open(`${sim.urls[scheme]}${path}`, options);
      opened.push(client);
      return client;
    });
    await Promise.all(opened.map((c) => c.close()));
  },
  wsApi: async ({ sim, connect }, use) => {
    await use(async (query = '') => apiOn(sim, await connect(`/ws-api/v3${query}`)));
  },
  rest: async ({ sim, scheme }, use) => {
    const rest = wireFor(sim, listenerOf(scheme));
    await use(rest);
    rest.close();
  },
});

/** `test` on a worker of its own whose configuration is `quietSim(sim)` (a describe block's configuration). */
export function wsTestWith(sim: SimSectionInput): typeof test {
  return test.extend<object, { simConfig: SimConfigInput }>({ simConfig: [quietSim(sim), { scope: 'worker' }] });
}

/** A WS API client on an open connection, with the simulator's HMAC credentials and clock. */
export function apiOn(sim: Simulator, client: WsClient, signer?: WsSigner): WsApi {
  return new WsApi(client, sim.credentials.apiKey, signer ?? hmacSigner(sim.credentials.apiSecret), () => sim.now());
}

export { expect };
