// Starts one spot-sim for the whole Vitest run and hands its URL to the tests. Against a server
// started elsewhere (`npx spot-sim`, another machine), skip this file and give the tests its URL.
import { startSimulator, type Simulator } from 'spot-sim';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    simUrl: string;
  }
}

let sim: Simulator | undefined;

export async function setup(project: TestProject): Promise<void> {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
  project.provide('simUrl', sim.urls.http);
}

export async function teardown(): Promise<void> {
  await sim?.stop();
}
