// The command line of API.md section 1, as a pure function of argv and the environment so it
// can be tested. Precedence: embedded defaults < config file < flags < SVC_SIM_* environment.
import { parseArgs } from 'node:util';
import { applyEnvOverrides, type Environment } from './env.ts';
import { UsageError } from './errors.ts';
import { attributeTo, readConfigFileTree } from './load.ts';
import { deepMerge } from './merge.ts';
import { resolveConfig } from './resolve.ts';
import type { Config, SimConfigInput } from './types.ts';

export const USAGE = `Usage: spot-sim [options]   (npx spot-sim; in its own repository: npm start -- [options])

Options:
  --config FILE            TOML configuration (default: the embedded default,
                           documented in fixtures/config/default.toml)
  --seed N                 generator seed (sim.seed)
  --port N                 plain HTTP/WS port, 0 = any free port (sim.port)
  --tls-port N             TLS port, 0 = any free port (sim.tls_port)
  --bind ADDR              listen address (sim.bind)
  --stats-interval-ms N    stats line period, 0 = off (sim.stats_interval_ms)
  --quiet                  print only the startup summary
  --help                   print this help
  --version                print the version

Environment (overrides the file and the flags):
  SVC_SIM_API_KEY, SVC_SIM_API_SECRET, SVC_SIM_PORT, SVC_SIM_TLS_PORT

Exit codes: 0 success, 2 usage or configuration error, 1 runtime failure.`;

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly config: Config; readonly quiet: boolean };

const OPTIONS = {
  config: { type: 'string' },
  seed: { type: 'string' },
  port: { type: 'string' },
  'tls-port': { type: 'string' },
  bind: { type: 'string' },
  'stats-interval-ms': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // node:util reports unknown flags, missing values and positionals as TypeErrors.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function integerFlag(name: string, text: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value <= max)) {
    const range = max === 65535 ? 'an integer from 0 to 65535' : 'a non-negative integer';
    throw new UsageError(`--${name}: expected ${range}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function stringFlag(name: string, text: string | undefined): string | undefined {
  if (text === '') throw new UsageError(`--${name}: expected a non-empty value`);
  return text;
}

/** The flags as a configuration tree (only the flags that were given). */
function flagsTree(values: ReturnType<typeof parseFlags>): SimConfigInput {
  return {
    sim: {
      seed: integerFlag('seed', values.seed),
      port: integerFlag('port', values.port, 65535),
      tls_port: integerFlag('tls-port', values['tls-port'], 65535),
      bind: stringFlag('bind', values.bind),
      stats_interval_ms: integerFlag('stats-interval-ms', values['stats-interval-ms']),
    },
  };
}

/**
 * Parses the command line and resolves the configuration it names. Throws UsageError for a
 * bad flag and ConfigError for a bad configuration (both: exit code 2).
 */
export function parseCliArgs(argv: readonly string[], env: Environment): CliCommand {
  const values = parseFlags(argv);
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const configFile = stringFlag('config', values.config);
  const fileTree = configFile === undefined ? {} : readConfigFileTree(configFile);
  // deepMerge skips the undefined values of flags that were not given.
  const tree = applyEnvOverrides(deepMerge(fileTree, flagsTree(values)) as SimConfigInput, env);
  const source = configFile === undefined ? undefined : `${configFile}, with flags and SVC_SIM_* applied`;
  const config = attributeTo(source, () => resolveConfig(tree));
  return { kind: 'run', config, quiet: values.quiet === true };
}
