// Files stay at or under 400 lines, split by concept (the repository's standard, issue 20 item 5):
// a long file is several concepts read as one. Checked here for every code file of src/ (its
// tests included), bench/, scripts/, e2e/, test/, consumer/ and examples/ (what users copy), so
// the rule holds by a test, not by memory. A file that must stay longer goes in
// ALLOWED_LONG_FILES with its reason (none does today); the list only shrinks: an entry that is
// no longer too long (or no longer exists) fails the test too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const CHECKED_FOLDERS = ['src', 'bench', 'scripts', 'e2e', 'test', 'consumer', 'examples'];
const CODE_FILE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const MAX_LINES = 400;

/** Files allowed over the limit, by path from the repository root, with the reason. */
const ALLOWED_LONG_FILES: ReadonlyMap<string, string> = new Map<string, string>([]);

function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...codeFiles(path));
    else if (CODE_FILE.test(name)) out.push(path);
  }
  return out;
}

/** Lines as `wc -l` counts them: newline characters. */
function lineCount(path: string): number {
  let n = 0;
  for (const c of readFileSync(path, 'utf8')) if (c === '\n') n++;
  return n;
}

/** Every code file of CHECKED_FOLDERS under `root` longer than MAX_LINES: its path from `root` -> its lines. */
export function longFiles(root: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const folder of CHECKED_FOLDERS) {
    for (const path of codeFiles(join(root, folder))) {
      const lines = lineCount(path);
      if (lines > MAX_LINES) out.set(relative(root, path), lines);
    }
  }
  return out;
}

test(`code files of ${CHECKED_FOLDERS.join('/, ')}/ have at most ${MAX_LINES} lines`, () => {
  const found = longFiles(ROOT);
  const unexpected = [...found].filter(([path]) => !ALLOWED_LONG_FILES.has(path)).map(([path, lines]) => `${path} (${lines} lines)`);
  assert.deepEqual(unexpected, [], `files over ${MAX_LINES} lines (split them by concept):\n${unexpected.join('\n')}`);
  const stale = [...ALLOWED_LONG_FILES.keys()].filter((path) => !found.has(path));
  assert.deepEqual(stale, [], `allowed long files that are no longer too long (remove them from ALLOWED_LONG_FILES):\n${stale.join('\n')}`);
});

test('the check finds a code file over the limit, in a subfolder too, and passes one at the limit', () => {
  const root = mkdtempSync(join(tmpdir(), 'spot-sim-file-size-'));
  try {
    for (const folder of CHECKED_FOLDERS) mkdirSync(join(root, folder));
    mkdirSync(join(root, 'bench', 'soak'));
    writeFileSync(join(root, 'bench', 'soak', 'long.ts'), 'x;\n'.repeat(MAX_LINES + 1));
    mkdirSync(join(root, 'test', 'model'));
    writeFileSync(join(root, 'test', 'model', 'long.ts'), 'x;\n'.repeat(MAX_LINES + 1));
    mkdirSync(join(root, 'e2e', 'support'));
    writeFileSync(join(root, 'e2e', 'support', 'long.spec.ts'), 'x;\n'.repeat(MAX_LINES + 1));
    writeFileSync(join(root, 'consumer', 'at-limit.ts'), 'x;\n'.repeat(MAX_LINES));
    writeFileSync(join(root, 'scripts', 'at-limit.mjs'), 'x;\n'.repeat(MAX_LINES));
    writeFileSync(join(root, 'src', 'notes.md'), 'x\n'.repeat(MAX_LINES + 1));
    mkdirSync(join(root, 'examples', 'web-app'));
    writeFileSync(join(root, 'examples', 'web-app', 'app.js'), 'x;\n'.repeat(MAX_LINES + 1));
    assert.deepEqual([...longFiles(root)], [
      [join('bench', 'soak', 'long.ts'), MAX_LINES + 1],
      [join('e2e', 'support', 'long.spec.ts'), MAX_LINES + 1],
      [join('test', 'model', 'long.ts'), MAX_LINES + 1],
      [join('examples', 'web-app', 'app.js'), MAX_LINES + 1],
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
