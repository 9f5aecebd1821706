// Reads one TOML table against a list of known keys: unknown keys and missing required keys
// are problems (API.md section 2: never silently ignored), every known key goes through its
// reader, and reading carries on past a bad key so all problems are reported together.
import { INVALID, isTable, joinPath, unknownKeyExpectation, withSchema, type Invalid, type ProblemList, type Reader } from './fields.ts';

export interface FieldSpec<T> {
  readonly read: Reader<T>;
  /** Optional keys may be absent from the tree; they are then absent from the result. */
  readonly optional: boolean;
}

export type TableSpec = Readonly<Record<string, FieldSpec<unknown>>>;

type ValueOf<F> = F extends FieldSpec<infer T> ? T : never;
type RequiredKeys<S> = { [K in keyof S]: S[K] extends { readonly optional: true } ? never : K }[keyof S];
type OptionalKeys<S> = Exclude<keyof S, RequiredKeys<S>>;

/** What a table reads to once it has no problem: required keys present, optional ones maybe. */
export type TableResult<S extends TableSpec> = { -readonly [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
  -readonly [K in OptionalKeys<S>]?: ValueOf<S[K]>;
};

export function required<T>(read: Reader<T>): FieldSpec<T> & { readonly optional: false } {
  return { read, optional: false };
}

export function optional<T>(read: Reader<T>): FieldSpec<T> & { readonly optional: true } {
  return { read, optional: true };
}

/** Reports every key of `value` that is not in `known`. */
export function reportUnknownKeys(
  value: Record<string, unknown>,
  path: string,
  known: readonly string[],
  problems: ProblemList,
): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) problems.found(joinPath(path, key), unknownKeyExpectation(key, known), value[key]);
  }
}

/**
 * Reads a table. Returns INVALID when `value` is not a table; otherwise the values read, which
 * form a complete TableResult exactly when no problem was recorded for this table.
 */
export function readTable<S extends TableSpec>(
  value: unknown,
  path: string,
  spec: S,
  problems: ProblemList,
): TableResult<S> | Invalid {
  if (!isTable(value)) return problems.found(path === '' ? '(root)' : path, 'a table', value);
  const known = Object.keys(spec);
  reportUnknownKeys(value, path, known, problems);
  const result: Record<string, unknown> = {};
  for (const key of known) {
    const field = spec[key];
    if (field === undefined) continue; // `known` lists the spec's own keys
    const keyPath = joinPath(path, key);
    const raw = Object.hasOwn(value, key) ? value[key] : undefined;
    if (raw === undefined) {
      if (!field.optional) problems.note(keyPath, 'a value (this key is required)');
      continue;
    }
    const read = field.read(raw, keyPath, problems);
    if (read !== INVALID) result[key] = read;
  }
  // Incomplete when a problem was recorded; callers only use the result once problems are empty.
  return result as TableResult<S>;
}

const TABLE_SPECS = new WeakMap<Reader<unknown>, TableSpec>();

/** A reader for a nested table, so specs can nest (`sim.generator`, `sim.faults`, ...). */
export function tableReader<S extends TableSpec>(spec: S): Reader<TableResult<S>> {
  const reader: Reader<TableResult<S>> = (value, path, problems) => readTable(value, path, spec, problems);
  TABLE_SPECS.set(reader, spec);
  return reader;
}

/** The spec a `tableReader` reads (for the JSON Schema of the file). */
export function tableSpecOf(reader: Reader<unknown>): TableSpec | undefined {
  return TABLE_SPECS.get(reader);
}

/** Passes a table through unread, for maps whose keys depend on other keys (symbols, balances). */
export const readRawTable: Reader<Record<string, unknown>> = withSchema(
  (value, path, problems) => (isTable(value) ? value : problems.found(path, 'a table', value)),
  { type: 'object' },
);
