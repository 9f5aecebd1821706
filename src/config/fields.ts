// Small readers for single configuration values. Each either returns the normalised value or
// records a problem (key path + what was expected) and returns INVALID, so validation goes on
// and one ConfigError lists every bad key (API.md section 2).
import type { Decimal } from 'decimal.js';
import { describeValue, type ConfigProblem } from './errors.ts';
import { canonicalDecimal, parseDecimal } from './decimal.ts';

export const INVALID: unique symbol = Symbol('invalid config value');
export type Invalid = typeof INVALID;

export class ProblemList {
  readonly items: ConfigProblem[] = [];

  /** Records a problem with the value that was found. */
  found(path: string, expected: string, value: unknown): Invalid {
    this.items.push({ path, expected, got: describeValue(value) });
    return INVALID;
  }

  /** Records a problem without a value to show (a missing key, a cross-key rule). */
  note(path: string, expected: string, got?: string): Invalid {
    this.items.push(got === undefined ? { path, expected } : { path, expected, got });
    return INVALID;
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }
}

export type Reader<T> = (value: unknown, path: string, problems: ProblemList) => T | Invalid;

/** A piece of JSON Schema (draft-07): what a reader accepts, for the schema editors complete from. */
export type JsonSchema = { readonly [keyword: string]: unknown };

const SCHEMAS = new WeakMap<Reader<unknown>, JsonSchema>();

/** Records what `reader` accepts as JSON Schema (schema.ts builds the file's schema from these). */
export function withSchema<T>(reader: Reader<T>, schema: JsonSchema): Reader<T> {
  SCHEMAS.set(reader, schema);
  return reader;
}

/** The JSON Schema recorded for `reader`, if any. */
export function schemaOf(reader: Reader<unknown>): JsonSchema | undefined {
  return SCHEMAS.get(reader);
}

/** A decimal as TOML gives it: a plain decimal string (exact) or a number. */
const DECIMAL_SCHEMA = { type: ['string', 'number'], pattern: '^[0-9]+(\\.[0-9]+)?$' } as const;

/**
 * A TOML table as parsed (smol-toml gives null-prototype objects) or as written in code.
 * Dates (smol-toml's TomlDate extends Date) and arrays are not tables.
 */
export function isTable(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || proto === Object.prototype;
}

export const readBoolean: Reader<boolean> = withSchema(
  (value, path, problems) => (typeof value === 'boolean' ? value : problems.found(path, 'true or false', value)),
  { type: 'boolean' },
);

export const readNonEmptyString: Reader<string> = withSchema(
  (value, path, problems) => (typeof value === 'string' && value.length > 0 ? value : problems.found(path, 'a non-empty string', value)),
  { type: 'string', minLength: 1 },
);

const TOKEN = /^[\x21-\x7e]+$/;

/** Credentials travel in HTTP headers and signatures: no blanks or control characters. */
export const readToken: Reader<string> = withSchema(
  (value, path, problems) =>
    typeof value === 'string' && TOKEN.test(value) ? value : problems.found(path, 'a non-empty string of printable ASCII without spaces', value),
  { type: 'string', pattern: TOKEN.source },
);

export function readOneOf<T extends string>(allowed: readonly T[]): Reader<T> {
  const expected = allowed.map((item) => JSON.stringify(item)).join(' or ');
  return withSchema<T>(
    (value, path, problems) =>
      typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : problems.found(path, expected, value),
    { type: 'string', enum: allowed },
  );
}

/** Node timers overflow above 2^31-1 ms (they then fire after 1 ms), so timer periods stop there. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What a TCP port key or flag takes, in the words every message about one uses. */
export const PORT_EXPECTATION = 'a port number from 0 to 65535 (0: any free port)';

/** A listening port: 0 lets the system pick a free one. */
export const readPort = (): Reader<number> => readInteger({ min: 0, max: 65535, expected: PORT_EXPECTATION });

/** A period handed to a Node timer, in whole milliseconds from `min` to what a timer can hold. */
export const readTimerMs = (min: number): Reader<number> =>
  readInteger({ min, max: MAX_TIMER_MS, expected: `a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}` });

interface IntegerRule {
  readonly min?: number;
  readonly max?: number;
  /** The rule in a user's words when the bounds alone would not say it ("a port number ..."). */
  readonly expected?: string;
}

function integerExpectation({ min, max, expected }: IntegerRule): string {
  if (expected !== undefined) return expected;
  if (min !== undefined && max !== undefined) return `an integer from ${min} to ${max}`;
  if (min === 0) return 'a non-negative integer';
  if (min === 1) return 'a positive integer';
  if (min !== undefined) return `an integer >= ${min}`;
  return 'an integer';
}

export function readInteger(rule: IntegerRule = {}): Reader<number> {
  const expected = integerExpectation(rule);
  const schema = { type: 'integer', minimum: rule.min ?? Number.MIN_SAFE_INTEGER, maximum: rule.max ?? Number.MAX_SAFE_INTEGER };
  return withSchema<number>((value, path, problems) => {
    const isWhole = (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
    if (!isWhole) return problems.found(path, expected, value);
    // Beyond 2^53 a number is no longer exact (TOML gives such integers as bigint).
    if (typeof value === 'bigint' || !Number.isSafeInteger(value)) {
      return problems.found(path, `${expected} of at most ${Number.MAX_SAFE_INTEGER} in size`, value);
    }
    if (rule.min !== undefined && value < rule.min) return problems.found(path, expected, value);
    if (rule.max !== undefined && value > rule.max) return problems.found(path, expected, value);
    return Object.is(value, -0) ? 0 : value;
  }, schema);
}

/** The bounds of a rule as JSON Schema keywords (`minimum`, `exclusiveMinimum`, `maximum`, ...). */
type Bounds = { readonly minimum?: number; readonly exclusiveMinimum?: number; readonly maximum?: number; readonly exclusiveMaximum?: number };

interface NumberRule extends Bounds {
  /** Words for the accepted values, e.g. "a non-negative number". */
  readonly expected: string;
}

function withinBounds(value: number, { minimum, exclusiveMinimum, maximum, exclusiveMaximum }: Bounds): boolean {
  return !(
    (minimum !== undefined && value < minimum) ||
    (exclusiveMinimum !== undefined && value <= exclusiveMinimum) ||
    (maximum !== undefined && value > maximum) ||
    (exclusiveMaximum !== undefined && value >= exclusiveMaximum)
  );
}

/** A finite number (TOML integer or float) within the rule's bounds. */
export function readNumber({ expected, ...bounds }: NumberRule): Reader<number> {
  return withSchema<number>((value, path, problems) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || !withinBounds(value, bounds)) {
      return problems.found(path, expected, value);
    }
    return Object.is(value, -0) ? 0 : value;
  }, { type: 'number', ...bounds });
}

interface DecimalRule {
  /** Words for the accepted values, e.g. "a positive decimal". */
  readonly expected: string;
  readonly accept: (value: Decimal) => boolean;
  /**
   * `accept` as JSON Schema keywords beyond "a decimal" (bounds for numbers, a stricter pattern
   * for strings), or the whole schema when it is an `anyOf`.
   */
  readonly schema?: JsonSchema;
}

const DECIMAL_FORMAT_HINT = ' (a number, or a string of digits with an optional fraction: no sign, no exponent)';

/** Reads a decimal and returns its canonical string (see decimal.ts). */
export function readDecimal(rule: DecimalRule): Reader<string> {
  return withSchema<string>((value, path, problems) => {
    const parsed = parseDecimal(value);
    if (!parsed.ok) {
      const hint = parsed.reason === 'negative' ? '' : DECIMAL_FORMAT_HINT;
      return problems.found(path, `${rule.expected}${hint}`, value);
    }
    if (!rule.accept(parsed.value)) return problems.found(path, rule.expected, value);
    return canonicalDecimal(parsed.value);
  }, rule.schema?.['anyOf'] !== undefined ? rule.schema : { ...DECIMAL_SCHEMA, minimum: 0, ...rule.schema });
}

export const readPositiveDecimal = readDecimal({
  expected: 'a positive decimal',
  accept: (value) => !value.isZero(),
  // A string "0" passes the schema; the simulator's own check refuses it.
  schema: { exclusiveMinimum: 0 },
});

export const readNonNegativeDecimal = readDecimal({
  expected: 'a non-negative decimal',
  accept: () => true,
});

/** Exchange names: assets and symbols (spec 2.1), also used as TOML table keys. */
export const NAME_PATTERN = /^[A-Z0-9]+$/;

export const readName: Reader<string> = withSchema(
  (value, path, problems) =>
    typeof value === 'string' && NAME_PATTERN.test(value) ? value : problems.found(path, 'a non-empty uppercase name of A-Z and 0-9', value),
  { type: 'string', pattern: NAME_PATTERN.source },
);

/** Edit distance counting an adjacent swap as one edit ("prot" -> "port"), for typo hints. */
function editDistance(a: string, b: string): number {
  // One flat row-major table (a.length + 1) x (b.length + 1); at(i, j) reads a cell that is always set.
  const width = b.length + 1;
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i += 1) d[i * width] = i;
  for (let j = 0; j <= b.length; j += 1) d[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * width + j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known names within a typo or two of `key` (case aside), for "did you mean" hints. */
export function closeMatches(key: string, known: readonly string[]): string[] {
  const tolerance = key.length >= 5 ? 2 : 1;
  return known.filter((candidate) => editDistance(key.toLowerCase(), candidate.toLowerCase()) <= tolerance);
}

/** The `expected` text of an unknown key: starts with "unknown key", suggests a close known key. */
export function unknownKeyExpectation(key: string, known: readonly string[]): string {
  const close = closeMatches(key, known);
  const suggestion = close.length > 0 ? `; did you mean ${close.map((name) => `"${name}"`).join(' or ')}?` : '';
  return `unknown key${suggestion} (known here: ${known.join(', ')})`;
}

export function joinPath(parent: string, key: string): string {
  // Keys that are not bare TOML keys are quoted, so the path stays unambiguous.
  const bare = /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
  return parent === '' ? bare : `${parent}.${bare}`;
}
