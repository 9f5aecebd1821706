import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One exchange for the run, started before the test files and stopped after them.
    globalSetup: ['./global-setup.ts'],
    // The tests share that one exchange (one account): run the files one after another.
    fileParallelism: false,
  },
});
