// The TypeScript examples of README.md and docs/*.md, as files of a consumer project (issue 23:
// every block is a complete file that a test type-checks against the built package, and the
// fixture examples run, so an example cannot rot).
//
// Convention: a ```ts block whose first line is a comment naming a path (`// tests/first.spec.ts`,
// `// playwright.config.ts`) is that file of the user's project; blocks under `tests/` are
// Playwright tests that run. Any other block is type-checked only, as `examples/<doc>-<n>.ts`.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { REPO } from './scratch.ts';

export interface DocBlock {
  /** Where it is written, e.g. `README.md:41`. */
  readonly source: string;
  /** Its path in the consumer project. */
  readonly path: string;
  readonly code: string;
  /** A Playwright test file that the docs test runs. */
  readonly runs: boolean;
}

const FENCE = /^```(ts|typescript)\s*$/;
const NAMED = /^\/\/ ((?:tests|examples|src)\/[\w./-]+\.ts|playwright\.config\.ts|vitest\.config\.ts)\s*$/;

/** README.md and every docs/*.md of the repository. */
export function documentationFiles(): string[] {
  const docs = join(REPO, 'docs');
  let names: string[] = [];
  try {
    names = readdirSync(docs).filter((n) => n.endsWith('.md')).sort();
  } catch {
    names = [];
  }
  return [join(REPO, 'README.md'), ...names.map((n) => join(docs, n))];
}

export function tsBlocks(file: string): DocBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const doc = basename(file, '.md');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const code = `${lines.slice(start, end).join('\n')}\n`;
    const named = NAMED.exec(lines[start] ?? '');
    const path = named?.[1] ?? `examples/${doc}-${blocks.length + 1}.ts`;
    blocks.push({ source: `${file.slice(REPO.length + 1)}:${start}`, path, code, runs: path.startsWith('tests/') });
    i = end;
  }
  return blocks;
}

export function allDocBlocks(): DocBlock[] {
  return documentationFiles().flatMap(tsBlocks);
}
