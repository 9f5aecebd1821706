// The JSON Schema shipped for editors (fixtures/config/spot-sim.schema.json) says what the
// simulator's own validation says: never stricter (an editor must not flag a file spot-sim
// loads), and as strict wherever one key alone decides. Its staleness against the tables it is
// built from is checked with the generated reference (src/reference-docs.test.ts, npm run docs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { configSchemaText, SCHEMA_PATH } from '../../scripts/docs/config-schema.ts';
import { DEFAULT_CONFIG } from './defaults.ts';
import type { JsonSchema } from './fields.ts';
import { resolveConfig } from './resolve.ts';

const ROOT = new URL('../../', import.meta.url);
const schema = JSON.parse(readFileSync(new URL(SCHEMA_PATH, ROOT), 'utf8')) as JsonSchema;

const typeOf = (value: unknown) => (Number.isInteger(value) ? ['integer', 'number'] : Array.isArray(value) ? ['array'] : value === null ? ['null'] : [typeof value === 'object' ? 'object' : typeof value]);

/** A JSON Schema check for the keywords the schema uses (draft-07 meaning). */
function accepts(s: JsonSchema, value: unknown): boolean {
  const n = s as Record<string, any>;
  if (n.anyOf !== undefined) return (n.anyOf as JsonSchema[]).some((sub) => accepts(sub, value));
  if (n.type !== undefined && !([n.type].flat() as string[]).some((t) => typeOf(value).includes(t))) return false;
  if (n.enum !== undefined && !(n.enum as unknown[]).includes(value)) return false;
  if (typeof value === 'number') {
    if ((n.minimum !== undefined && value < n.minimum) || (n.maximum !== undefined && value > n.maximum)) return false;
    if ((n.exclusiveMinimum !== undefined && value <= n.exclusiveMinimum) || (n.exclusiveMaximum !== undefined && value >= n.exclusiveMaximum)) return false;
  }
  if (typeof value === 'string') {
    if (n.pattern !== undefined && !new RegExp(n.pattern as string, 'u').test(value)) return false;
    if (n.minLength !== undefined && value.length < n.minLength) return false;
  }
  if (Array.isArray(value)) {
    if (n.minItems !== undefined && value.length < n.minItems) return false;
    if (n.items !== undefined && !value.every((item) => accepts(n.items as JsonSchema, item))) return false;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (n.required !== undefined && !(n.required as string[]).every((key) => key in object)) return false;
    for (const [key, item] of Object.entries(object)) {
      if (n.propertyNames !== undefined && !accepts(n.propertyNames as JsonSchema, key)) return false;
      const sub = (n.properties as Record<string, JsonSchema> | undefined)?.[key] ?? n.additionalProperties;
      if (sub === false || (sub !== undefined && sub !== true && !accepts(sub as JsonSchema, item))) return false;
    }
  }
  return true;
}

function loads(tree: unknown): boolean {
  try {
    resolveConfig(tree);
    return true;
  } catch {
    return false;
  }
}

/** `{ a: { b: value } }` for the path ['a', 'b']. */
function treeWith(path: readonly string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;
}

/** Every key of a fixed table, with its schema. */
function leaves(node: JsonSchema, path: string[] = []): [string[], JsonSchema][] {
  const properties = (node as { properties?: Record<string, JsonSchema> }).properties;
  if (properties === undefined) return path.length === 0 ? [] : [[path, node]];
  return Object.entries(properties).flatMap(([key, sub]) => (key === 'instruments' && path.length === 0 ? [] : leaves(sub, [...path, key])));
}

/** Values around what a leaf's schema allows. */
function candidates(s: JsonSchema): unknown[] {
  const n = s as Record<string, any>;
  const bounds = [n.minimum, n.maximum, n.exclusiveMinimum, n.exclusiveMaximum].filter((b): b is number => typeof b === 'number');
  const numbers = bounds.flatMap((b) => [b - 1, b - 0.5, b, b + 0.5, b + 1]);
  return [...numbers, 0, 1, 1.5, -1, '1', '0.5', '-1', '1e3', '', 'x', 'abc def', true, 'epoll', 'wall', [], {}, ...((n.enum as unknown[] | undefined) ?? [])];
}

test('fixtures/config/spot-sim.schema.json is the schema the tables give (npm run docs writes it)', () => {
  assert.equal(readFileSync(new URL(SCHEMA_PATH, ROOT), 'utf8'), configSchemaText(), 'stale: run npm run docs');
});

test('the schema accepts the commented default file and the embedded default', () => {
  assert.ok(accepts(schema, parse(readFileSync(new URL('fixtures/config/default.toml', ROOT), 'utf8'))));
  assert.ok(accepts(schema, JSON.parse(JSON.stringify(DEFAULT_CONFIG))));
});

test('for every key, the schema accepts what the simulator loads and refuses what it refuses alone', () => {
  const checked = leaves(schema);
  assert.ok(checked.length >= 60, `${checked.length} keys`);
  // Keys whose validity also depends on other keys (the schema cannot see them): only "never stricter".
  const crossKey = new Set(['sim.start_mid', 'sim.venue', 'sim.history.klines', 'sim.generator.limit_notional_min', 'sim.generator.limit_notional_max',
    'sim.generator.market_notional_min', 'sim.generator.market_notional_max']);
  for (const [path, leaf] of checked) {
    const dotted = path.join('.');
    for (const value of candidates(leaf)) {
      const simulator = loads(treeWith(path, value));
      const editor = accepts(leaf, value);
      if (simulator) assert.ok(editor, `${dotted} = ${JSON.stringify(value)}: loads, but the schema refuses it`);
      else if (!crossKey.has(dotted) && !(typeof value === 'string' && value !== '' && Number(value) === 0)) {
        assert.ok(!editor, `${dotted} = ${JSON.stringify(value)}: refused, but the schema accepts it`);
      }
    }
  }
});

test('instrument entries: complete ones pass, an incomplete one or a tick off the powers of ten is refused by both', () => {
  const good = { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', tick: '0.01', lot: '0.001', min_qty: '0.001', max_qty: '10000', min_notional: '5' };
  for (const entry of [good, { ...good, tick: 0.1 }, { ...good, tick: '0.010' }, { ...good, venue: 'x', enabled: false }]) {
    const tree = { instruments: [entry, { ...good, symbol: 'XUSDT', base: 'X' }] };
    assert.equal(accepts(schema, tree), loads(tree), JSON.stringify(entry));
  }
  for (const entry of [{ ...good, tick: '0.02' }, { ...good, tick: 0.3 }, { symbol: 'SOLUSDT' }, { ...good, colour: 'red' }]) {
    const tree = { instruments: [entry] };
    assert.ok(!accepts(schema, tree) && !loads(tree), JSON.stringify(entry));
  }
});

test('default.toml names the schema in the form TOML editors read, and the package ships it', () => {
  const first = readFileSync(new URL('fixtures/config/default.toml', ROOT), 'utf8').split('\n')[0];
  assert.equal(first, '#:schema ./spot-sim.schema.json');
  const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { files: string[] };
  assert.ok(pkg.files.includes(SCHEMA_PATH));
});

test('replay entries: the schema and the loader agree on each key alone', () => {
  const good = { symbol: 'BTCUSDT', file: '/data/BTCUSDT-aggTrades-2025-01-01.zip' };
  const entries = [good, { ...good, format: 'trades', speed: 0.001, from: 1735718400000, fill_at_touch: true, depth_levels: 5000, level_qty: '0.5' }, { ...good, from: '2025-01-01T08:00:00Z' }];
  for (const entry of entries) assert.ok(accepts(schema, { sim: { replay: [entry] } }) && loads({ sim: { replay: [entry] } }), JSON.stringify(entry));
  const bad = [{ symbol: 'BTCUSDT' }, { ...good, speed: 0 }, { ...good, depth_levels: 5001 }, { ...good, format: 'klines' }, { ...good, from: -1 }, { ...good, colour: 1 }, { ...good, fill_at_touch: 'yes' }];
  for (const entry of bad) assert.ok(!accepts(schema, { sim: { replay: [entry] } }) && !loads({ sim: { replay: [entry] } }), JSON.stringify(entry));
});
