// `[sim.symbols.<SYM>]` per-symbol overrides (spec 2.1: start_mid, max_notional) and the
// start-mid grid rule: every active instrument starts at a latent mid on its own tick grid.
import { Decimal } from 'decimal.js';
import { isOnPowerOfTenGrid } from './decimal.ts';
import { INVALID, NAME_PATTERN, joinPath, readPositiveDecimal, type ProblemList } from './fields.ts';
import type { InstrumentEntry } from './instruments.ts';
import { optional, readTable } from './table.ts';
import type { InstrumentConfig, SymbolOverrides } from './types.ts';

export const SYMBOL_OVERRIDES_SPEC = {
  start_mid: optional(readPositiveDecimal),
  max_notional: optional(readPositiveDecimal),
};

/**
 * Reads every `sim.symbols.<SYM>` table. A key must name a configured instrument (enabled or
 * not): an override for a symbol that does not exist is a typo, never silently ignored.
 */
export function readSymbolOverrides(
  raw: Record<string, unknown>,
  entries: readonly InstrumentEntry[] | undefined,
  problems: ProblemList,
): Map<string, SymbolOverrides> {
  const bySymbol = new Map<string, Partial<InstrumentConfig>>();
  for (const entry of entries ?? []) {
    if (entry.fields.symbol !== undefined) bySymbol.set(entry.fields.symbol, entry.fields);
  }
  // Only claim "not an instrument" when every instrument's symbol could be read.
  const allSymbolsKnown = entries !== undefined && entries.every((entry) => entry.fields.symbol !== undefined);
  const overrides = new Map<string, SymbolOverrides>();
  for (const [symbol, value] of Object.entries(raw)) {
    const path = joinPath('sim.symbols', symbol);
    const instrument = bySymbol.get(symbol);
    if (!NAME_PATTERN.test(symbol) || (instrument === undefined && allSymbolsKnown)) {
      const configured = [...bySymbol.keys()].join(', ') || 'none';
      problems.found(path, `unknown key: not the symbol of a configured instrument (configured: ${configured})`, value);
      continue;
    }
    const read = readTable(value, path, SYMBOL_OVERRIDES_SPEC, problems);
    if (read === INVALID) continue;
    checkOverridesAgainstInstrument(read, instrument, path, problems);
    const result: { start_mid?: string; max_notional?: string } = {};
    if (read.start_mid !== undefined) result.start_mid = read.start_mid;
    if (read.max_notional !== undefined) result.max_notional = read.max_notional;
    overrides.set(symbol, result);
  }
  return overrides;
}

function checkOverridesAgainstInstrument(
  overrides: SymbolOverrides,
  instrument: Partial<InstrumentConfig> | undefined,
  path: string,
  problems: ProblemList,
): void {
  if (instrument === undefined) return;
  const { start_mid, max_notional } = overrides;
  if (start_mid !== undefined && instrument.tick !== undefined && !isOnPowerOfTenGrid(new Decimal(start_mid), new Decimal(instrument.tick))) {
    problems.note(`${path}.start_mid`, `a multiple of the tick ${instrument.tick} of ${instrument.symbol}`, JSON.stringify(start_mid));
  }
  if (max_notional !== undefined && instrument.min_notional !== undefined && new Decimal(max_notional).lt(new Decimal(instrument.min_notional))) {
    problems.note(
      `${path}.max_notional`,
      `at least the min_notional ${instrument.min_notional} of ${instrument.symbol}`,
      JSON.stringify(max_notional),
    );
  }
}

/**
 * `sim.start_mid` serves every active instrument that has no start_mid of its own, so it must
 * lie on each such instrument's tick grid (spec 2.1).
 */
export function checkSharedStartMid(
  startMid: string,
  active: readonly InstrumentConfig[],
  overrides: ReadonlyMap<string, SymbolOverrides>,
  problems: ProblemList,
): void {
  const mid = new Decimal(startMid);
  const offGrid = active.filter(
    (instrument) =>
      overrides.get(instrument.symbol)?.start_mid === undefined && !isOnPowerOfTenGrid(mid, new Decimal(instrument.tick)),
  );
  if (offGrid.length === 0) return;
  const ticks = offGrid.map((instrument) => `${instrument.symbol} tick ${instrument.tick}`).join(', ');
  problems.note(
    'sim.start_mid',
    `a multiple of the tick of every active instrument without its own sim.symbols.<SYM>.start_mid (${ticks})`,
    JSON.stringify(startMid),
  );
}
