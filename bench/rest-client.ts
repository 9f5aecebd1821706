// Load generator of the REST benchmark (bench/rest.bench.ts forks it, so the client never
// shares a process or an event loop with the server under test). It takes one job at a time
// over IPC, runs `connections` concurrent request loops over one keep-alive node:http Agent
// (maxSockets = connections): a warm-up phase whose figures are dropped, then the measured
// phase; each loop stops starting requests at the deadline and the phase ends when the last
// one in flight is answered. Latency = process.hrtime.bigint() from http.request() to the
// response's last byte. The result goes back over IPC.
//
// Scenarios:
//   bare   GET <path>                 (the hello-world baseline)
//   depth  GET <path>                 (/api/v3/depth?symbol=BTCUSDT&limit=100)
//   order  POST /api/v3/order then DELETE /api/v3/order of the returned orderId, both
//          HMAC-SHA256 signed (query string, X-MBX-APIKEY), so every loop holds at most one
//          open order and the balance lock is released each round.

import { createHmac } from 'node:crypto';
import { Agent, request, type IncomingMessage } from 'node:http';
import { cpuShare, reportMeasuring, serveJobs } from './load-common.ts';

export interface ClientJob {
  readonly id: number;
  readonly scenario: 'bare' | 'depth' | 'order';
  /** http://host:port */
  readonly base: string;
  /** bare/depth: the GET path with its query. */
  readonly path?: string;
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly apiKey?: string;
  readonly apiSecret?: string;
  /** order: the order's fixed parameters (before timestamp and signature). */
  readonly orderQuery?: string;
  readonly symbol?: string;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50Us: number;
  readonly p90Us: number;
  readonly p99Us: number;
  readonly maxUs: number;
  readonly meanUs: number;
}

export interface ClientResult {
  readonly id: number;
  readonly scenario: ClientJob['scenario'];
  readonly seconds: number;
  readonly requests: number;
  readonly reqPerSec: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly bytesReceived: number;
  /** Every request of the phase. */
  readonly all: LatencySummary;
  /** order: POST and DELETE separately. */
  readonly place?: LatencySummary;
  readonly cancel?: LatencySummary;
  /** The client process's CPU over the measured phase, as a share of one core. */
  readonly clientCpu: number;
  /** Distinct sockets the agent opened over the whole job (warm-up included). */
  readonly socketsOpened: number;
}

interface Reply {
  readonly status: number;
  readonly body: string | null;
  readonly bytes: number;
}

class Recorder {
  private buf = new Float64Array(1 << 16);
  length = 0;
  push(us: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = us;
  }
  summary(): LatencySummary {
    const s = this.buf.slice(0, this.length).sort();
    const n = s.length;
    const at = (p: number) => (n === 0 ? NaN : s[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))]!);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += s[i]!;
    return { count: n, p50Us: at(0.5), p90Us: at(0.9), p99Us: at(0.99), maxUs: n === 0 ? NaN : s[n - 1]!, meanUs: n === 0 ? NaN : sum / n };
  }
}

function send(
  agent: Agent,
  url: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  keepBody: boolean,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, method, path, headers }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody || res.statusCode !== 200) chunks.push(chunk);
      });
      res.on('end', () => {
        const body = chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body, bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function runJob(job: ClientJob): Promise<ClientResult> {
  const url = new URL(job.base);
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections, maxFreeSockets: job.connections });
  // Count the sockets the agent opens (keep-alive works when this stays at `connections`).
  let socketsOpened = 0;
  const create = agent.createConnection.bind(agent) as (...a: unknown[]) => unknown;
  (agent as unknown as { createConnection: (...a: unknown[]) => unknown }).createConnection = (...a: unknown[]) => {
    socketsOpened++;
    return create(...a);
  };

  const apiHeaders: Record<string, string> = job.apiKey === undefined ? {} : { 'X-MBX-APIKEY': job.apiKey };
  const sign = (query: string) => `${query}&signature=${createHmac('sha256', job.apiSecret ?? '').update(query).digest('hex')}`;

  let all = new Recorder();
  let place = new Recorder();
  let cancel = new Recorder();
  let errors = 0;
  let firstError: string | null = null;
  let bytesReceived = 0;
  const noteError = (what: string, reply: Reply | null, error?: unknown) => {
    errors++;
    firstError ??= `${what}: ${reply ? `HTTP ${reply.status} ${reply.body ?? ''}` : String(error)}`;
  };

  const timed = async (rec: Recorder | null, method: string, path: string, headers: Record<string, string>, keepBody: boolean): Promise<Reply | null> => {
    const t0 = process.hrtime.bigint();
    let reply: Reply;
    try {
      reply = await send(agent, url, method, path, headers, keepBody);
    } catch (error) {
      noteError(`${method} ${path.split('?')[0]}`, null, error);
      return null;
    }
    const us = Number(process.hrtime.bigint() - t0) / 1e3;
    all.push(us);
    rec?.push(us);
    bytesReceived += reply.bytes;
    if (reply.status !== 200) {
      noteError(`${method} ${path.split('?')[0]}`, reply);
      return null;
    }
    return reply;
  };

  const oneRound = async (): Promise<void> => {
    if (job.scenario !== 'order') {
      await timed(null, 'GET', job.path!, {}, false);
      return;
    }
    const placed = await timed(place, 'POST', `/api/v3/order?${sign(`${job.orderQuery}&timestamp=${Date.now()}`)}`, apiHeaders, true);
    if (placed === null) return;
    const orderId = (JSON.parse(placed.body!) as { orderId: number }).orderId;
    await timed(cancel, 'DELETE', `/api/v3/order?${sign(`symbol=${job.symbol}&orderId=${orderId}&timestamp=${Date.now()}`)}`, apiHeaders, false);
  };

  const phase = async (seconds: number): Promise<number> => {
    const start = performance.now();
    const deadline = start + seconds * 1000;
    const loop = async () => {
      while (performance.now() < deadline) await oneRound();
    };
    await Promise.all(Array.from({ length: job.connections }, loop));
    return (performance.now() - start) / 1000;
  };

  if (job.warmupSeconds > 0) await phase(job.warmupSeconds);
  all = new Recorder();
  place = new Recorder();
  cancel = new Recorder();
  errors = 0;
  firstError = null;
  bytesReceived = 0;
  reportMeasuring(job.id);
  const cpu0 = process.cpuUsage();
  const seconds = await phase(job.seconds);
  agent.destroy();
  const requests = all.length;
  return {
    id: job.id,
    scenario: job.scenario,
    seconds,
    requests,
    reqPerSec: requests / seconds,
    errors,
    firstError,
    bytesReceived,
    all: all.summary(),
    ...(job.scenario === 'order' ? { place: place.summary(), cancel: cancel.summary() } : {}),
    clientCpu: cpuShare(cpu0, seconds),
    socketsOpened,
  };
}

serveJobs('bench/rest-client.ts', 'bench/rest.bench.ts', runJob);
