// One simulator for the whole run, started before the test files (global setup), reached by URL.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./global-setup.ts'],
    // One exchange, one account: the files take turns.
    fileParallelism: false,
  },
});
