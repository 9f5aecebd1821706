import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from './defaults.ts';
import { deepMerge } from './merge.ts';
import { resolveConfig } from './resolve.ts';
import { assertOnlyProblem, instrument } from './test-helpers.ts';

test('deepMerge merges tables recursively and replaces arrays and scalars', () => {
  const base = { a: { x: 1, y: { deep: 'keep', other: 1 } }, list: [1, 2, 3], s: 'base' };
  const over = { a: { y: { other: 2 } }, list: [9], s: 'over', extra: true };
  assert.deepStrictEqual(deepMerge(base, over), {
    a: { x: 1, y: { deep: 'keep', other: 2 } },
    list: [9],
    s: 'over',
    extra: true,
  });
});

test('deepMerge treats undefined as not given and never mutates its inputs', () => {
  const base = { a: { x: 1 }, list: [{ k: 1 }] };
  const over = { a: { x: undefined, y: 2 }, b: undefined };
  const snapshotBase = structuredClone(base);
  const snapshotOver = structuredClone(over);
  const merged = deepMerge(base, over) as { a: { x: number }; list: { k: number }[] };
  assert.deepStrictEqual(merged, { a: { x: 1, y: 2 }, list: [{ k: 1 }] });
  assert.deepStrictEqual(base, snapshotBase);
  assert.deepStrictEqual(over, snapshotOver);
  // The result shares no table with the inputs.
  assert.notEqual(merged.a, base.a);
  assert.notEqual(merged.list[0], base.list[0]);
});

test('a table replaces a scalar and a scalar replaces a table', () => {
  assert.deepStrictEqual(deepMerge({ a: 1 }, { a: { b: 2 } }), { a: { b: 2 } });
  assert.deepStrictEqual(deepMerge({ a: { b: 2 } }, { a: 3 }), { a: 3 });
});

test('resolveConfig merges tables over the defaults key by key', () => {
  const config = resolveConfig({ sim: { port: 0, generator: { enabled: false }, fees: { taker_bps: '7.5' } } });
  assert.equal(config.sim.port, 0);
  assert.equal(config.sim.tls_port, 9443);
  assert.equal(config.sim.generator.enabled, false);
  assert.equal(config.sim.generator.seed_levels, 20);
  assert.deepEqual(config.sim.fees, { maker_bps: '1', taker_bps: '7.5' });
  assert.deepStrictEqual(config.instruments, DEFAULT_CONFIG.instruments);
});

test('resolveConfig replaces the instruments array instead of merging it', () => {
  const config = resolveConfig({ instruments: [instrument()] });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['SOLUSDT']);
  // Balances follow the active instruments: SOL is a base asset, USDT the quote.
  assert.deepEqual(config.sim.account.balances, { SOL: '100', USDT: '10000000' });
  // The default's per-symbol overrides do not outlive their instruments.
  assert.deepEqual(config.sim.symbols, {});
});

test('an input instrument may omit enabled and venue', () => {
  const [sol] = resolveConfig({ instruments: [instrument()] }).instruments;
  assert.ok(sol !== undefined);
  assert.equal(sol.enabled, true);
  assert.equal(sol.venue, 'binance');
});

test('default per-symbol overrides stay with symbols the replaced list still configures', () => {
  const eth = instrument({ symbol: 'ETHUSDT', base: 'ETH', lot: '0.0001', min_qty: '0.0001' });
  const config = resolveConfig({ instruments: [eth, instrument()] });
  assert.deepEqual(config.sim.symbols, { ETHUSDT: { start_mid: '3000' } });
});

test('programmatic per-symbol overrides merge over the default ones', () => {
  const config = resolveConfig({ sim: { symbols: { BTCUSDT: { max_notional: 1000000 } } } });
  assert.deepEqual(config.sim.symbols, {
    BTCUSDT: { start_mid: '60000', max_notional: '1000000' },
    ETHUSDT: { start_mid: '3000' },
  });
});

test('resolveConfig does not mutate its input', () => {
  const input = { sim: { seed: 3, account: { balances: { BTC: 1 } } }, instruments: [instrument({ symbol: 'BTCUSDT', base: 'BTC' })] };
  const snapshot = structuredClone(input);
  resolveConfig(input);
  assert.deepStrictEqual(input, snapshot);
});

test('a non-table input is one problem at the root', () => {
  assertOnlyProblem([1, 2], '(root)', /a table/);
  assertOnlyProblem('sim', '(root)', /a table/);
  assertOnlyProblem(null, '(root)', /a table/);
});
