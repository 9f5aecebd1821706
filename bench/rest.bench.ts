// REST benchmark: keep-alive HTTP on loopback, load from a separate process (bench/rest-client.ts,
// forked), `connections` concurrent request loops per scenario, a warm-up phase then the timed
// phase. This process is the server: it runs one simulator and, beside it, a bare node:http
// hello-world (`{}`) that the same client measures in the same run, so the REST figures come as
// ratios to what node:http itself does on this machine.
//
//   bare   GET / on the bare server, measured first and last (baseline = mean of the two)
//   order  HMAC-signed POST /api/v3/order (LIMIT BUY 0.001 BTCUSDT @ 50000, rests) then signed
//          DELETE /api/v3/order of its orderId: req/s counts both, p50/p99 per request type
//   depth  GET /api/v3/depth?symbol=BTCUSDT&limit=100 (generator on, 100 seeded levels a side)
//   startup  startSimulator({ port: 0, tls_port: 0 }) until both listeners listen, then stop(),
//            sequentially, after a few untimed warm-up starts (same process, before the load)
//   rss    the standalone server as `npm start` runs it (node dist/main.mjs --port 0
//          --tls-port 0 --quiet: an esbuild bundle under plain node) idle for a while after its
//          startup lines, VmRSS from /proc/<pid>/status, against an empty node process; and, for
//          comparison, the same server from source under tsx against an empty node+tsx process
//
// Client and server share the machine's cores with whatever else runs. Each timed phase reports
// the CPU of the server, of the client and of every other process (from /proc/stat); a phase in
// which other processes used more than 15% of a core is marked NOISY. It also reports the server
// CPU per request, which moves far less than req/s when the machine is busy.
//
// Targets (from the issue): signed order >= 0.5x bare, depth >= 0.7x bare, startup p50 <= 5 ms,
// idle RSS <= 70 MiB. It only prints (and writes bench/results/rest.json): it never fails on a
// missed target.
//
//   npx tsx bench/rest.bench.ts           npm run bench:rest
//   env:   BENCH_SECONDS=10  BENCH_WARMUP_SECONDS=1  BENCH_CONNECTIONS=10  BENCH_STARTS=50
//          BENCH_STARTUP_WARMUP=5  BENCH_IDLE_SECONDS=2  BENCH_GENERATOR=1 (0: generator off)
//   flags: --only=bare,order,depth,startup,rss   --no-json
//   profile the server side:
//          node --cpu-prof --cpu-prof-dir=.tmp/prof-rest --import tsx bench/rest.bench.ts --only=bare,order --no-json
//          npx tsx bench/profile-summary.ts .tmp/prof-rest
//          (the client is forked without --cpu-prof, so the largest profile is the server's)

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startSimulator, type Simulator } from '../src/index.ts';
import type { ClientJob, ClientResult, LatencySummary } from './rest-client.ts';
import { runInfo, flag, envNumber, forkReady, percentile, SERVER_ENV, SERVER_NODE_FLAGS, table } from './support.ts';

const THIS_FILE = fileURLToPath(import.meta.url);
const BENCH_DIR = dirname(THIS_FILE);
const ROOT = resolve(BENCH_DIR, '..');
const CLIENT_FILE = join(BENCH_DIR, 'rest-client.ts');
const RESULTS_FILE = join(BENCH_DIR, 'results', 'rest.json');

// ------------------------------------------------------------------ options


const SECONDS = envNumber('BENCH_SECONDS', 10);
const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 1);
const CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_CONNECTIONS', 10)));
const STARTS = Math.max(1, Math.round(envNumber('BENCH_STARTS', 50)));
const STARTUP_WARMUP = Math.round(envNumber('BENCH_STARTUP_WARMUP', 5));
const IDLE_SECONDS = envNumber('BENCH_IDLE_SECONDS', 2);
const GENERATOR = envNumber('BENCH_GENERATOR', 1) !== 0;
const ALL_PARTS = ['bare', 'order', 'depth', 'startup', 'rss'] as const;
type Part = (typeof ALL_PARTS)[number];
const onlyFlag = flag('only');
const PARTS = new Set<Part>(onlyFlag ? (onlyFlag.split(',').filter((p) => (ALL_PARTS as readonly string[]).includes(p)) as Part[]) : ALL_PARTS);
const WRITE_JSON = flag('no-json') === undefined;

/** Large enough never to refuse anything during the bench (validation: a safe positive integer). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;
const SYMBOL = 'BTCUSDT';
const ORDER_QUERY = `symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000`;
const DEPTH_PATH = `/api/v3/depth?symbol=${SYMBOL}&limit=100`;
const MiB = 1024 * 1024;
/** Other processes using more than this (in cores) during a timed phase make its figures suspect. */
const NOISY_OTHER_CPU = 0.15;

const log = (msg: string) => console.log(msg);

// ------------------------------------------------------------------ helpers

function fmtRate(x: number): string {
  return Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-';
}

function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return '-';
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`;
}

const yesNo = (b: boolean) => (b ? 'yes' : 'NO');

// ------------------------------------------------------------------ the client process

interface ClientMessage {
  ready?: true;
  measuring?: number;
  ok?: boolean;
  id?: number;
  result?: ClientResult;
  error?: string;
}

interface MeasuredRun {
  readonly client: ClientResult;
  /** This (server) process's CPU over the client's timed phase, as a share of one core. */
  readonly serverCpu: number;
  /** CPU the rest of the machine (neither server nor client) used meanwhile, in cores (noise). */
  readonly otherCpu: number;
}

/** Busy and total jiffies of all cores (/proc/stat), or null off Linux. */
function machineJiffies(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0); // user..steal, without guest (counted in user)
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

class Client {
  private nextId = 1;
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<Client> {
    return new Client(await forkReady(CLIENT_FILE));
  }

  run(job: Omit<ClientJob, 'id'>): Promise<MeasuredRun> {
    const id = this.nextId++;
    return new Promise((res, rej) => {
      let cpu0: NodeJS.CpuUsage | null = null;
      let machine0: ReturnType<typeof machineJiffies> = null;
      let t0 = 0;
      const onMessage = (m: ClientMessage) => {
        if (m.measuring === id) {
          cpu0 = process.cpuUsage();
          machine0 = machineJiffies();
          t0 = performance.now();
          return;
        }
        if (m.ok === undefined) return;
        const seconds = (performance.now() - t0) / 1000;
        const cpu = cpu0 === null ? null : process.cpuUsage(cpu0);
        const machine1 = machineJiffies();
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        if (!m.ok || m.result === undefined) return rej(new Error(`client: ${m.error ?? 'no result'}`));
        const serverCpu = cpu === null ? NaN : (cpu.user + cpu.system) / 1e6 / seconds;
        // Machine busy time in cores: busy share of all jiffies times the core count.
        const busyCores =
          machine0 === null || machine1 === null ? NaN : ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * cpus().length;
        res({ client: m.result, serverCpu, otherCpu: Math.max(0, busyCores - serverCpu - m.result.clientCpu) });
      };
      const onExit = (code: number | null) => rej(new Error(`the client process exited (${code}) during a run`));
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({ ...job, id } satisfies ClientJob);
    });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((res) => this.child.once('exit', () => res()));
    this.child.send({ stop: true });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
}

// ------------------------------------------------------------------ servers under test

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
      bind: '127.0.0.1',
      port: 0,
      tls_port: 0,
      stats_interval_ms: 0,
      // 100 seeded levels a side, so depth?limit=100 answers 100 bids and 100 asks from the start.
      generator: { enabled: GENERATOR, seed_levels: 100 },
      limits: { weight_per_minute: NO_LIMIT, orders_per_10s: NO_LIMIT, orders_per_day: NO_LIMIT },
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

// ------------------------------------------------------------------ startup

interface StartupResult {
  readonly starts: number;
  readonly warmup: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly minMs: number;
  readonly maxMs: number;
  readonly meanMs: number;
  /** CPU other processes used meanwhile, in cores (noise). */
  readonly otherCpu: number;
}

async function benchStartup(): Promise<StartupResult> {
  const options = { config: { sim: { bind: '127.0.0.1', port: 0, tls_port: 0 } } };
  for (let i = 0; i < STARTUP_WARMUP; i++) await (await startSimulator(options)).stop();
  const times: number[] = [];
  const machine0 = machineJiffies();
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    const sim = await startSimulator(options);
    times.push(performance.now() - t0);
    if (sim.ports.http === 0 || sim.ports.https === 0) throw new Error('a listener did not report its port');
    await sim.stop();
  }
  const cpu = process.cpuUsage(cpu0);
  const machine1 = machineJiffies();
  const ownCores = (cpu.user + cpu.system) / 1e3 / (performance.now() - wall0);
  const busyCores =
    machine0 === null || machine1 === null ? NaN : ((machine1.busy - machine0.busy) / (machine1.total - machine0.total)) * cpus().length;
  const sorted = [...times].sort((a, b) => a - b);
  return {
    otherCpu: Math.max(0, busyCores - ownCores),
    starts: STARTS,
    warmup: STARTUP_WARMUP,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    minMs: sorted[0]!,
    maxMs: sorted[sorted.length - 1]!,
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
  };
}

// ------------------------------------------------------------------ idle RSS

interface RssFigure {
  /** The node process itself. */
  readonly rssBytes: number;
  readonly hwmBytes: number;
  /** The node process plus every process it keeps alive (what the user pays for). */
  readonly treeRssBytes: number;
  readonly children: { pid: number; cmd: string; rss: number }[];
  readonly command: string;
  /** An empty process started the same way (same loader or none), for comparison. */
  readonly baselineRssBytes: number;
  readonly baselineCommand: string;
}

interface RssResult {
  readonly idleSeconds: number;
  /** What `npm start` runs (dist/main.mjs, the esbuild bundle, under plain node); the target applies here. */
  readonly server: RssFigure;
  /** The same server from source under tsx's loader (`npx tsx src/main.ts`), for comparison. */
  readonly tsx: RssFigure;
}

function procStatus(pid: number): { rss: number; hwm: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    if (m === null) throw new Error(`/proc/${pid}/status has no ${key}`);
    return Number(m[1]) * 1024;
  };
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Every descendant of `pid` (from /proc/<pid>/task/<tid>/children), with its command and VmRSS. */
function descendants(pid: number): { pid: number; cmd: string; rss: number }[] {
  const out: { pid: number; cmd: string; rss: number }[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let kids: string[] = [];
      try {
        kids = readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
      } catch {
        continue;
      }
      for (const kid of kids.map(Number)) {
        try {
          const cmd = readFileSync(`/proc/${kid}/cmdline`, 'utf8').split('\0').join(' ').trim();
          out.push({ pid: kid, cmd, rss: procStatus(kid).rss });
        } catch {
          continue; // it exited meanwhile
        }
        walk(kid);
      }
    }
  };
  walk(pid);
  return out;
}

interface IdleFigure {
  readonly rss: number;
  readonly hwm: number;
  /** Processes the measured one keeps running (e.g. a build tool's service process). */
  readonly children: { pid: number; cmd: string; rss: number }[];
}

/** Spawns `args` under node, waits for `readyLine` on stdout, idles, reads /proc, SIGTERMs it. */
async function idleRss(args: string[], readyLine: string): Promise<IdleFigure> {
  // Node flags and environment as `npm start` gives the server (SERVER_NODE_FLAGS), for the
  // server and its empty-process baseline alike.
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...SERVER_ENV } });
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  try {
    await new Promise<void>((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no "${readyLine}" within 30 s; stdout: ${out} stderr: ${err}`)), 30_000);
      child.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes(readyLine)) {
          clearTimeout(timer);
          res();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        rej(new Error(`exited (${code}) before "${readyLine}"; stderr: ${err}`));
      });
    });
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    return { ...procStatus(child.pid!), children: descendants(child.pid!) };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  }
}

const SERVER_FLAGS = ['--port', '0', '--tls-port', '0', '--bind', '127.0.0.1', '--quiet'];
const IDLE_SCRIPT = "console.log('idle ready'); setInterval(() => {}, 1 << 30)";
const READY_LINE = 'net backend:';

async function rssFigure(args: string[], baselineArgs: string[]): Promise<RssFigure> {
  const server = await idleRss(args, READY_LINE);
  const empty = await idleRss(baselineArgs, 'idle ready');
  return {
    rssBytes: server.rss,
    hwmBytes: server.hwm,
    treeRssBytes: server.rss + server.children.reduce((a, c) => a + c.rss, 0),
    children: server.children,
    command: `node ${[...SERVER_NODE_FLAGS, ...args].join(' ')}`,
    baselineRssBytes: empty.rss,
    baselineCommand: `node ${baselineArgs.map((a) => (a === IDLE_SCRIPT ? "'<idle script>'" : a)).join(' ')}`,
  };
}

async function benchRss(): Promise<RssResult> {
  // `npm start` = node scripts/build-main.mjs (bundles src/main.ts into dist/), then node dist/main.mjs.
  const build = spawnSync(process.execPath, ['scripts/build-main.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build-main.mjs failed');
  const server = await rssFigure(['dist/main.mjs', ...SERVER_FLAGS], ['-e', IDLE_SCRIPT]);
  const tsx = await rssFigure(['--import', 'tsx', 'src/main.ts', ...SERVER_FLAGS], ['--import', 'tsx', '-e', IDLE_SCRIPT]);
  return { idleSeconds: IDLE_SECONDS, server, tsx };
}

// ------------------------------------------------------------------ main

interface RestResults {
  bareFirst?: MeasuredRun;
  bareLast?: MeasuredRun;
  order?: MeasuredRun;
  depth?: MeasuredRun;
  depthLevels?: { bids: number; asks: number };
}

/** Server CPU time per answered request: steadier than req/s when other work shares the cores. */
function cpuPerRequestUs(r: MeasuredRun): number {
  return (r.serverCpu * r.client.seconds * 1e6) / r.client.requests;
}

function describe(name: string, r: MeasuredRun): string {
  const c = r.client;
  const lat = (label: string, s: LatencySummary | undefined) =>
    s === undefined ? '' : `  ${label} p50 ${fmtUs(s.p50Us)} p90 ${fmtUs(s.p90Us)} p99 ${fmtUs(s.p99Us)} max ${fmtUs(s.maxUs)}`;
  return (
    `[${name}] ${fmtRate(c.reqPerSec)} req/s (${c.requests.toLocaleString('en-US')} in ${c.seconds.toFixed(2)} s), errors ${c.errors}` +
    `, cpu (100% = one core): server ${(r.serverCpu * 100).toFixed(0)}%, client ${(c.clientCpu * 100).toFixed(0)}%, ` +
    `other processes ${Number.isFinite(r.otherCpu) ? `${(r.otherCpu * 100).toFixed(0)}%` : '-'}${r.otherCpu > NOISY_OTHER_CPU ? ' (NOISY: other work competed for the cores)' : ''}` +
    `, sockets opened ${c.socketsOpened}; server CPU per request ${fmtUs(cpuPerRequestUs(r))}\n` +
    lat('all', c.all) +
    (c.place ? `\n${lat('POST', c.place)}\n${lat('DELETE', c.cancel)}` : '') +
    (c.firstError ? `\n  first error: ${c.firstError.slice(0, 300)}` : '')
  );
}

async function benchRest(): Promise<RestResults> {
  const out: RestResults = {};
  const wantRest = PARTS.has('bare') || PARTS.has('order') || PARTS.has('depth');
  if (!wantRest) return out;
  const sim = await startSimulator({ config: benchConfig() });
  const bare = await startBare();
  let client: Client | null = null;
  try {
    out.depthLevels = await preflight(sim);
    log(`simulator ${sim.urls.http} (generator ${GENERATOR ? 'on' : 'off'}; depth limit=100 answers ${out.depthLevels.bids} bids / ${out.depthLevels.asks} asks), bare node:http ${bare.base}`);
    client = await Client.start();
    const common = { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS };
    const runBare = async (label: string) => {
      const r = await client!.run({ ...common, scenario: 'bare', base: bare.base, path: '/' });
      log(describe(label, r));
      return r;
    };
    if (PARTS.has('bare')) out.bareFirst = await runBare('bare node:http, first');
    if (PARTS.has('order')) {
      out.order = await client.run({ ...common, scenario: 'order', base: sim.urls.http, apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, orderQuery: ORDER_QUERY, symbol: SYMBOL });
      log(describe('signed order POST + DELETE', out.order));
    }
    if (PARTS.has('depth')) {
      out.depth = await client.run({ ...common, scenario: 'depth', base: sim.urls.http, path: DEPTH_PATH });
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

async function main(): Promise<void> {
  const wallStart = performance.now();
  log(
    `rest bench — node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}; ` +
      `${CONNECTIONS} keep-alive connections from a separate process, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario; parts: ${[...PARTS].join(', ')}`,
  );
  // Client and server share the machine's cores with anything else running: say how busy it is.
  const loadAtStart = loadavg();
  log(`load average at start: ${loadAtStart.map((x) => x.toFixed(2)).join(' ')} (1/5/15 min)`);

  let startup: StartupResult | null = null;
  if (PARTS.has('startup')) {
    startup = await benchStartup();
    log(
      `[startup] ${startup.starts} sequential startSimulator() until both listeners listen, after ${startup.warmup} untimed warm-up starts: ` +
        `p50 ${startup.p50Ms.toFixed(2)} ms, p99 ${startup.p99Ms.toFixed(2)} ms, min ${startup.minMs.toFixed(2)} ms, max ${startup.maxMs.toFixed(2)} ms; ` +
        `other processes ${Number.isFinite(startup.otherCpu) ? `${(startup.otherCpu * 100).toFixed(0)}% of a core` : '-'}` +
        `${startup.otherCpu > NOISY_OTHER_CPU ? ' (NOISY: other work competed for the cores)' : ''}`,
    );
  }

  const rest = await benchRest();

  let rss: RssResult | null = null;
  if (PARTS.has('rss')) {
    rss = await benchRss();
    for (const [label, f] of [
      ['npm start', rss.server],
      ['from source under tsx', rss.tsx],
    ] as const) {
      log(
        `[rss] ${label}: ${f.command}: VmRSS ${(f.rssBytes / MiB).toFixed(1)} MiB after ${rss.idleSeconds} s idle (peak VmHWM ${(f.hwmBytes / MiB).toFixed(1)} MiB); ` +
          `empty process (${f.baselineCommand}) ${(f.baselineRssBytes / MiB).toFixed(1)} MiB`,
      );
      for (const c of f.children) log(`      it keeps a child process alive: pid ${c.pid} ${c.cmd.slice(0, 120)}, VmRSS ${(c.rss / MiB).toFixed(1)} MiB`);
    }
  }

  // ---------------------------------------------------------------- summary
  const bareRuns = [rest.bareFirst, rest.bareLast].filter((r): r is MeasuredRun => r !== undefined);
  const bareRate = bareRuns.length === 0 ? NaN : bareRuns.reduce((a, r) => a + r.client.reqPerSec, 0) / bareRuns.length;
  const bareP50 = bareRuns.length === 0 ? NaN : bareRuns.reduce((a, r) => a + r.client.all.p50Us, 0) / bareRuns.length;
  const bareP99 = bareRuns.length === 0 ? NaN : bareRuns.reduce((a, r) => a + r.client.all.p99Us, 0) / bareRuns.length;
  const bareLabel = `bare node:http${bareRuns.length === 2 ? ' (mean of first and last)' : ''}`;
  const rows: string[][] = [['metric', 'value', 'baseline', 'ratio', 'target', 'met']];
  const targets: Record<string, { value: number; target: string; met: boolean }> = {};
  const ratioText = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
  if (bareRuns.length > 0) {
    rows.push([`${bareLabel} req/s`, fmtRate(bareRate), '', '', '', '']);
    rows.push([`${bareLabel} p50 / p99`, `${fmtUs(bareP50)} / ${fmtUs(bareP99)}`, '', '', '', '']);
  }
  if (rest.order) {
    const c = rest.order.client;
    const ratio = c.reqPerSec / bareRate;
    const met = ratio >= 0.5;
    if (Number.isFinite(ratio)) targets.signedOrder = { value: ratio, target: '>= 0.5x bare', met };
    rows.push(['signed order POST+DELETE req/s', fmtRate(c.reqPerSec), fmtRate(bareRate), ratioText(ratio), '>= 0.5x bare', Number.isFinite(ratio) ? yesNo(met) : '-']);
    rows.push(['  POST /api/v3/order p50 / p99', `${fmtUs(c.place!.p50Us)} / ${fmtUs(c.place!.p99Us)}`, `${fmtUs(bareP50)} / ${fmtUs(bareP99)}`, '', '', '']);
    rows.push(['  DELETE /api/v3/order p50 / p99', `${fmtUs(c.cancel!.p50Us)} / ${fmtUs(c.cancel!.p99Us)}`, `${fmtUs(bareP50)} / ${fmtUs(bareP99)}`, '', '', '']);
  }
  if (rest.depth) {
    const c = rest.depth.client;
    const ratio = c.reqPerSec / bareRate;
    const met = ratio >= 0.7;
    if (Number.isFinite(ratio)) targets.depth = { value: ratio, target: '>= 0.7x bare', met };
    rows.push(['depth limit=100 req/s', fmtRate(c.reqPerSec), fmtRate(bareRate), ratioText(ratio), '>= 0.7x bare', Number.isFinite(ratio) ? yesNo(met) : '-']);
    rows.push(['  depth p50 / p99', `${fmtUs(c.all.p50Us)} / ${fmtUs(c.all.p99Us)}`, `${fmtUs(bareP50)} / ${fmtUs(bareP99)}`, '', '', '']);
  }
  if (startup) {
    const met = startup.p50Ms <= 5;
    targets.startup = { value: startup.p50Ms, target: '<= 5 ms', met };
    rows.push([`startSimulator p50 (${startup.starts} starts)`, `${startup.p50Ms.toFixed(2)} ms`, '', '', '<= 5 ms', yesNo(met)]);
    rows.push([`startSimulator p99`, `${startup.p99Ms.toFixed(2)} ms`, '', '', '', '']);
  }
  if (rss) {
    // The target is judged on everything `npm start` keeps running: the server and its children.
    const mib = rss.server.treeRssBytes / MiB;
    const met = mib <= 70;
    targets.idleRss = { value: mib, target: '<= 70 MiB', met };
    const withKids = rss.server.children.length > 0;
    if (withKids) {
      rows.push([
        `idle RSS, npm start + ${rss.server.children.length} child process(es)`,
        `${mib.toFixed(1)} MiB`,
        '',
        '',
        '<= 70 MiB',
        yesNo(met),
      ]);
    }
    rows.push([
      withKids ? '  of which the server process (npm start)' : 'idle RSS, standalone server (npm start)',
      `${(rss.server.rssBytes / MiB).toFixed(1)} MiB`,
      `${(rss.server.baselineRssBytes / MiB).toFixed(1)} MiB (empty node)`,
      ratioText(rss.server.rssBytes / rss.server.baselineRssBytes),
      withKids ? '' : '<= 70 MiB',
      withKids ? '' : yesNo(met),
    ]);
    rows.push([
      '  same server under tsx (info)',
      `${(rss.tsx.rssBytes / MiB).toFixed(1)} MiB`,
      `${(rss.tsx.baselineRssBytes / MiB).toFixed(1)} MiB (empty node+tsx)`,
      ratioText(rss.tsx.rssBytes / rss.tsx.baselineRssBytes),
      '',
      '',
    ]);
  }
  const wallSec = (performance.now() - wallStart) / 1000;
  log(`\n${table(rows)}`);
  const errors = [rest.bareFirst, rest.order, rest.depth, rest.bareLast].reduce((a, r) => a + (r?.client.errors ?? 0), 0);
  if (errors > 0) log(`WARNING: ${errors} requests failed (see "first error" above); their latencies are included`);
  const noisy =
    [rest.bareFirst, rest.order, rest.depth, rest.bareLast].filter((r) => r !== undefined && r.otherCpu > NOISY_OTHER_CPU).length +
    (startup !== null && startup.otherCpu > NOISY_OTHER_CPU ? 1 : 0);
  if (noisy > 0) log(`WARNING: other processes used over ${NOISY_OTHER_CPU * 100}% of a core during ${noisy} timed phase(s): their figures are unreliable, run again on a quiet machine`);
  log(`total wall time ${wallSec.toFixed(1)} s`);

  if (WRITE_JSON) {
    mkdirSync(dirname(RESULTS_FILE), { recursive: true });
    const result = {
      ...runInfo('rest'),
      loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
      settings: { seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, generator: GENERATOR, parts: [...PARTS], orderQuery: ORDER_QUERY, depthPath: DEPTH_PATH },
      bare: {
        reqPerSec: bareRate,
        p50Us: bareP50,
        p99Us: bareP99,
        first: rest.bareFirst && { ...rest.bareFirst, serverCpuPerRequestUs: cpuPerRequestUs(rest.bareFirst) },
        last: rest.bareLast && { ...rest.bareLast, serverCpuPerRequestUs: cpuPerRequestUs(rest.bareLast) },
      },
      order: rest.order && { ...rest.order, ratioToBare: rest.order.client.reqPerSec / bareRate, serverCpuPerRequestUs: cpuPerRequestUs(rest.order) },
      depth: rest.depth && {
        ...rest.depth,
        ratioToBare: rest.depth.client.reqPerSec / bareRate,
        serverCpuPerRequestUs: cpuPerRequestUs(rest.depth),
        levels: rest.depthLevels,
      },
      startup,
      idleRss: rss && { ...rss, rssMiB: rss.server.rssBytes / MiB, treeRssMiB: rss.server.treeRssBytes / MiB, tsxRssMiB: rss.tsx.rssBytes / MiB },
      targets,
      failedRequests: errors,
      noisyPhases: noisy,
      wallSeconds: wallSec,
    };
    writeFileSync(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
    log(`results written to ${RESULTS_FILE}`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
