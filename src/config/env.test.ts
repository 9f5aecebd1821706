import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEnvOverrides } from './env.ts';
import { ConfigError } from './errors.ts';
import { resolveConfig } from './resolve.ts';

test('SVC_SIM_* variables override key, secret and ports', () => {
  const tree = applyEnvOverrides(
    { sim: { port: 1000, account: { api_key: 'fileKey' } } },
    { SVC_SIM_API_KEY: 'envKey', SVC_SIM_API_SECRET: 'envSecret', SVC_SIM_PORT: '7000', SVC_SIM_TLS_PORT: '0' },
  );
  const config = resolveConfig(tree);
  assert.equal(config.sim.account.api_key, 'envKey');
  assert.equal(config.sim.account.api_secret, 'envSecret');
  assert.equal(config.sim.port, 7000);
  assert.equal(config.sim.tls_port, 0);
});

test('unset and empty variables leave the tree as it was', () => {
  const input = { sim: { port: 1000, account: { api_key: 'fileKey' } } };
  assert.deepStrictEqual(applyEnvOverrides(input, {}), input);
  assert.deepStrictEqual(applyEnvOverrides(input, { SVC_SIM_PORT: '', SVC_SIM_API_KEY: '', OTHER: 'x' }), input);
});

test('applyEnvOverrides returns a new tree and never mutates its input', () => {
  const input = { sim: { port: 1000 } };
  const result = applyEnvOverrides(input, { SVC_SIM_PORT: '2000' });
  assert.deepEqual(input, { sim: { port: 1000 } });
  assert.deepEqual(result, { sim: { port: 2000 } });
  assert.notEqual(applyEnvOverrides(input, {}), input);
  assert.deepStrictEqual(applyEnvOverrides({}, {}), {});
});

test('a malformed port variable is a ConfigError naming the variable; both are reported', () => {
  assert.throws(
    () => applyEnvOverrides({}, { SVC_SIM_PORT: 'abc', SVC_SIM_TLS_PORT: '70000' }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.deepEqual(error.problems, [
        { path: 'SVC_SIM_PORT', expected: 'a port number from 0 to 65535 (0: any free port)', got: '"abc"' },
        { path: 'SVC_SIM_TLS_PORT', expected: 'a port number from 0 to 65535 (0: any free port)', got: '"70000"' },
      ]);
      assert.match(error.message, /environment/);
      return true;
    },
  );
  for (const bad of ['-1', '1.5', ' 80', '0x50', '1e3']) {
    assert.throws(() => applyEnvOverrides({}, { SVC_SIM_PORT: bad }), ConfigError, bad);
  }
});
