// `appServer` when the app does not come up (API.md section 8): the worker fails fast with the
// command and its last output lines, also with test timeout 0 (a debugger's), and leaves nothing
// running. A worker fixture's failure is what a report shows, so this runs a nested suite.
import { test, expect } from '@playwright/test';
import { nestedConfig, runNestedPlaywright } from './support/nested-run.ts';

const exitingApp = (marker: string) => {
  const command = `node -e "console.log('compiling ${marker}'); console.error('Error: Cannot find module ./app'); process.exit(4)"`;
  return `
import { test } from 'spot-sim/fixture';
test.use({ appServer: { command: ${JSON.stringify(command)}, url: 'http://127.0.0.1:{port}/' } });
test('never runs', async ({ page }) => {
  await page.goto('/');
});
`;
};

test('an app command that exits fails the worker at once with the command and its output, even with test timeout 0', async ({}, testInfo) => {
  testInfo.setTimeout(90_000);
  const run = await runNestedPlaywright(testInfo.outputPath('inner'), {
    'inner.spec.ts': exitingApp('v1'),
    'playwright.config.ts': nestedConfig({ testMatch: 'inner.spec.ts', timeout: 0 }),
  });
  expect(run.code, run.output).toBe(1);
  const result = run.report!.suites[0]!.specs[0]!.tests[0]!.results[0]!;
  expect(result.status).toBe('failed');
  const message = result.errors.map((e) => e.message).join('\n');
  expect(message).toContain('spot-sim appServer: `node -e');
  expect(message).toContain('exited with code 4 before http://127.0.0.1:');
  expect(message).toContain('compiling v1');
  expect(message).toContain('Error: Cannot find module ./app');
  // Fast: the exit is noticed, not the 60 s start deadline.
  expect(run.ms).toBeLessThan(45_000);
});
