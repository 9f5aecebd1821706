// Soak and abuse test (issue 7 §2): loopback only, the load in separate processes
// (bench/soak/client.ts, forked), every phase bounded in count and time. This process is the
// server side: one simulator, its generator at SOAK_LIMIT_RATE limit / SOAK_MARKET_RATE market
// orders/s per symbol throughout (~135 public trades/s on BTCUSDT at the defaults), observed
// directly (stats, gateway, RSS, invariants) while the clients measure what they receive. The
// whole run takes about SOAK_MINUTES + 2.5 minutes (P3 waits out the 80 s heartbeat).
//
//   P1 hold    SOAK_CONNECTIONS combined-stream subscribers (btcusdt@depth@100ms + btcusdt@trade)
//              over SOAK_CLIENTS processes, plus one WS API trader per process (place/cancel at
//              SOAK_ORDER_RATE orders/s in all, user-data subscribed) and a ping prober (REST
//              /api/v3/ping over http and https every 250 ms) that runs until the end. Delivery
//              delay = client receive wall time - the event's `E` (both wall-clock ms on this
//              machine; `E` is whole ms, so a delay reads up to 1 ms high). Each window also
//              reports the event-loop delay of the server, of each client and of one more, idle
//              client process (on a shared machine that last one is the scheduling noise), and
//              the server's own time per fan-out (trade event sets, depth batches).
//   P2 slow    a WS API connection (user-data subscribed) that stops reading (socket paused) and
//              keeps asking for depth snapshots: it must be cut once its send queue passes the
//              4 MiB cap; the others' delivery p99 while it stalls is compared with P1's (target:
//              moves by at most 5 ms); RSS before, at the cut and after. Also a market-data
//              subscriber on every stream that stops reading, watched until the server drops it
//              (at this rate it needs over a minute to pass the cap, the kernel's socket buffers
//              take ~4 MB first, so the heartbeat may get there first; either frees it).
//   P3 abuse   at once: SOAK_CHURN WebSocket open/close (market and WS API; clean close, FIN,
//              RST), SOAK_CHURN HTTP keep-alive connections (2 pings each; FIN or RST), and
//              sockets that never finish: idle, half headers, slowloris, slow body, FIN/RST
//              mid-request, TLS idle / half a ClientHello / RST, a WebSocket that never pongs.
//              The ping prober must keep succeeding; sim.stats().connections (and the gateway's
//              peer, market and user-sink counts) must return to what they were before.
//   P4 soak    SOAK_MINUTES more of the same (subscribers held, traders trading): server RSS and
//              heap every 10 s (first/last/max),
//              then every trader checks that each order it placed (since P1) got a NEW and a
//              final executionReport, every subscriber that its depth stream stayed contiguous
//              (U == previous u + 1) and nothing was closed, and the core's invariants hold.
//
// Rate limits are lifted so no request is refused for rate; everything else is the default
// configuration (heartbeat 20 s / 60 s). It prints a report and writes bench/results/soak.json;
// exit 1 when a check failed.
//
//   npm run soak                       SOAK_MINUTES=1 npm run soak
//   (`npm run soak` bundles this file like `npm start` bundles the server and runs it with plain
//   node, so the RSS it reports is the shipped server's; `npx tsx bench/soak/soak.ts` runs it from
//   source, with tsx's loader isolate adding about 25 MiB.)
//   env: SOAK_MINUTES=10  SOAK_CONNECTIONS=1000  SOAK_CLIENTS=3 (2-4)  SOAK_ORDER_RATE=20
//        SOAK_LIMIT_RATE=200  SOAK_MARKET_RATE=20  SOAK_CHURN=10000  SOAK_ABUSE=40 (sockets per kind)
//
// The phases: phase1-hold.ts .. phase4-soak.ts; what they share (the run, windows, checks)
// windows.ts; what the server side watches server-watch.ts; the settings settings.ts. The load
// side: client.ts.

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSimulator } from '../../src/index.ts';
import { holdPhase } from './phase1-hold.ts';
import { slowConsumerPhase } from './phase2-slow.ts';
import { abusePhase } from './phase3-abuse.ts';
import { soakPhase } from './phase4-soak.ts';
import type { Job } from './protocol.ts';
import { gatewayCounts, loopMeter, memory, timeFanOut } from './server-watch.ts';
import {
  ABUSE_PER_KIND,
  CHURN,
  CLIENT_FILE,
  config,
  CONNECTIONS,
  fmtMB,
  LIMIT_RATE,
  log,
  MARKET_RATE,
  MD_STREAMS,
  mb,
  MINUTES,
  ORDER_RATE,
  PROCESSES,
  RESULTS_FILE,
} from './settings.ts';
import { checks, type SoakRun } from './windows.ts';
import { LoadProcess, watchdog } from '../support.ts';

const wallStart = performance.now();
const budgetSec = MINUTES * 60 + 300;
log(
  `soak — node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} x${cpus().length}, ${fmtMB(mb(totalmem()))} RAM, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${CONNECTIONS} subscribers over ${PROCESSES} processes, ${ORDER_RATE} orders/s, generator ${LIMIT_RATE} limit + ${MARKET_RATE} market orders/s per symbol, ` +
    `soak ${MINUTES} min, churn ${CHURN} ws + ${CHURN} http, ${ABUSE_PER_KIND} abusive sockets per kind (watchdog ${budgetSec} s)`,
);
const stopWatchdog = watchdog('soak', budgetSec);

const loop = loopMeter();
const mem0 = memory(true);
const sim = await startSimulator({ config });
const fanOut = timeFanOut(sim);
const memStarted = memory(true);
const idle = gatewayCounts(sim);
log(`simulator on ${sim.urls.http} / ${sim.urls.https}; RSS ${fmtMB(memStarted.rssMB)} (process before start ${fmtMB(mem0.rssMB)})`);

const startClient = (i: number) => LoadProcess.start<Job>(CLIENT_FILE, `client ${i}`);
const clients = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => startClient(i)));
const canary = await startClient(PROCESSES);
const report: Record<string, unknown> = {};
const run: SoakRun = { sim, clients, canary, fanOut, loop, report };
let exitCode = 0;

try {
  const p1 = await holdPhase(run);
  const slow = await slowConsumerPhase(run, p1);
  await abusePhase(run, slow);
  await soakPhase(run, slow);
} catch (error) {
  exitCode = 1;
  console.error('soak: a phase failed:', error);
  report.error = error instanceof Error ? error.stack ?? error.message : String(error);
} finally {
  await Promise.all([...clients, canary].map((c) => c.stop()));
  await sim.stop();
}

// ------------------------------------------------------------------ summary

const wallSec = (performance.now() - wallStart) / 1000;
const failed = checks.filter((c) => c.verdict === 'FAIL');
const noisy = checks.filter((c) => c.verdict === 'noisy');
if (failed.length > 0 || exitCode !== 0) exitCode = 1;
log(`\n== summary (${wallSec.toFixed(0)} s) ==`);
for (const c of checks) log(`${c.verdict.padEnd(5)} ${c.check}`);
log(
  failed.length === 0 && report.error === undefined
    ? `all checks passed${noisy.length > 0 ? `, except ${noisy.length} the machine's noise cannot decide (see above)` : ''}`
    : `${failed.length} check(s) failed${report.error ? '; a phase threw' : ''}`,
);
log('note: delivery delays are wall-clock on a shared machine; figures move with whatever else runs on it (see the idle process\'s event-loop delay).');

mkdirSync(dirname(RESULTS_FILE), { recursive: true });
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify(
    {
      bench: 'soak',
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      loadavg: loadavg(),
      settings: { minutes: MINUTES, connections: CONNECTIONS, processes: PROCESSES, orderRate: ORDER_RATE, limitRate: LIMIT_RATE, marketRate: MARKET_RATE, churn: CHURN, abusePerKind: ABUSE_PER_KIND, mdStreams: MD_STREAMS, pingIntervalMs: sim.config.sim.ping_interval_ms, pongTimeoutMs: sim.config.sim.pong_timeout_ms },
      idle,
      memoryAtStart: memStarted,
      ...report,
      checks,
      wallSeconds: wallSec,
    },
    (_, v) => (typeof v === 'number' && !Number.isFinite(v) ? null : v),
    2,
  )}\n`,
);
log(`results written to ${RESULTS_FILE}`);
stopWatchdog();
process.exit(exitCode);
