// The JSON Schema of the TOML file (draft-07, what Taplo / Even Better TOML and other TOML
// editors complete and check from), built from the same tables validation reads
// (sections.ts and the readers' recorded schemas) with the embedded defaults as `default`s.
// scripts/docs/config-schema.ts adds each key's description from the commented default file and
// writes fixtures/config/spot-sim.schema.json; a test fails when that file is stale. The schema
// helps an editor; the simulator's own validation stays the authority (it also checks rules
// across keys, such as min_qty on the lot grid).
import { readBalance } from './balances.ts';
import { DEFAULT_CONFIG } from './defaults.ts';
import { NAME_PATTERN, isTable, schemaOf, type JsonSchema, type Reader } from './fields.ts';
import { INSTRUMENT_SPEC } from './instruments.ts';
import { REPLAY_DEFAULTS, REPLAY_SPEC } from './replay.ts';
import { HISTORY_KLINES_SPEC, ROOT_SPEC } from './sections.ts';
import { SYMBOL_OVERRIDES_SPEC } from './symbols.ts';
import { tableSpecOf, type TableSpec } from './table.ts';

/** A table whose entries must all be there (an array's items: they replace, nothing fills them in). */
type Completeness = 'defaults fill in' | 'complete';

function tableSchema(spec: TableSpec, path: string, completeness: Completeness): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [key, field] of Object.entries(spec)) properties[key] = fieldSchema(field.read, path === '' ? key : `${path}.${key}`, completeness);
  const required = Object.entries(spec).filter(([, field]) => !field.optional).map(([key]) => key);
  return {
    type: 'object',
    properties,
    ...(completeness === 'complete' && required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** Tables whose keys are symbols or assets, and arrays of tables: read in their own modules. */
const OPEN: Readonly<Record<string, () => JsonSchema>> = {
  instruments: () => ({ type: 'array', minItems: 1, items: tableSchema(INSTRUMENT_SPEC, 'instruments', 'complete') }),
  'sim.symbols': () => ({
    type: 'object',
    propertyNames: { pattern: NAME_PATTERN.source },
    additionalProperties: tableSchema(SYMBOL_OVERRIDES_SPEC, 'sim.symbols.*', 'complete'),
  }),
  'sim.account.balances': () => ({ type: 'object', propertyNames: { pattern: NAME_PATTERN.source }, additionalProperties: leafSchema(readBalance, 'sim.account.balances.*') }),
  'sim.history.klines': () => ({ type: 'array', items: tableSchema(HISTORY_KLINES_SPEC, 'sim.history.klines', 'complete') }),
  'sim.replay': () => ({ type: 'array', items: withDefaults(tableSchema(REPLAY_SPEC, 'sim.replay', 'complete'), REPLAY_DEFAULTS) }),
};

/** An entry table's schema with the defaults its reader fills in (none for a key whose default is null). */
function withDefaults(schema: JsonSchema, defaults: Readonly<Record<string, unknown>>): JsonSchema {
  const properties = schema['properties'] as Record<string, JsonSchema>;
  const described = Object.entries(properties).map(([key, sub]) => [key, defaults[key] === undefined || defaults[key] === null ? sub : { ...sub, default: defaults[key] }]);
  return { ...schema, properties: Object.fromEntries(described) };
}

function leafSchema(reader: Reader<unknown>, path: string): JsonSchema {
  const schema = schemaOf(reader);
  if (schema === undefined) throw new Error(`configuration key ${path}: its reader records no JSON Schema (fields.ts withSchema)`);
  return schema;
}

/** The default of a key of a fixed table, when the embedded default has one. */
function defaultAt(path: string): unknown {
  let node: unknown = DEFAULT_CONFIG;
  for (const part of path.split('.')) node = isTable(node) ? node[part] : undefined;
  return node === undefined || isTable(node) || Array.isArray(node) ? undefined : node;
}

function fieldSchema(reader: Reader<unknown>, path: string, completeness: Completeness): JsonSchema {
  const open = OPEN[path];
  if (open !== undefined) return open();
  const spec = tableSpecOf(reader);
  if (spec !== undefined) return tableSchema(spec, path, completeness);
  const fallback = completeness === 'defaults fill in' ? defaultAt(path) : undefined;
  return { ...leafSchema(reader, path), ...(fallback === undefined ? {} : { default: fallback }) };
}

/** The schema of the whole file, without descriptions. */
export function configSchema(): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'spot-sim configuration',
    ...tableSchema(ROOT_SPEC, '', 'defaults fill in'),
  };
}
