// The reference's order rules of one `[[instruments]]` entry, for `[sim] order_types =
// "reference"`: which order types the symbol takes, its feature flags and the figures of its
// order filters, as exchangeInfo names them (`orderTypes`, `icebergAllowed`, ICEBERG_PARTS,
// TRAILING_DELTA, MAX_NUM_ALGO_ORDERS, ...). Every key is optional: a key left out keeps the
// value the reference exchange's spot symbols have (the simulator's edge fills them in). With
// `order_types = "spec"` none of them may be set: the spec's three types have no such rules.
import { type Invalid, type JsonSchema, type ProblemList, type Reader, readBoolean, readInteger, withSchema } from './fields.ts';
import { optional } from './table.ts';
import type { InstrumentConfig, OrderTypeName } from './types.ts';

/** Every order type of the reference exchange the simulator serves (enums.md "Order types", without pegs). */
export const ORDER_TYPE_NAMES: readonly OrderTypeName[] = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

const ORDER_TYPES_SCHEMA: JsonSchema = { type: 'array', items: { type: 'string', enum: ORDER_TYPE_NAMES }, minItems: 1, uniqueItems: true };
const ORDER_TYPES_EXPECTED = `a non-empty array of distinct order types (${ORDER_TYPE_NAMES.map((t) => `"${t}"`).join(', ')})`;

/** `order_types`: the types the symbol takes (exchangeInfo `orderTypes`), in the order given. */
const readOrderTypes: Reader<readonly OrderTypeName[]> = withSchema((value: unknown, path: string, problems: ProblemList): readonly OrderTypeName[] | Invalid => {
  if (!Array.isArray(value) || value.length === 0) return problems.found(path, ORDER_TYPES_EXPECTED, value);
  const seen = new Set<string>();
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string' || !(ORDER_TYPE_NAMES as readonly string[]).includes(item)) return problems.found(`${path}[${i}]`, `one of ${ORDER_TYPE_NAMES.join(', ')}`, item);
    if (seen.has(item)) return problems.found(`${path}[${i}]`, 'an order type not already listed', item);
    seen.add(item);
  }
  return value as OrderTypeName[];
}, ORDER_TYPES_SCHEMA);

/** A count limit of a MAX_NUM_* filter or ICEBERG_PARTS: bounded so a typo cannot disable the check. */
const filterCount = readInteger({ min: 1, max: 1_000_000 });
/** TRAILING_DELTA bounds, in BIPS (1 = 0.01 %): at most 10000 (100 %). */
const trailingBips = readInteger({ min: 1, max: 10_000, expected: 'a whole number of basis points from 1 to 10000' });

export const INSTRUMENT_ORDER_SPEC = {
  order_types: optional(readOrderTypes),
  iceberg_allowed: optional(readBoolean),
  oco_allowed: optional(readBoolean),
  oto_allowed: optional(readBoolean),
  quote_order_qty_market_allowed: optional(readBoolean),
  allow_trailing_stop: optional(readBoolean),
  cancel_replace_allowed: optional(readBoolean),
  amend_allowed: optional(readBoolean),
  iceberg_parts: optional(filterCount),
  max_num_algo_orders: optional(filterCount),
  max_num_iceberg_orders: optional(filterCount),
  max_num_order_lists: optional(filterCount),
  min_trailing_above_delta: optional(trailingBips),
  max_trailing_above_delta: optional(trailingBips),
  min_trailing_below_delta: optional(trailingBips),
  max_trailing_below_delta: optional(trailingBips),
};

export type InstrumentOrderKey = keyof typeof INSTRUMENT_ORDER_SPEC;
export const INSTRUMENT_ORDER_KEYS = Object.keys(INSTRUMENT_ORDER_SPEC) as InstrumentOrderKey[];

/** A TRAILING_DELTA minimum above its maximum would refuse every trailing stop of that direction. */
export function checkTrailingBounds(fields: Partial<InstrumentConfig>, path: string, problems: ProblemList): void {
  for (const side of ['above', 'below'] as const) {
    const min = fields[`min_trailing_${side}_delta`];
    const max = fields[`max_trailing_${side}_delta`];
    if (min !== undefined && max !== undefined && min > max) problems.note(`${path}.min_trailing_${side}_delta`, `at most max_trailing_${side}_delta (${max})`, String(min));
  }
}

/** With `[sim] order_types = "spec"` an instrument's order rules would never apply: each one set is a problem. */
export function checkOrderRulesNeedReference(fields: Partial<InstrumentConfig>, path: string, problems: ProblemList): void {
  for (const key of INSTRUMENT_ORDER_KEYS) {
    if (fields[key] !== undefined) problems.note(`${path}.${key}`, 'no value while [sim] order_types = "spec" (the spec\'s LIMIT, LIMIT_MAKER and MARKET have no such rule); set [sim] order_types = "reference" to use it', JSON.stringify(fields[key]));
  }
}
