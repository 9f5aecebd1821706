// How the fixture behaves for a user, read back from the report by consumer.test.ts (API.md
// section 4.1): a bad call failing its own test at its line, composing with the user's own
// fixtures and matchers, and every waiting matcher passing and failing with what it saw. Some
// tests here fail on purpose; one worker, so each file's tests run in order.
import { defineConfig } from '@playwright/test';
import type { SpotSimFixtures, SpotSimOptions } from 'spot-sim/fixture';

// The type arguments make `use: { simConfig }` type-check.
export default defineConfig<SpotSimFixtures, SpotSimOptions>({
  testDir: '.',
  workers: 1,
  timeout: 30_000,
  expect: { timeout: 2_000 },
  reporter: [['list'], ['json', { outputFile: '../fixture-checks-results.json' }]],
  use: { simConfig: { sim: { generator: { enabled: false } } } },
});
