// fixtures/config/spot-sim.schema.json: the JSON Schema of the configuration file, shipped in the
// package and named by default.toml's `#:schema` line for editor completion. Its structure,
// types, bounds and defaults come from the tables validation reads (src/config/schema.ts); each
// key's description from the commented default file, as docs/reference/configuration.md's do.
// `npm run docs` writes it; src/config/schema.test.ts fails when the committed file is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../../src/config/schema.ts';
import type { JsonSchema } from '../../src/config/fields.ts';
import { ENTRY_LISTS, keyListAbove, readCommentedDefault } from './configuration.ts';
import { REPO } from './markdown.ts';

export const SCHEMA_PATH = 'fixtures/config/spot-sim.schema.json';

/** Each documented key's meaning and each table's introduction, by schema path. */
function descriptions(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const section of readCommentedDefault(text)) {
    const table = section.header.replace(/^\[\[?|\]\]?$/g, '').replace(/^sim\.symbols\.[A-Z0-9]+$/, 'sim.symbols');
    if (section.intro.length > 0 && !out.has(table)) out.set(table, section.intro.join(' '));
    for (const key of section.keys) if (key.meaning !== '' && !out.has(key.path)) out.set(key.path, key.meaning);
  }
  const lines = text.split('\n');
  const instruments = keyListAbove(lines, '[[instruments]]');
  if (instruments.intro !== '') out.set('instruments', instruments.intro);
  for (const [key, meaning] of instruments.keys) out.set(`instruments.${key}`, meaning);
  for (const [key, meaning] of keyListAbove(lines, '[sim.symbols.BTCUSDT]').keys) out.set(`sim.symbols.*.${key}`, meaning);
  // Arrays of tables documented by a key list above their empty default (`replay = []`).
  for (const [path, line] of ENTRY_LISTS) {
    const list = keyListAbove(lines, line);
    if (list.intro !== '') out.set(path, list.intro);
    for (const [key, meaning] of list.keys) out.set(`${path}.${key}`, meaning);
  }
  return out;
}

/** `schema` with a description on every node the commented default documents. */
function describe(schema: JsonSchema, path: string, meanings: ReadonlyMap<string, string>): JsonSchema {
  const out: Record<string, unknown> = {};
  const meaning = meanings.get(path);
  if (meaning !== undefined) out['description'] = meaning.replace(/\s+/g, ' ').trim();
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties') {
      out[keyword] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([key, sub]) => [key, describe(sub, path === '' ? key : `${path}.${key}`, meanings)]),
      );
    } else if (keyword === 'items') out[keyword] = describe(value as JsonSchema, path, meanings);
    else if (keyword === 'additionalProperties' && typeof value === 'object') out[keyword] = describe(value as JsonSchema, `${path}.*`, meanings);
    else out[keyword] = value;
  }
  return out;
}

/** The schema file's text. */
export function configSchemaText(): string {
  const text = readFileSync(join(REPO, 'fixtures/config/default.toml'), 'utf8');
  const schema = describe(configSchema(), '', descriptions(text));
  const intro = {
    description:
      'The TOML configuration of spot-sim (spot-sim --config FILE, or startSimulator({ configFile })). Every key is optional: ' +
      'what a file leaves out keeps its default. Checked again, with the rules across keys, when spot-sim loads it (spot-sim --check-config).',
  };
  const { $schema, title, ...rest } = schema;
  return `${JSON.stringify({ $schema, title, ...intro, ...rest }, null, 2)}\n`;
}
