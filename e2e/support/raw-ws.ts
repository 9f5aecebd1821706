// Raw WebSocket connections for the fault specs: every text frame is kept in arrival order (with
// its arrival time), so a test can check what a client sees frame by frame — a malformed frame,
// a reply that never came, an event sent twice, the order of a delayed reply and its events.
// A request sent after a fault and answered on the same connection is the barrier that proves
// nothing else arrived before it (frames of one connection are delivered in order).
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import type { Simulator } from 'spot-sim';
import { hmacSigner, wsPayload } from './signing.ts';

export interface Frame {
  readonly text: string;
  /** The parsed frame; undefined when the frame is not JSON. */
  readonly json: any;
  /** performance.now() at arrival. */
  readonly at: number;
}

export type WsParams = Record<string, string | number | boolean | undefined>;

const DEFAULT_TIMEOUT_MS = 5_000;
const opened = new Set<RawWs>();

export class RawWs {
  readonly log: Frame[] = [];
  private readonly waiters = new Set<() => void>();
  private closedWith: { code: number } | null = null;
  readonly closed: Promise<{ code: number }>;
  private nextId = 1;

  private constructor(
    readonly ws: WebSocket,
    readonly url: string,
    private readonly sim: Simulator,
  ) {
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '<binary>' : data.toString();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.log.push({ text, json, at: performance.now() });
      this.wake();
    });
    this.closed = new Promise((resolve) => {
      ws.once('close', (code) => {
        this.closedWith = { code };
        this.wake();
        resolve(this.closedWith);
      });
    });
    ws.on('error', () => {
      // 'close' follows
    });
  }

  /** Opens `path` (e.g. `/ws-api/v3`, `/ws/<listenKey>`) on the http (ws://) or TLS (wss://) listener. */
  static async open(sim: Simulator, path: string, options: { tls?: boolean } = {}): Promise<RawWs> {
    const url = `${options.tls ? sim.urls.wss : sim.urls.ws}${path}`;
    const ws = new WebSocket(url, { rejectUnauthorized: false, perMessageDeflate: false });
    const raw = new RawWs(ws, url, sim);
    opened.add(raw);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade of ${url} refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
    return raw;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  send(frame: object | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** The index in `log` of the first frame at or after `from` that matches, waiting for it. */
  async indexOf(match: (f: Frame) => boolean, from = 0, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<number> {
    const find = () => {
      for (let i = from; i < this.log.length; i++) if (match(this.log[i]!)) return i;
      return -1;
    };
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = find();
      if (i >= 0) return i;
      if (this.closedWith !== null) throw new Error(`${this.url}: closed (${this.closedWith.code}) before a matching frame`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.url}: no matching frame within ${timeoutMs} ms; last: ${this.log.slice(-3).map((f) => f.text.slice(0, 200)).join(' | ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const self = this;
        function done() {
          clearTimeout(timer);
          self.waiters.delete(done);
          resolve();
        }
        this.waiters.add(done);
      });
    }
  }

  /** The first frame at or after `from` that matches. */
  async frame(match: (f: Frame) => boolean, from = 0, timeoutMs?: number): Promise<Frame> {
    return this.log[await this.indexOf(match, from, timeoutMs)]!;
  }

  /** Waits for the server to close the connection; rejects if it stays open. */
  async closedWithin(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<{ code: number }> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        this.closed,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`${this.url}: still open after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  // ------------------------------------------------------------------ WS API (`/ws-api/v3`)

  /** Sends `{id, method, params}` (signed with the account's HMAC key when `signed`); returns the id. */
  request(method: string, params: WsParams = {}, signed = false): number {
    const id = this.nextId++;
    this.send({ id, method, params: signed ? this.sign(params) : params });
    return id;
  }

  /** The reply to request `id` (a frame with that id and a status). */
  reply(id: number, timeoutMs?: number): Promise<Frame> {
    return this.frame((f) => f.json?.id === id && f.json?.status !== undefined, 0, timeoutMs);
  }

  /** Index in `log` of the reply to `id`. */
  replyIndex(id: number, timeoutMs?: number): Promise<number> {
    return this.indexOf((f) => f.json?.id === id && f.json?.status !== undefined, 0, timeoutMs);
  }

  async call(method: string, params: WsParams = {}, signed = false): Promise<any> {
    return (await this.reply(this.request(method, params, signed))).json;
  }

  /** Subscribes this connection to the account's user data (`userDataStream.subscribe.signature`). */
  async subscribeUserData(): Promise<number> {
    const r = await this.call('userDataStream.subscribe.signature', {}, true);
    if (r.status !== 200) throw new Error(`subscribe failed: ${JSON.stringify(r)}`);
    return r.result.subscriptionId as number;
  }

  /** A market-data connection's round trip (LIST_SUBSCRIPTIONS): everything sent before it has arrived. */
  async barrier(): Promise<void> {
    const id = this.nextId++;
    this.send({ method: 'LIST_SUBSCRIPTIONS', id });
    await this.frame((f) => f.json?.id === id && 'result' in f.json);
  }

  private sign(params: WsParams): WsParams {
    const full: WsParams = { ...params, apiKey: this.sim.credentials.apiKey, timestamp: this.sim.now() };
    return { ...full, signature: hmacSigner(this.sim.credentials.apiSecret)(wsPayload(full)) };
  }

  async close(): Promise<void> {
    opened.delete(this);
    if (this.ws.readyState === WebSocket.CLOSED) return;
    if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
    else this.ws.close();
    await Promise.race([this.closed, new Promise((r) => setTimeout(r, 1000))]);
    this.ws.terminate();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}

/** User-data events (`{subscriptionId, event}` on the WS API, the raw event on `/ws/<listenKey>`) in `log`. */
export function userEvents(raw: RawWs): any[] {
  return raw.log.map((f) => (f.json?.event !== undefined && f.json?.subscriptionId !== undefined ? f.json.event : f.json?.e !== undefined ? f.json : undefined)).filter((e) => e !== undefined);
}

/** Closes every raw connection still open (call from afterEach). */
export async function closeRawConnections(): Promise<void> {
  await Promise.all([...opened].map((c) => c.close()));
}

/** 'pending' when `promise` has not settled within `ms` (a request that must get no reply), else 'settled'. */
export async function stillPending(promise: Promise<unknown>, ms: number): Promise<'pending' | 'settled'> {
  let timer: NodeJS.Timeout | undefined;
  const settled = promise.then(
    () => 'settled' as const,
    () => 'settled' as const,
  );
  try {
    return await Promise.race([settled, new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
