// Facts the command line's start block states (src/cli/start-block.ts prints it): the network
// backend in effect; and a configuration with its secrets hidden.
import type { Config, NetBackend } from './types.ts';

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
