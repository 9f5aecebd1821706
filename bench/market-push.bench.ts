// Issue 19's push figure: 1000 subscribers of `btcusdt@kline_1m` + `btcusdt@ticker` on one
// combined connection each (`/stream?streams=btcusdt@kline_1m/btcusdt@ticker`); the server's CPU
// time per push, against a bare `ws` WebSocketServer broadcasting the very same bytes to 1000
// clients of its own, in the same process and the same run (target: spot-sim <= 1.1x bare).
//
// - The simulator runs in this process on a manual clock (`advanceTime`), the generator on, so
//   trades move the candle and the ticker between pushes. The pushes fall on whole seconds
//   (tickers every 1 s, klines every 2 s, plus the closed candle after a minute boundary). Each
//   second is `advanceTime(999)` (the generator's steps; no push is due) and then, timed,
//   `advanceTime(1)`: the push instant (and the generator step of that instant).
// - A push's time is this process's CPU time (`process.cpuUsage`, user + system) from just before
//   the push to the end of the tick that wrote it (the peers write their frames in a
//   `process.nextTick`, ws-peer.ts): a `setImmediate` after the push.
// - The bare server then sends the frames the simulator just pushed (recorded from its stream
//   fan-out, `MarketStreams.send`: the same `{"stream":..,"data":..}` text), each made a Buffer
//   once and handed to every client with `ws.send(buffer, { binary: false })`, the usual `ws`
//   broadcast, timed the same way. (The recording, one string per stream and push, is inside the
//   simulator's time: a microsecond against milliseconds.)
// - The ratio is of the CPU time per 2 s cycle; also printed: the p50 of each kind of push,
//   and of the pushes with the ticker alone (one frame per subscriber on both sides).
// - The subscribers live in a child process (bench/market-push-client.ts), so reading the
//   pushes is not server time; before the next push both sides wait until every subscriber has
//   received everything sent so far (nothing queues up between pushes), and at the end the
//   bytes each side's subscribers received must be equal.
//
//   npx tsx --expose-gc bench/market-push.bench.ts [--subscribers=1000] [--seconds=120] [--no-json]

import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { startSimulator, type SimConfigInput } from '../src/index.ts';
import type { PushClientJob, PushClientReport } from './market-push-client.ts';
import { flag, LoadProcess, median, runInfo, writeResults, type JobInput } from './support.ts';

const SUBSCRIBERS = Math.max(1, Math.round(Number(flag('subscribers') ?? 1000)));
/** Simulated seconds measured (one push instant each); klines go out on every second one. */
const SECONDS = Math.max(2, Math.round(Number(flag('seconds') ?? 120)));
const WARMUP_SECONDS = 20;
const STREAMS = ['btcusdt@kline_1m', 'btcusdt@ticker'];
/** A minute boundary (2023-11-14T22:14:00Z): the run crosses two minutes, so closed candles are pushed too. */
const START_MS = 1_700_000_040_000;
const BUDGET_MS = 180_000 + SECONDS * 1000;

const dir = fileURLToPath(new URL('.', import.meta.url));
const wallStart = performance.now();
const loadAtStart = loadavg();

const watchdog = setTimeout(() => {
  console.error(`market-push bench: still running after ${BUDGET_MS / 1000} s; giving up`);
  LoadProcess.killAll();
  process.exit(1);
}, BUDGET_MS);
watchdog.unref();

let client: LoadProcess<PushClientJob> | null = null;

/** One request to the subscriber process and its answer (one at a time, in order). */
function ask(job: JobInput<PushClientJob>, timeoutMs = 30_000): Promise<PushClientReport> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, rej) => {
    timer = setTimeout(() => rej(new Error(`subscriber process: no answer to ${JSON.stringify(job)} within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([client!.run<PushClientReport>(job), late]).finally(() => clearTimeout(timer));
}

/** Ends the tick the caller is in: the peers' `process.nextTick` writes have run. */
const endOfTick = () => new Promise<void>((res) => setImmediate(res));

const cpuUs = (since: NodeJS.CpuUsage) => {
  const c = process.cpuUsage(since);
  return c.user + c.system;
};

// ------------------------------------------------------------------ the two servers

const config: SimConfigInput = {
  sim: {
    bind: '127.0.0.1',
    port: 0,
    tls_port: 0,
    clock: 'manual',
    start_time_ms: START_MS,
    // Heartbeats run on the wall clock; none falls into the run (they are not push work).
    ping_interval_ms: 3_600_000,
    pong_timeout_ms: 3_600_000,
  },
};
const sim = await startSimulator({ config });
/** What the pushes hand to the fan-out, in order: the text each combined subscriber receives. */
let pushed: string[] = [];
const fanOut = sim.gateway.market;
const send = fanOut.send.bind(fanOut);
fanOut.send = (name: string, payload: string) => {
  pushed.push(`{"stream":"${name}","data":${payload}}`);
  send(name, payload);
};

const bare = await new Promise<WebSocketServer>((res, rej) => {
  const wss: WebSocketServer = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false }, () => res(wss));
  wss.once('error', rej);
});
const bareClients = new Set<WebSocket>();
bare.on('connection', (ws) => {
  bareClients.add(ws);
  ws.on('error', () => ws.terminate());
  ws.once('close', () => bareClients.delete(ws));
});

/** The bare broadcaster: each text once to bytes, then to every client. */
function broadcast(texts: readonly string[]): void {
  for (const text of texts) {
    const data = Buffer.from(text);
    for (const ws of bareClients) ws.send(data, { binary: false });
  }
}

client = await LoadProcess.start<PushClientJob>(join(dir, 'market-push-client.ts'), 'the subscriber process');
const simUrl = `${sim.urls.ws}/stream?streams=${STREAMS.join('/')}`;
const bareUrl = `ws://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
const t0 = performance.now();
await ask({ open: { target: 'sim', url: simUrl, count: SUBSCRIBERS } }, 120_000);
await ask({ open: { target: 'bare', url: bareUrl, count: SUBSCRIBERS } }, 120_000);
if (sim.gateway.marketConnections().size !== SUBSCRIBERS || bareClients.size !== SUBSCRIBERS) throw new Error('not every subscriber is connected');
const connectSeconds = (performance.now() - t0) / 1000;

// ------------------------------------------------------------------ the run

interface Instant {
  /** Frames each subscriber got at this instant (2: kline and ticker, 1: ticker, 3: a candle closed too). */
  readonly frames: number;
  readonly simCpuUs: number;
  readonly bareCpuUs: number;
  readonly simWallUs: number;
  readonly bareWallUs: number;
}

let received = { sim: 0, bare: 0 };
let bytes = { sim: 0, bare: 0 };

async function reach(target: 'sim' | 'bare', messages: number): Promise<void> {
  const answer = await ask({ reach: { target, messages } });
  bytes[target] = answer.bytes ?? NaN;
}

/** One simulated second: the generator's steps, then the timed push on the whole second; then the same frames from the bare server. */
async function second(): Promise<Instant> {
  pushed = [];
  sim.advanceTime(999);
  const before = pushed;
  if (before.length > 0) throw new Error(`a push between whole seconds: ${before[0]!.slice(0, 80)}`);
  const simCpu = process.cpuUsage();
  const simWall = performance.now();
  sim.advanceTime(1);
  await endOfTick();
  const simCpuUs = cpuUs(simCpu);
  const simWallUs = (performance.now() - simWall) * 1000;
  const frames = pushed;
  if (frames.length === 0) throw new Error('no push on a whole second');
  received.sim += frames.length;
  await reach('sim', received.sim);

  const bareCpu = process.cpuUsage();
  const bareWall = performance.now();
  broadcast(frames);
  await endOfTick();
  const bareCpuUs = cpuUs(bareCpu);
  const bareWallUs = (performance.now() - bareWall) * 1000;
  received.bare += frames.length;
  await reach('bare', received.bare);
  return { frames: frames.length, simCpuUs, bareCpuUs, simWallUs, bareWallUs };
}

// The first stop after the subscriptions pushes at once (100 ms in), a ticker follows on the
// second: both replayed by the bare server, untimed; from there on every push is on a whole second.
pushed = [];
sim.advanceTime(1000);
received = { sim: pushed.length, bare: pushed.length };
broadcast(pushed);
await reach('sim', received.sim);
await reach('bare', received.bare);
for (let i = 0; i < WARMUP_SECONDS; i++) await second();
const instants: Instant[] = [];
for (let i = 0; i < SECONDS; i++) instants.push(await second());
if (bytes.sim !== bytes.bare) throw new Error(`the two sides' subscribers received different bytes: ${bytes.sim} and ${bytes.bare}`);

await client.stop();
client = null;
await sim.stop();
for (const ws of bareClients) ws.terminate();
await new Promise<void>((res) => bare.close(() => res()));

// ------------------------------------------------------------------ figures

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const cycles = SECONDS / 2;
const both = instants.filter((s) => s.frames >= 2);
const tickerOnly = instants.filter((s) => s.frames === 1);
const frames = sum(instants.map((s) => s.frames));
const side = (pick: (s: Instant) => number) => ({
  perCycleUs: sum(instants.map(pick)) / cycles,
  bothStreamsP50Us: median(both.map(pick)),
  tickerOnlyP50Us: median(tickerOnly.map(pick)),
  perFrameUs: sum(instants.map(pick)) / frames,
});
const simCpu = side((s) => s.simCpuUs);
const bareCpu = side((s) => s.bareCpuUs);
const simWall = side((s) => s.simWallUs);
const bareWall = side((s) => s.bareWallUs);
const ratio = simCpu.perCycleUs / bareCpu.perCycleUs;
const us = (v: number) => `${Math.round(v)} µs`;

console.log(
  `market-push bench — node ${process.version}, ${SUBSCRIBERS} subscribers of ${STREAMS.join(' + ')} per side, ${SECONDS} simulated s (${frames} frames each), ` +
    `load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start; connected in ${connectSeconds.toFixed(1)} s`,
);
// One frame per subscriber on both sides (the ticker alone): the per-frame comparison, without
// the simulator's one write per subscriber for the kline and ticker of the same instant.
const singleRatio = simCpu.tickerOnlyP50Us / bareCpu.tickerOnlyP50Us;
console.log(
  `server CPU per 2 s push cycle (one kline + two tickers to every subscriber): spot-sim ${us(simCpu.perCycleUs)}, bare ws ${us(bareCpu.perCycleUs)}: ` +
    `ratio ${ratio.toFixed(2)} (target <= 1.1, ${ratio <= 1.1 ? 'met' : 'NOT met'})`,
);
console.log(
  `  p50 per push: kline + ticker ${us(simCpu.bothStreamsP50Us)} vs ${us(bareCpu.bothStreamsP50Us)} (${(simCpu.bothStreamsP50Us / bareCpu.bothStreamsP50Us).toFixed(2)}); ` +
    `ticker alone ${us(simCpu.tickerOnlyP50Us)} vs ${us(bareCpu.tickerOnlyP50Us)} (${singleRatio.toFixed(2)}); wall per cycle ${us(simWall.perCycleUs)} vs ${us(bareWall.perCycleUs)}`,
);

if (flag('no-json') === undefined) {
  writeResults(join(dir, 'results', 'market-push.json'), {
    ...runInfo('market-push'),
    loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
    wallSeconds: (performance.now() - wallStart) / 1000,
    subscribers: SUBSCRIBERS,
    streams: STREAMS,
    simulatedSeconds: SECONDS,
    framesPerSubscriber: frames,
    bytesPerSubscriber: bytes.sim / SUBSCRIBERS,
    cpuUs: { sim: simCpu, bare: bareCpu },
    wallUs: { sim: simWall, bare: bareWall },
    ratio,
    tickerAloneRatio: singleRatio,
    target: { value: ratio, target: '<= 1.1', met: ratio <= 1.1 },
  });
}
clearTimeout(watchdog);
