import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMarkets } from '../core/markets.ts';
import { resolveConfig } from './resolve.ts';
import { assertOnlyProblem, instrument } from './test-helpers.ts';

const reference = (...instruments: Record<string, unknown>[]) => ({ sim: { order_types: 'reference' }, instruments });

test('[sim] order_types defaults to "spec"; "reference" is the other value, anything else names the key', () => {
  assert.equal(resolveConfig({}).sim.order_types, 'spec');
  assert.equal(resolveConfig({ sim: { order_types: 'reference' } }).sim.order_types, 'reference');
  assertOnlyProblem({ sim: { order_types: 'all' } }, 'sim.order_types', /"spec" or "reference"/);
  assertOnlyProblem({ sim: { order_types: true } }, 'sim.order_types', /"spec" or "reference"/);
});

test('with "reference" an instrument keeps the order keys it sets, and leaves out the others', () => {
  const config = resolveConfig(reference(instrument({ order_types: ['LIMIT', 'MARKET', 'STOP_LOSS_LIMIT'], oco_allowed: false, iceberg_parts: 10, max_trailing_below_delta: 500 })));
  const inst = config.instruments[0]!;
  assert.deepEqual(inst.order_types, ['LIMIT', 'MARKET', 'STOP_LOSS_LIMIT']);
  assert.equal(inst.oco_allowed, false);
  assert.equal(inst.iceberg_parts, 10);
  assert.equal(inst.max_trailing_below_delta, 500);
  assert.equal(inst.iceberg_allowed, undefined);
  assert.ok(!('amend_allowed' in inst));
});

test('with "spec" every order key of an instrument is a problem at its path', () => {
  for (const [key, value] of [
    ['order_types', ['LIMIT']],
    ['iceberg_allowed', true],
    ['max_num_order_lists', 3],
    ['min_trailing_above_delta', 10],
  ] as const) {
    assertOnlyProblem({ instruments: [instrument({ [key]: value })] }, `instruments[0].${key}`, /order_types = "reference"/);
  }
});

test('bad order keys are problems at their paths (table of cases)', () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [{ order_types: [] }, 'instruments[0].order_types', /non-empty array/],
    [{ order_types: 'LIMIT' }, 'instruments[0].order_types', /non-empty array/],
    [{ order_types: ['LIMIT', 'OCO'] }, 'instruments[0].order_types[1]', /one of LIMIT, LIMIT_MAKER/],
    [{ order_types: ['LIMIT', 7] }, 'instruments[0].order_types[1]', /one of LIMIT/],
    [{ order_types: ['MARKET', 'MARKET'] }, 'instruments[0].order_types[1]', /not already listed/],
    [{ iceberg_allowed: 'yes' }, 'instruments[0].iceberg_allowed', /true or false/],
    [{ amend_allowed: 1 }, 'instruments[0].amend_allowed', /true or false/],
    [{ iceberg_parts: 0 }, 'instruments[0].iceberg_parts', /from 1 to 1000000/],
    [{ max_num_algo_orders: 2.5 }, 'instruments[0].max_num_algo_orders', /from 1 to 1000000/],
    [{ max_num_order_lists: 1_000_001 }, 'instruments[0].max_num_order_lists', /from 1 to 1000000/],
    [{ min_trailing_above_delta: 0 }, 'instruments[0].min_trailing_above_delta', /basis points from 1 to 10000/],
    [{ max_trailing_below_delta: 10_001 }, 'instruments[0].max_trailing_below_delta', /basis points from 1 to 10000/],
    [{ min_trailing_above_delta: 300, max_trailing_above_delta: 200 }, 'instruments[0].min_trailing_above_delta', /at most max_trailing_above_delta \(200\)/],
    [{ min_trailing_below_delta: 20, max_trailing_below_delta: 19 }, 'instruments[0].min_trailing_below_delta', /at most max_trailing_below_delta/],
    [{ iceberg_allowd: true }, 'instruments[0].iceberg_allowd', /did you mean "iceberg_allowed"/],
  ];
  for (const [keys, path, expected] of cases) assertOnlyProblem(reference(instrument(keys)), path, expected);
});

test('buildMarkets takes the state filters from the instrument, the reference values otherwise', () => {
  const config = resolveConfig(reference(instrument({ max_num_algo_orders: 2, max_num_iceberg_orders: 3, max_num_order_lists: 4 }), instrument({ symbol: 'XRPUSDT', base: 'XRP' })));
  const [set, plain] = buildMarkets(config).instruments;
  assert.deepEqual([set!.maxNumAlgoOrders, set!.maxNumIcebergOrders, set!.maxNumOrderLists], [2, 3, 4]);
  assert.deepEqual([plain!.maxNumAlgoOrders, plain!.maxNumIcebergOrders, plain!.maxNumOrderLists], [5, 5, 20]);
});
