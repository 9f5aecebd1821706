// docs/ci.md, checked as a user's CI would run it: the page's example suite in two shards with
// the blob reporter (each shard a Playwright run of its own, one worker, its own exchange), then
// `playwright merge-reports` over both blob reports. The shards split the suite between them
// (each runs some, none runs a test twice) and the merged report holds every test once, passed.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { tsBlocks } from '../consumer/doc-blocks.ts';
import { playwrightCli, runNestedPlaywright, type JsonReport } from './support/nested-run.ts';

const SUITE = 'tests/ci-example.spec.ts';

const CONFIG = `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 1,
  retries: 0,
  outputDir: './test-results',
  reporter: [['blob', { outputDir: './blob-report' }], ['json', { outputFile: './report.json' }]],
});
`;

interface MergedSuite {
  title: string;
  specs?: { title: string; tests: { results: { status: string }[] }[] }[];
  suites?: MergedSuite[];
}

/** Every test of a report with the status of each of its results, by title. */
function outcomes(suites: readonly MergedSuite[]): { title: string; statuses: string[] }[] {
  return suites.flatMap((s) => [
    ...(s.specs ?? []).map((spec) => ({ title: spec.title, statuses: spec.tests.flatMap((t) => t.results.map((r) => r.status)) })),
    ...outcomes(s.suites ?? []),
  ]);
}

test('the example suite of docs/ci.md in two blob-reporting shards merges into one report with every test once', async ({}, testInfo) => {
  testInfo.setTimeout(240_000);
  const block = tsBlocks(join(import.meta.dirname, '..', 'docs', 'ci.md')).find((b) => b.path === SUITE);
  expect(block, `docs/ci.md has no ${SUITE} block`).toBeDefined();
  const titles = [...block!.code.matchAll(/^test\('([^']+)'/gm)].map((m) => m[1]!);
  expect(titles.length).toBeGreaterThanOrEqual(2);

  const dir = testInfo.outputPath('suite');
  const collected = join(dir, 'all-blob-reports');
  mkdirSync(collected, { recursive: true });
  const ranByShard: string[][] = [];
  for (const shard of [1, 2]) {
    const run = await runNestedPlaywright(dir, { [SUITE]: block!.code, 'playwright.config.ts': CONFIG }, [`--shard=${shard}/2`]);
    expect(run.code, run.output).toBe(0);
    ranByShard.push(outcomes((run.report as unknown as { suites: MergedSuite[] }).suites).filter((o) => o.statuses.length > 0).map((o) => o.title));
    // Each shard names its blob report after itself; CI would upload it as an artifact.
    copyFileSync(join(dir, 'blob-report', `report-${shard}.zip`), join(collected, `report-${shard}.zip`));
  }
  expect(ranByShard.map((ran) => ran.length > 0), `each shard runs part of the suite: ${JSON.stringify(ranByShard)}`).toEqual([true, true]);
  expect(ranByShard.flat().sort()).toEqual([...titles].sort());

  const merged = await playwrightCli(dir, ['merge-reports', '--reporter', 'json', collected]);
  expect(merged.code, merged.stderr).toBe(0);
  const report = JSON.parse(merged.stdout) as JsonReport & { suites: MergedSuite[]; stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
  const all = outcomes(report.suites);
  expect(all.map((o) => o.title).sort()).toEqual([...titles].sort());
  expect(all.map((o) => o.statuses)).toEqual(titles.map(() => ['passed']));
  expect(report.stats).toMatchObject({ expected: titles.length, unexpected: 0, flaky: 0, skipped: 0 });
});
