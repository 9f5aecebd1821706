import { defineConfig } from '@playwright/test';

// End-to-end tests drive the simulator over real sockets through the fixture.
// Each worker owns its own exchange on random ports, so workers may run in parallel.
export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.PW_JSON_OUTPUT
    ? [['list'], ['json', { outputFile: process.env.PW_JSON_OUTPUT }]]
    : [['list']],
});
