// What a user reads stands alone (issue 34 item 7): README.md, every page under docs/ (the
// generated reference included, so the doc comments it is made of), the shipped default
// configuration and the control API's OpenAPI description never cite a document the package does
// not ship (the project's specification, its contract, its notes on the reference exchange, files
// under ../shared) nor a numbered section of one. They say the rule itself, or link a page of
// docs/ or the reference exchange's own document. Source comments for contributors may cite them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { controlOpenApi } from './net/control-openapi.ts';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');

/** A citation of a document users do not have, or of a numbered section of one. */
const CITATION = /\b[Ss]pec(?:ification)?\s+(?:section\s+)?[0-9]+(?:\.[0-9]+)*|\bAPI\.md\b|\.\.\/shared|\bSPEC\.md\b|binance-facts|client-requests\.md|playwright-integration\.md|§/;
/**
 * "the spec" in prose (a Playwright spec file, `x.spec.ts`, is fine, and so is the quoted value
 * of `order_types = "spec"`, a name users type).
 */
const SPEC_WORD = /(?<![.\w"'-])spec(?:'s)?\b(?!\s+files?\b|["'])/i;
/** Pages for contributors that keep the project's own vocabulary ("the spec's calls"); citations are still refused there. */
const CONTRIBUTOR_PAGES = new Set(['docs/architecture.md']);

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Every line of `text` that cites, as `where:line: text`. */
export function citations(where: string, text: string, checkWord = true): string[] {
  return text.split('\n').flatMap((line, i) => (CITATION.test(line) || (checkWord && SPEC_WORD.test(line)) ? [`${where}:${i + 1}: ${line.trim()}`] : []));
}

test('README.md, docs/, the shipped default configuration and the control API description cite no document users do not have', () => {
  const files = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs')), join(ROOT, 'fixtures/config/default.toml'), join(ROOT, 'fixtures/tls/README.md')];
  const found = files.flatMap((file) => {
    const where = relative(ROOT, file);
    return citations(where, readFileSync(file, 'utf8'), !CONTRIBUTOR_PAGES.has(where));
  });
  found.push(...citations('GET /sim/v1/openapi.json', JSON.stringify(controlOpenApi(), null, 1)));
  assert.deepEqual(found, [], `say the rule itself, or link a docs/ page or the reference exchange's document:\n${found.join('\n')}`);
});

/** Lines that open a fence no later line closes (a page after it renders as code). */
export function unclosedFences(where: string, text: string): string[] {
  let open: number | null = null;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) open = open === null ? i + 1 : null;
  });
  return open === null ? [] : [`${where}:${open}`];
}

test('every code fence of README.md and docs/ is closed', () => {
  const found = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))].flatMap((file) => unclosedFences(relative(ROOT, file), readFileSync(file, 'utf8')));
  assert.deepEqual(found, [], `a fence opened here is never closed:\n${found.join('\n')}`);
  assert.deepEqual(unclosedFences('x', '```sh\ncurl x\n\n## Configuration\n'), ['x:1']);
});

/** The relative link targets of a Markdown text (file part, without the #anchor). */
export function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/.test(t) && !t.startsWith('#')).map((t) => t.split('#')[0]!);
}

test('docs/README.md links every page of docs/, and every relative link of README.md and docs/ leads to a file', () => {
  const index = readFileSync(join(ROOT, 'docs/README.md'), 'utf8');
  const linked = new Set(relativeLinks(index).map((t) => relative(ROOT, resolve(ROOT, 'docs', t))));
  const pages = markdownUnder(join(ROOT, 'docs')).map((f) => relative(ROOT, f)).filter((f) => f !== 'docs/README.md');
  assert.deepEqual(pages.filter((p) => !linked.has(p)), [], 'pages docs/README.md does not list');
  const broken = [join(ROOT, 'README.md'), ...markdownUnder(join(ROOT, 'docs'))].flatMap((file) =>
    relativeLinks(readFileSync(file, 'utf8'))
      .filter((target) => !existsSync(resolve(dirname(file), target)))
      .map((target) => `${relative(ROOT, file)} -> ${target}`),
  );
  assert.deepEqual(broken, [], 'links to files that do not exist');
});

test('the check finds each kind of citation and passes a Playwright spec file', () => {
  const cited = [
    'charged in the quote asset (spec 2.3)',
    'every fault call of API.md section 3',
    'Rate limits (spec section 8)',
    'Spec 4.5 `drop_market_data_connections`',
    'see ../shared/reference/binance-facts.md',
    'cancelled (API.md §6)',
    'the spec calls\' presets',
    'forgotten (spec)',
  ];
  for (const line of cited) assert.equal(citations('x', line).length, 1, line);
  for (const line of ['run `npx playwright test e2e/x.spec.ts`', '| library | spec file |', 'a specific rule', 'the spectrum', 'order_types = "spec"   # the default', "simConfig: { sim: { order_types: 'spec' } }"]) {
    assert.deepEqual(citations('x', line), [], line);
  }
  assert.deepEqual(citations('x', "the spec's calls as presets", false), []);
});
