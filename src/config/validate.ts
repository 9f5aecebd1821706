// Turns a complete configuration tree (defaults already merged in) into the resolved Config:
// every key checked, decimals normalised, balances filled in, inactive instruments dropped.
// All problems are collected and thrown as ONE ConfigError (API.md section 2).
import { Decimal } from 'decimal.js';
import { resolveBalances, readConfiguredBalances } from './balances.ts';
import { ConfigError } from './errors.ts';
import { INVALID, ProblemList } from './fields.ts';
import { checkOrderRulesNeedReference } from './instrument-orders.ts';
import { ALL_VENUES, isActive, readInstruments, type InstrumentEntry } from './instruments.ts';
import { ROOT_SPEC, type GENERATOR_SPEC, type SIM_SPEC } from './sections.ts';
import { checkReplayEntries } from './replay.ts';
import { checkSharedStartMid, readSymbolOverrides } from './symbols.ts';
import { readTable, type TableResult } from './table.ts';
import type { Config, InstrumentConfig, SymbolOverrides } from './types.ts';

type SimValues = TableResult<typeof SIM_SPEC>;

export function validateConfigTree(tree: unknown): Config {
  const problems = new ProblemList();
  const root = readTable(tree, '', ROOT_SPEC, problems);
  if (root === INVALID) throw new ConfigError(problems.items);
  // Partial: a key whose value had a problem is absent (see readTable).
  const sim: Partial<SimValues> = root.sim ?? {};
  const read = root.instruments === undefined ? INVALID : readInstruments(root.instruments, problems);
  const entries = read === INVALID ? undefined : read;

  if (sim.generator !== undefined) checkGeneratorNotionals(sim.generator, problems);
  const overrides = sim.symbols === undefined ? new Map<string, SymbolOverrides>() : readSymbolOverrides(sim.symbols, entries, problems);
  const balances = sim.account?.balances === undefined ? new Map<string, string>() : readConfiguredBalances(sim.account.balances, entries, problems);
  const active = sim.venue === undefined || entries === undefined ? [] : selectActive(entries, sim.venue, problems);
  if (sim.history !== undefined && entries !== undefined) checkHistorySymbols(sim.history.klines, active, problems);
  if (sim.replay !== undefined && entries !== undefined) checkReplayEntries(sim.replay, active, (sim.history?.klines ?? []).map((k) => k.symbol), problems);
  if (sim.start_mid !== undefined) checkSharedStartMid(sim.start_mid, active, overrides, problems);
  if (sim.order_types === 'spec') for (const entry of entries ?? []) checkOrderRulesNeedReference(entry.fields, entry.path, problems);

  if (!problems.isEmpty) throw new ConfigError(problems.items);
  const complete = sim as SimValues;
  const { balances: _rawBalances, ...account } = complete.account;
  const activeSymbols = new Set(active.map((instrument) => instrument.symbol));
  return {
    engine: { net_backend: root.engine.net_backend },
    sim: {
      ...complete,
      account: { ...account, balances: resolveBalances(balances, active) },
      // Overrides of inactive instruments go with them, like their balances.
      symbols: Object.fromEntries([...overrides].filter(([symbol]) => activeSymbols.has(symbol))),
    },
    instruments: active,
  };
}

/** Spec 2.1 / API.md section 2: `enabled = false` skips an instrument, `[sim] venue` filters. */
function selectActive(entries: readonly InstrumentEntry[], venue: string, problems: ProblemList): InstrumentConfig[] {
  const active = entries
    .filter((entry) => isActive(entry.fields, venue))
    .flatMap((entry) => (entry.instrument === undefined ? [] : [entry.instrument]));
  const everyEntryRead = entries.every((entry) => entry.instrument !== undefined);
  if (active.length === 0 && everyEntryRead) {
    const which = venue === ALL_VENUES ? 'an enabled instrument' : `an enabled instrument of venue "${venue}" ([sim] venue)`;
    problems.note('instruments', `at least ${which}`, `none of ${entries.length} configured`);
  }
  return active;
}

/** API.md section 9: a kline CSV names an active instrument, at most once. */
function checkHistorySymbols(klines: readonly { symbol: string }[], active: readonly InstrumentConfig[], problems: ProblemList): void {
  const seen = new Set<string>();
  klines.forEach((entry, i) => {
    const path = `sim.history.klines[${i}].symbol`;
    if (!active.some((inst) => inst.symbol === entry.symbol)) problems.note(path, 'the symbol of an active instrument', JSON.stringify(entry.symbol));
    else if (seen.has(entry.symbol)) problems.note(path, 'one entry per symbol', JSON.stringify(entry.symbol));
    seen.add(entry.symbol);
  });
}

function checkGeneratorNotionals(generator: Partial<TableResult<typeof GENERATOR_SPEC>>, problems: ProblemList): void {
  for (const kind of ['limit', 'market'] as const) {
    const min = generator[`${kind}_notional_min`];
    const max = generator[`${kind}_notional_max`];
    if (min !== undefined && max !== undefined && new Decimal(min).gt(new Decimal(max))) {
      problems.note(`sim.generator.${kind}_notional_min`, `at most ${kind}_notional_max (${max})`, JSON.stringify(min));
    }
  }
}
