// The command line of API.md section 1, as a pure function of argv and the environment so it
// can be tested. Precedence: embedded defaults < config file < SVC_SIM_* environment < flags
// (what was typed on the command line wins, as in every common CLI).
import { ENV_KEYS, envOverrides, type Environment } from './env.ts';
import { ConfigError, UsageError, type ConfigProblem } from './errors.ts';
import { flagsTree, logFormatFlag, parseFlags, stringFlag, type LogFormat } from './cli-flags.ts';
import { isTable } from './fields.ts';
import { readConfigFileTree } from './load.ts';
import { deepMerge } from './merge.ts';
import { treeGives, type SourceOf } from './print-config.ts';
import { resolveConfig } from './resolve.ts';
import type { Config, SimConfigInput } from './types.ts';

export { USAGE, type LogFormat } from './cli-flags.ts';

/** A configuration as the command line resolved it, and where each of its values came from. */
export interface CliConfig {
  readonly config: Config;
  readonly sourceOf: SourceOf;
  /** The `--config` file, when one was given. */
  readonly configFile: string | undefined;
}

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | ({ readonly kind: 'check-config' } & CliConfig)
  | ({ readonly kind: 'print-config' } & CliConfig)
  | ({ readonly kind: 'run'; readonly quiet: boolean; readonly logFormat: LogFormat } & CliConfig);

/** The dotted key paths a tree sets (its leaves; an array is one leaf). */
function leafPaths(tree: unknown, prefix = ''): string[] {
  if (!isTable(tree)) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => leafPaths(value, prefix === '' ? key : `${prefix}.${key}`));
}

/** A problem at a key a variable or flag set is named by that variable or flag, as the user typed it. */
function renamed(problem: ConfigProblem, setBy: ReadonlyMap<string, string>): ConfigProblem {
  const by = setBy.get(problem.path);
  return by === undefined ? problem : { ...problem, path: by };
}

/**
 * Parses the command line and resolves the configuration it names. Throws UsageError for a
 * bad flag and ConfigError for a bad configuration (both: exit code 2).
 */
export function parseCliArgs(argv: readonly string[], env: Environment): CliCommand {
  const given = parseFlags(argv);
  if (given.has('help')) return { kind: 'help' };
  if (given.has('version')) return { kind: 'version' };
  if (given.has('check-config') && given.has('print-config')) throw new UsageError('--check-config and --print-config: give one of them');
  const logFormat = logFormatFlag(given);
  const flags = flagsTree(given);
  const configFile = stringFlag(given, 'config');
  const fileTree = configFile === undefined ? {} : readConfigFileTree(configFile);
  const envTree = envOverrides(env);
  const byVariable = new Map(Object.entries(ENV_KEYS).map(([variable, key]) => [key, variable]));
  const setBy = new Map<string, string>([...leafPaths(envTree).map((path): [string, string] => [path, byVariable.get(path)!]), ...flags.setBy]);
  // deepMerge skips the undefined values of flags that were not given.
  const tree = deepMerge(deepMerge(fileTree, envTree), flags.tree) as SimConfigInput;
  let config: Config;
  try {
    config = resolveConfig(tree);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(error.problems.map((problem) => renamed(problem, setBy)), configFile);
  }
  const sourceOf: SourceOf = (path) => {
    const by = setBy.get(path.join('.'));
    if (by !== undefined) return by.startsWith('--') ? { kind: 'flag', flag: by } : { kind: 'env', variable: by };
    return configFile !== undefined && treeGives(fileTree, path) ? { kind: 'file', file: configFile } : { kind: 'default' };
  };
  const resolved = { config, sourceOf, configFile };
  if (given.has('check-config')) return { kind: 'check-config', ...resolved };
  if (given.has('print-config')) return { kind: 'print-config', ...resolved };
  return { kind: 'run', quiet: given.has('quiet'), logFormat, ...resolved };
}
