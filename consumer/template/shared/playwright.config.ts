// A consumer whose app is built against one fixed exchange URL: spotSimWebServer starts one
// shared standalone simulator before the workers and stops it after them.
import { defineConfig } from '@playwright/test';
import { spotSimWebServer } from 'spot-sim/playwright';

const port = Number(process.env.SHARED_SIM_PORT);
const tlsPort = Number(process.env.SHARED_SIM_TLS_PORT);

export default defineConfig({
  testDir: '.',
  testMatch: 'shared.spec.ts',
  reporter: [['list'], ['json', { outputFile: '../shared-results.json' }]],
  webServer: [spotSimWebServer({ port, tlsPort, args: ['--seed', '11'] })],
});
