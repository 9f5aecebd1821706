// fixtures/config/spot-sim.schema.json: the JSON Schema of the configuration file, shipped in the
// package and named by default.toml's `#:schema` line for editor completion. Its structure,
// types, bounds and defaults come from the tables validation reads (src/config/schema.ts); each
// key's description from the commented default file, as docs/reference/configuration.md's do.
// `npm run docs` writes it; src/config/schema.test.ts fails when the committed file is stale.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSchema } from '../../src/config/schema.ts';
import type { JsonSchema } from '../../src/config/fields.ts';
import { readCommentedDefault } from './configuration.ts';
import { REPO } from './markdown.ts';

export const SCHEMA_PATH = 'fixtures/config/spot-sim.schema.json';

/**
 * The `key  meaning` lists of the comment block above `header` (the open tables, whose keys the
 * file can only show by example): `#   tick          price step ...` and its continued lines.
 */
function keyListAbove(lines: readonly string[], header: string): { readonly intro: string; readonly keys: Map<string, string> } {
  const at = lines.findIndex((line) => line.trim() === header);
  let start = at - 1;
  while (start >= 0 && lines[start]!.trim() === '') start--;
  let end = start;
  while (start >= 0 && lines[start]!.startsWith('#')) start--;
  const meanings = new Map<string, string>();
  const block = lines.slice(start + 1, end + 1);
  // What the block says before its key list introduces the table.
  const introLines = block.slice(0, Math.max(0, block.findIndex((line) => /Keys:\s*$/.test(line)) + 1));
  const intro = introLines.map((line) => line.replace(/^#\s?/, '')).join(' ').replace(/\s*Keys:\s*$/, '');
  let current: string[] = [];
  for (const line of block) {
    const item = /^#\s{2,}([a-z_]+(?:, [a-z_]+)*)\s{2,}(.*)$/.exec(line);
    const continued = /^#\s{10,}(\S.*)$/.exec(line);
    if (item) {
      current = item[1]!.split(', ');
      for (const key of current) meanings.set(key, item[2]!);
    } else if (continued && current.length > 0) {
      for (const key of current) meanings.set(key, `${meanings.get(key)} ${continued[1]}`);
    } else current = [];
  }
  return { intro, keys: meanings };
}

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
