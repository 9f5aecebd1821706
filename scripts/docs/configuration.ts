// docs/reference/configuration.md, from its two sources: the configuration schema (the keys the
// loader accepts, src/config/sections.ts, and their defaults, src/config/defaults.ts) and the
// commented default file every key is documented in (fixtures/config/default.toml, which a unit
// test keeps equal to the embedded default). A schema key missing from the commented file is an
// error, so a new key cannot ship undocumented.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, ENV_API_KEY, ENV_API_SECRET, ENV_PORT, ENV_TLS_PORT } from '../../src/config/index.ts';
import { ACCOUNT_SPEC, ENGINE_SPEC, FAULTS_SPEC, FEES_SPEC, GENERATOR_SPEC, HISTORY_SPEC, LIMITS_SPEC, ROOT_SPEC, SIM_SPEC } from '../../src/config/sections.ts';
import { cell, REPO } from './markdown.ts';

/** Command-line flags and environment variables that override a key (API.md section 1). */
const OVERRIDES: Readonly<Record<string, string>> = {
  'sim.seed': '`--seed`',
  'sim.port': `\`--port\`, \`${ENV_PORT}\``,
  'sim.tls_port': `\`--tls-port\`, \`${ENV_TLS_PORT}\``,
  'sim.bind': '`--bind`',
  'sim.stats_interval_ms': '`--stats-interval-ms`',
  'sim.account.api_key': `\`${ENV_API_KEY}\``,
  'sim.account.api_secret': `\`${ENV_API_SECRET}\``,
};

interface KeyDoc {
  readonly path: string;
  readonly meaning: string;
}

interface Section {
  readonly header: string;
  /** The comment introducing the table, line by line. */
  readonly intro: readonly string[];
  readonly keys: KeyDoc[];
}

const KEY_LINE = /^(#\s*)?([a-z_][a-z0-9_]*)\s*=/;

/** The sections of the commented default file, each key with the comment block above it. */
export function readCommentedDefault(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  let comment: string[] = [];
  let lastMeaning = '';
  let afterKey = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const header = /^\[\[?([\w.]+)\]\]?$/.exec(line);
    if (header) {
      // A comment block right above a header (no blank line between) describes that table.
      current = { header: line, intro: comment, keys: [] };
      sections.push(current);
      comment = [];
      afterKey = false;
      continue;
    }
    const key = KEY_LINE.exec(line);
    if (key && current && !/^#\s{2,}/.test(line)) {
      // Keys right below another key share its comment (limit_notional_min / _max).
      const meaning = comment.length > 0 ? comment.join(' ') : afterKey ? lastMeaning : '';
      const table = current.header.replace(/^\[\[?|\]\]?$/g, '');
      current.keys.push({ path: `${table}.${key[2]}`, meaning });
      lastMeaning = meaning;
      comment = [];
      afterKey = true;
      continue;
    }
    if (line.startsWith('#')) {
      comment.push(line.replace(/^#\s?/, ''));
      afterKey = false;
    } else if (line === '') {
      // A blank line ends a comment block: the first one below a header introduces the table.
      if (current && current.keys.length === 0 && comment.length > 0 && current.intro.length === 0) {
        (current as { intro: readonly string[] }).intro = comment;
      }
      comment = [];
      afterKey = false;
    }
  }
  return sections;
}

/**
 * The `key  meaning` lists of the comment block above the line `header` (the open tables and the
 * arrays of tables, whose keys the file can only show by example): `#   tick          price step ...` and its continued lines.
 */
export function keyListAbove(lines: readonly string[], header: string): { readonly intro: string; readonly keys: Map<string, string> } {
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

/** Arrays of tables whose entries' keys are listed above their empty default: schema path -> that line. */
export const ENTRY_LISTS: ReadonlyMap<string, string> = new Map([['sim.replay', 'replay = []']]);

function valueAt(path: string): unknown {
  let node: unknown = DEFAULT_CONFIG;
  for (const part of path.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

function shown(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'string') return `\`"${value}"\``;
  return `\`${JSON.stringify(value)}\``;
}

/** The schema's tables by path (each section's spec is exported by name). */
const SECTION_SPECS: Readonly<Record<string, object>> = {
  engine: ENGINE_SPEC,
  sim: SIM_SPEC,
  'sim.account': ACCOUNT_SPEC,
  'sim.fees': FEES_SPEC,
  'sim.limits': LIMITS_SPEC,
  'sim.generator': GENERATOR_SPEC,
  'sim.faults': FAULTS_SPEC,
  'sim.history': HISTORY_SPEC,
};

/** Maps and arrays whose keys depend on other keys: documented by example, not key by key. */
const OPEN_TABLES = new Set(['sim.symbols', 'sim.account.balances', 'instruments']);

/** Every fixed key the schema accepts, as dotted paths. */
export function schemaKeys(): string[] {
  const keys: string[] = [];
  const walk = (prefix: string, spec: object) => {
    for (const name of Object.keys(spec)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      const nested = SECTION_SPECS[path];
      if (nested !== undefined) walk(path, nested);
      else if (!OPEN_TABLES.has(path)) keys.push(path);
    }
  };
  walk('', ROOT_SPEC);
  return keys;
}

export function configurationReference(): string {
  const text = readFileSync(join(REPO, 'fixtures/config/default.toml'), 'utf8');
  const sections = readCommentedDefault(text);
  const lines = text.split('\n');
  const documented = new Set(sections.flatMap((s) => s.keys.map((k) => k.path)));
  const missing = schemaKeys().filter((k) => !documented.has(k));
  if (missing.length > 0) throw new Error(`configuration keys without documentation in fixtures/config/default.toml: ${missing.join(', ')}`);
  const out: string[] = [
    '# Configuration reference',
    '',
    'Every key of the TOML file (`npx spot-sim --config FILE`) and of the tree `startSimulator({ config })`',
    'and the fixture\'s `simConfig` take. Unknown keys, wrong types and impossible values are errors that',
    'name the key; the command line then exits with code 2. Precedence on the command line: file <',
    'environment < flags (`spot-sim --print-config` shows each value with its source). A programmatic tree',
    'is deep-merged over the defaults (arrays replace) and reads no environment. The commented file',
    '`fixtures/config/default.toml` in the package holds the same content as a file to copy; its first',
    'line points TOML editors at the JSON Schema shipped beside it (`spot-sim.schema.json`).',
    '',
  ];
  const seen = new Set<string>();
  for (const section of sections) {
    if (seen.has(section.header)) continue;
    seen.add(section.header);
    out.push(`## \`${section.header}\``, '');
    const open = /^\[\[instruments\]\]$|^\[sim\.symbols\./.test(section.header) || section.header === '[sim.account.balances]';
    if (open) {
      // Tables whose keys are symbols or assets: their rules as written, then the default's entries.
      if (section.intro.length > 0) out.push('```text', ...section.intro, '```', '');
      out.push('Default:', '', '```toml', ...exampleLines(text, section.header), '```', '');
      continue;
    }
    if (section.intro.length > 0) out.push(section.intro.join(' '), '');
    if (section.keys.length === 0) continue;
    out.push('| key | default | overridden by | meaning |', '|---|---|---|---|');
    const lists = section.keys.flatMap((key) => {
      const line = ENTRY_LISTS.get(key.path);
      return line === undefined ? [] : [{ path: key.path, list: keyListAbove(lines, line) }];
    });
    for (const key of section.keys) {
      const meaning = lists.find((l) => l.path === key.path)?.list.intro ?? key.meaning;
      out.push(`| \`${key.path.split('.').pop()}\` | ${shown(valueAt(key.path))} | ${OVERRIDES[key.path] ?? ''} | ${cell(meaning)} |`);
    }
    out.push('');
    for (const { path, list } of lists) {
      out.push(`### \`[[${path}]]\` entries`, '', '| key | meaning |', '|---|---|');
      for (const [key, meaning] of list.keys) out.push(`| \`${key}\` | ${cell(meaning)} |`);
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function exampleLines(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === header);
  const out = [header];
  for (let i = start + 1; i < lines.length && !/^\[/.test(lines[i]!.trim()) && lines[i]!.trim() !== ''; i++) out.push(lines[i]!);
  return out;
}
