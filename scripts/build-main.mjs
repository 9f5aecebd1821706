// `npm start` = this build, then `MALLOC_ARENA_MAX=2 node --max-semi-space-size=8 dist/main.mjs`
// (memory settings, see SERVER_NODE_FLAGS in bench/support.ts): the standalone server without a
// TypeScript loader (tsx's keeps a second V8 isolate alive, about 35 MiB of idle RSS) and
// without esbuild in the server process. The entry point is bundled with esbuild (the compiler
// tsx itself uses) into dist/.
// esbuild's service process is stopped after the build. Dependencies
// stay external (loaded from node_modules). `npx tsx src/main.ts` runs the same
// server from source.
//
// `node scripts/build-main.mjs <entry.ts> <out.mjs>` bundles another entry point the same way:
// `npm run soak` runs its server side (bench/soak/soak.ts) like `npm start` runs the server, so the
// memory it reports is the shipped server's, not tsx's.
import { build, stop } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [entry = join('src', 'main.ts'), out = join('dist', 'main.mjs')] = process.argv.slice(2);
const outfile = join(root, out);
await build({
  entryPoints: [join(root, entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  // src/package-root.ts: dist/<out>.mjs sits one folder below the package root.
  define: { SPOT_SIM_BUNDLE_DEPTH: '".."' },
});
// The build service is a child process; stop it so only the server keeps running.
await stop();
