// Issue 23, from a user's side:
// - every install a user may choose (tarball, a path, `npm link`) gives a working fixture: the
//   README's first fixture example runs unchanged in each (a path or link install is a symlink,
//   and spot-sim/fixture must still use the project's own @playwright/test);
// - every TypeScript block of README.md and docs/*.md type-checks against the packed package
//   in a strict consumer project, and the fixture examples (blocks named `// tests/...`) pass;
// - the Vitest example (examples/vitest) passes with the packed package: a runner other than
//   Playwright drives the exchange through connectSimulator.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allDocBlocks, tsBlocks, type DocBlock } from './doc-blocks.ts';
import { pack, REPO, removeScratch, repoVersion, run, scratchRoot, type Packed } from './scratch.ts';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPX = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const root = scratchRoot();
let packed: Packed;

before(() => {
  packed = pack(join(root, 'pack')); // also builds dist/, which path and link installs use as is
});
after(() => removeScratch(root));

const PLAYWRIGHT_CONFIG = `import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  workers: 1,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'results.json' }]],
  use: { launchOptions: existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {} },
});
`;

function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'tests'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: `spot-sim-${name}`, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(join(dir, 'docs.playwright.config.ts'), PLAYWRIGHT_CONFIG);
  return dir;
}

function npmInstall(dir: string, specs: readonly string[], env: NodeJS.ProcessEnv = {}): void {
  const result = run(NPM, ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', ...specs], dir, { timeoutMs: 180_000, env });
  assert.equal(result.status, 0, `npm install ${specs.join(' ')}:\n${result.stdout}\n${result.stderr}`);
}

const peers = () => [`@playwright/test@${repoVersion('@playwright/test')}`, `typescript@${repoVersion('typescript')}`, `@types/node@${repoVersion('@types/node')}`];

function writeBlocks(dir: string, blocks: readonly DocBlock[]): void {
  for (const block of blocks) {
    const file = join(dir, block.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, block.code);
  }
}

function runPlaywright(dir: string): { expected: number; unexpected: number; output: string } {
  const result = run(NPX, ['playwright', 'test', '-c', 'docs.playwright.config.ts'], dir, { timeoutMs: 240_000 });
  const output = `${result.stdout}\n${result.stderr}`;
  const report = join(dir, 'results.json');
  assert.ok(existsSync(report), `no Playwright report:\n${output}`);
  const { stats } = JSON.parse(readFileSync(report, 'utf8')) as { stats: { expected: number; unexpected: number } };
  return { expected: stats.expected, unexpected: stats.unexpected, output };
}

/** The README's first fixture example: the first block that is a test file. */
function readmeFirstFixtureExample(): DocBlock {
  const block = tsBlocks(join(REPO, 'README.md')).find((b) => b.runs);
  assert.ok(block, 'README.md has no runnable fixture example (a ```ts block starting with `// tests/<name>.spec.ts`)');
  return block;
}

const INSTALLS = {
  tarball: (dir: string) => npmInstall(dir, [packed.tarball, ...peers()]),
  // A path install is a symlink to the repository, whose own node_modules holds a second
  // @playwright/test: the case that broke the fixture.
  path: (dir: string) => npmInstall(dir, [REPO, ...peers()]),
  // `npm link <folder>`: a global link (kept inside the scratch folder), then a symlink to it.
  link: (dir: string) => {
    const prefix = join(root, 'npm-global');
    for (const folder of ['lib/node_modules', 'bin']) mkdirSync(join(prefix, folder), { recursive: true });
    const env = { npm_config_prefix: prefix };
    npmInstall(dir, peers(), env);
    const link = run(NPM, ['link', '--no-audit', '--no-fund', REPO], dir, { timeoutMs: 180_000, env });
    assert.equal(link.status, 0, `npm link:\n${link.stdout}\n${link.stderr}`);
  },
} as const;

for (const [mode, install] of Object.entries(INSTALLS)) {
  test(`installed by ${mode}, the README's first fixture example runs unchanged`, () => {
    const dir = project(`install-${mode}`);
    install(dir);
    if (mode !== 'tarball') assert.ok(run('test', ['-L', join(dir, 'node_modules', 'spot-sim')], dir).status === 0, 'expected a symlinked install');
    writeBlocks(dir, [readmeFirstFixtureExample()]);
    const result = runPlaywright(dir);
    assert.deepEqual([result.expected > 0, result.unexpected], [true, 0], result.output);
  });
}

test('every TypeScript block of README.md and docs/ type-checks against the packed package, and the fixture examples pass', () => {
  const blocks = allDocBlocks();
  assert.ok(blocks.length > 0, 'no TypeScript blocks found');
  const paths = blocks.map((b) => b.path);
  assert.deepEqual(paths.filter((p, i) => paths.indexOf(p) !== i), [], 'two blocks name the same file');
  const dir = project('docs');
  npmInstall(dir, [packed.tarball, ...peers()]);
  writeBlocks(dir, blocks);
  const tsconfig = {
    compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', lib: ['es2023', 'esnext.disposable', 'dom'], noEmit: true, types: ['node'], skipLibCheck: true },
    include: ['tests', 'examples', 'src', '*.config.ts'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = run(NPX, ['tsc', '-p', '.'], dir, { timeoutMs: 180_000 });
  const where = new Map(blocks.map((b) => [b.path, b.source]));
  const errors = tsc.stdout.replace(/^([\w./-]+\.ts)\((\d+),/gm, (_all, path: string, line: string) => `${where.get(path) ?? path} (line ${line} of the block),`);
  assert.equal(tsc.status, 0, `documentation examples that do not compile:\n${errors}${tsc.stderr}`);
  if (blocks.some((b) => b.runs)) {
    const result = runPlaywright(dir);
    assert.equal(result.unexpected, 0, result.output);
    assert.ok(result.expected > 0, result.output);
  }
});

test('the Vitest example passes with the packed package (connectSimulator, no Playwright)', () => {
  const dir = join(root, 'vitest');
  cpSync(join(REPO, 'examples', 'vitest'), dir, { recursive: true, filter: (src) => !src.includes('node_modules') });
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  manifest.devDependencies['spot-sim'] = `file:${packed.tarball}`;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const install = run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir, { timeoutMs: 240_000 });
  assert.equal(install.status, 0, `npm install:\n${install.stdout}\n${install.stderr}`);
  const result = run(NPX, ['vitest', 'run', '--reporter=verbose'], dir, { timeoutMs: 180_000, env: { CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' } });
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stdout, /Tests\s+\d+ passed/);
  assert.doesNotMatch(result.stdout, /\d+ failed/);
});
