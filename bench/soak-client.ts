// The load side of bench/soak.ts, forked by it (never run on its own): market-data subscribers,
// a WS API trader, a ping prober, connection churn and abusive sockets, driven over the IPC
// channel. Several jobs run at once in one process (the subscribers keep receiving while the
// trader trades); every job is bounded in count and time.
//
// Jobs:
//   md-open        `count` combined-stream connections (depth + trades); each checks its depth
//                  stream is contiguous (U == previous u + 1) for the whole run.
//   window-start / window-end   delivery delay (receive wall time - the event's `E`) of every
//                  depthUpdate and trade between the two, as a fixed-size histogram (mergeable),
//                  with this process's CPU share and event-loop delay over the window.
//   md-status      connections open / closed / errors, messages, depth gaps so far.
//   slow-md-open / slow-md-close   a market-data connection on every stream that pauses its
//                  socket after its first message (a subscriber that stops reading).
//   slow-api-open / slow-api-close   a WS API connection (user-data subscribed) that pauses its
//                  socket and keeps asking for `depth` snapshots it never reads, so its send
//                  queue on the server grows at a known pace until the server cuts it.
//   trade-start / trade-stop  one WS API connection with a user-data subscription placing orders
//                  at a steady rate (LIMIT far from the touch, cancelled ~0.5 s later; every 5th a
//                  small MARKET order that trades): on stop it checks that every order it placed
//                  produced a NEW executionReport and then a final one.
//   ping-start / ping-stop   GET /api/v3/ping over http and https every `intervalMs`.
//   churn-ws / churn-http    open/close `count` connections, `concurrency` at a time.
//   abuse          sockets that never finish a request: idle, partial headers, slowloris, slow
//                  body, RST mid-request, FIN mid-request, TLS idle / half a ClientHello, a
//                  WebSocket that never answers pings; reports when the server freed each.

import { createHmac } from 'node:crypto';
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import WebSocket from 'ws';

// ------------------------------------------------------------------ protocol

export interface Histogram {
  /** Width of a bin, ms. */
  readonly binMs: number;
  /** Counts per bin from 0; the last bin holds everything above the range. */
  readonly bins: number[];
  readonly n: number;
  readonly sum: number;
  readonly max: number;
  /** Samples below 0 (clock granularity: `E` is whole ms), counted in bin 0. */
  readonly negative: number;
}

const HIST_BIN_MS = 0.1;
const HIST_BINS = 50_001; // 0 .. 5000 ms, then overflow

export interface MdStatus {
  readonly open: number;
  readonly opened: number;
  readonly closed: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly depthMessages: number;
  readonly tradeMessages: number;
  readonly gaps: number;
  readonly firstGap: string | null;
}

export interface WindowResult {
  readonly depth: Histogram;
  readonly trade: Histogram;
  readonly seconds: number;
  /** Share of one core this process used over the window. */
  readonly cpu: number;
  /** This process's event-loop delay over the window, ms (its own lag adds to the delays it measures). */
  readonly loopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

export interface TradeResult {
  readonly placed: number;
  readonly acked: number;
  readonly placeErrors: number;
  readonly cancels: number;
  readonly cancelErrors: number;
  readonly firstError: string | null;
  readonly sawNew: number;
  readonly sawFinal: number;
  readonly finals: Record<string, number>;
  readonly missingNew: number;
  readonly missingFinal: number;
  readonly finalBeforeNew: number;
  readonly examplesMissing: string[];
  readonly placeRttMs: Histogram;
  readonly closed: boolean;
  readonly seconds: number;
}

export interface PingResult {
  readonly ok: number;
  readonly failed: number;
  readonly firstError: string | null;
  readonly latencyMs: Histogram;
  /** The longest stretch without a successful ping, ms. */
  readonly longestGapMs: number;
}

export interface ChurnResult {
  readonly kind: 'ws' | 'http';
  readonly ok: number;
  readonly failed: number;
  readonly firstError: string | null;
  readonly seconds: number;
  readonly requests: number;
}

export interface AbuseCategory {
  readonly name: string;
  readonly port: 'http' | 'https';
  readonly count: number;
  /** Connections the server closed (or that the client reset itself), and when. */
  readonly freed: number;
  readonly freedMsMax: number;
  readonly freedMsMedian: number;
  /** What the server answered, if anything (first bytes of the first reply). */
  readonly reply: string | null;
  readonly connectErrors: number;
}

export interface AbuseResult {
  readonly categories: AbuseCategory[];
  readonly seconds: number;
}

export type Job = { readonly id: number } & (
  | { readonly kind: 'md-open'; readonly url: string; readonly count: number }
  | { readonly kind: 'md-status' }
  | { readonly kind: 'window-start' }
  | { readonly kind: 'window-end' }
  | { readonly kind: 'slow-md-open'; readonly url: string }
  | { readonly kind: 'slow-md-close' }
  | { readonly kind: 'slow-api-open'; readonly url: string; readonly apiKey: string; readonly apiSecret: string; readonly intervalMs: number; readonly depthLimit: number }
  | { readonly kind: 'slow-api-close' }
  | { readonly kind: 'trade-start'; readonly url: string; readonly apiKey: string; readonly apiSecret: string; readonly ratePerSec: number; readonly tag: string }
  | { readonly kind: 'trade-stop'; readonly settleSeconds: number }
  | { readonly kind: 'ping-start'; readonly http: string; readonly https: string; readonly intervalMs: number; readonly timeoutMs: number }
  | { readonly kind: 'ping-stop' }
  | { readonly kind: 'churn-ws'; readonly url: string; readonly count: number; readonly concurrency: number; readonly timeoutSeconds: number }
  | { readonly kind: 'churn-http'; readonly host: string; readonly port: number; readonly count: number; readonly concurrency: number; readonly requestsPerConnection: number; readonly timeoutSeconds: number }
  | {
      readonly kind: 'abuse';
      readonly host: string;
      readonly httpPort: number;
      readonly httpsPort: number;
      readonly perCategory: number;
      readonly boundSeconds: number;
    }
);

export type Reply = { readonly id: number; readonly ok: true; readonly result?: unknown } | { readonly id: number; readonly ok: false; readonly error: string };
export type Hello = { readonly ready: true };

// ------------------------------------------------------------------ histograms

class Hist {
  readonly bins = new Uint32Array(HIST_BINS);
  n = 0;
  sum = 0;
  max = -Infinity;
  negative = 0;

  add(ms: number): void {
    this.n++;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
    if (ms < 0) {
      this.negative++;
      this.bins[0]!++;
      return;
    }
    const b = Math.floor(ms / HIST_BIN_MS);
    this.bins[b < HIST_BINS - 1 ? b : HIST_BINS - 1]!++;
  }

  toJSON(): Histogram {
    return { binMs: HIST_BIN_MS, bins: Array.from(this.bins), n: this.n, sum: this.sum, max: this.n === 0 ? 0 : this.max, negative: this.negative };
  }
}

// ------------------------------------------------------------------ helpers

const send = (m: Reply | Hello) => process.send!(m);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const errText = (e: unknown) => (e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`.trim() : String(e));
const wallNow = () => performance.timeOrigin + performance.now();

/** Zero masking key (RFC 6455 allows any key; `ws` then skips the XOR pass). */
const zeroMask = (mask: Buffer) => mask.fill(0);

function openWs(url: string, timeoutMs = 10_000): Promise<WebSocket> {
  return new Promise((res, rej) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, generateMask: zeroMask, handshakeTimeout: timeoutMs });
    ws.once('open', () => {
      ws.off('error', rej);
      res(ws);
    });
    ws.once('error', rej);
  });
}

/** The integer after `key` (e.g. `"E":`) in `buf`, starting at `from`; NaN when absent. */
function intAfter(buf: Buffer, key: Buffer, from = 0): number {
  const at = buf.indexOf(key, from);
  if (at < 0) return NaN;
  let i = at + key.length;
  let n = 0;
  let digits = 0;
  for (; i < buf.length; i++) {
    const c = buf[i]!;
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    digits++;
  }
  return digits === 0 ? NaN : n;
}

const K_E = Buffer.from('"E":');
const K_U = Buffer.from('"U":');
const K_u = Buffer.from('"u":');
const STREAM_PREFIX = '{"stream":"';

// ------------------------------------------------------------------ market-data subscribers

interface MdConn {
  ws: WebSocket;
  lastU: number;
  closed: boolean;
}

const md: MdConn[] = [];
const mdTotals = { opened: 0, closed: 0, errors: 0, firstError: null as string | null, depth: 0, trade: 0, gaps: 0, firstGap: null as string | null };
let windowDepth: Hist | null = null;
let windowTrade: Hist | null = null;
let windowStart = 0;
let windowCpu = process.cpuUsage();
let windowLoop: IntervalHistogram | null = null;

function onMdMessage(c: MdConn, data: Buffer): void {
  const recv = wallNow();
  // `{"stream":"btcusdt@depth@100ms","data":{...}}` / `{"stream":"btcusdt@trade",...}`
  const at = data.indexOf(0x40, STREAM_PREFIX.length); // '@'
  if (at < 0) return;
  const kind = data[at + 1]; // 'd' depth, 't' trade
  const E = intAfter(data, K_E, at);
  if (kind === 0x64) {
    mdTotals.depth++;
    const U = intAfter(data, K_U, at);
    const u = intAfter(data, K_u, at);
    if (c.lastU >= 0 && U !== c.lastU + 1) {
      mdTotals.gaps++;
      mdTotals.firstGap ??= `U=${U} after u=${c.lastU}`;
    }
    c.lastU = u;
    windowDepth?.add(recv - E);
  } else if (kind === 0x74) {
    mdTotals.trade++;
    windowTrade?.add(recv - E);
  }
}

async function mdOpen(url: string, count: number): Promise<number> {
  const BATCH = 50;
  for (let i = 0; i < count; i += BATCH) {
    const n = Math.min(BATCH, count - i);
    const opened = await Promise.all(Array.from({ length: n }, () => openWs(url)));
    for (const ws of opened) {
      const c: MdConn = { ws, lastU: -1, closed: false };
      md.push(c);
      mdTotals.opened++;
      ws.on('message', (data: Buffer) => onMdMessage(c, data));
      ws.on('error', (e) => {
        mdTotals.errors++;
        mdTotals.firstError ??= errText(e);
      });
      ws.once('close', (code, reason) => {
        c.closed = true;
        mdTotals.closed++;
        mdTotals.firstError ??= `closed by the server: ${code} ${reason.toString()}`;
      });
    }
  }
  return md.length;
}

function mdStatus(): MdStatus {
  return {
    open: md.filter((c) => !c.closed).length,
    opened: mdTotals.opened,
    closed: mdTotals.closed,
    errors: mdTotals.errors,
    firstError: mdTotals.firstError,
    depthMessages: mdTotals.depth,
    tradeMessages: mdTotals.trade,
    gaps: mdTotals.gaps,
    firstGap: mdTotals.firstGap,
  };
}

// ------------------------------------------------------------------ signing

/** A WS API request frame signed with HMAC-SHA256 over the sorted `k=v&...` parameters. */
function signedFrame(id: number, method: string, fields: Array<[string, string]>, apiKey: string, apiSecret: string): string {
  const params: Array<[string, string]> = [...fields, ['apiKey', apiKey], ['timestamp', String(Date.now())]];
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const payload = params.map(([k, v]) => `${k}=${v}`).join('&');
  params.push(['signature', createHmac('sha256', apiSecret).update(payload).digest('hex')]);
  return JSON.stringify({ id, method, params: Object.fromEntries(params) });
}

/** Sends one frame and resolves when the reply with its id says 200. */
function call(ws: WebSocket, id: number, frame: string, what: string): Promise<void> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      ws.off('message', onMessage);
      rej(new Error(`no reply to ${what} within 10 s`));
    }, 10_000);
    const onMessage = (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { id?: number; status?: number; error?: unknown };
      if (m.id !== id) return;
      clearTimeout(timer);
      ws.off('message', onMessage);
      if (m.status === 200) res();
      else rej(new Error(`${what} refused: ${JSON.stringify(m.error)}`));
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}

// ------------------------------------------------------------------ slow consumers

let slowMd: WebSocket | null = null;
let slowApi: { ws: WebSocket; timer: NodeJS.Timeout } | null = null;

async function slowMdOpen(url: string): Promise<void> {
  const ws = await openWs(url);
  slowMd = ws;
  ws.on('error', () => {});
  await new Promise<void>((res) => ws.once('message', () => res()));
  // Stop reading: the kernel's socket buffers fill first, then the server's send queue grows.
  ws.pause();
}

async function slowApiOpen(url: string, apiKey: string, apiSecret: string, intervalMs: number, depthLimit: number): Promise<void> {
  const ws = await openWs(url);
  ws.on('error', () => {});
  await call(ws, 1, signedFrame(1, 'userDataStream.subscribe.signature', [], apiKey, apiSecret), 'userDataStream.subscribe.signature');
  ws.pause();
  let id = 2;
  const request = () => `{"id":${id++},"method":"depth","params":{"symbol":"BTCUSDT","limit":${depthLimit}}}`;
  const timer = setInterval(() => {
    // Once the server let go the writes fail (EPIPE/ECONNRESET, swallowed above): stop then.
    if (ws.readyState !== ws.OPEN || ws.bufferedAmount > 1 << 20) return;
    ws.send(request());
  }, intervalMs);
  slowApi = { ws, timer };
}

// ------------------------------------------------------------------ trader

interface Tracked {
  acked: boolean;
  orderId: number;
  market: boolean;
  sawNew: boolean;
  final: string | null;
  finalBeforeNew: boolean;
}

const FINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED', 'EXPIRED_IN_MATCH']);

class Trader {
  private readonly orders = new Map<string, Tracked>();
  private readonly pending = new Map<number, { kind: 'place' | 'cancel'; clientOrderId: string; sentAt: number }>();
  private nextId = 1;
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly cancelTimers = new Set<NodeJS.Timeout>();
  private stopping = false;
  closed = false;
  placed = 0;
  acked = 0;
  placeErrors = 0;
  cancels = 0;
  cancelErrors = 0;
  firstError: string | null = null;
  readonly rtt = new Hist();
  private readonly started = performance.now();

  private constructor(
    private readonly ws: WebSocket,
    private readonly apiKey: string,
    private readonly apiSecret: string,
    private readonly tag: string,
  ) {
    ws.on('message', (data: Buffer) => this.onMessage(data));
    ws.on('error', (e) => {
      this.firstError ??= `connection error: ${errText(e)}`;
    });
    ws.once('close', (code) => {
      this.closed = true;
      if (!this.stopping) this.firstError ??= `connection closed by the server (${code})`;
    });
  }

  static async start(url: string, apiKey: string, apiSecret: string, tag: string, ratePerSec: number): Promise<Trader> {
    const ws = await openWs(url);
    const t = new Trader(ws, apiKey, apiSecret, tag);
    await t.subscribe();
    t.run(ratePerSec);
    return t;
  }

  private frame(id: number, method: string, fields: Array<[string, string]>): string {
    return signedFrame(id, method, fields, this.apiKey, this.apiSecret);
  }

  private subscribe(): Promise<void> {
    const id = this.nextId++;
    return call(this.ws, id, this.frame(id, 'userDataStream.subscribe.signature', []), 'userDataStream.subscribe.signature');
  }

  /** Places at a steady rate: the number due by now (from the start), so stalls catch up. */
  private run(ratePerSec: number): void {
    const t0 = performance.now();
    let sent = 0;
    this.timer = setInterval(() => {
      if (this.closed) return;
      const due = Math.floor(((performance.now() - t0) / 1000) * ratePerSec);
      // A long stall is not replayed in one burst (at most 1 s worth).
      if (due - sent > ratePerSec) sent = due - Math.ceil(ratePerSec);
      while (sent < due) {
        sent++;
        this.place();
      }
    }, 10);
  }

  private place(): void {
    const n = this.seq++;
    const clientOrderId = `${this.tag}${n}`;
    const market = n % 5 === 4;
    const fields: Array<[string, string]> = market
      ? [
          ['symbol', 'BTCUSDT'],
          ['side', n % 10 === 4 ? 'BUY' : 'SELL'],
          ['type', 'MARKET'],
          ['quantity', '0.0002'],
          ['newClientOrderId', clientOrderId],
        ]
      : [
          ['symbol', 'BTCUSDT'],
          ['side', 'BUY'],
          ['type', 'LIMIT'],
          ['timeInForce', 'GTC'],
          ['quantity', '0.001'],
          ['price', '50000'],
          ['newClientOrderId', clientOrderId],
        ];
    const id = this.nextId++;
    this.orders.set(clientOrderId, { acked: false, orderId: -1, market, sawNew: false, final: null, finalBeforeNew: false });
    this.pending.set(id, { kind: 'place', clientOrderId, sentAt: performance.now() });
    this.placed++;
    this.ws.send(this.frame(id, 'order.place', fields));
  }

  private cancel(clientOrderId: string): void {
    if (this.closed) return;
    const o = this.orders.get(clientOrderId);
    if (o === undefined || o.final !== null) return;
    const id = this.nextId++;
    this.pending.set(id, { kind: 'cancel', clientOrderId, sentAt: performance.now() });
    this.cancels++;
    this.ws.send(
      this.frame(id, 'order.cancel', [
        ['symbol', 'BTCUSDT'],
        ['orderId', String(o.orderId)],
      ]),
    );
  }

  private onMessage(data: Buffer): void {
    const now = performance.now();
    let m: { id?: number; status?: number; result?: { orderId?: number; status?: string }; error?: unknown; event?: Record<string, unknown> };
    try {
      m = JSON.parse(data.toString('utf8'));
    } catch {
      this.firstError ??= `unparsable frame: ${data.toString('utf8').slice(0, 200)}`;
      return;
    }
    if (m.event !== undefined) return this.onEvent(m.event);
    if (typeof m.id !== 'number') return;
    const p = this.pending.get(m.id);
    if (p === undefined) return;
    this.pending.delete(m.id);
    if (p.kind === 'place') {
      this.rtt.add(now - p.sentAt);
      const o = this.orders.get(p.clientOrderId)!;
      if (m.status !== 200) {
        this.placeErrors++;
        this.firstError ??= `order.place: ${JSON.stringify(m.error)}`;
        this.orders.delete(p.clientOrderId); // refused: no events expected
        return;
      }
      this.acked++;
      o.acked = true;
      o.orderId = m.result?.orderId ?? -1;
      if (!o.market && !FINAL.has(m.result?.status ?? '') && !this.stopping) {
        const t = setTimeout(() => {
          this.cancelTimers.delete(t);
          this.cancel(p.clientOrderId);
        }, 500);
        this.cancelTimers.add(t);
      }
    } else if (m.status !== 200) {
      const o = this.orders.get(p.clientOrderId);
      // An order that ended meanwhile (its final event may already be here) is not an error.
      if (o?.final === null) {
        this.cancelErrors++;
        this.firstError ??= `order.cancel: ${JSON.stringify(m.error)}`;
      }
    }
  }

  private onEvent(e: Record<string, unknown>): void {
    if (e.e !== 'executionReport') return;
    const key = (e.x === 'CANCELED' && typeof e.C === 'string' && e.C !== '' ? e.C : e.c) as string;
    if (typeof key !== 'string' || !key.startsWith(this.tag)) return;
    const o = this.orders.get(key);
    if (o === undefined) return;
    if (e.x === 'NEW') o.sawNew = true;
    const status = e.X as string;
    if (FINAL.has(status)) {
      if (!o.sawNew) o.finalBeforeNew = true;
      o.final = status;
    }
  }

  /** Stops placing, cancels what is still open, waits up to `settleSeconds` for final events. */
  async stop(settleSeconds: number): Promise<TradeResult> {
    this.stopping = true;
    if (this.timer !== null) clearInterval(this.timer);
    for (const t of this.cancelTimers) clearTimeout(t);
    this.cancelTimers.clear();
    const deadline = performance.now() + settleSeconds * 1000;
    // Wait for the outstanding place replies, cancel what rests, then wait for the finals.
    while (this.pending.size > 0 && performance.now() < deadline && !this.closed) await sleep(20);
    for (const [cid, o] of this.orders) if (o.acked && o.final === null) this.cancel(cid);
    const unsettled = () => [...this.orders.values()].some((o) => o.acked && (o.final === null || !o.sawNew));
    while (unsettled() && performance.now() < deadline && !this.closed) await sleep(20);
    const seconds = (performance.now() - this.started) / 1000;
    const finals: Record<string, number> = {};
    let sawNew = 0;
    let sawFinal = 0;
    let missingNew = 0;
    let missingFinal = 0;
    let finalBeforeNew = 0;
    const examplesMissing: string[] = [];
    for (const [cid, o] of this.orders) {
      if (!o.acked) {
        // Never answered (only when the connection died): counted as missing both.
        missingNew++;
        missingFinal++;
        if (examplesMissing.length < 5) examplesMissing.push(`${cid}: no reply`);
        continue;
      }
      if (o.sawNew) sawNew++;
      else missingNew++;
      if (o.final !== null) {
        sawFinal++;
        finals[o.final] = (finals[o.final] ?? 0) + 1;
      } else missingFinal++;
      if (o.finalBeforeNew) finalBeforeNew++;
      if ((!o.sawNew || o.final === null) && examplesMissing.length < 5) examplesMissing.push(`${cid} (orderId ${o.orderId}): NEW ${o.sawNew}, final ${o.final}`);
    }
    this.ws.close();
    return {
      placed: this.placed,
      acked: this.acked,
      placeErrors: this.placeErrors,
      cancels: this.cancels,
      cancelErrors: this.cancelErrors,
      firstError: this.firstError,
      sawNew,
      sawFinal,
      finals,
      missingNew,
      missingFinal,
      finalBeforeNew,
      examplesMissing,
      placeRttMs: this.rtt.toJSON(),
      closed: this.closed && !this.stopping,
      seconds,
    };
  }
}

let trader: Trader | null = null;

// ------------------------------------------------------------------ ping prober

class Pinger {
  ok = 0;
  failed = 0;
  firstError: string | null = null;
  readonly latency = new Hist();
  private lastOk = performance.now();
  longestGapMs = 0;
  private running = true;
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
  private readonly done: Promise<void>;

  constructor(
    private readonly httpUrl: string,
    private readonly httpsUrl: string,
    intervalMs: number,
    private readonly timeoutMs: number,
  ) {
    this.done = this.loop(intervalMs);
  }

  private one(url: string, tls: boolean): Promise<void> {
    return new Promise((res, rej) => {
      const t0 = performance.now();
      const opts = { agent: tls ? this.httpsAgent : this.httpAgent, timeout: this.timeoutMs, ...(tls ? { rejectUnauthorized: false } : {}) };
      const req = (tls ? httpsGet : httpGet)(`${url}/api/v3/ping`, opts, (res2) => {
        let body = '';
        res2.setEncoding('utf8');
        res2.on('data', (d: string) => (body += d));
        res2.on('end', () => {
          if (res2.statusCode === 200 && body === '{}') {
            this.latency.add(performance.now() - t0);
            res();
          } else rej(new Error(`${tls ? 'https' : 'http'} ping: ${res2.statusCode} ${body.slice(0, 200)}`));
        });
        res2.on('error', rej);
      });
      req.on('timeout', () => req.destroy(new Error(`${tls ? 'https' : 'http'} ping: no answer within ${this.timeoutMs} ms`)));
      req.on('error', rej);
    });
  }

  private async loop(intervalMs: number): Promise<void> {
    while (this.running) {
      const t0 = performance.now();
      for (const [url, tls] of [
        [this.httpUrl, false],
        [this.httpsUrl, true],
      ] as const) {
        try {
          await this.one(url, tls);
          this.ok++;
          const now = performance.now();
          this.longestGapMs = Math.max(this.longestGapMs, now - this.lastOk);
          this.lastOk = now;
        } catch (e) {
          this.failed++;
          this.firstError ??= errText(e);
        }
      }
      await sleep(Math.max(0, intervalMs - (performance.now() - t0)));
    }
  }

  async stop(): Promise<PingResult> {
    this.running = false;
    await this.done;
    this.longestGapMs = Math.max(this.longestGapMs, performance.now() - this.lastOk);
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
    return { ok: this.ok, failed: this.failed, firstError: this.firstError, latencyMs: this.latency.toJSON(), longestGapMs: this.longestGapMs };
  }
}

let pinger: Pinger | null = null;

// ------------------------------------------------------------------ churn

/** Runs `count` tasks, `concurrency` at a time. */
async function pool(count: number, concurrency: number, deadline: number, task: (i: number) => Promise<void>): Promise<{ ok: number; failed: number; firstError: string | null }> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      try {
        await task(i);
        ok++;
      } catch (e) {
        failed++;
        firstError ??= errText(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  // Tasks not started before the deadline count as failed.
  failed += count - next;
  if (count > next) firstError ??= `${count - next} not started before the deadline`;
  return { ok, failed, firstError };
}

/** ws churn: open, take the first message (market) or answer a ping (API), close three ways. */
async function churnWs(url: string, count: number, concurrency: number, timeoutSeconds: number): Promise<ChurnResult> {
  const t0 = performance.now();
  const r = await pool(count, concurrency, t0 + timeoutSeconds * 1000, async (i) => {
    const api = i % 2 === 1;
    const ws = await openWs(api ? `${url}/ws-api/v3` : `${url}/ws/btcusdt@depth@100ms`, 5000);
    ws.on('error', () => {});
    if (api) {
      // One request on the connection: the WS API `ping`.
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error('no WS API ping reply within 5 s')), 5000);
        ws.once('message', (d: Buffer) => {
          clearTimeout(timer);
          if (d.includes('"status":200')) res();
          else rej(new Error(`WS API ping: ${d.toString('utf8').slice(0, 200)}`));
        });
        ws.send(`{"id":${i},"method":"ping"}`);
      });
    }
    switch (i % 3) {
      case 0: {
        // Clean close handshake.
        const closed = new Promise<void>((res) => ws.once('close', () => res()));
        ws.close(1000);
        await Promise.race([closed, sleep(5000)]);
        ws.terminate();
        break;
      }
      case 1:
        ws.terminate(); // FIN without a close frame
        break;
      default: {
        const socket = (ws as unknown as { _socket?: Socket })._socket;
        if (socket !== undefined && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy(); // RST
        else ws.terminate();
      }
    }
  });
  return { kind: 'ws', ...r, seconds: (performance.now() - t0) / 1000, requests: 0 };
}

/** HTTP keep-alive churn: one raw connection per task, `requestsPerConnection` pings on it, then FIN. */
async function churnHttp(host: string, port: number, count: number, concurrency: number, perConn: number, timeoutSeconds: number): Promise<ChurnResult> {
  const t0 = performance.now();
  let requests = 0;
  const request = `GET /api/v3/ping HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: keep-alive\r\n\r\n`;
  const r = await pool(count, concurrency, t0 + timeoutSeconds * 1000, (i) => {
    return new Promise<void>((res, rej) => {
      const socket = connect(port, host);
      let got = '';
      let answered = 0;
      const timer = setTimeout(() => {
        socket.destroy();
        rej(new Error(`no ${perConn} answers within 5 s (got ${answered})`));
      }, 5000);
      socket.setEncoding('latin1');
      socket.on('error', (e) => {
        clearTimeout(timer);
        rej(e);
      });
      socket.on('connect', () => socket.write(request));
      socket.on('data', (d: string) => {
        got += d;
        // Each answer to ping ends with its `{}` body (Content-Length: 2).
        let end: number;
        while ((end = got.indexOf('\r\n\r\n{}')) >= 0) {
          if (!got.startsWith('HTTP/1.1 200')) {
            clearTimeout(timer);
            socket.destroy();
            return rej(new Error(`ping answered ${got.slice(0, 40)}`));
          }
          got = got.slice(end + 6);
          answered++;
          requests++;
          if (answered === perConn) {
            clearTimeout(timer);
            // Alternate a polite FIN and an RST.
            if (i % 2 === 0) socket.end();
            else socket.resetAndDestroy();
            return res();
          }
          socket.write(request);
        }
      });
    });
  });
  return { kind: 'http', ...r, seconds: (performance.now() - t0) / 1000, requests };
}

// ------------------------------------------------------------------ abuse

interface AbuseSpec {
  readonly name: string;
  readonly port: 'http' | 'https';
  /** Called once connected; returns a stop function for its timers. */
  readonly start: (socket: Socket, host: string, port: number) => (() => void) | void;
  /** The client itself resets the socket (the server must notice). */
  readonly selfReset?: boolean;
}

/** A TLS 1.2/1.3 ClientHello record header and the first bytes of its handshake: never completed. */
const HALF_CLIENT_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, ...Array.from({ length: 32 }, (_, i) => i)]);

const ABUSE: readonly AbuseSpec[] = [
  { name: 'http: connect, send nothing', port: 'http', start: () => {} },
  { name: 'http: half the headers, then silence', port: 'http', start: (s, h, p) => void s.write(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`) },
  {
    name: 'http: slowloris (a header byte every 500 ms)',
    port: 'http',
    start: (s, h, p) => {
      const head = `GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\nX-Slow: `;
      let i = 0;
      const t = setInterval(() => {
        if (!s.writable) return clearInterval(t);
        s.write(i < head.length ? head[i]! : 'a');
        i++;
      }, 500);
      return () => clearInterval(t);
    },
  },
  {
    name: 'http: POST body a byte every 500 ms',
    port: 'http',
    start: (s, h, p) => {
      s.write(`POST /api/v3/order HTTP/1.1\r\nHost: ${h}:${p}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n`);
      const t = setInterval(() => (s.writable ? s.write('a') : clearInterval(t)), 500);
      return () => clearInterval(t);
    },
  },
  {
    name: 'http: half the headers, then FIN (half-closed)',
    port: 'http',
    start: (s, h, p) => void s.end(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`),
  },
  {
    name: 'http: half the headers, then RST (no FIN)',
    port: 'http',
    selfReset: true,
    start: (s, h, p) => {
      s.write(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`);
      const t = setTimeout(() => s.resetAndDestroy(), 100);
      return () => clearTimeout(t);
    },
  },
  {
    // A peer that went away without FIN looks like this to the server: nothing comes back. The
    // socket is read (and discarded) so the client notices when the server lets go.
    name: 'ws: upgraded, never answers pings',
    port: 'http',
    start: (s, h, p) =>
      void s.write(
        `GET /ws/btcusdt@depth@100ms HTTP/1.1\r\nHost: ${h}:${p}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
  },
  { name: 'tls: connect, send nothing', port: 'https', start: () => {} },
  { name: 'tls: half a ClientHello, then silence', port: 'https', start: (s) => void s.write(HALF_CLIENT_HELLO) },
  {
    name: 'tls: half a ClientHello, then RST',
    port: 'https',
    selfReset: true,
    start: (s) => {
      s.write(HALF_CLIENT_HELLO);
      const t = setTimeout(() => s.resetAndDestroy(), 100);
      return () => clearTimeout(t);
    },
  },
];

async function abuse(host: string, httpPort: number, httpsPort: number, perCategory: number, boundSeconds: number): Promise<AbuseResult> {
  const t0 = performance.now();
  const deadline = t0 + boundSeconds * 1000;
  const all: Array<Promise<AbuseCategory>> = ABUSE.map(async (spec) => {
    const port = spec.port === 'http' ? httpPort : httpsPort;
    const freedAt: number[] = [];
    let reply: string | null = null;
    let connectErrors = 0;
    const sockets: Socket[] = [];
    const stops: Array<() => void> = [];
    await Promise.all(
      Array.from(
        { length: perCategory },
        () =>
          new Promise<void>((res) => {
            const s = connect({ port, host, allowHalfOpen: true });
            sockets.push(s);
            const opened = performance.now();
            let connected = false;
            s.on('error', () => {
              if (!connected) connectErrors++;
            });
            s.on('data', (d: Buffer) => {
              reply ??= d.toString('latin1').split('\r\n')[0]!.slice(0, 60) || `${d.length} bytes`;
            });
            // The server freed it: it closed (or reset) the connection; a self-reset counts at once.
            s.once('close', () => {
              if (connected) freedAt.push(performance.now() - opened);
            });
            s.once('end', () => s.destroy());
            s.once('connect', () => {
              connected = true;
              const stop = spec.start(s, host, port);
              if (stop) stops.push(stop);
              res();
            });
            setTimeout(res, 5000).unref();
          }),
      ),
    );
    // Wait until the server freed every one, or the bound.
    while (freedAt.length < sockets.length - connectErrors && performance.now() < deadline) await sleep(100);
    for (const stop of stops) stop();
    for (const s of sockets) s.destroy();
    const sorted = [...freedAt].sort((a, b) => a - b);
    return {
      name: spec.name,
      port: spec.port,
      count: sockets.length,
      freed: freedAt.length,
      freedMsMax: sorted.length ? sorted[sorted.length - 1]! : NaN,
      freedMsMedian: sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN,
      reply,
      connectErrors,
    };
  });
  const categories = await Promise.all(all);
  return { categories, seconds: (performance.now() - t0) / 1000 };
}

// ------------------------------------------------------------------ IPC

async function handle(job: Job): Promise<unknown> {
  switch (job.kind) {
    case 'md-open':
      return mdOpen(job.url, job.count);
    case 'md-status':
      return mdStatus();
    case 'window-start':
      windowDepth = new Hist();
      windowTrade = new Hist();
      windowStart = performance.now();
      windowCpu = process.cpuUsage();
      windowLoop?.disable();
      windowLoop = monitorEventLoopDelay({ resolution: 10 });
      windowLoop.enable();
      return null;
    case 'window-end': {
      const seconds = (performance.now() - windowStart) / 1000;
      const c = process.cpuUsage(windowCpu);
      const loop = windowLoop;
      loop?.disable();
      windowLoop = null;
      const loopDelayMs = loop === null ? { p50: NaN, p99: NaN, max: NaN } : { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
      const out: WindowResult = { depth: (windowDepth ?? new Hist()).toJSON(), trade: (windowTrade ?? new Hist()).toJSON(), seconds, cpu: (c.user + c.system) / 1e6 / seconds, loopDelayMs };
      windowDepth = windowTrade = null;
      return out;
    }
    case 'slow-md-open':
      await slowMdOpen(job.url);
      return null;
    case 'slow-md-close':
      slowMd?.terminate();
      slowMd = null;
      return null;
    case 'slow-api-open':
      await slowApiOpen(job.url, job.apiKey, job.apiSecret, job.intervalMs, job.depthLimit);
      return null;
    case 'slow-api-close':
      if (slowApi !== null) {
        clearInterval(slowApi.timer);
        slowApi.ws.terminate();
      }
      slowApi = null;
      return null;
    case 'trade-start':
      trader = await Trader.start(job.url, job.apiKey, job.apiSecret, job.tag, job.ratePerSec);
      return null;
    case 'trade-stop': {
      if (trader === null) throw new Error('no trader running');
      const r = await trader.stop(job.settleSeconds);
      trader = null;
      return r;
    }
    case 'ping-start':
      pinger = new Pinger(job.http, job.https, job.intervalMs, job.timeoutMs);
      return null;
    case 'ping-stop': {
      if (pinger === null) throw new Error('no pinger running');
      const r = await pinger.stop();
      pinger = null;
      return r;
    }
    case 'churn-ws':
      return churnWs(job.url, job.count, job.concurrency, job.timeoutSeconds);
    case 'churn-http':
      return churnHttp(job.host, job.port, job.count, job.concurrency, job.requestsPerConnection, job.timeoutSeconds);
    case 'abuse':
      return abuse(job.host, job.httpPort, job.httpsPort, job.perCategory, job.boundSeconds);
  }
}

if (process.send === undefined) {
  console.error('bench/soak-client.ts is forked by bench/soak.ts; run `npm run soak` instead');
  process.exit(2);
}
process.on('disconnect', () => process.exit(0));
process.on('message', (m: Job | { stop: true }) => {
  if ('stop' in m) {
    for (const c of md) c.ws.terminate();
    slowMd?.terminate();
    if (slowApi !== null) {
      clearInterval(slowApi.timer);
      slowApi.ws.terminate();
    }
    process.disconnect();
    return;
  }
  handle(m).then(
    (result) => send({ id: m.id, ok: true, result }),
    (e: unknown) => send({ id: m.id, ok: false, error: errText(e) }),
  );
});
send({ ready: true });
