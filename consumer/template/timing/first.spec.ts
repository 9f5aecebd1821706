import { importStarted } from './import-started.js';
import { test } from 'spot-sim/fixture';
import { writeFileSync } from 'node:fs';

// The first test body: the fixture module loaded, the worker's simulator started, a client made.
test('first test body', async ({ client }) => {
  const ms = performance.now() - importStarted;
  writeFileSync(process.env.TIMING_FILE ?? 'timing.txt', String(ms));
  await client.rest.ping();
});
