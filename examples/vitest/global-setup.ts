// Starts one simulator in the runner's main process (the test files run in other processes) and
// hands its URL to them in SPOT_SIM_URL. A suite against `npx spot-sim` on another machine sets
// SPOT_SIM_URL itself and drops this file.
import { startSimulator, type Simulator } from 'spot-sim';

let sim: Simulator | undefined;

export async function setup(): Promise<void> {
  if (process.env.SPOT_SIM_URL !== undefined) return;
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', generator: { enabled: false } } } });
  process.env.SPOT_SIM_URL = sim.urls.http;
}

export async function teardown(): Promise<void> {
  await sim?.stop();
}
