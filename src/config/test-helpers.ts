// Shared helpers of the config unit tests (not a test file itself).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type ConfigProblem } from './errors.ts';
import { resolveConfig } from './resolve.ts';

/** The problems resolveConfig reports for `input`; fails the test if it does not throw. */
export function problemsOf(input: unknown): readonly ConfigProblem[] {
  try {
    resolveConfig(input);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error.problems;
  }
  assert.fail(`expected a ConfigError for ${JSON.stringify(input)}`);
}

/** Asserts that `input` fails with exactly one problem, at `path`, whose expectation matches. */
export function assertOnlyProblem(input: unknown, path: string, expected?: RegExp): ConfigProblem {
  const problems = problemsOf(input);
  assert.deepEqual(
    problems.map((problem) => problem.path),
    [path],
    `problems: ${JSON.stringify(problems, null, 1)}`,
  );
  const [problem] = problems;
  assert.ok(problem !== undefined);
  if (expected !== undefined) assert.match(problem.expected, expected);
  return problem;
}

/** A minimal valid instrument, to replace the default list with. */
export function instrument(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    symbol: 'SOLUSDT',
    base: 'SOL',
    quote: 'USDT',
    tick: '0.01',
    lot: '0.001',
    min_qty: '0.001',
    max_qty: '10000',
    min_notional: '5',
    ...overrides,
  };
}

/** Writes `text` to a new temporary file and returns its path. */
export function writeTempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'spot-sim-config-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
