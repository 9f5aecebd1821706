// `--print-config` (API.md section 1): the configuration in effect, as a TOML file that loads
// back to it, each value followed by where it came from: the embedded default, the file, an
// SVC_SIM_* variable or a flag. Secrets are never printed.
import { isTable } from './fields.ts';
import type { Config } from './types.ts';

export type ValueSource =
  | { readonly kind: 'default' }
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'env'; readonly variable: string }
  | { readonly kind: 'flag'; readonly flag: string };

/** Where the value at a key path (`['sim', 'port']`, `['instruments', 0, 'tick']`) came from. */
export type SourceOf = (path: readonly (string | number)[]) => ValueSource;

/** Keys whose value is a secret: shown as set or not, never as written. */
const SECRET_KEYS = new Set(['sim.account.api_secret', 'sim.control_token']);
/** Keys whose default names a file inside the package: a copy of the output elsewhere must keep finding it. */
const SHIPPED_FILE_KEYS = new Set(['sim.tls_cert', 'sim.tls_key']);

export function describeSource(source: ValueSource): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      return `file ${source.file}`;
    case 'env':
      return `env ${source.variable}`;
    case 'flag':
      return `flag ${source.flag}`;
  }
}

function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : tomlString(key);
}

/** A TOML basic string: JSON's escapes are TOML's, and TOML also wants DEL escaped. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, '\\u007F');
}

function tomlValue(value: unknown): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (isTable(value)) return `{ ${Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`).join(', ')} }`;
  throw new TypeError(`no TOML form for ${typeof value}`);
}

const isTableArray = (value: unknown): value is Record<string, unknown>[] => Array.isArray(value) && value.length > 0 && value.every(isTable);

function emitTable(lines: string[], path: readonly (string | number)[], table: Record<string, unknown>, sourceOf: SourceOf, inArray: boolean): void {
  // null is a key left at "none" ([[sim.replay]] format and from): TOML has no null; absent loads back to it.
  const entries = Object.entries(table).filter(([, value]) => value !== undefined && value !== null);
  for (const [key, value] of entries) {
    if (isTable(value) || isTableArray(value)) continue;
    const keyPath = [...path, key];
    const dotted = keyPath.join('.');
    const source = sourceOf(keyPath);
    const note = inArray ? '' : `  # ${describeSource(source)}`;
    if (SECRET_KEYS.has(dotted)) lines.push(`# ${key} is set (not shown)${note}`);
    else if (SHIPPED_FILE_KEYS.has(dotted) && source.kind === 'default') lines.push(`# ${key} = ${tomlValue(value)}  # default: the file shipped in the package`);
    else lines.push(`${tomlKey(key)} = ${tomlValue(value)}${note}`);
  }
  for (const [key, value] of entries) {
    const keyPath = [...path, key];
    const header = keyPath.map((part) => tomlKey(String(part))).join('.');
    if (isTable(value)) {
      lines.push('', `[${header}]`);
      emitTable(lines, keyPath, value, sourceOf, inArray);
    } else if (isTableArray(value)) {
      for (const item of value) {
        lines.push('', `[[${header}]]  # ${describeSource(sourceOf(keyPath))}`);
        emitTable(lines, keyPath, item, sourceOf, true);
      }
    }
  }
}

/** The configuration as TOML, `header` lines first (comments), each value's source after it. */
export function printConfigToml(config: Config, sourceOf: SourceOf, header: readonly string[] = []): string {
  const lines: string[] = [...header];
  const root = config as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(root)) {
    if (isTable(value)) {
      lines.push('', `[${tomlKey(key)}]`);
      emitTable(lines, [key], value, sourceOf, false);
    } else if (isTableArray(value)) {
      for (const item of value) {
        lines.push('', `[[${tomlKey(key)}]]  # ${describeSource(sourceOf([key]))}`);
        emitTable(lines, [key], item, sourceOf, true);
      }
    }
  }
  return `${lines.join('\n').replace(/^\n+/, '')}\n`;
}

/** Whether `tree` gives the value at `path` (an array on the way gives everything under it: arrays replace). */
export function treeGives(tree: unknown, path: readonly (string | number)[]): boolean {
  let node = tree;
  for (const part of path) {
    if (Array.isArray(node)) return true;
    if (!isTable(node) || !Object.hasOwn(node, part) || node[part] === undefined) return false;
    node = node[part];
  }
  return true;
}
