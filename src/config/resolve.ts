// resolveConfig: the programmatic tree deep-merged over the embedded defaults, validated,
// normalised and frozen (API.md sections 3 and 6). `startSimulator({ config })` and the
// fixture use it; it reads no environment variables (API.md section 6).
import { DEFAULT_CONFIG } from './defaults.ts';
import { ConfigError, describeValue } from './errors.ts';
import { isTable } from './fields.ts';
import { deepFreeze } from './freeze.ts';
import { cloneTree, deepMerge } from './merge.ts';
import type { Config, SimConfigInput } from './types.ts';
import { validateConfigTree } from './validate.ts';

/** The symbols an input's own `instruments` array names, or undefined if it keeps the defaults'. */
function symbolsOfInputInstruments(input: Record<string, unknown>): Set<unknown> | undefined {
  const instruments = input['instruments'];
  if (instruments === undefined) return undefined;
  if (!Array.isArray(instruments)) return new Set();
  return new Set(instruments.map((item) => (isTable(item) ? item['symbol'] : undefined)));
}

/**
 * The defaults as a tree to merge the input over. The defaults' instrument-bound parts follow
 * their instruments: when the input replaces `instruments`, the default per-symbol overrides
 * stay only for symbols it still configures (so a user's ETHUSDT still starts at 3000, and a
 * replaced list does not inherit overrides for symbols it dropped). Default balances are left
 * out because the balance rule (100 per base asset, 10,000,000 per quote) recreates them for
 * whichever instruments are active.
 */
export function defaultTreeFor(input: Record<string, unknown>): Record<string, unknown> {
  const tree = cloneTree(DEFAULT_CONFIG) as { sim: { symbols: Record<string, unknown>; account: { balances: unknown } } };
  tree.sim.account.balances = {};
  const kept = symbolsOfInputInstruments(input);
  if (kept !== undefined) {
    tree.sim.symbols = Object.fromEntries(Object.entries(tree.sim.symbols).filter(([symbol]) => kept.has(symbol)));
  }
  return tree;
}

/**
 * Deep-merges `input` over the defaults (tables merge, arrays such as `instruments` replace,
 * `undefined` means not given), validates every key, normalises decimals, resolves balances
 * and the active instruments, and deep-freezes the result. Throws one ConfigError listing
 * every problem.
 * @example
 * const config = resolveConfig({ sim: { generator: { enabled: false } } });
 * console.log(config.sim.fees.taker_bps);   // '4'
 */
export function resolveConfig(input?: SimConfigInput | unknown): Config {
  if (input === undefined) return resolveTree({});
  if (!isTable(input)) {
    throw new ConfigError([{ path: '(root)', expected: 'a table (the configuration tree)', got: describeValue(input) }]);
  }
  return resolveTree(input);
}

function resolveTree(input: Record<string, unknown>): Config {
  return deepFreeze(validateConfigTree(deepMerge(defaultTreeFor(input), input)));
}
