// Environment overrides (spec 1.8, API.md section 1): SVC_SIM_API_KEY / SVC_SIM_API_SECRET
// replace sim.account.api_key / api_secret; SVC_SIM_PORT / SVC_SIM_TLS_PORT move the listeners.
// Only the command line applies them: `startSimulator` reads no environment (API.md section 6).
import { ConfigError, type ConfigProblem } from './errors.ts';
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
  problems.push({ path: name, expected: 'an integer port from 0 to 65535', got: JSON.stringify(text) });
  return undefined;
}

/**
 * Returns a new tree with the SVC_SIM_* variables applied over `input` (which is not changed).
 * Throws one ConfigError naming every malformed variable.
 */
export function applyEnvOverrides(input: SimConfigInput, env: Environment): SimConfigInput {
  const problems: ConfigProblem[] = [];
  const port = readPort(env, ENV_PORT, problems);
  const tlsPort = readPort(env, ENV_TLS_PORT, problems);
  if (problems.length > 0) throw new ConfigError(problems, 'environment');
  const apiKey = given(env, ENV_API_KEY);
  const apiSecret = given(env, ENV_API_SECRET);
  const overrides = {
    sim: {
      ...(port === undefined ? {} : { port }),
      ...(tlsPort === undefined ? {} : { tls_port: tlsPort }),
      ...(apiKey === undefined && apiSecret === undefined ? {} : { account: { api_key: apiKey, api_secret: apiSecret } }),
    },
  };
  if (Object.keys(overrides.sim).length === 0) return cloneTree(input) as SimConfigInput;
  // deepMerge skips undefined values, so an unset variable leaves its key as it was.
  return deepMerge(input, overrides) as SimConfigInput;
}
