// The command line at work (API.md section 1): what it prints once it listens, whichever wins of
// a flag and a variable, the JSON log, --check-config and --print-config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { parse } from 'smol-toml';
import WebSocket from 'ws';
import { DEFAULT_API_SECRET, loadConfigFile } from '../config/index.ts';
import { writeTempFile } from '../config/test-helpers.ts';
import { outputContaining, runMain, serveMain } from './test-process.ts';

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** A port free a moment ago (the system hands out a fresh one each time). */
async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('a flag beats the environment: SVC_SIM_PORT=A spot-sim --port B listens on B', async () => {
  const [a, b] = [await freePort(), await freePort()];
  const { status, startBlock } = await serveMain(['--port', String(b), '--tls-port', '0'], { SVC_SIM_PORT: String(a) });
  assert.equal(status, 0);
  assert.match(startBlock, new RegExp(`http: +http://127\\.0\\.0\\.1:${b} `));
});

test('--bind 0.0.0.0 prints a URL a client can open and says why the control API is off', async () => {
  const { status, startBlock, stderr } = await serveMain(['--bind', '0.0.0.0', '--port', '0', '--tls-port', '0'], { SVC_SIM_API_SECRET: 'a-secret-of-our-own' });
  assert.equal(status, 0, stderr);
  assert.doesNotMatch(startBlock, /0\.0\.0\.0:\d/);
  assert.match(startBlock, /http: +http:\/\/127\.0\.0\.1:\d+ /);
  assert.match(startBlock, /bind: +0\.0\.0\.0: every interface/);
  assert.match(startBlock, /control API: off: bind 0\.0\.0\.0 is not a loopback address and no sim\.control_token is set/);
});

test('on a loopback bind the start block gives the control API URL', async () => {
  const { startBlock } = await serveMain(['--port', '0', '--tls-port', '0']);
  assert.match(startBlock, /control API: http:\/\/127\.0\.0\.1:\d+\/sim\/v1\//);
  assert.doesNotMatch(startBlock, /bind:/);
});

test('--log-format json: the start block, stats and a request log for REST and the WS API, one JSON object a line', async () => {
  const { status, stdout, stderr } = await serveMain(['--port', '0', '--tls-port', '0', '--log-format', 'json', '--stats-interval-ms', '0'], {}, async (first) => {
    const start = JSON.parse(first.split('\n')[0]!) as { event: string; http: string; ws: string };
    assert.equal(start.event, 'start');
    assert.equal(await get(`${start.http}/api/v3/ping`), 200);
    assert.equal(await get(`${start.http}/api/v3/depth?symbol=NOPE`), 400);
    const ws = new WebSocket(`${start.ws}/ws-api/v3`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ id: 1, method: 'time' }));
    await new Promise((resolve) => ws.once('message', resolve));
    ws.close();
  });
  assert.equal(status, 0, stderr);
  const records = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const record of records) assert.match(String(record['time']), /^\d{4}-\d\d-\d\dT/);
  const start = records[0]!;
  assert.equal(start['event'], 'start');
  assert.deepEqual(start['symbols'], ['BTCUSDT', 'ETHUSDT']);
  assert.match(String(start['controlApi']), /\/sim\/v1\/$/);
  const requests = records.filter((r) => r['event'] === 'request');
  const ping = requests.find((r) => r['endpoint'] === 'ping')!;
  assert.equal(ping['transport'], 'rest');
  assert.equal(ping['method'], 'GET');
  assert.equal(ping['path'], '/api/v3/ping');
  assert.equal(ping['status'], 200);
  assert.equal(typeof ping['usedWeight'], 'number');
  assert.ok(typeof ping['durationMs'] === 'number' && ping['durationMs'] >= 0);
  const refused = requests.find((r) => r['endpoint'] === 'depth')!;
  assert.equal(refused['status'], 400);
  assert.equal(refused['code'], -1121);
  const wsApi = requests.find((r) => r['transport'] === 'ws-api')!;
  assert.equal(wsApi['method'], 'time');
  assert.equal(wsApi['path'], undefined);
  assert.equal(records.at(-1)!['event'], 'stop');
});

test('--log-format json prints the stats as the structured stats() object', async () => {
  const { stdout } = await serveMain(['--port', '0', '--tls-port', '0', '--log-format', 'json', '--stats-interval-ms', '20'], {}, async (_first, child) => {
    await outputContaining(child, '"event":"stats"');
  });
  const stats = stdout.split('\n').filter((line) => line.includes('"event":"stats"')).map((line) => JSON.parse(line) as Record<string, unknown>)[0]!;
  assert.equal(typeof stats['connections'], 'number');
  assert.deepEqual(Object.keys(stats['touch'] as object), ['BTCUSDT', 'ETHUSDT']);
  assert.ok('USDT' in (stats['position'] as object));
});

test('--check-config: exit 0 for a valid configuration, 2 naming every problem otherwise; nothing listens', async () => {
  const valid = await runMain(['--check-config', '--port', '1']);
  assert.equal(valid.status, 0, valid.stderr);
  assert.match(valid.stdout, /configuration is valid/);
  const bad = writeTempFile('bad.toml', `[sim]\nseed = -1\ntls_cert = "/nonexistent/cert.pem"\n`);
  const invalid = await runMain(['--check-config', '--config', bad]);
  assert.equal(invalid.status, 2);
  assert.match(invalid.stderr, /sim\.seed: expected/);
  // The files are checked once the keys are valid.
  const missing = writeTempFile('missing.toml', `[sim]\ntls_cert = "/nonexistent/cert.pem"\n`);
  const files = await runMain(['--check-config', '--config', missing]);
  assert.equal(files.status, 2);
  assert.match(files.stderr, /sim\.tls_cert: expected a readable PEM certificate file, got "\/nonexistent\/cert\.pem" \(no such file\)/);
});

test('--print-config: the configuration in effect as TOML that loads back to it, each value with its source', async () => {
  const file = writeTempFile('print.toml', `[sim]\nseed = 11\nport = 1111\n[sim.account]\napi_key = "fileKey"\n`);
  const printed = await runMain(['--print-config', '--config', file, '--seed', '12'], { SVC_SIM_PORT: '2222', SVC_SIM_API_SECRET: 'env-secret-value' });
  assert.equal(printed.status, 0, printed.stderr);
  const lines = printed.stdout.split('\n');
  assert.match(lines[0]!, /^#:schema file:\/\/.*\/fixtures\/config\/spot-sim\.schema\.json$/);
  assert.ok(lines.includes('seed = 12  # flag --seed'));
  assert.ok(lines.includes('port = 2222  # env SVC_SIM_PORT'));
  assert.ok(lines.includes(`api_key = "fileKey"  # file ${file}`));
  assert.ok(lines.includes('tls_port = 9443  # default'));
  assert.ok(lines.includes('# api_secret is set (not shown)  # env SVC_SIM_API_SECRET'));
  assert.ok(!printed.stdout.includes('env-secret-value') && !printed.stdout.includes(DEFAULT_API_SECRET));
  assert.match(printed.stdout, /^\[\[instruments\]\]  # default$/m);
  // It is a configuration file: loaded back, it is the configuration it printed (the secret aside).
  const copy = writeTempFile('copy.toml', printed.stdout);
  parse(printed.stdout);
  const reloaded = loadConfigFile(copy);
  const expected = (await import('../config/index.ts')).parseCliArgs(['--config', file, '--seed', '12'], { SVC_SIM_PORT: '2222' });
  assert.ok(expected.kind === 'run');
  assert.deepEqual(reloaded, expected.config);
});
