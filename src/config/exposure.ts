// Warnings about a configuration that exposes the account (issue 13 item 9). The default API
// secret is published (spec 1.8, README): on a loopback bind only this machine can use it, but on
// any other bind whoever reaches the port can sign requests with it and trade the account.
import { DEFAULT_API_SECRET } from './defaults.ts';
import { ENV_API_SECRET } from './env.ts';
import type { Config } from './types.ts';

/** Loopback binds: only this machine can connect (`localhost`, 127.0.0.0/8, ::1). */
export function isLoopback(bind: string): boolean {
  return bind === 'localhost' || bind === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bind);
}

/** The warnings to print at start, one line each (empty when nothing is exposed). */
export function exposureWarnings(config: Config): string[] {
  const { bind, account } = config.sim;
  if (isLoopback(bind) || account.api_secret !== DEFAULT_API_SECRET) return [];
  return [
    `warning: bind ${bind} is not a loopback address and the account uses the published default API secret: ` +
      `anyone who can reach these ports can sign requests and trade this account. ` +
      `Set ${ENV_API_SECRET} (or sim.account.api_secret) to a secret of your own, or bind 127.0.0.1.`,
  ];
}

/** A wildcard bind: the server listens on every interface of the machine. */
export function isWildcard(bind: string): boolean {
  return bind === '0.0.0.0' || bind === '::' || bind === '[::]';
}

/**
 * Why the control API is not served, in words for the start block, or null when it is. Loopback
 * binds serve it; any other bind only with a `control_token` (clients then send it as a bearer
 * token), so that an exposed simulator cannot be reset or faulted by whoever reaches it.
 */
export function controlApiOffReason(sim: Config['sim']): string | null {
  if (!sim.control_api) return 'sim.control_api = false';
  if (isLoopback(sim.bind) || sim.control_token !== undefined) return null;
  return `bind ${sim.bind} is not a loopback address and no sim.control_token is set (set one to serve it to clients that send Authorization: Bearer <token>)`;
}
