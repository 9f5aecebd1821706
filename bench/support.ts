// What every benchmark shares: command-line flags, numeric environment settings, the machine
// a run happened on, and writing its results to bench/results/<name>.json (read by report.ts).

import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';

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

/** Asks a forked client to stop, and kills it if it has not exited within 5 s. */
export async function stopChild(child: import('node:child_process').ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.send({ stop: true });
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
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

/**
 * Forks a load process (`file`, under tsx only: no --cpu-prof or --expose-gc of this process)
 * and resolves once it reports `{ ready: true }`; rejects if it exits first.
 */
export async function forkReady(file: string, what = 'the client process'): Promise<ChildProcess> {
  const child = fork(file, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((res, rej) => {
    const onMessage = (m: { ready?: boolean }) => {
      if (!m.ready) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      res();
    };
    const onExit = (code: number | null) => rej(new Error(`${what} exited (${code}) before it was ready`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
  return child;
}
