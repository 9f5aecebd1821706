// The public option and URL types of a simulator, apart from the class (src/simulator.ts) so the
// start function (src/start-simulator.ts) and the class can share them without an import cycle.
import type { SimConfigInput } from './config/types.ts';

/**
 * What `startSimulator` starts from: a TOML file (`configFile`, its relative paths against its
 * folder) and/or a configuration tree (`config`) deep-merged over it, over the embedded defaults.
 * @example
 * const sim = await startSimulator({ configFile: 'sim.toml', config: { sim: { port: 0, tls_port: 0, seed: 42 } } });
 */
export interface StartOptions {
  /** A TOML file (every key: docs/reference/configuration.md). */
  readonly configFile?: string;
  /** A tree with the TOML file's shape, merged over the file (tables merge, arrays replace). */
  readonly config?: SimConfigInput;
}

/**
 * A running simulator's base URLs, one per listener and protocol: REST and the control API on
 * `http`/`https`, WebSockets (`/ws`, `/stream`, `/ws-api/v3`) on `ws`/`wss`.
 * @example
 * const { http, ws } = sim.urls;
 * const ping = await fetch(`${http}/api/v3/ping`);
 * console.log(ping.status, `${ws}/ws-api/v3`);
 */
export interface SimulatorUrls {
  readonly http: string;
  readonly https: string;
  readonly ws: string;
  readonly wss: string;
}

/** The URLs of a simulator bound to `bind` (an IPv6 address in brackets) on these ports. */
export function urlsOf(bind: string, ports: { readonly http: number; readonly https: number }): SimulatorUrls {
  const host = bind.includes(':') ? `[${bind}]` : bind;
  return { http: `http://${host}:${ports.http}`, https: `https://${host}:${ports.https}`, ws: `ws://${host}:${ports.http}`, wss: `wss://${host}:${ports.https}` };
}
