// A Playwright run inside a test, for what only a report shows (steps, a worker fixture that
// fails): writes the files into `dir`, runs Playwright there with the JSON reporter, and
// resolves with its exit code, output and report.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PLAYWRIGHT_CLI = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');

export interface JsonStep {
  title: string;
  error?: { message?: string };
  steps?: JsonStep[];
}
export interface JsonError {
  message?: string;
  stack?: string;
  snippet?: string;
  location?: { file: string; line: number; column: number };
}
export interface JsonResult {
  status: string;
  error?: JsonError;
  errors: JsonError[];
  steps: JsonStep[];
}
export interface JsonReport {
  suites: { specs: { title: string; tests: { results: JsonResult[] }[] }[] }[];
  errors?: { message?: string }[];
}

/**
 * A config for the nested run: its spec files, one worker, the JSON report in ./report.json;
 * `use` is the config's `use` block as source text, `stepsReporter` adds the report of every
 * test step with its location (./steps.json, see STEPS_REPORTER).
 */
export function nestedConfig(options: { testMatch: string; timeout?: number; use?: string; stepsReporter?: boolean }): string {
  const steps = options.stepsReporter ? ", ['./steps-reporter.ts']" : '';
  return `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: '.',
  testMatch: ${JSON.stringify(options.testMatch)},
  outputDir: './test-results',
  workers: 1,
  retries: 0,
  timeout: ${options.timeout ?? 30_000},
  reporter: [['json', { outputFile: './report.json' }]${steps}],
  ${options.use === undefined ? '' : `use: ${options.use},`}
});
`;
}

/** A step as a reporter sees it (the JSON report has no step locations). */
export interface ReportedStep {
  test: string;
  title: string;
  file?: string;
  line?: number;
  error?: string;
}

/** The reporter `stepsReporter` adds: every `test.step` of every test, in order, into ./steps.json. */
export const STEPS_REPORTER = `
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
export default class StepsReporter {
  rows = [];
  onBegin(config) { this.out = join(dirname(config.configFile), 'steps.json'); }
  onStepEnd(test, _result, step) {
    if (step.category === 'test.step') this.rows.push({ test: test.title, title: step.title, file: step.location?.file, line: step.location?.line, error: step.error?.message });
  }
  onEnd() { writeFileSync(this.out, JSON.stringify(this.rows)); }
  printsToStdio() { return false; }
}
`;

/** The steps ./steps.json holds after a run with `stepsReporter`. */
export function reportedSteps(dir: string): ReportedStep[] {
  return JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as ReportedStep[];
}

/** `args` follow `test -c <dir>/playwright.config.ts` (e.g. `--shard=1/2`); a file name may hold a folder (`tests/a.spec.ts`). */
export async function runNestedPlaywright(dir: string, files: Readonly<Record<string, string>>, args: readonly string[] = []): Promise<{ code: number | null; output: string; report: JsonReport | null; ms: number }> {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const started = Date.now();
  const run = await playwrightCli(dir, ['test', '-c', join(dir, 'playwright.config.ts'), ...args]);
  const reportFile = join(dir, 'report.json');
  const report = existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as JsonReport) : null;
  return { code: run.code, output: `${run.stdout}${run.stderr}`, report, ms: Date.now() - started };
}

/** Any Playwright command in `dir` (`merge-reports ...`), with the outer run's variables left out. */
export async function playwrightCli(dir: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  mkdirSync(dir, { recursive: true });
  // The outer worker's variables (worker index, loader settings) must not leak into the inner run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(TEST_|PW_|PLAYWRIGHT_)/.test(k) && k !== 'NODE_OPTIONS'));
  const child = spawn(process.execPath, [PLAYWRIGHT_CLI, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
