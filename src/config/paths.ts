// File paths inside a configuration (API.md section 7): a relative path the user configured is
// resolved against the TOML file's directory, or the working directory for a programmatic
// tree (`[[sim.history.klines]]` and `[[sim.replay]]` files too). Paths left at their defaults stay relative and name files shipped inside the package
// (resolved by the simulator against the package root, never against the working directory).
import { isAbsolute, resolve } from 'node:path';
import type { SimConfigInput } from './types.ts';

/** The tree with its relative file paths made absolute against `baseDir`; other values as given. */
export function resolveConfigPaths(tree: SimConfigInput, baseDir: string): SimConfigInput {
  const sim = tree.sim;
  if (sim === undefined || sim === null || typeof sim !== 'object') return tree;
  const absolute = (value: unknown) => (typeof value === 'string' && value !== '' && !isAbsolute(value) ? resolve(baseDir, value) : value);
  const resolved: Record<string, unknown> = { ...sim };
  for (const key of ['tls_cert', 'tls_key', 'replay_cache_dir'] as const) if (key in sim) resolved[key] = absolute(sim[key]);
  const account = sim.account;
  if (account !== undefined && account !== null && typeof account === 'object' && 'ed25519_public_key_file' in account) {
    resolved.account = { ...account, ed25519_public_key_file: absolute(account.ed25519_public_key_file) };
  }
  const withFile = (entry: unknown) =>
    entry !== null && typeof entry === 'object' && 'file' in entry ? { ...entry, file: absolute((entry as { file: unknown }).file) } : entry;
  if (Array.isArray(sim.replay)) resolved.replay = sim.replay.map(withFile);
  const history = sim.history;
  if (history !== undefined && history !== null && typeof history === 'object' && Array.isArray(history.klines)) {
    resolved.history = { ...history, klines: history.klines.map(withFile) };
  }
  return { ...tree, sim: resolved as SimConfigInput['sim'] };
}
