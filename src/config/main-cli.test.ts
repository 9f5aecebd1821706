// Runs src/main.ts as a process: exit codes and output of API.md section 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from './defaults.ts';
import { writeTempFile } from './test-helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function runMain(args: string[], extraEnv: Record<string, string> = {}) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('SVC_SIM_') && !key.startsWith('NODE_TEST')) env[key] = value;
  }
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    cwd: ROOT,
    env: { ...env, ...extraEnv },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('main prints the summary and the redacted config, then exits 0', () => {
  const { status, stdout } = runMain([]);
  assert.equal(status, 0);
  assert.match(stdout, /http:\/\/127\.0\.0\.1:9080/);
  assert.match(stdout, /https:\/\/127\.0\.0\.1:9443/);
  assert.match(stdout, /BTCUSDT, ETHUSDT/);
  assert.ok(stdout.includes(DEFAULT_API_KEY));
  assert.ok(!stdout.includes(DEFAULT_API_SECRET));
  const json = JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1)) as { sim: { account: { api_secret: string }; seed: number } };
  assert.equal(json.sim.account.api_secret, '***');
  assert.equal(json.sim.seed, 7);
});

test('main applies flags and environment, and never prints an environment secret', () => {
  const { status, stdout } = runMain(['--port', '1234', '--seed', '5', '--quiet'], {
    SVC_SIM_TLS_PORT: '4321',
    SVC_SIM_API_SECRET: 'topSecretValue',
  });
  assert.equal(status, 0);
  assert.match(stdout, /http:\/\/127\.0\.0\.1:1234/);
  assert.match(stdout, /https:\/\/127\.0\.0\.1:4321/);
  assert.match(stdout, /seed: +5/);
  assert.ok(!stdout.includes('{'), '--quiet prints no config dump');
  assert.ok(!stdout.includes('topSecretValue'));
});

test('main exits 2 with the key paths on a configuration error', () => {
  const path = writeTempFile('bad.toml', '[sim]\nport = 99999\n[engine]\nnet_backend = "kqueue"\n');
  const { status, stdout, stderr } = runMain(['--config', path]);
  assert.equal(status, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /sim\.port: expected an integer from 0 to 65535, got 99999/);
  assert.match(stderr, /engine\.net_backend: expected "epoll" or "io_uring", got "kqueue"/);
});

test('main exits 2 on a usage error and on a bad SVC_SIM_PORT', () => {
  const usage = runMain(['--frobnicate']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /frobnicate/);
  const env = runMain([], { SVC_SIM_PORT: 'x' });
  assert.equal(env.status, 2);
  assert.match(env.stderr, /SVC_SIM_PORT/);
});

test('--help and --version exit 0', () => {
  const help = runMain(['--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /--stats-interval-ms N/);
  const version = runMain(['--version']);
  assert.equal(version.status, 0);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(version.stdout.trim(), pkg.version);
});
