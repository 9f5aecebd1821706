// What the command line prints once it listens (API.md section 1): where (URLs a client on this
// machine can open, also for a wildcard bind), whether the control API is served and why not,
// the symbols, the API key (never the secret), the seed and the network backend in effect.
import { controlApiOffReason, isLoopback, isWildcard, netBackendInEffect, type Config } from '../config/index.ts';

export interface StartBlock {
  readonly version: string;
  readonly http: string;
  readonly https: string;
  readonly ws: string;
  readonly wss: string;
  readonly bind: string;
  /** The control API's base URL, or null when it is not served. */
  readonly controlApi: string | null;
  /** Why the control API is not served, or null when it is. */
  readonly controlApiOff: string | null;
  readonly symbols: readonly string[];
  readonly apiKey: string;
  readonly seed: number;
  readonly netBackend: string;
}

/**
 * The host a client on this machine connects to: a wildcard bind (0.0.0.0, ::) is not an
 * address to connect to, so its loopback stands in; any other bind is its own address.
 */
export function reachableHost(bind: string): string {
  if (isWildcard(bind)) return bind.includes(':') ? '[::1]' : '127.0.0.1';
  return bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind;
}

export function startBlock(config: Config, ports: { readonly http: number; readonly https: number }, version: string): StartBlock {
  const host = reachableHost(config.sim.bind);
  const http = `http://${host}:${ports.http}`;
  const off = controlApiOffReason(config.sim);
  return {
    version,
    http,
    https: `https://${host}:${ports.https}`,
    ws: `ws://${host}:${ports.http}`,
    wss: `wss://${host}:${ports.https}`,
    bind: config.sim.bind,
    controlApi: off === null ? `${http}/sim/v1/` : null,
    controlApiOff: off,
    symbols: config.instruments.map((instrument) => instrument.symbol),
    apiKey: config.sim.account.api_key,
    seed: config.sim.seed,
    netBackend: netBackendInEffect(config.engine.net_backend),
  };
}

function bindLine(bind: string): string[] {
  if (isLoopback(bind)) return [];
  if (isWildcard(bind)) return [`bind:        ${bind}: every interface (other machines use one of this machine's addresses)`];
  return [`bind:        ${bind}`];
}

export function startBlockLines(block: StartBlock): string[] {
  return [
    `spot-sim ${block.version} listening`,
    `http:        ${block.http}  (ws: ${block.ws})`,
    `https:       ${block.https}  (wss: ${block.wss})`,
    ...bindLine(block.bind),
    `control API: ${block.controlApi ?? `off: ${block.controlApiOff}`}`,
    `symbols:     ${block.symbols.join(', ')}`,
    `api key:     ${block.apiKey}`,
    `seed:        ${block.seed}`,
    `net backend: ${block.netBackend}`,
  ];
}
