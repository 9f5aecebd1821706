// `[sim.account.balances]` (spec 2.3): starting balance per asset. Unset assets of the active
// instruments start with 100 if they are the base of an active instrument, else 10,000,000
// (the quote default). The resolved map lists exactly the assets of the active instruments.
import { INVALID, NAME_PATTERN, joinPath, readDecimal, type ProblemList } from './fields.ts';
import type { InstrumentEntry } from './instruments.ts';
import type { InstrumentConfig } from './types.ts';

export const DEFAULT_BASE_BALANCE = '100';
export const DEFAULT_QUOTE_BALANCE = '10000000';

const PATH = 'sim.account.balances';

/**
 * 8 decimals: what the reference sends for every amount (issue 18: never more than 8 decimals on
 * anything sent); with tick + lot at most 8 decimals too, every balance stays on that grid.
 */
export const readBalance = readDecimal({
  expected: 'a non-negative decimal with at most 8 decimals',
  accept: (value) => value.decimalPlaces() <= 8,
  schema: { pattern: '^[0-9]+(\\.[0-9]{1,8})?$' },
});

/**
 * Reads the configured balances. A key must be an asset of some configured instrument (enabled
 * or not), so a misspelt asset is reported instead of silently creating an unused balance.
 */
export function readConfiguredBalances(
  raw: Record<string, unknown>,
  entries: readonly InstrumentEntry[] | undefined,
  problems: ProblemList,
): Map<string, string> {
  const assets = new Set<string>();
  for (const entry of entries ?? []) {
    if (entry.fields.base !== undefined) assets.add(entry.fields.base);
    if (entry.fields.quote !== undefined) assets.add(entry.fields.quote);
  }
  const allAssetsKnown =
    entries !== undefined && entries.every((entry) => entry.fields.base !== undefined && entry.fields.quote !== undefined);
  const balances = new Map<string, string>();
  for (const [asset, value] of Object.entries(raw)) {
    const path = joinPath(PATH, asset);
    if (!NAME_PATTERN.test(asset) || (allAssetsKnown && !assets.has(asset))) {
      const known = [...assets].sort().join(', ') || 'none';
      problems.found(path, `unknown key: not an asset of any configured instrument (assets: ${known})`, value);
      continue;
    }
    const balance = readBalance(value, path, problems);
    if (balance !== INVALID) balances.set(asset, balance);
  }
  return balances;
}

/** Every asset of the active instruments, in alphabetical order, with its starting balance. */
export function resolveBalances(
  configured: ReadonlyMap<string, string>,
  active: readonly InstrumentConfig[],
): Record<string, string> {
  const bases = new Set(active.map((instrument) => instrument.base));
  const assets = [...new Set(active.flatMap((instrument) => [instrument.base, instrument.quote]))].sort();
  const resolved: Record<string, string> = {};
  for (const asset of assets) {
    resolved[asset] = configured.get(asset) ?? (bases.has(asset) ? DEFAULT_BASE_BALANCE : DEFAULT_QUOTE_BALANCE);
  }
  return resolved;
}
