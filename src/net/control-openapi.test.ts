// The control API describes itself (API.md section 5): GET /sim/v1/openapi.json is OpenAPI 3.1
// and agrees with the routes actually served: every documented operation answers (never 404 or
// 405), every documented path refuses an undocumented method with 405 and an Allow header that
// lists exactly the documented ones, and every capability of the in-process handle (sections 3,
// 3.1 and 8's market) is documented by its in-process name.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../index.ts';
import { Faults } from '../faults/controller.ts';
import { Market } from '../market.ts';

let sim: Simulator;
type Doc = { openapi: string; paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>> };
let doc: Doc;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
  const res = await fetch(`${sim.urls.http}/sim/v1/openapi.json`);
  assert.equal(res.status, 200);
  doc = (await res.json()) as Doc;
});
after(() => sim.stop());

const VERBS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

test('the document is OpenAPI 3.1 and names each operation by its in-process call', () => {
  assert.equal(doc.openapi, '3.1.0');
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
});

test('every capability of the in-process handle has a documented route', () => {
  const ids = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId)));
  const internal = new Set(['constructor', 'state', 'counters', 'schedule', 'tick', 'nextTimedAt', 'run']);
  const faults = Object.getOwnPropertyNames(Faults.prototype).filter((n) => !internal.has(n)).map((n) => `faults.${n === 'use' ? 'use' : n}`);
  const market = Object.getOwnPropertyNames(Market.prototype).filter((n) => !internal.has(n)).map((n) => `market.${n}`);
  const handle = ['urls', 'ports', 'config', 'credentials', 'stats', 'mark', 'openClientOrderIds', 'openOrders', 'balances', 'reset', 'advanceTime', 'now'];
  assert.deepEqual([...faults, ...market, ...handle].filter((c) => !ids.has(c)), []);
});

test('every documented operation is served, and other methods get 405 with the documented Allow', async () => {
  for (const [path, ops] of Object.entries(doc.paths)) {
    const documented = Object.keys(ops).map((m) => m.toUpperCase());
    for (const verb of VERBS) {
      // A rule for the `{id}` paths (a reset or a DELETE of every rule may have removed the last one).
      const rule = sim.faults.use({ on: 'ping', times: 0, action: { delayMs: 0 } });
      const url = `${sim.urls.http}/sim/v1${path.replace('{id}', String(rule.id))}`;
      // An empty body: a route that needs arguments answers 400 naming them, never 404/405.
      const res = await fetch(url, { method: verb, body: verb === 'GET' ? undefined : '', headers: { 'Content-Type': 'application/json' } });
      if (documented.includes(verb)) {
        assert.ok(![404, 405].includes(res.status), `${verb} ${path} answered ${res.status}`);
        await res.body?.cancel();
      } else {
        assert.equal(res.status, 405, `${verb} ${path}`);
        assert.equal(res.headers.get('allow'), documented.join(', '), `Allow of ${path}`);
        assert.match(((await res.json()) as { error: { message: string } }).error.message, /not allowed/);
      }
    }
  }
});

test('a route not in the document is 404 with the one error body', async () => {
  const res = await fetch(`${sim.urls.http}/sim/v1/nothing-here`);
  assert.equal(res.status, 404);
  assert.deepEqual(Object.keys(((await res.json()) as { error: object }).error).sort(), ['message', 'type']);
});

test('docs/control-api.md names every route that is not one of the generated fault and market routes', async () => {
  const { readFileSync } = await import('node:fs');
  const docs = readFileSync(new URL('../../docs/control-api.md', import.meta.url), 'utf8');
  const missing = Object.entries(doc.paths)
    .filter(([path]) => !/^\/(faults|market)\/(?!rules|endpoints)/.test(path))
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} /sim/v1${path}`))
    .filter((route) => !docs.includes(`\`${route}\``));
  assert.deepEqual(missing, []);
});
