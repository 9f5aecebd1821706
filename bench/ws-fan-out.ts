// M1 of the WS benchmark: MD_CONNECTIONS raw depth-stream subscribers over MD_CLIENTS load
// processes (ws-client.ts, jobs `depth-connect` and `depth-measure`). This process times each
// fan-out on the server side (a simulator's depth batch, or the bare broadcaster's loop); the
// load processes record each update's delivery delay (receive wall time - the event's `E`).

import { performance } from 'node:perf_hooks';
import type { Simulator } from '../src/index.ts';
import type { DepthDiff, Touch } from '../src/core/types.ts';
import { formatPercent, formatRate, LoadProcess, summarize, type Summary } from './support.ts';
import type { BareServer } from './ws-bare-server.ts';
import type { ClientJob, DepthResult } from './ws-client.ts';
import { CLIENT_FILE, fmtMs, log, MD_CLIENTS, MD_CONNECTIONS, SECONDS, WARMUP_SECONDS } from './ws-settings.ts';

export interface FanOutReport {
  readonly target: 'spot-sim' | 'bare ws';
  readonly connections: number;
  /** Server wall time per batch (batches that reached the subscribers), ms. */
  readonly batch: Summary;
  /** Batches of any kind published during the window (spot-sim: incl. those without BTCUSDT). */
  readonly batchesAll: number;
  readonly delay: Summary;
  readonly messages: number;
  readonly gaps: number;
  readonly closed: number;
  readonly seconds: number;
  readonly clientCpu: number[];
  readonly serverCpu: number;
}

/** The server side's batch timer: records between start() and stop(), and counts the connections. */
export interface BatchTimer {
  start(): void;
  stop(): { batches: number[]; all: number };
  connections(): number;
}

/** Measures M1 against `url` (a depth stream, or the bare broadcaster) and prints its line. */
export async function measureFanOut(target: FanOutReport['target'], url: string, record: BatchTimer): Promise<FanOutReport> {
  const clients = await Promise.all(Array.from({ length: MD_CLIENTS }, () => LoadProcess.start<ClientJob>(CLIENT_FILE)));
  try {
    const per = Array.from({ length: MD_CLIENTS }, (_, i) => Math.floor(MD_CONNECTIONS / MD_CLIENTS) + (i < MD_CONNECTIONS % MD_CLIENTS ? 1 : 0));
    const t0 = performance.now();
    await Promise.all(clients.map((c, i) => c.run({ kind: 'depth-connect', url, connections: per[i]! })));
    const connectSec = (performance.now() - t0) / 1000;
    const connected = record.connections();
    await new Promise((r) => setTimeout(r, WARMUP_SECONDS * 1000));
    record.start();
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    const results = await Promise.all(clients.map((c) => c.run<DepthResult>({ kind: 'depth-measure', seconds: SECONDS })));
    const wall = (performance.now() - w0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const { batches, all } = record.stop();
    const delays: number[] = [];
    for (const r of results) for (const d of r.delaysMs) delays.push(d);
    const out: FanOutReport = {
      target,
      connections: connected,
      batch: summarize(batches),
      batchesAll: all,
      delay: summarize(delays),
      messages: results.reduce((s, r) => s + r.messages, 0),
      gaps: results.reduce((s, r) => s + r.gaps, 0),
      closed: results.reduce((s, r) => s + r.closed, 0),
      seconds: wall,
      clientCpu: results.map((r) => r.clientCpu),
      serverCpu: (cpu.user + cpu.system) / 1e6 / wall,
    };
    log(
      `[m1] ${target.padEnd(8)} ${connected} connections (opened in ${connectSec.toFixed(1)} s over ${MD_CLIENTS} processes), ${wall.toFixed(1)} s: ` +
        `${out.batch.n} batches fanned out (of ${all}), server time per batch p50 ${fmtMs(out.batch.p50)} p99 ${fmtMs(out.batch.p99)} max ${fmtMs(out.batch.max)}; ` +
        `${formatRate(out.messages)} messages, delivery delay p50 ${fmtMs(out.delay.p50)} p99 ${fmtMs(out.delay.p99)} max ${fmtMs(out.delay.max)}; ` +
        `gaps ${out.gaps}, closed ${out.closed}; cpu server ${formatPercent(out.serverCpu)} clients ${out.clientCpu.map(formatPercent).join('/')}`,
    );
    return out;
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
  }
}

/** Wraps sim.gateway.publishBatch to time each fan-out (the simulator calls it per depth batch). */
export function timeSimBatches(sim: Simulator): BatchTimer {
  const gateway = sim.gateway;
  const original = gateway.publishBatch;
  let batches: number[] | null = null;
  let all = 0;
  gateway.publishBatch = function timed(diffs: readonly DepthDiff[], touches: readonly Touch[]): void {
    if (batches === null) return original.call(this, diffs, touches);
    const t0 = performance.now();
    original.call(this, diffs, touches);
    // Peers flush their frames in a process.nextTick queued during the call (ws-peer.ts): the
    // batch ends when those ran, so take the time from a nextTick queued after them.
    const into = batches;
    const btc = diffs.some((d) => d.symbol === 'BTCUSDT');
    process.nextTick(() => {
      all++;
      if (btc) into.push(performance.now() - t0);
    });
  };
  return {
    start() {
      batches = [];
      all = 0;
    },
    stop() {
      const out = { batches: batches ?? [], all };
      batches = null;
      return out;
    },
    connections: () => gateway.marketConnections().size,
  };
}

/** The bare broadcaster's loop times (it records them itself while `batchMs` is set). */
export function timeBareBatches(bare: BareServer): BatchTimer {
  return {
    start() {
      bare.batchMs = [];
    },
    stop() {
      const batches = bare.batchMs ?? [];
      bare.batchMs = null;
      return { batches, all: batches.length };
    },
    connections: () => MD_CONNECTIONS,
  };
}
