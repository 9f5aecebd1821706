// The architecture's rules, checked (ARCHITECTURE.md rules 1, 8 and 11; issue 14 "Rules
// checked"), the way Playwright's DEPS.list + check_deps.js keep its layers: every import of
// every source file under src/ (tests aside) is read with the TypeScript parser and checked
// against ONE table of layers, bottom first, each naming what it may import. Also:
// - the core is pure: no node:*, no package but pure-rand, nothing outside src/core but the
//   Config *types*, no Date, timers, Math.random, performance, process or console;
// - a shipped file imports only node:* and the package's dependencies and peers (a
//   devDependency would be missing in a user's install);
// - no file reaches into a dependency's private fields (`x._socket`);
// - no import cycles among the files (findCycles).
// Exceptions that exist today are in ALLOWED_VIOLATIONS, each with its reason; the list only
// shrinks: an entry that no longer matches anything fails the test too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SRC = dirname(new URL(import.meta.url).pathname);
const ROOT = resolve(SRC, '..');

interface Layer {
  /** Name used in the table and in messages. */
  readonly name: string;
  /** Files of the layer: paths relative to src/, a folder ending in '/'. */
  readonly files: readonly string[];
  /** Layers this one may import (its own files always). Only layers above it in the table. */
  readonly imports: readonly string[];
}

/**
 * The layers, bottom first (from the imports as built; ARCHITECTURE.md "Layout").
 * - `client` sits low: it needs only the endpoint table of `api` (which WS API methods are
 *   signed), and the server's handles throw its SpotSimError (market, control API).
 * - `market` (sim.market) is a handle over the running server; `net` serves it through the
 *   control API. `faults` is low: its rules are consulted by `api` and `net`, and what it does
 *   to connections goes through a host interface the simulator wires up.
 */
const LAYERS: readonly Layer[] = [
  { name: 'support', files: ['package-root.ts'], imports: [] },
  // Describing and coercing values a client sent without throwing (issue 18): every layer that
  // reads client input uses it; it imports nothing.
  { name: 'untrusted', files: ['untrusted.ts'], imports: [] },
  { name: 'config', files: ['config/'], imports: [] },
  { name: 'core', files: ['core/'], imports: ['config'] }, // Config types only (see checkCorePurity)
  // Fault rules (API.md 3.1): decided at named points of the api/net pipeline, so below both.
  { name: 'faults', files: ['faults/'], imports: ['untrusted', 'config', 'core'] },
  { name: 'api', files: ['api/'], imports: ['untrusted', 'config', 'core', 'faults'] },
  { name: 'client', files: ['client/'], imports: ['api'] },
  { name: 'market', files: ['market.ts'], imports: ['core', 'client'] },
  { name: 'net', files: ['net/'], imports: ['untrusted', 'config', 'core', 'api', 'client', 'market', 'faults'] },
  { name: 'stats', files: ['stats.ts', 'journal.ts', 'request-log.ts'], imports: ['core', 'api'] },
  // The scheduler of timed work (src/time): pure deciding plus the wall-clock timer; its
  // exchange task reads the core and the listen keys through a host interface.
  { name: 'time', files: ['time/'], imports: ['core'] },
  // The handle's reads (account-reads.ts) answer as the typed client's objects and SpotSimError.
  { name: 'simulator', files: ['simulator.ts', 'simulator-options.ts', 'start-simulator.ts', 'history-files.ts', 'file-problems.ts', 'replay/', 'start-inputs.ts', 'account-reads.ts'], imports: ['support', 'config', 'core', 'api', 'client', 'market', 'net', 'faults', 'stats', 'time'] },
  // connectSimulator (API.md 3.2): the handle of a running server over the control API.
  { name: 'remote', files: ['remote.ts'], imports: ['config', 'client', 'market', 'net', 'faults', 'simulator'] },
  { name: 'index', files: ['index.ts'], imports: ['config', 'client', 'market', 'net', 'faults', 'stats', 'simulator', 'remote'] },
  // Rule 8: the fixture is a user; it imports only the public surface.
  { name: 'fixture', files: ['fixture/'], imports: ['index'] },
  // The command line: main.ts and its parts (output, start block) in cli/.
  { name: 'entries', files: ['main.ts', 'playwright.ts', 'cli/'], imports: ['support', 'config', 'index'] },
];

/** Packages the core may import (randomness comes from one seeded generator). */
const CORE_PACKAGES = ['pure-rand'];
/** Globals the core must not use: wall clock, timers, randomness, the process, logging. */
const CORE_FORBIDDEN_GLOBALS = ['Date', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'performance', 'process', 'console'];

/**
 * Violations that exist today, each `file -> what` with the reason it is tolerated. Remove an
 * entry when its cause is fixed (a stale entry fails the test).
 */
const ALLOWED_VIOLATIONS: ReadonlyMap<string, string> = new Map([
  // A test helper of the core's unit tests: it resolves a configuration tree (config/index.ts
  // reads files). Production core files import only the Config types.
  ['core purity: core/test-support.ts -> config/index.ts', 'unit-test helper of the core (builds a Config); not imported by core code'],
]);

/**
 * The core's rooms (issue 32), one level below the layers: what each room may use of the others.
 * A room is entered only through its index.ts (its interface), from anywhere outside it.
 * - book/ knows no account, no market data, no counterparty (an account order is opaque to it);
 * - market/ reads the trades the book hands it, never the account;
 * - account/ sees books through the book's interface;
 * - counterparty/ acts only through the commands any client uses (submit, commands.ts) and reads
 *   only through the queries (queries.ts over the state view, state.ts, a type-only import).
 */
const CORE_ROOMS: ReadonlyMap<string, readonly string[]> = new Map([
  ['book', []],
  ['market', []],
  ['account', ['book']],
  ['counterparty', []],
]);
/** The core's root files every room may import: the vocabulary, below all rooms. */
const CORE_FOUNDATION = ['types.ts', 'units.ts', 'errors.ts', 'markets.ts', 'commands.ts', 'event-queue.ts', 'rng.ts', 'clock.ts', 'lower-bound.ts', 'recording.ts'];
/** Root files a room may import beyond the foundation (type-only where the flag says so). */
const ROOM_ROOT_ACCESS: ReadonlyMap<string, readonly { file: string; typeOnly: boolean }[]> = new Map([
  ['counterparty', [{ file: 'state.ts', typeOnly: true }, { file: 'queries.ts', typeOnly: false }]],
]);

/** `core/<room>/...` -> the room's name, else undefined. */
function coreRoomOf(rel: string): string | undefined {
  const m = /^core\/([a-z-]+)\//.exec(rel);
  return m !== null && CORE_ROOMS.has(m[1]!) ? m[1] : undefined;
}

/** The room rules for one import from `rel` (any file under src/) to `target`. */
function roomViolations(rel: string, target: string, ref: ImportRef): string[] {
  const from = coreRoomOf(rel);
  const to = coreRoomOf(target);
  if (to !== undefined && to !== from) {
    const out: string[] = [];
    if (target !== `core/${to}/index.ts`) out.push(`core rooms: ${rel} -> ${target} (enter ${to}/ through its index.ts)`);
    if (from !== undefined && !CORE_ROOMS.get(from)!.includes(to)) out.push(`core rooms: ${rel} -> ${target} (${from}/ may not use ${to}/)`);
    else if (from === undefined && rel.startsWith('core/') && CORE_FOUNDATION.includes(rel.slice('core/'.length))) out.push(`core rooms: ${rel} -> ${target} (the foundation stays below the rooms)`);
    return out;
  }
  if (from !== undefined && to === undefined && target.startsWith('core/') && !target.slice('core/'.length).includes('/')) {
    const file = target.slice('core/'.length);
    if (CORE_FOUNDATION.includes(file)) return [];
    const access = ROOM_ROOT_ACCESS.get(from)?.find((a) => a.file === file);
    if (access === undefined) return [`core rooms: ${rel} -> ${target} (a room uses only the foundation of the core's root)`];
    if (access.typeOnly && !ref.typeOnly) return [`core rooms: ${rel} -> ${target} (type-only)`];
  }
  return [];
}

interface ImportRef {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
}

/** Static imports and re-exports, `import()` calls and `import x = require()`. */
function importsOf(file: ts.SourceFile): ImportRef[] {
  const out: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) {
      out.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      out.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** The layer of a path relative to src/ (undefined: not in the table). */
function layerOf(rel: string): Layer | undefined {
  return LAYERS.find((l) => l.files.some((f) => (f.endsWith('/') ? rel.startsWith(f) : rel === f)));
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every violation in the tree under `srcDir`, as `rule: file -> what` lines. */
export function findViolations(srcDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; dependencies?: object; peerDependencies?: object };
  const shippedPackages = new Set([pkg.name, ...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]);
  const violations: string[] = [];
  for (const path of sourceFiles(srcDir)) {
    const rel = relative(srcDir, path);
    const layer = layerOf(rel);
    if (layer === undefined) {
      violations.push(`layers: ${rel} is in no layer of the table`);
      continue;
    }
    const file = parse(path);
    for (const ref of importsOf(file)) {
      const { specifier } = ref;
      if (specifier.startsWith('.')) {
        const target = relative(srcDir, resolve(dirname(path), specifier));
        const to = layerOf(target);
        if (to === undefined) violations.push(`layers: ${rel} -> ${target} (outside the table)`);
        else if (to !== layer && !layer.imports.includes(to.name)) violations.push(`layers: ${rel} -> ${target}`);
        if (layer.name === 'core' && to !== layer && !(ref.typeOnly && target === 'config/types.ts')) violations.push(`core purity: ${rel} -> ${target}`);
        violations.push(...roomViolations(rel, target, ref));
      } else if (specifier.startsWith('node:')) {
        if (layer.name === 'core') violations.push(`core purity: ${rel} -> ${specifier}`);
      } else {
        const name = packageName(specifier);
        if (layer.name === 'core' && !CORE_PACKAGES.includes(name)) violations.push(`core purity: ${rel} -> ${specifier}`);
        if (!shippedPackages.has(name)) violations.push(`packages: ${rel} -> ${specifier} (not a dependency or peer of the package)`);
      }
    }
    if (layer.name === 'core') violations.push(...impureUses(file, rel));
    violations.push(...privateFieldUses(file, rel));
  }
  return violations;
}

/** Uses of the forbidden globals (and Math.random) in a core file. */
function impureUses(file: ts.SourceFile, rel: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Math' && node.name.text === 'random') {
      out.push(`core purity: ${rel} uses Math.random (line ${line(file, node)})`);
    } else if (ts.isIdentifier(node) && CORE_FORBIDDEN_GLOBALS.includes(node.text) && isGlobalReference(node)) {
      out.push(`core purity: ${rel} uses ${node.text} (line ${line(file, node)})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** False for an identifier that is a property name, a member or a declaration's own name. */
function isGlobalReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isPropertySignature(parent) || ts.isMethodSignature(parent)) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  return true;
}

/** `x._name` or `x['_name']`: a dependency's private field (no source file here uses `_` names). */
function privateFieldUses(file: ts.SourceFile, rel: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text.startsWith('_')) out.push(`private field: ${rel} .${node.name.text}`);
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && node.argumentExpression.text.startsWith('_')) out.push(`private field: ${rel} .${node.argumentExpression.text}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return [...new Set(out)];
}

function line(file: ts.SourceFile, node: ts.Node): number {
  return file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;
}

test('every layer of the table names only layers below it', () => {
  LAYERS.forEach((layer, i) => {
    for (const name of layer.imports) {
      const j = LAYERS.findIndex((l) => l.name === name);
      assert.ok(j >= 0 && j < i, `${layer.name} may import ${name}, which is not below it in the table`);
    }
  });
});

test('imports point down the layers, the core is pure, shipped files import only dependencies, no private fields of dependencies', () => {
  const found = findViolations(SRC);
  const unexpected = found.filter((v) => !ALLOWED_VIOLATIONS.has(v));
  assert.deepEqual(unexpected, [], `new violations (fix them, or add them to ALLOWED_VIOLATIONS with a reason):\n${unexpected.join('\n')}`);
  const stale = [...ALLOWED_VIOLATIONS.keys()].filter((v) => !found.includes(v));
  assert.deepEqual(stale, [], `allowed violations that no longer occur (remove them from ALLOWED_VIOLATIONS):\n${stale.join('\n')}`);
});

/**
 * Import cycles among the source files (type-only imports count: a circle of types is still two
 * modules that must be read together), each as `a -> b -> ... -> a`, one per strongly connected
 * group of files.
 */
export function findCycles(srcDir: string): string[] {
  const graph = new Map<string, string[]>();
  for (const path of sourceFiles(srcDir)) {
    const rel = relative(srcDir, path);
    const targets = importsOf(parse(path))
      .filter((ref) => ref.specifier.startsWith('.'))
      .map((ref) => relative(srcDir, resolve(dirname(path), ref.specifier)));
    graph.set(rel, [...new Set(targets)]);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' -> '));
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

test('no import cycles inside src/', () => {
  assert.deepEqual(findCycles(SRC), [], 'files that import each other (directly or around a circle)');
});

/**
 * The room rules catch what they say (issue 32 "Done when"): a copy of src/ with one planted
 * import per rule must report each, with the rule's reason.
 */
test('the core room rules report a planted violation of each rule', () => {
  const tree = mkdtempSync(join(tmpdir(), 'spot-sim-rooms-'));
  try {
    cpSync(SRC, tree, { recursive: true });
    const plant = (file: string, line: string): void => writeFileSync(join(tree, file), `${line}\n${readFileSync(join(tree, file), 'utf8')}`);
    plant('core/book/book.ts', "import type { AccountOrder } from '../account/index.ts';");
    plant('core/market/market-data.ts', "import type { Ledger } from '../account/index.ts';");
    plant('core/account/ledger.ts', "import type { OrderStore } from '../book/order-store.ts';");
    plant('core/counterparty/generator.ts', "import type { Matcher } from '../book/index.ts';\nimport type { Exchange } from '../exchange.ts';\nimport { invariantViolations } from '../invariants.ts';");
    plant('core/counterparty/scripted-market.ts', "import { ConservationCursor } from '../state.ts';");
    plant('core/types.ts', "import type { Order } from './book/index.ts';");
    plant('api/orders.ts', "import type { TradeLog } from '../core/account/trade-log.ts';");
    const found = findViolations(tree);
    const want = [
      'core rooms: core/book/book.ts -> core/account/index.ts (book/ may not use account/)',
      'core rooms: core/market/market-data.ts -> core/account/index.ts (market/ may not use account/)',
      'core rooms: core/account/ledger.ts -> core/book/order-store.ts (enter book/ through its index.ts)',
      'core rooms: core/counterparty/generator.ts -> core/book/index.ts (counterparty/ may not use book/)',
      "core rooms: core/counterparty/generator.ts -> core/exchange.ts (a room uses only the foundation of the core's root)",
      "core rooms: core/counterparty/generator.ts -> core/invariants.ts (a room uses only the foundation of the core's root)",
      'core rooms: core/counterparty/scripted-market.ts -> core/state.ts (type-only)',
      'core rooms: core/types.ts -> core/book/index.ts (the foundation stays below the rooms)',
      'core rooms: api/orders.ts -> core/account/trade-log.ts (enter account/ through its index.ts)',
    ];
    assert.deepEqual(want.filter((v) => !found.includes(v)), [], `planted violations not reported; reported:\n${found.join('\n')}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
});
