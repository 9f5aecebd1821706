// Runs src/main.ts as a process: exit codes and output of API.md section 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/defaults.ts';
import { writeTempFile } from '../config/test-helpers.ts';
import { runMain, serveMain } from './test-process.ts';

test('main listens, prints where, the symbols, the key (never the secret) and the seed; SIGTERM exits 0', async () => {
  const { status, stdout } = await serveMain(['--port', '0', '--tls-port', '0', '--seed', '5'], { SVC_SIM_API_SECRET: 'topSecretValue' });
  assert.equal(status, 0);
  assert.match(stdout, /http: +http:\/\/127\.0\.0\.1:\d+/);
  assert.match(stdout, /https: +https:\/\/127\.0\.0\.1:\d+/);
  assert.match(stdout, /BTCUSDT, ETHUSDT/);
  assert.match(stdout, /seed: +5/);
  assert.ok(stdout.includes(DEFAULT_API_KEY));
  assert.ok(!stdout.includes(DEFAULT_API_SECRET) && !stdout.includes('topSecretValue'));
  assert.match(stdout, /SIGTERM, stopping/);
});

test('on the default loopback bind with the default secret there is no exposure warning', async () => {
  const { status, stderr } = await serveMain(['--port', '0', '--tls-port', '0']);
  assert.equal(status, 0);
  assert.doesNotMatch(stderr, /warning/);
});

test('SIGINT also stops it with exit 0', async () => {
  const { status } = await serveMain(['--port', '0', '--tls-port', '0'], {}, undefined, 'SIGINT');
  assert.equal(status, 0);
});

// An address of TEST-NET-1 (RFC 5737) that no interface holds: the warning comes before the
// listeners open, and the run then ends with exit 1 (EADDRNOTAVAIL) without listening anywhere.
const EXPOSED_BIND = '192.0.2.1';

test('a non-loopback bind with the published default secret prints a warning naming the risk and SVC_SIM_API_SECRET', async () => {
  const exposed = await runMain(['--bind', EXPOSED_BIND, '--port', '0', '--tls-port', '0']);
  assert.equal(exposed.status, 1);
  assert.match(exposed.stderr, /warning: .*192\.0\.2\.1.*not a loopback address/);
  assert.match(exposed.stderr, /published default API secret/);
  assert.match(exposed.stderr, /anyone who can reach/);
  assert.match(exposed.stderr, /SVC_SIM_API_SECRET/);
  assert.ok(!exposed.stderr.includes(DEFAULT_API_SECRET));
  // A secret of one's own, or a loopback bind: no warning.
  const ownSecret = await runMain(['--bind', EXPOSED_BIND, '--port', '0', '--tls-port', '0'], { SVC_SIM_API_SECRET: 'my-own-secret' });
  assert.equal(ownSecret.status, 1);
  assert.doesNotMatch(ownSecret.stderr, /warning/);
});

test('main exits 2 with the key paths on a configuration error', async () => {
  const path = writeTempFile('bad.toml', '[sim]\nport = 99999\n[engine]\nnet_backend = "kqueue"\n');
  const { status, stdout, stderr } = await runMain(['--config', path]);
  assert.equal(status, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /sim\.port: expected a port number from 0 to 65535 \(0: any free port\), got 99999/);
  assert.match(stderr, /engine\.net_backend: expected "epoll" or "io_uring", got "kqueue"/);
});

test('main exits 2 on a usage error and on a bad SVC_SIM_PORT', async () => {
  const usage = await runMain(['--frobnicate']);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /frobnicate/);
  const env = await runMain([], { SVC_SIM_PORT: 'x' });
  assert.equal(env.status, 2);
  assert.match(env.stderr, /SVC_SIM_PORT/);
});

test('--help and --version exit 0, and -h and -v are the same', async () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  for (const [help, version] of [['--help', '--version'], ['-h', '-v']] as const) {
    const usage = await runMain([help]);
    assert.equal(usage.status, 0);
    assert.match(usage.stdout, /--stats-interval-ms N/);
    assert.match(usage.stdout, /--check-config/);
    const printed = await runMain([version]);
    assert.equal(printed.status, 0);
    assert.equal(printed.stdout.trim(), pkg.version);
  }
});
