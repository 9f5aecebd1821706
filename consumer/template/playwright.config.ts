// A consumer's Playwright config: one exchange per worker through spot-sim/fixture.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  workers: 2,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'results.json' }]],
});
