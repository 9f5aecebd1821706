// What every benchmark shares: command-line flags, numeric environment settings, the machine
// a run happened on, writing its results to bench/results/<name>.json (read by report.ts), the
// load processes the benches fork (LoadProcess; their side is bench/load-common.ts), and the
// figures' formats.

import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LoadJob, LoadReport } from './load-common.ts';

const argv = process.argv.slice(2);

/**
 * How `npm start` runs the server (package.json's start script; keep the two the same): V8's
 * young generation capped at 2 x 8 MiB and glibc's malloc at two arenas. With 1000 connections
 * that is about 16 MiB and 10 MiB less RSS, for about 4% of WS API throughput. The benchmarks
 * that run a server (REST, WS, the soak) run it like this, so their figures are the shipped
 * server's.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** `--name` -> '', `--name=value` -> 'value', absent -> undefined. */
export function flag(name: string): string | undefined {
  const hit = argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (hit === undefined) return undefined;
  const eq = hit.indexOf('=');
  return eq < 0 ? '' : hit.slice(eq + 1);
}

/** A non-negative number from the environment, or the fallback when unset. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: expected a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
}

/** The fields every results file starts with. */
export function runInfo(bench: string) {
  return { bench, date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length };
}

export function writeResults(file: string, result: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** Rows (the first is the header) as a plain-text table with aligned columns. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ');
  const sep = widths.map((w) => '-'.repeat(w)).join('-|-');
  return [line(rows[0]!), sep, ...rows.slice(1).map(line)].join('\n');
}

/** The value at quantile `p` (0..1) of ascending `sorted` (nearest rank); NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  return sorted[Math.min(n - 1, Math.max(0, Math.ceil(p * n) - 1))]!;
}

/** The median of `xs` (the mean of the middle two for an even count); NaN when empty. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}

/** Large enough never to refuse anything during a bench (validation: a safe positive integer). */
export const NO_LIMIT = Number.MAX_SAFE_INTEGER;
/** The simulator's `limits` lifted, so no request of a bench is refused for rate. */
export const NO_RATE_LIMITS = { weight_per_minute: NO_LIMIT, orders_per_10s: NO_LIMIT, orders_per_day: NO_LIMIT } as const;
/** A load bench's simulator: loopback only, any free ports, no periodic stats line in the output. */
export const LOAD_SERVER = { bind: '127.0.0.1', port: 0, tls_port: 0, stats_interval_ms: 0 } as const;

// ------------------------------------------------------------------ figures

export interface Summary {
  readonly n: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** Count, mean, p50/p90/p99 (nearest rank) and max of the samples; NaN figures when empty. */
export function summarize(xs: readonly number[]): Summary {
  const s = Float64Array.from(xs).sort();
  let sum = 0;
  for (const x of s) sum += x;
  return { n: s.length, mean: s.length ? sum / s.length : NaN, p50: percentile(s, 0.5), p90: percentile(s, 0.9), p99: percentile(s, 0.99), max: s.length ? s[s.length - 1]! : NaN };
}

export const formatRate = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '-');
/** A share of one core (or any fraction) as a whole percentage. */
export const formatPercent = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '-');
export const formatRatio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}x` : '-');
/** A target's "met" column. */
export const yesNo = (b: boolean) => (b ? 'yes' : 'NO');

// ------------------------------------------------------------------ the machine's CPU

/** Busy and total jiffies of all cores (/proc/stat), or null off Linux. */
export function machineJiffies(): { busy: number; total: number } | null {
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

/** The machine's busy time between two readings, in cores (NaN off Linux). */
export function busyCores(from: ReturnType<typeof machineJiffies>, to: ReturnType<typeof machineJiffies>): number {
  return from === null || to === null ? NaN : ((to.busy - from.busy) / (to.total - from.total)) * cpus().length;
}

// ------------------------------------------------------------------ load processes

const loadProcesses = new Set<ChildProcess>();

/** A job as the bench writes it: LoadProcess.run adds the id (distributes over a union of jobs). */
export type JobInput<J extends LoadJob> = J extends unknown ? Omit<J, 'id'> : never;

/**
 * A load process (bench/ws-client.ts, bench/rest-client.ts, bench/soak/client.ts) forked under
 * tsx only (no --cpu-prof or --expose-gc of this process, so a profile of the bench is the
 * server's), running the jobs sent to it; several may run at once. Its side of the IPC is
 * serveJobs (bench/load-common.ts).
 */
export class LoadProcess<J extends LoadJob> {
  private nextId = 1;
  private readonly waiting = new Map<number, { res: (result: unknown) => void; rej: (e: Error) => void; onMeasuring?: () => void }>();

  private constructor(
    private readonly child: ChildProcess,
    what: string,
  ) {
    child.on('message', (m: LoadReport) => {
      if ('measuring' in m) return this.waiting.get(m.measuring)?.onMeasuring?.();
      if (!('id' in m)) return;
      const w = this.waiting.get(m.id);
      if (w === undefined) return;
      this.waiting.delete(m.id);
      if (m.ok) w.res(m.result);
      else w.rej(new Error(`${what}: ${m.error}`));
    });
    child.once('exit', (code, signal) => {
      for (const w of this.waiting.values()) w.rej(new Error(`${what} exited (${code ?? signal}) during a run`));
      this.waiting.clear();
    });
  }

  /** Forks `file` and resolves once it reports ready; rejects if it exits first. */
  static async start<J extends LoadJob>(file: string, what = 'client'): Promise<LoadProcess<J>> {
    const child = fork(file, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    loadProcesses.add(child);
    child.once('exit', () => loadProcesses.delete(child));
    await new Promise<void>((res, rej) => {
      const onMessage = (m: LoadReport) => {
        if (!('ready' in m)) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        res();
      };
      const onExit = (code: number | null) => rej(new Error(`${what} exited (${code}) before it was ready`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
    return new LoadProcess<J>(child, what);
  }

  /** Sends `job` and resolves with its result; `onMeasuring` runs when its timed phase starts. */
  run<R>(job: JobInput<J>, onMeasuring?: () => void): Promise<R> {
    const id = this.nextId++;
    return new Promise<R>((res, rej) => {
      this.waiting.set(id, { res: res as (result: unknown) => void, rej, ...(onMeasuring ? { onMeasuring } : {}) });
      this.child.send({ ...job, id });
    });
  }

  /** Runs `job` and reads this process's CPU and the machine's from the start of its timed phase to its result. */
  async runTimed<R>(job: JobInput<J>): Promise<TimedRun<R>> {
    let cpu0: NodeJS.CpuUsage | null = null;
    let machine0: ReturnType<typeof machineJiffies> = null;
    let t0 = 0;
    const result = await this.run<R>(job, () => {
      cpu0 = process.cpuUsage();
      machine0 = machineJiffies();
      t0 = performance.now();
    });
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpu0 === null ? null : process.cpuUsage(cpu0);
    const machine1 = machineJiffies();
    return { result, serverCpu: cpu === null ? NaN : (cpu.user + cpu.system) / 1e6 / seconds, machineBusyCores: busyCores(machine0, machine1) };
  }

  /** Asks it to stop, and kills it if it has not exited within 5 s. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((res) => child.once('exit', () => res()));
    child.send({ stop: true });
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  /** Kills every load process still running (a bench that gives up). */
  static killAll(): void {
    for (const child of loadProcesses) child.kill('SIGKILL');
  }
}

/** A job's result with what this (server) process and the machine did over its timed phase. */
export interface TimedRun<R> {
  readonly result: R;
  /** This process's CPU over the timed phase, as a share of one core (NaN: the job has none). */
  readonly serverCpu: number;
  /** The whole machine's busy time over the timed phase, in cores (NaN off Linux). */
  readonly machineBusyCores: number;
}

/**
 * Ends the run if it is still going after `seconds` (every phase is bounded; one that hangs
 * must not hold the machine): kills the load processes and exits 1. Returns its cancel.
 */
export function watchdog(bench: string, seconds: number): () => void {
  const timer = setTimeout(() => {
    console.error(`${bench}: still running after ${seconds} s; giving up`);
    LoadProcess.killAll();
    process.exit(1);
  }, seconds * 1000);
  timer.unref();
  return () => clearTimeout(timer);
}
