import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG } from './defaults.ts';
import { ConfigError } from './errors.ts';
import { loadConfigFile } from './load.ts';
import { resolveConfig } from './resolve.ts';
import { parseConfigToml } from './toml.ts';

const DEFAULT_TOML = new URL('../../fixtures/config/default.toml', import.meta.url);

test('fixtures/config/default.toml loads to exactly the embedded default', () => {
  assert.deepStrictEqual(loadConfigFile(DEFAULT_TOML.pathname), DEFAULT_CONFIG);
});

test('default.toml spells out every key of the embedded default', () => {
  // Resolving the file's tree over NOTHING but itself must not lean on the embedded default:
  // every scalar key of the default appears in the file.
  const tree = parseConfigToml(readFileSync(DEFAULT_TOML, 'utf8'), 'default.toml') as Record<string, Record<string, unknown>>;
  const sim = tree.sim ?? {};
  // The TLS pair defaults to the files shipped inside the package (API.md section 7); a copy of
  // this file elsewhere must not point at a missing ./fixtures, so those keys are shown commented.
  const shippedFiles = ['tls_cert', 'tls_key'];
  const text = readFileSync(DEFAULT_TOML, 'utf8');
  for (const key of shippedFiles) assert.match(text, new RegExp(`^# ${key} = "`, 'm'), `sim.${key} not shown commented`);
  for (const key of Object.keys(DEFAULT_CONFIG.sim)) {
    if (!shippedFiles.includes(key)) assert.ok(Object.hasOwn(sim, key), `sim.${key} missing`);
  }
  for (const section of ['account', 'fees', 'limits', 'generator', 'faults'] as const) {
    const fileSection = sim[section] as Record<string, unknown>;
    for (const key of Object.keys(DEFAULT_CONFIG.sim[section])) {
      assert.ok(Object.hasOwn(fileSection, key), `sim.${section}.${key} missing`);
    }
  }
  assert.equal((tree.instruments as unknown as unknown[]).length, 2);
});

test('a TOML syntax error is a ConfigError naming the file and the line', () => {
  const text = 'seed = 1\n[sim]\nport = = 2\n';
  assert.throws(
    () => parseConfigToml(text, 'my-sim.toml'),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems.length, 1);
      assert.match(error.problems[0]!.path, /^my-sim\.toml:3:\d+$/);
      assert.equal(error.problems[0]!.expected, 'valid TOML');
      assert.match(error.message, /my-sim\.toml, line 3/);
      return true;
    },
  );
});

test('decimals in TOML may be numbers or strings and are normalised', () => {
  const tree = parseConfigToml(`
[sim.fees]
maker_bps = 0.50
taker_bps = "7.50"
[[instruments]]
symbol = "BTCUSDT"
base = "BTC"
quote = "USDT"
tick = 0.010
lot = "0.00001"
min_qty = 1e-5
max_qty = "9000.0"
min_notional = 5
`);
  const config = resolveConfig(tree);
  assert.deepEqual(config.sim.fees, { maker_bps: '0.5', taker_bps: '7.5' });
  const [btc] = config.instruments;
  assert.ok(btc !== undefined);
  assert.equal(btc.tick, '0.01');
  assert.equal(btc.min_qty, '0.00001');
  assert.equal(btc.max_qty, '9000');
  assert.equal(btc.min_notional, '5');
});

test('TOML integers beyond 2^53 stay exact in decimals and are rejected as integers', () => {
  const tree = parseConfigToml(`
[sim]
seed = 99999999999999999999
[sim.account.balances]
USDT = 123456789012345678901234
`);
  assert.throws(() => resolveConfig(tree), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.path), ['sim.seed']);
    return true;
  });
  const ok = resolveConfig(parseConfigToml('[sim.account.balances]\nUSDT = 123456789012345678901234\n'));
  assert.equal(ok.sim.account.balances.USDT, '123456789012345678901234');
});

test('a TOML date where a value is expected is a type error', () => {
  const tree = parseConfigToml('[sim]\nstart_time_ms = 2024-01-01T00:00:00Z\n');
  assert.throws(() => resolveConfig(tree), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems, [{ path: 'sim.start_time_ms', expected: 'a non-negative integer', got: 'a date' }]);
    return true;
  });
});

test('a __proto__ key in TOML is reported as unknown, not merged into prototypes', () => {
  const tree = parseConfigToml('[sim."__proto__"]\nseed = 3\n');
  assert.throws(() => resolveConfig(tree), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.path), ['sim.__proto__']);
    return true;
  });
  assert.equal(({} as Record<string, unknown>).seed, undefined);
});
