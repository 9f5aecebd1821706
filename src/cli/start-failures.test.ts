// The command line as an operator meets it when something is wrong (API.md section 1): every
// start failure names what to fix, closes what it opened and exits by itself (2 for a usage or
// configuration error, 1 for a runtime failure); a closed stdout never takes the server down.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { writeTempFile } from '../config/test-helpers.ts';
import { finished, outputContaining, runMain, spawnMain } from './test-process.ts';

/** A start failure ends the process by itself, well before the helper's deadline kills it. */
const FAILURE_DEADLINE_MS = 8_000;

test('a fault key out of its range is a configuration error: exit 2 naming the key path, nothing listens', async () => {
  const path = writeTempFile('faults.toml', '[sim]\nport = 0\ntls_port = 0\n[sim.faults]\ndelay_ack_ms = 1.5\n');
  const result = await finished(spawnMain(['--config', path]), FAILURE_DEADLINE_MS);
  assert.equal(result.status, 2, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stderr, /sim\.faults\.delay_ack_ms: expected a whole number of milliseconds from 0 to 2147483647, got 1\.5/);
  assert.doesNotMatch(result.stderr, /FaultRangeError|at .*\.ts:\d+/);
  assert.doesNotMatch(result.stdout, /listening/);
});

test('a missing TLS file is named by its key and path: exit 2, not an ENOENT stack', async () => {
  const missing = '/nonexistent/spot-sim-test/cert.pem';
  const path = writeTempFile('tls.toml', `[sim]\nport = 0\ntls_port = 0\ntls_cert = "${missing}"\n`);
  const result = await finished(spawnMain(['--config', path]), FAILURE_DEADLINE_MS);
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, new RegExp(`sim\\.tls_cert: expected a readable PEM certificate file, got "${missing}" \\(no such file\\)`));
  assert.doesNotMatch(result.stderr, /Error: ENOENT|at .*:\d+:\d+/);
});

test('a TLS key that is not a PEM key is named by its key: exit 2', async () => {
  const notPem = writeTempFile('key.pem', 'not a key\n');
  const path = writeTempFile('tls.toml', `[sim]\nport = 0\ntls_port = 0\ntls_key = "${notPem}"\n`);
  const result = await finished(spawnMain(['--config', path]), FAILURE_DEADLINE_MS);
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /sim\.tls_key: expected a PEM private key matching sim\.tls_cert/);
});

test('a port in use: exit 1 naming the port and how to choose another, after closing the other listener', async () => {
  const { createServer } = await import('node:net');
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const result = await finished(spawnMain(['--port', '0', '--tls-port', String(port)]), FAILURE_DEADLINE_MS);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, new RegExp(`tls_port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.match(result.stderr, /--tls-port/);
  } finally {
    blocker.close();
  }
});

test('usage errors in plain words: a negative port is named as a port, not as an ambiguous option', async () => {
  const negative = await runMain(['--port', '-1']);
  assert.equal(negative.status, 2);
  assert.match(negative.stderr, /--port: expected a port number from 0 to 65535 \(0: any free port\), got "-1"/);
  assert.doesNotMatch(negative.stderr, /ambiguous/);
  const interval = await runMain(['--stats-interval-ms', '99999999999']);
  assert.equal(interval.status, 2);
  assert.match(interval.stderr, /--stats-interval-ms: expected a whole number of milliseconds from 0 to 2147483647/);
});

test('a bad environment value is named by its variable and says what is expected: exit 2', async () => {
  const result = await runMain(['--port', '0'], { SVC_SIM_TLS_PORT: 'abc' });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /SVC_SIM_TLS_PORT: expected a port number from 0 to 65535 \(0: any free port\), got "abc"/);
});

test('a closed stdout: the stop message meets a closed pipe and the exit is still clean (0, no stack)', async () => {
  const child = spawnMain(['--port', '0', '--tls-port', '0']);
  const done = finished(child);
  try {
    await outputContaining(child, 'net backend:');
    child.stdout.destroy();
  } finally {
    child.kill('SIGTERM');
  }
  const result = await done;
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /EPIPE|Error/);
});

test('a closed stdout (spot-sim | head -1) drops what is printed and the server goes on serving', async () => {
  const child = spawnMain(['--port', '0', '--tls-port', '0', '--log-format', 'json', '--stats-interval-ms', '0']);
  const done = finished(child);
  try {
    const first = await outputContaining(child, '\n');
    const { http } = JSON.parse(first.split('\n')[0]!) as { http: string };
    // Like `head -1`: read the first line, then close the pipe.
    child.stdout.destroy();
    // Every answered request prints a request-log line: each write now meets a closed pipe.
    for (let i = 0; i < 3; i++) assert.equal(await get(`${http}/api/v3/ping`), 200);
  } finally {
    child.kill('SIGTERM');
  }
  const result = await done;
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /EPIPE|Error/);
});

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

test('a replayed file with a bad row: exit 2 naming file, line and column, nothing listens; --check-config says the same', async () => {
  const csv = writeTempFile('BTCUSDT-aggTrades-2025-01-01.csv', '1,60000.00,0.01000,1,1,1735689600000000,true,true\n2,60000.005,0.01000,2,2,1735689600000001,true,true\n');
  const path = writeTempFile('replay.toml', `[sim]\nport = 0\ntls_port = 0\nreplay_cache_dir = "cache"\n[[sim.replay]]\nsymbol = "BTCUSDT"\nfile = ${JSON.stringify(csv)}\n`);
  const expected = new RegExp(`sim\\.replay\\): 1 problem\\n {2}${csv.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:2 \\(price\\): expected a price on the tick 0\\.01, from 0\\.01 to 90071992547409\\.91, got "60000\\.005"`);
  const result = await finished(spawnMain(['--config', path]), FAILURE_DEADLINE_MS);
  assert.equal(result.status, 2, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stderr, expected);
  assert.doesNotMatch(result.stdout, /listening/);
  const check = await finished(spawnMain(['--config', path, '--check-config']), FAILURE_DEADLINE_MS);
  assert.equal(check.status, 2, check.stderr);
  assert.match(check.stderr, expected);
});
