// docs/market-data.md's "`limit`: capped or refused" table, checked against a running simulator:
// every endpoint whose parameters take a `limit` has a row, and each row's answers (capped or
// refused, with which code and message) are what REST and the WS API send.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SpotSimClient, startSimulator, type Simulator, type WsApiClient } from './index.ts';
import { ENDPOINTS } from './api/endpoints.ts';
import { ENDPOINT_NOTES } from '../scripts/docs/endpoint-notes.ts';

const ROOT = resolve(import.meta.dirname, '..');
const HEADING = '## `limit`: capped or refused';
const NOT_AN_INTEGER = { code: -1100, msg: "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'." };

interface LimitRow {
  readonly path: string;
  readonly method: string;
  readonly max: number;
  /** null: capped at the maximum. */
  readonly over: { code: number; msg: string } | null;
  readonly under: { code: number; msg: string };
}

/** `refused: 400 \`-1130 Data sent ...\`` -> its code and message. */
function refusal(cell: string): { code: number; msg: string } {
  const m = /^refused: 400 `(-\d+) (.+)`$/.exec(cell);
  assert.ok(m, `not a refusal: ${cell}`);
  return { code: Number(m[1]), msg: m[2]! };
}

export function limitRows(markdown: string): LimitRow[] {
  const lines = markdown.split('\n');
  const at = lines.indexOf(HEADING);
  assert.ok(at >= 0, `no "${HEADING}" section`);
  const rows = lines.slice(at).filter((l) => l.startsWith('| `GET '));
  return rows.map((line) => {
    const [path, method, , max, over, under] = line.split(' | ').map((c) => c.replace(/^\| /, '').replace(/ \|$/, ''));
    return {
      path: path!.replace(/^`GET /, '').replace(/`$/, ''),
      method: method!.replace(/`/g, ''),
      max: Number(max),
      over: over === `capped at ${max}` ? null : refusal(over!),
      under: refusal(under!),
    };
  });
}

const rows = limitRows(readFileSync(join(ROOT, 'docs/market-data.md'), 'utf8'));
let sim: Simulator;
let client: SpotSimClient;
let ws: WsApiClient;
before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false }, order_types: 'reference' } } });
  client = new SpotSimClient(sim);
  ws = await client.wsApi();
});
after(async () => {
  await client?.close();
  await sim?.stop();
});

const SIGNED_METHODS = new Set(ENDPOINTS.filter((e) => e.security === 'SIGNED').map((e) => e.ws));

async function rest(row: LimitRow, limit: string): Promise<{ status: number; body: unknown }> {
  const params = { symbol: 'BTCUSDT', ...(row.method.toLowerCase().includes('klines') ? { interval: '1m' } : {}), limit };
  const signed = SIGNED_METHODS.has(row.method);
  const query = signed ? client.rest.sign(params) : new URLSearchParams(params).toString();
  const { status, body } = await client.rest.request({ method: 'GET', path: `${row.path}?${query}`, headers: signed ? { 'X-MBX-APIKEY': sim.credentials.apiKey } : {} });
  return { status, body };
}

test('every endpoint that takes a limit has a row', () => {
  const withLimit = ENDPOINTS.filter((e) => /\blimit\?/.test(ENDPOINT_NOTES[e.id]?.params ?? '')).map((e) => e.ws);
  assert.deepEqual(rows.map((r) => r.method).sort(), withLimit.sort());
});

for (const row of rows) {
  test(`${row.path} (${row.method}): the documented answer above the maximum, at 0, below 0 and to a non-integer`, async () => {
    const over = await rest(row, String(row.max + 1));
    if (row.over === null) assert.equal(over.status, 200, JSON.stringify(over.body));
    else assert.deepEqual(over, { status: 400, body: row.over });
    for (const limit of ['0', '-1']) assert.deepEqual(await rest(row, limit), { status: 400, body: row.under }, `limit=${limit}`);
    assert.deepEqual(await rest(row, 'abc'), { status: 400, body: NOT_AN_INTEGER });
    const viaWs = await ws.send(row.method, { symbol: 'BTCUSDT', ...(row.method.toLowerCase().includes('klines') ? { interval: '1m' } : {}), limit: 0 });
    assert.deepEqual([viaWs.status, viaWs.error], [400, row.under], 'WS API, limit 0');
  });
}
