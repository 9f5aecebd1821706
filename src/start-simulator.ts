// `startSimulator`, the package's front door: a simulator in this process on the configured (or
// random, with port 0) ports, resolved to once its listeners are open.
import { Simulator } from './simulator.ts';
import type { StartOptions } from './simulator-options.ts';

/**
 * Starts a simulator in this process: resolves the configuration (the embedded defaults, a TOML
 * file, a tree; every problem at once as a ConfigError), opens both listeners (a ListenError if a
 * port is taken; port 0 picks a free one) and resolves once they accept connections. Stop it
 * with `sim.stop()`, or `await using`.
 * @example
 * await using sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
 * const client = new SpotSimClient(sim);
 * console.log(sim.urls.http, (await client.rest.time()).serverTime);
 * await client.close();
 */
export function startSimulator(options: StartOptions = {}): Promise<Simulator> {
  return Simulator.start(options);
}
