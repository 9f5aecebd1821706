import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCliArgs, type CliCommand } from './cli-args.ts';
import { DEFAULT_CONFIG } from './defaults.ts';
import { ConfigError, UsageError } from './errors.ts';
import { writeTempFile } from './test-helpers.ts';

function run(argv: string[], env: Record<string, string> = {}): Extract<CliCommand, { kind: 'run' }> {
  const command = parseCliArgs(argv, env);
  assert.equal(command.kind, 'run');
  return command as Extract<CliCommand, { kind: 'run' }>;
}

const FILE = `
[sim]
seed = 11
port = 1111
tls_port = 2222
bind = "0.0.0.0"
stats_interval_ms = 500
[sim.account]
api_key = "fileKey"
`;

test('no arguments: the embedded default', () => {
  const command = run([]);
  assert.deepStrictEqual(command.config, DEFAULT_CONFIG);
  assert.equal(command.quiet, false);
});

test('--config loads the file', () => {
  const { config } = run(['--config', writeTempFile('cli.toml', FILE)]);
  assert.equal(config.sim.seed, 11);
  assert.equal(config.sim.port, 1111);
  assert.equal(config.sim.bind, '0.0.0.0');
  assert.equal(config.sim.account.api_key, 'fileKey');
});

test('flags override the file', () => {
  const { config } = run([
    '--config', writeTempFile('cli.toml', FILE),
    '--seed', '12', '--port', '3333', '--tls-port=4444', '--bind', '::1', '--stats-interval-ms', '0',
  ]);
  assert.equal(config.sim.seed, 12);
  assert.equal(config.sim.port, 3333);
  assert.equal(config.sim.tls_port, 4444);
  assert.equal(config.sim.bind, '::1');
  assert.equal(config.sim.stats_interval_ms, 0);
});

test('the environment overrides the file', () => {
  const { config } = run(['--config', writeTempFile('cli.toml', FILE)], {
    SVC_SIM_PORT: '5555',
    SVC_SIM_TLS_PORT: '6666',
    SVC_SIM_API_KEY: 'envKey',
    SVC_SIM_API_SECRET: 'envSecret',
  });
  assert.equal(config.sim.port, 5555);
  assert.equal(config.sim.tls_port, 6666);
  assert.equal(config.sim.account.api_key, 'envKey');
  assert.equal(config.sim.account.api_secret, 'envSecret');
  assert.equal(config.sim.seed, 11);
});

test('a flag overrides the environment: what was typed on the command line wins', () => {
  const { config, sourceOf } = run(['--config', writeTempFile('cli.toml', FILE), '--port', '3333'], { SVC_SIM_PORT: '5555', SVC_SIM_TLS_PORT: '6666' });
  assert.equal(config.sim.port, 3333);
  assert.equal(config.sim.tls_port, 6666, 'the variable still overrides the file where no flag is given');
  assert.deepEqual(sourceOf(['sim', 'port']), { kind: 'flag', flag: '--port' });
  assert.deepEqual(sourceOf(['sim', 'tls_port']), { kind: 'env', variable: 'SVC_SIM_TLS_PORT' });
});

test('--quiet, --help and --version', () => {
  assert.equal(run(['--quiet']).quiet, true);
  assert.deepEqual(parseCliArgs(['--help'], {}), { kind: 'help' });
  assert.deepEqual(parseCliArgs(['-h'], {}), { kind: 'help' });
  assert.deepEqual(parseCliArgs(['--version'], {}), { kind: 'version' });
  assert.deepEqual(parseCliArgs(['-v'], {}), { kind: 'version' });
  // --help wins even with a broken config file: it must always work.
  assert.deepEqual(parseCliArgs(['--config', '/nonexistent.toml', '--help'], {}), { kind: 'help' });
});

test('usage errors: unknown flag, positional, missing or malformed values', () => {
  const cases: [string[], RegExp][] = [
    [['--bogus'], /^unknown option --bogus$/],
    [['--prot', '1'], /^unknown option --prot; did you mean --port\?$/],
    [['-x'], /^unknown option -x$/],
    [['extra'], /^unexpected argument "extra": spot-sim takes options only$/],
    [['--port'], /^--port needs a value: --port N$/],
    [['--port', 'abc'], /^--port: expected a port number from 0 to 65535 \(0: any free port\), got "abc"$/],
    [['--port', '70000'], /^--port: expected a port number from 0 to 65535 \(0: any free port\), got "70000"$/],
    [['--tls-port', '-1'], /^--tls-port: expected a port number from 0 to 65535 \(0: any free port\), got "-1"$/],
    [['--port', '1e3'], /^--port: expected a port number/],
    [['--seed', '1.5'], /^--seed: expected a non-negative integer, got "1.5"$/],
    [['--seed', '99999999999999999999'], /^--seed: expected a non-negative integer of at most 9007199254740991 in size/],
    [['--stats-interval-ms', 'soon'], /^--stats-interval-ms: expected a whole number of milliseconds from 0 to 2147483647, got "soon"$/],
    [['--stats-interval-ms', '99999999999'], /^--stats-interval-ms: expected a whole number of milliseconds from 0 to 2147483647/],
    [['--bind', ''], /^--bind: expected a non-empty string, got ""$/],
    [['--config', ''], /--config/],
    [['--quiet=yes'], /^--quiet takes no value$/],
    [['--log-format', 'xml'], /^--log-format: expected "text" or "json", got "xml"$/],
    [['--check-config', '--print-config'], /give one of them/],
    [['--port', '1', '--seed', 'x', '--tls-port', 'y'], /^--seed: .*\n--tls-port: /],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => parseCliArgs(argv, {}), (error: unknown) => {
      assert.ok(error instanceof UsageError, `${argv.join(' ')}: ${String(error)}`);
      assert.match(error.message, message);
      return true;
    });
  }
});

test('configuration errors from file, flags or environment are ConfigErrors with key paths', () => {
  const bad = writeTempFile('bad.toml', '[sim]\nclock = "sundial"\n');
  assert.throws(() => parseCliArgs(['--config', bad], {}), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.path), ['sim.clock']);
    assert.match(error.message, new RegExp(bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    return true;
  });
  // A variable's value the file's rules refuse is named by the variable.
  assert.throws(() => parseCliArgs([], { SVC_SIM_API_KEY: 'has space' }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.path), ['SVC_SIM_API_KEY']);
    return true;
  });
  assert.throws(() => parseCliArgs([], { SVC_SIM_PORT: 'eighty' }), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.map((problem) => problem.path), ['SVC_SIM_PORT']);
    return true;
  });
  assert.throws(() => parseCliArgs(['--config', '/nonexistent/x.toml'], {}), ConfigError);
});
