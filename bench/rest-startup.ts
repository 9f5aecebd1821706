// The startup part of the REST benchmark: how long startSimulator takes until both listeners
// (http and https) listen, in this process, before any load runs.

import { performance } from 'node:perf_hooks';
import { startSimulator } from '../src/index.ts';
import { STARTS, STARTUP_WARMUP } from './rest-settings.ts';
import { busyCores, machineJiffies, percentile } from './support.ts';

export interface StartupResult {
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

/** startSimulator until both listeners listen, then stop(), STARTS times in a row after STARTUP_WARMUP untimed starts. */
export async function benchStartup(): Promise<StartupResult> {
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
  const machineBusy = busyCores(machine0, machine1);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    otherCpu: Math.max(0, machineBusy - ownCores),
    starts: STARTS,
    warmup: STARTUP_WARMUP,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    minMs: sorted[0]!,
    maxMs: sorted[sorted.length - 1]!,
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
  };
}
