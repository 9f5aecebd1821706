import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { LOOPBACK_ONLY_FLAG } from './src/fixture/binance-hosts.ts';


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
  // Browser tests (e2e/ui, e2e/examples): Debian's chromium when installed (apt-get install -y
  // chromium), else Playwright's own (npx playwright install chromium). The pages use the
  // reference exchange's real host names, routed to each worker's simulator; every other name
  // is unresolvable for the browser, so a test never sends a byte off this machine, even when
  // routing is broken (routeBinanceHosts puts its mappings before this catch-all).
  use: {
    launchOptions: {
      ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
      args: [LOOPBACK_ONLY_FLAG],
    },
  },
});
