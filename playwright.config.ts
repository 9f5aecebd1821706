import { existsSync } from 'node:fs';
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
  // Browser tests (e2e/ui): Debian's chromium when installed (apt-get install -y chromium),
  // else Playwright's own (npx playwright install chromium).
  use: { launchOptions: existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {} },
});
