// Soak load: the WS API trader (places and cancels at a steady rate and checks every order's
// reports arrive in order) and the ping prober (REST pings over http and https). Part of
// bench/soak/client.ts.

import { Agent as HttpAgent, get as httpGet } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { errText, openWs, signedFrame, sleep } from '../load-common.ts';
import { call } from './client-md.ts';
import { Hist, type PingResult, type TradeResult } from './protocol.ts';

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

export class Trader {
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

export class Pinger {
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
