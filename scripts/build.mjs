// Builds the published package (API.md section 7) into dist/:
//   dist/esm/{index,fixture,playwright,main}.js   ES modules (the package is "type": "module")
//   dist/cjs/{index,fixture,playwright}.js        CommonJS (dist/cjs/package.json says so)
//   dist/types/**.d.ts, dist/cjs/types/**.d.ts    declarations for import and for require
// esbuild bundles the JavaScript (it is what tsx runs on, so source and build behave alike);
// `tsc --emitDeclarationOnly` writes the declarations. Dependencies stay external: they are
// the package's `dependencies` (and the peer @playwright/test), never bundled copies.
//
// `spot-sim/fixture` imports `spot-sim` (src/index.ts) as the sibling bundle, not a copy, so a
// test file that imports both gets one Simulator class, one SpotSimError.
import { build, stop } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const entries = { index: 'src/index.ts', fixture: 'src/fixture/index.ts', playwright: 'src/playwright.ts' };

/** `../index.ts` from the fixture is the package's own main entry: the sibling bundle. */
const siblingIndex = {
  name: 'sibling-index',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/index\.ts$/ }, (args) =>
      args.importer === join(root, entries.fixture) ? { path: './index.js', external: true } : undefined,
    );
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: false,
  logLevel: 'warning',
  plugins: [siblingIndex],
  // package-root.ts: the bundles sit two folders below the package root.
  define: { SPOT_SIM_BUNDLE_DEPTH: '"../.."' },
};

for (const folder of ['esm', 'cjs', 'types']) rmSync(join(dist, folder), { recursive: true, force: true });

await build({ ...common, format: 'esm', outdir: join(dist, 'esm'), entryPoints: entries });
// The bin: the standalone server of src/main.ts, self-contained, with its shebang.
await build({
  ...common,
  plugins: [],
  format: 'esm',
  outfile: join(dist, 'esm', 'main.js'),
  entryPoints: [join(root, 'src/main.ts')],
  banner: { js: '#!/usr/bin/env node' },
});
// CommonJS has no import.meta: give it the module's file URL (what tsup's --shims does).
await build({
  ...common,
  format: 'cjs',
  outdir: join(dist, 'cjs'),
  entryPoints: entries,
  define: { ...common.define, 'import.meta.url': '__spotSimModuleUrl' },
  banner: { js: '"use strict";\nconst __spotSimModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
});
await stop();
writeFileSync(join(dist, 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// Declarations: tsc keeps the sources' `.ts` import specifiers; consumers resolve `.js`.
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (tsc.status !== 0) {
  console.error('build: tsc --emitDeclarationOnly failed');
  process.exit(1);
}
for (const file of walk(join(dist, 'types'))) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1$2.js$3'));
}
// The same declarations under dist/cjs, where package.json makes them CommonJS for `require`.
cpSync(join(dist, 'types'), join(dist, 'cjs', 'types'), { recursive: true });

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}
