// What every benchmark shares: command-line flags, numeric environment settings, the machine
// a run happened on, and writing its results to bench/results/<name>.json (read by report.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';

const argv = process.argv.slice(2);

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
