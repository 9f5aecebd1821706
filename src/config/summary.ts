// What the command line prints at start (API.md section 1): both URLs, the symbols, the API
// key (never the secret), the seed and the network backend in effect.
import type { Config, NetBackend } from './types.ts';

/** An IPv6 literal needs brackets inside a URL. */
function hostForUrl(bind: string): string {
  return bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind;
}

export function listenUrls(config: Config): { readonly http: string; readonly https: string } {
  const host = hostForUrl(config.sim.bind);
  return { http: `http://${host}:${config.sim.port}`, https: `https://${host}:${config.sim.tls_port}` };
}

/**
 * API.md section 2: Node's network I/O runs on libuv's readiness loop (epoll on Linux), whatever
 * is configured; `io_uring` is accepted but the startup line must say what is really in effect.
 */
export function netBackendInEffect(configured: NetBackend, platform: NodeJS.Platform = process.platform): string {
  const loop = platform === 'linux' ? 'epoll' : platform === 'win32' ? 'IOCP' : 'kqueue';
  if (configured === 'io_uring') {
    return `${loop} (io_uring configured: Node's network I/O always runs on libuv's ${loop} loop)`;
  }
  return configured === loop ? loop : `${loop} (epoll configured: this platform's libuv loop is ${loop})`;
}

function portNote(port: number): string {
  return port === 0 ? ' (port 0: any free port)' : '';
}

export function formatStartupSummary(config: Config, platform: NodeJS.Platform = process.platform): string {
  const urls = listenUrls(config);
  return [
    `listen:      ${urls.http}${portNote(config.sim.port)}`,
    `             ${urls.https}${portNote(config.sim.tls_port)}`,
    `symbols:     ${config.instruments.map((instrument) => instrument.symbol).join(', ')}`,
    `api key:     ${config.sim.account.api_key}`,
    `seed:        ${config.sim.seed}`,
    `net backend: ${netBackendInEffect(config.engine.net_backend, platform)}`,
  ].join('\n');
}

export const REDACTED = '***';

/** The configuration as plain JSON-ready data, with secrets replaced by "***". */
export function redactConfig(config: Config): Config {
  const { account } = config.sim;
  return {
    ...config,
    sim: {
      ...config.sim,
      ...(config.sim.control_token === undefined ? {} : { control_token: REDACTED }),
      account: { ...account, api_secret: REDACTED },
    },
  };
}
