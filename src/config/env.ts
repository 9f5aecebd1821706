// Environment overrides (spec 1.8, API.md section 1): SVC_SIM_API_KEY / SVC_SIM_API_SECRET
// replace sim.account.api_key / api_secret; SVC_SIM_PORT / SVC_SIM_TLS_PORT move the listeners.
// They override the file; flags typed on the command line override them. Only the command line
// applies them: `startSimulator` reads no environment (API.md section 6).
import { ConfigError, type ConfigProblem } from './errors.ts';
import { PORT_EXPECTATION } from './fields.ts';
import { cloneTree, deepMerge } from './merge.ts';
import type { SimConfigInput } from './types.ts';

export const ENV_API_KEY = 'SVC_SIM_API_KEY';
export const ENV_API_SECRET = 'SVC_SIM_API_SECRET';
export const ENV_PORT = 'SVC_SIM_PORT';
export const ENV_TLS_PORT = 'SVC_SIM_TLS_PORT';

export type Environment = Readonly<Record<string, string | undefined>>;

/** An empty variable counts as unset (as `SVC_SIM_PORT= npm start` usually means). */
function given(env: Environment, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function readPort(env: Environment, name: string, problems: ConfigProblem[]): number | undefined {
  const text = given(env, name);
  if (text === undefined) return undefined;
  const port = /^[0-9]{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (port >= 0 && port <= 65535) return port;
  problems.push({ path: name, expected: PORT_EXPECTATION, got: JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text) });
  return undefined;
}

/** The variable that sets each key it can set (the command line names a bad value by it). */
export const ENV_KEYS: Readonly<Record<string, string>> = {
  [ENV_API_KEY]: 'sim.account.api_key',
  [ENV_API_SECRET]: 'sim.account.api_secret',
  [ENV_PORT]: 'sim.port',
  [ENV_TLS_PORT]: 'sim.tls_port',
};

/**
 * The tree the SVC_SIM_* variables that are set give (only their keys). Throws one ConfigError
 * naming every malformed variable.
 */
export function envOverrides(env: Environment): SimConfigInput {
  const problems: ConfigProblem[] = [];
  const port = readPort(env, ENV_PORT, problems);
  const tlsPort = readPort(env, ENV_TLS_PORT, problems);
  if (problems.length > 0) throw new ConfigError(problems, 'environment');
  const apiKey = given(env, ENV_API_KEY);
  const apiSecret = given(env, ENV_API_SECRET);
  const account = { ...(apiKey === undefined ? {} : { api_key: apiKey }), ...(apiSecret === undefined ? {} : { api_secret: apiSecret }) };
  const sim = {
    ...(port === undefined ? {} : { port }),
    ...(tlsPort === undefined ? {} : { tls_port: tlsPort }),
    ...(Object.keys(account).length === 0 ? {} : { account }),
  };
  return Object.keys(sim).length === 0 ? {} : { sim };
}

/**
 * Returns a new tree with the SVC_SIM_* variables applied over `input` (which is not changed).
 * Throws one ConfigError naming every malformed variable.
 */
export function applyEnvOverrides(input: SimConfigInput, env: Environment): SimConfigInput {
  const overrides = envOverrides(env);
  if (overrides.sim === undefined) return cloneTree(input) as SimConfigInput;
  return deepMerge(input, overrides) as SimConfigInput;
}
