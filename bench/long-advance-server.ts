// The server of bench/long-advance.bench.ts, in its own process so that its RSS is its own: a
// simulator on a manual clock with the generator on and the control API, from the sources under
// `--root=<dir>` (this tree by default; another commit's export for a before/after figure). It
// prints its URLs as one JSON line and runs until killed.

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { flag } from './support.ts';

const root = flag('root') || join(import.meta.dirname, '..');
const { startSimulator } = (await import(pathToFileURL(join(root, 'src', 'index.ts')).href)) as typeof import('../src/index.ts');
const sim = await startSimulator({
  config: { sim: { bind: '127.0.0.1', port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, stats_interval_ms: 0 } },
});
console.log(JSON.stringify({ urls: sim.urls }));
process.on('SIGTERM', () => void sim.stop().then(() => process.exit(0)));
