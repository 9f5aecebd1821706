// The load scenarios of the REST benchmark: `bare` (GET / on a bare node:http hello-world in this
// process, the baseline), `order` (signed POST + DELETE /api/v3/order) and `depth` (GET depth
// limit=100) against one simulator, each driven by the load process (rest-client.ts) with
// CONNECTIONS keep-alive request loops. This process reads its own CPU and the machine's over
// each timed phase, so a phase that other work competed in is marked NOISY.

import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSimulator, type Simulator } from '../src/index.ts';
import type { ClientJob, ClientResult, LatencySummary } from './rest-client.ts';
import {
  CLIENT_FILE,
  CONNECTIONS,
  DEPTH_PATH,
  fmtUs,
  GENERATOR,
  log,
  NOISY_OTHER_CPU,
  ORDER_QUERY,
  PARTS,
  SECONDS,
  SYMBOL,
  WARMUP_SECONDS,
} from './rest-settings.ts';
import { formatRate, LOAD_SERVER, LoadProcess, NO_RATE_LIMITS } from './support.ts';

export interface MeasuredRun {
  readonly client: ClientResult;
  /** This (server) process's CPU over the client's timed phase, as a share of one core. */
  readonly serverCpu: number;
  /** CPU the rest of the machine (neither server nor client) used meanwhile, in cores (noise). */
  readonly otherCpu: number;
}

export interface RestResults {
  bareFirst?: MeasuredRun;
  bareLast?: MeasuredRun;
  order?: MeasuredRun;
  depth?: MeasuredRun;
  depthLevels?: { bids: number; asks: number };
}

async function measure(load: LoadProcess<ClientJob>, job: Omit<ClientJob, 'id'>): Promise<MeasuredRun> {
  const { result, serverCpu, machineBusyCores } = await load.runTimed<ClientResult>(job);
  return { client: result, serverCpu, otherCpu: Math.max(0, machineBusyCores - serverCpu - result.clientCpu) };
}

function startBare(): Promise<{ server: Server; base: string }> {
  const server = createServer({ keepAliveTimeout: 65_000 }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': 2 });
    res.end('{}');
  });
  return new Promise((res, rej) => {
    server.once('error', rej);
    server.listen({ host: '127.0.0.1', port: 0 }, () => res({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });
}

function closeBare(server: Server): Promise<void> {
  return new Promise((res) => {
    server.close(() => res());
    server.closeAllConnections();
  });
}

function benchConfig() {
  return {
    sim: {
      ...LOAD_SERVER,
      // 100 seeded levels a side, so depth?limit=100 answers 100 bids and 100 asks from the start.
      generator: { enabled: GENERATOR, seed_levels: 100 },
      limits: NO_RATE_LIMITS,
    },
  };
}

/** One signed order round trip and a depth request with fetch, to check the setup before timing. */
async function preflight(sim: Simulator): Promise<{ bids: number; asks: number }> {
  const { apiKey, apiSecret } = sim.credentials;
  const sign = (q: string) => `${q}&signature=${createHmac('sha256', apiSecret).update(q).digest('hex')}`;
  const headers = { 'X-MBX-APIKEY': apiKey };
  const placed = await fetch(`${sim.urls.http}/api/v3/order?${sign(`${ORDER_QUERY}&timestamp=${Date.now()}`)}`, { method: 'POST', headers });
  const placedBody = (await placed.json()) as { orderId?: number; status?: string };
  if (placed.status !== 200 || placedBody.status !== 'NEW') throw new Error(`preflight order: HTTP ${placed.status} ${JSON.stringify(placedBody)}`);
  const cancelled = await fetch(`${sim.urls.http}/api/v3/order?${sign(`symbol=${SYMBOL}&orderId=${placedBody.orderId}&timestamp=${Date.now()}`)}`, {
    method: 'DELETE',
    headers,
  });
  const cancelledBody = (await cancelled.json()) as { status?: string };
  if (cancelled.status !== 200 || cancelledBody.status !== 'CANCELED') throw new Error(`preflight cancel: HTTP ${cancelled.status} ${JSON.stringify(cancelledBody)}`);
  const depth = await fetch(`${sim.urls.http}${DEPTH_PATH}`);
  const depthBody = (await depth.json()) as { bids?: unknown[]; asks?: unknown[] };
  if (depth.status !== 200) throw new Error(`preflight depth: HTTP ${depth.status}`);
  return { bids: depthBody.bids?.length ?? 0, asks: depthBody.asks?.length ?? 0 };
}

/** Server CPU time per answered request: steadier than req/s when other work shares the cores. */
export function cpuPerRequestUs(r: MeasuredRun): number {
  return (r.serverCpu * r.client.seconds * 1e6) / r.client.requests;
}

function describe(name: string, r: MeasuredRun): string {
  const c = r.client;
  const lat = (label: string, s: LatencySummary | undefined) =>
    s === undefined ? '' : `  ${label} p50 ${fmtUs(s.p50Us)} p90 ${fmtUs(s.p90Us)} p99 ${fmtUs(s.p99Us)} max ${fmtUs(s.maxUs)}`;
  return (
    `[${name}] ${formatRate(c.reqPerSec)} req/s (${c.requests.toLocaleString('en-US')} in ${c.seconds.toFixed(2)} s), errors ${c.errors}` +
    `, cpu (100% = one core): server ${(r.serverCpu * 100).toFixed(0)}%, client ${(c.clientCpu * 100).toFixed(0)}%, ` +
    `other processes ${Number.isFinite(r.otherCpu) ? `${(r.otherCpu * 100).toFixed(0)}%` : '-'}${r.otherCpu > NOISY_OTHER_CPU ? ' (NOISY: other work competed for the cores)' : ''}` +
    `, sockets opened ${c.socketsOpened}; server CPU per request ${fmtUs(cpuPerRequestUs(r))}\n` +
    lat('all', c.all) +
    (c.place ? `\n${lat('POST', c.place)}\n${lat('DELETE', c.cancel)}` : '') +
    (c.firstError ? `\n  first error: ${c.firstError.slice(0, 300)}` : '')
  );
}

/** The parts bare, order and depth (those PARTS names), each printed as it ends. */
export async function benchRest(): Promise<RestResults> {
  const out: RestResults = {};
  const wantRest = PARTS.has('bare') || PARTS.has('order') || PARTS.has('depth');
  if (!wantRest) return out;
  const sim = await startSimulator({ config: benchConfig() });
  const bare = await startBare();
  let client: LoadProcess<ClientJob> | null = null;
  try {
    out.depthLevels = await preflight(sim);
    log(`simulator ${sim.urls.http} (generator ${GENERATOR ? 'on' : 'off'}; depth limit=100 answers ${out.depthLevels.bids} bids / ${out.depthLevels.asks} asks), bare node:http ${bare.base}`);
    client = await LoadProcess.start<ClientJob>(CLIENT_FILE);
    const common = { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS };
    const runBare = async (label: string) => {
      const r = await measure(client!, { ...common, scenario: 'bare', base: bare.base, path: '/' });
      log(describe(label, r));
      return r;
    };
    if (PARTS.has('bare')) out.bareFirst = await runBare('bare node:http, first');
    if (PARTS.has('order')) {
      out.order = await measure(client, { ...common, scenario: 'order', base: sim.urls.http, apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, orderQuery: ORDER_QUERY, symbol: SYMBOL });
      log(describe('signed order POST + DELETE', out.order));
    }
    if (PARTS.has('depth')) {
      out.depth = await measure(client, { ...common, scenario: 'depth', base: sim.urls.http, path: DEPTH_PATH });
      log(describe('depth limit=100', out.depth));
    }
    if (PARTS.has('bare') && (PARTS.has('order') || PARTS.has('depth'))) out.bareLast = await runBare('bare node:http, last');
  } finally {
    await client?.stop();
    await closeBare(bare.server);
    await sim.stop();
  }
  return out;
}
