// A consumer's Playwright config: one exchange per worker through spot-sim/fixture.
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  workers: 2,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: 'results.json' }]],
  use: {
    launchOptions: {
      // Debian's chromium (Playwright's own download does not work on this machine).
      ...(existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
      // Only loopback names resolve: a routing mistake fails here instead of reaching the internet.
      args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1'],
    },
  },
});
