import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CONFIG } from './defaults.ts';
import { ConfigError } from './errors.ts';
import { loadConfig, loadConfigFile } from './load.ts';
import { writeTempFile } from './test-helpers.ts';
import { dirname, join } from 'node:path';

const SMALL_FILE = `
[sim]
seed = 42
port = 1234
[sim.generator]
enabled = false
`;

test('loadConfigFile merges the file over the defaults', () => {
  const config = loadConfigFile(writeTempFile('small.toml', SMALL_FILE));
  assert.equal(config.sim.seed, 42);
  assert.equal(config.sim.port, 1234);
  assert.equal(config.sim.generator.enabled, false);
  assert.equal(config.sim.generator.seed_levels, 20);
  assert.deepStrictEqual(config.instruments, DEFAULT_CONFIG.instruments);
});

test('loadConfig: the programmatic tree is merged over the file tree', () => {
  const configFile = writeTempFile('small.toml', SMALL_FILE);
  const config = loadConfig({ configFile, config: { sim: { port: 0, generator: { seed_levels: 5 } } } });
  assert.equal(config.sim.seed, 42); // from the file
  assert.equal(config.sim.port, 0); // programmatic wins
  assert.equal(config.sim.generator.enabled, false); // file, merged
  assert.equal(config.sim.generator.seed_levels, 5); // programmatic
});

test('loadConfig: programmatic instruments replace the file instruments', () => {
  const configFile = writeTempFile('instruments.toml', `
[[instruments]]
symbol = "AAAUSDT"
base = "AAA"
quote = "USDT"
tick = "0.1"
lot = "1"
min_qty = "1"
max_qty = "10"
min_notional = "1"
`);
  assert.deepEqual(loadConfig({ configFile }).instruments.map((item) => item.symbol), ['AAAUSDT']);
  const config = loadConfig({
    configFile,
    config: { instruments: [{ symbol: 'BBBUSDT', base: 'BBB', quote: 'USDT', tick: '1', lot: '1', min_qty: 1, max_qty: 1, min_notional: 0 }] },
  });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['BBBUSDT']);
});

test('loadConfig without a file is resolveConfig of the tree', () => {
  assert.deepStrictEqual(loadConfig({}), DEFAULT_CONFIG);
  assert.equal(loadConfig({ config: { sim: { seed: 9 } } }).sim.seed, 9);
});

test('a bad file is one ConfigError naming the file and every bad key', () => {
  const path = writeTempFile('bad.toml', '[sim]\nport = 99999\nsed = 1\n');
  assert.throws(
    () => loadConfigFile(path),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.source, path);
      assert.deepEqual(error.problems.map((problem) => problem.path), ['sim.sed', 'sim.port']);
      assert.ok(error.message.startsWith(`invalid configuration (${path}): 2 problems\n`));
      return true;
    },
  );
});

test('a missing file is a ConfigError naming the path', () => {
  assert.throws(
    () => loadConfigFile('/nonexistent/spot-sim.toml'),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.problems[0]!.path, '/nonexistent/spot-sim.toml');
      assert.match(error.problems[0]!.got ?? '', /ENOENT/);
      return true;
    },
  );
});

test('relative file paths resolve against the TOML file, or the working directory for a programmatic tree', () => {
  const file = writeTempFile('paths.toml', '[sim]\ntls_cert = "certs/c.pem"\ntls_key = "/abs/k.pem"\n[sim.account]\ned25519_public_key_file = "keys/e.pem"\n');
  const fromFile = loadConfigFile(file);
  assert.equal(fromFile.sim.tls_cert, join(dirname(file), 'certs/c.pem'));
  assert.equal(fromFile.sim.tls_key, '/abs/k.pem');
  assert.equal(fromFile.sim.account.ed25519_public_key_file, join(dirname(file), 'keys/e.pem'));
  const programmatic = loadConfig({ config: { sim: { tls_cert: 'mine/c.pem' } } });
  assert.equal(programmatic.sim.tls_cert, join(process.cwd(), 'mine/c.pem'));
  // Unset: the default stays relative, naming the certificate shipped inside the package.
  assert.equal(programmatic.sim.tls_key, 'fixtures/tls/key.pem');
});
