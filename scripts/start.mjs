// `npm start`: the standalone server without a TypeScript loader in the running process.
// tsx's loader keeps a second V8 isolate alive (about 35 MiB of idle RSS), so the entry point is
// bundled once with esbuild (the compiler tsx itself uses) into dist/ and run by plain node.
// Dependencies stay external (loaded from node_modules). `npx tsx src/main.ts` runs the same
// server from source.
import { build } from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'main.mjs');
await build({
  entryPoints: [join(root, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
});
await import(pathToFileURL(outfile).href);
