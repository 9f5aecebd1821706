// Loading a configuration: a TOML file, a programmatic tree, or both (API.md section 3:
// `startSimulator({ configFile?, config? })`). Order: defaults < file < programmatic tree.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './errors.ts';
import { deepMerge } from './merge.ts';
import { resolveConfig } from './resolve.ts';
import { parseConfigToml } from './toml.ts';
import { resolveConfigPaths } from './paths.ts';
import type { Config, SimConfigInput } from './types.ts';

// The public names of the configuration module, also reachable from here.
export { ConfigError, type ConfigProblem } from './errors.ts';
export { resolveConfig } from './resolve.ts';
export { parseConfigToml } from './toml.ts';
export { applyEnvOverrides } from './env.ts';
export type * from './types.ts';

export interface LoadConfigOptions {
  /** A TOML file (every key: docs/reference/configuration.md). */
  readonly configFile?: string;
  /** A tree merged over the file's tree (tables merge, arrays replace). */
  readonly config?: SimConfigInput;
}

/**
 * Reads and parses a TOML file into a tree, without resolving it. Relative file paths in it
 * (tls_cert, tls_key, ed25519_public_key_file) are made absolute against the file's directory.
 */
export function readConfigFileTree(path: string): SimConfigInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path, expected: 'a readable TOML configuration file', got: reason }], path);
  }
  return resolveConfigPaths(parseConfigToml(text, path), dirname(path));
}

/** Runs `resolve`, naming `source` in any ConfigError it throws. */
export function attributeTo<T>(source: string | undefined, resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    if (source !== undefined && error instanceof ConfigError && error.source === undefined) throw error.withSource(source);
    throw error;
  }
}

export function loadConfigFile(path: string): Config {
  const tree = readConfigFileTree(path);
  return attributeTo(path, () => resolveConfig(tree));
}

/**
 * The resolved configuration the simulator would start with: a TOML file (`configFile`, relative
 * paths in it against its folder) and/or a tree (`config`) deep-merged over it, over the defaults.
 * Throws one ConfigError listing every problem.
 * @example
 * const config = loadConfig({ configFile: 'sim.toml', config: { sim: { seed: 42 } } });
 * console.log(config.sim.seed, config.instruments.map((i) => i.symbol));
 */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const { configFile } = options;
  // A programmatic tree's relative paths are the caller's: against the working directory.
  const config = options.config === undefined ? undefined : resolveConfigPaths(options.config, process.cwd());
  if (configFile === undefined) return resolveConfig(config);
  const tree = deepMerge(readConfigFileTree(configFile), config);
  const source = config === undefined ? configFile : `${configFile} with the programmatic config over it`;
  return attributeTo(source, () => resolveConfig(tree));
}
