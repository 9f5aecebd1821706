// `[[instruments]]` (spec 2.1, API.md section 2): reading each entry, its own consistency
// rules, and the selection of the active ones (`enabled`, `[sim] venue`).
import { Decimal } from 'decimal.js';
import { isOnPowerOfTenGrid, isPowerOfTenStep } from './decimal.ts';
import {
  INVALID,
  readBoolean,
  readDecimal,
  readName,
  readNonEmptyString,
  readNonNegativeDecimal,
  readPositiveDecimal,
  type Invalid,
  type ProblemList,
} from './fields.ts';
import { checkTrailingBounds, INSTRUMENT_ORDER_SPEC } from './instrument-orders.ts';
import { optional, readTable, required } from './table.ts';
import type { InstrumentConfig } from './types.ts';

/** `[sim] venue` value that keeps every instrument (spec 2.1: default "all"). */
export const ALL_VENUES = 'all';
/** Instruments that do not name a venue belong to this one. */
export const DEFAULT_VENUE = 'binance';

/** The decimals every amount is sent with (binance-facts: 8); a notional has tick + lot of them. */
const MAX_NOTIONAL_DECIMALS = 8;

/** Spec 2.1: tick and lot are power-of-ten steps; Binance's finest step is 8 decimals. */
const readStep = readDecimal({
  expected: 'a power of ten from 0.00000001 to 1 (such as "0.01" or "1")',
  accept: isPowerOfTenStep,
  schema: {
    anyOf: [
      { type: 'string', pattern: '^0*1(\\.0+)?$|^0+\\.0{0,7}10*$' },
      { type: 'number', enum: [1, 0.1, 0.01, 0.001, 0.0001, 0.00001, 0.000001, 0.0000001, 0.00000001] },
    ],
  },
});

export const INSTRUMENT_SPEC = {
  symbol: required(readName),
  base: required(readName),
  quote: required(readName),
  tick: required(readStep),
  lot: required(readStep),
  min_qty: required(readPositiveDecimal),
  max_qty: required(readPositiveDecimal),
  min_notional: required(readNonNegativeDecimal),
  enabled: optional(readBoolean),
  venue: optional(readNonEmptyString),
  ...INSTRUMENT_ORDER_SPEC,
};

/** One `[[instruments]]` entry as far as it could be read; `instrument` only when it had no problem. */
export interface InstrumentEntry {
  readonly path: string;
  readonly fields: Partial<InstrumentConfig>;
  readonly instrument: InstrumentConfig | undefined;
}

export function instrumentPath(index: number): string {
  return `instruments[${index}]`;
}

export function readInstruments(value: unknown, problems: ProblemList): readonly InstrumentEntry[] | Invalid {
  if (!Array.isArray(value)) return problems.found('instruments', 'an array of instrument tables', value);
  const entries = value.map((raw, index) => readInstrument(raw, instrumentPath(index), problems));
  reportDuplicateSymbols(entries, problems);
  return entries;
}

function readInstrument(raw: unknown, path: string, problems: ProblemList): InstrumentEntry {
  const before = problems.items.length;
  const read = readTable(raw, path, INSTRUMENT_SPEC, problems);
  if (read === INVALID) return { path, fields: {}, instrument: undefined };
  const fields: Partial<InstrumentConfig> = {
    ...(read as Partial<InstrumentConfig>),
    enabled: read.enabled ?? true,
    venue: read.venue ?? DEFAULT_VENUE,
  };
  checkInstrumentConsistency(fields, path, problems);
  // With no problem recorded every required key is present: the fields are a whole instrument.
  const instrument = problems.items.length === before ? (fields as InstrumentConfig) : undefined;
  return { path, fields, instrument };
}

/** Rules across keys of one entry; each only when the keys it compares were valid. */
function checkInstrumentConsistency(fields: Partial<InstrumentConfig>, path: string, problems: ProblemList): void {
  const { base, quote, tick, lot, min_qty, max_qty } = fields;
  // Issue 18: a notional (price x quantity) has tick + lot decimals; beyond 8 its balances and
  // commissions could not be sent at the 8 decimals the reference sends, so the pair is refused.
  if (tick !== undefined && lot !== undefined) {
    const decimals = new Decimal(tick).decimalPlaces() + new Decimal(lot).decimalPlaces();
    if (decimals > MAX_NOTIONAL_DECIMALS) {
      problems.note(`${path}.lot`, `tick and lot decimals at most ${MAX_NOTIONAL_DECIMALS} together (tick ${tick} has ${new Decimal(tick).decimalPlaces()})`, JSON.stringify(lot));
    }
  }
  if (base !== undefined && quote !== undefined && base === quote) {
    problems.note(`${path}.quote`, `an asset other than the base asset ${base}`, JSON.stringify(quote));
  }
  if (lot !== undefined) {
    const step = new Decimal(lot);
    for (const [key, qty] of [['min_qty', min_qty], ['max_qty', max_qty]] as const) {
      if (qty !== undefined && !isOnPowerOfTenGrid(new Decimal(qty), step)) {
        problems.note(`${path}.${key}`, `a multiple of lot ${lot}`, JSON.stringify(qty));
      }
    }
  }
  if (min_qty !== undefined && max_qty !== undefined && new Decimal(min_qty).gt(new Decimal(max_qty))) {
    problems.note(`${path}.min_qty`, `at most max_qty (${max_qty})`, JSON.stringify(min_qty));
  }
  checkTrailingBounds(fields, path, problems);
}

function reportDuplicateSymbols(entries: readonly InstrumentEntry[], problems: ProblemList): void {
  const firstPathOf = new Map<string, string>();
  for (const entry of entries) {
    const symbol = entry.fields.symbol;
    if (symbol === undefined) continue;
    const first = firstPathOf.get(symbol);
    if (first === undefined) firstPathOf.set(symbol, entry.path);
    else problems.note(`${entry.path}.symbol`, `a symbol not already used by ${first}`, JSON.stringify(symbol));
  }
}

/** Spec 2.1: a disabled instrument is skipped; `[sim] venue` keeps one venue's instruments. */
export function isActive(fields: Partial<InstrumentConfig>, venue: string): boolean {
  if (fields.enabled === false) return false;
  return venue === ALL_VENUES || (fields.venue ?? DEFAULT_VENUE) === venue;
}
