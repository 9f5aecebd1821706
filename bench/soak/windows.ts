// The soak's measuring windows and what every phase shares: the run (simulator, load processes,
// server-side meters, the report), a window of delivery delays over all subscribers (merged from
// the load processes' histograms) with both sides' CPU and event-loop delay, and the subscribers'
// status; and the checks, each printed as it is decided and collected for the summary.

import { performance } from 'node:perf_hooks';
import type { Simulator } from '../../src/index.ts';
import type { FanOutTimer, LoopMeter } from './server-watch.ts';
import { mergeHistograms, summarizeHistogram, type Job, type MdStatus, type WindowResult } from './protocol.ts';
import { describe, fmtInt, fmtMs, log } from './settings.ts';
import { formatPercent, type LoadProcess } from '../support.ts';

export type SoakClient = LoadProcess<Job>;

export interface SoakRun {
  readonly sim: Simulator;
  /** The load processes: subscribers and a trader each; the first also runs the ping prober. */
  readonly clients: readonly SoakClient[];
  /** An idle load process: its event-loop delay is the machine's scheduling noise. */
  readonly canary: SoakClient;
  readonly fanOut: FanOutTimer;
  /** The server's event-loop delay since the last window. */
  readonly loop: LoopMeter;
  /** What bench/results/soak.json records, by phase. */
  readonly report: Record<string, unknown>;
}

/** Runs `body` as one measuring window over every subscriber. */
export async function windowOver(run: SoakRun, body: () => Promise<void>) {
  const { clients, canary, fanOut, loop } = run;
  const all = [...clients, canary];
  await Promise.all(all.map((c) => c.run({ kind: 'window-start' })));
  loop();
  fanOut.take();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await body();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const ends = await Promise.all(all.map((c) => c.run<WindowResult>({ kind: 'window-end' })));
  const results = ends.slice(0, clients.length);
  const idle = ends[clients.length]!;
  const depth = mergeHistograms(results.map((r) => r.depth));
  const trade = mergeHistograms(results.map((r) => r.trade));
  const both = mergeHistograms([depth, trade]);
  return {
    seconds,
    depth: summarizeHistogram(depth),
    trade: summarizeHistogram(trade),
    all: summarizeHistogram(both),
    negativeSamples: both.negative,
    clientCpu: results.map((r) => r.cpu),
    serverCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    serverLoopDelayMs: loop(),
    serverFanOutMs: fanOut.take(),
    clientLoopDelayP99Ms: results.map((r) => r.loopDelayMs.p99),
    idleProcessLoopDelayMs: idle.loopDelayMs,
  };
}

export type Window = Awaited<ReturnType<typeof windowOver>>;

/** Prints a window's figures, each line tagged with its phase. */
export function logWindow(tag: string, w: Window): void {
  log(`[${tag}] delivery delay over ${w.seconds.toFixed(1)} s: all ${describe(w.all)}`);
  log(`[${tag}]   depth ${describe(w.depth)} | trade ${describe(w.trade)}`);
  log(`[${tag}]   cpu server ${formatPercent(w.serverCpu)}, clients ${w.clientCpu.map(formatPercent).join('/')}`);
  const f = w.serverFanOutMs;
  log(
    `[${tag}]   server time per fan-out: trade event sets n=${fmtInt(f.tradeEventSets.n)} p50 ${fmtMs(f.tradeEventSets.p50)} p99 ${fmtMs(f.tradeEventSets.p99)} max ${fmtMs(f.tradeEventSets.max)}; ` +
      `depth batches n=${fmtInt(f.depthBatches.n)} p50 ${fmtMs(f.depthBatches.p50)} p99 ${fmtMs(f.depthBatches.p99)} max ${fmtMs(f.depthBatches.max)}`,
  );
  log(
    `[${tag}]   event-loop delay p99: server ${fmtMs(w.serverLoopDelayMs.p99)} (max ${fmtMs(w.serverLoopDelayMs.max)}), clients ${w.clientLoopDelayP99Ms.map(fmtMs).join('/')}, ` +
      `an idle process ${fmtMs(w.idleProcessLoopDelayMs.p99)} (max ${fmtMs(w.idleProcessLoopDelayMs.max)})`,
  );
}

/** The subscribers' status summed over the load processes. */
export async function mdStatus(clients: readonly SoakClient[]) {
  const all = await Promise.all(clients.map((c) => c.run<MdStatus>({ kind: 'md-status' })));
  return {
    open: all.reduce((s, x) => s + x.open, 0),
    opened: all.reduce((s, x) => s + x.opened, 0),
    closed: all.reduce((s, x) => s + x.closed, 0),
    errors: all.reduce((s, x) => s + x.errors, 0),
    firstError: all.find((x) => x.firstError !== null)?.firstError ?? null,
    depthMessages: all.reduce((s, x) => s + x.depthMessages, 0),
    tradeMessages: all.reduce((s, x) => s + x.tradeMessages, 0),
    gaps: all.reduce((s, x) => s + x.gaps, 0),
    firstGap: all.find((x) => x.firstGap !== null)?.firstGap ?? null,
  };
}

/** `noisy`: the measured noise is larger than the target, and the result lies within it: the run cannot tell. */
export type Verdict = 'ok' | 'FAIL' | 'noisy';
export const checks: Array<{ check: string; verdict: Verdict; detail: string }> = [];
export function check(name: string, ok: boolean | Verdict, detail: string): void {
  const verdict: Verdict = ok === true ? 'ok' : ok === false ? 'FAIL' : ok;
  checks.push({ check: name, verdict, detail });
  log(`  ${verdict.padEnd(5)} ${name}: ${detail}`);
}
