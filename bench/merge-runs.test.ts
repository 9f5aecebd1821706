// `npm run bench` keeps the median of BENCH_RUNS runs, and a target's verdict must be the
// median's, not the first run's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeRuns } from './merge-runs.ts';

const run = (p50: number, met: boolean) => ({ bench: 'market-data', tickers: { p50 }, targets: { tickers: { value: p50, target: '< 1 ms', met } } });

test('numbers become their median over the runs, text stays the first run\'s', () => {
  assert.deepEqual(mergeRuns([run(3, false), run(1, true), run(2, false)]), {
    bench: 'market-data',
    tickers: { p50: 2 },
    targets: { tickers: { value: 2, target: '< 1 ms', met: false } },
    runsMerged: 3,
  });
});

test('a target is decided again on the median, for <, <=, > and >= alike', () => {
  const merged = (target: string, values: number[]) =>
    (mergeRuns(values.map((value, i) => ({ t: { value, target, met: i === 0 } }))) as { t: { met: boolean } }).t.met;
  assert.equal(merged('< 1 ms', [1.5, 0.5, 0.6]), true);
  assert.equal(merged('< 1 ms', [0.5, 1, 1.5]), false);
  assert.equal(merged('<= 1 ms', [0.5, 1, 1.5]), true);
  assert.equal(merged('> 10', [5, 11, 12]), true);
  assert.equal(merged('>= 0.5x bare', [0.6, 0.4, 0.3]), false);
});
