// The crash inputs of issue 18 (item 1), over real sockets: values a client controls that are
// nested thousands deep, or objects whose `toString` is not callable, reach every place that
// describes or coerces them. Each must be refused with the reference's answer (or the control
// API's 400) while the process lives on and keeps answering.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { startSimulator, type Simulator } from '../index.ts';

let sim: Simulator;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
});
after(() => sim.stop());

/** `[[[...1...]]]` nested `depth` deep, as JSON text (a 10 KB frame at 5,000). */
export function deepArray(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

async function post(route: string, body: string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${sim.urls.http}/sim/v1/${route}`, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function stillAnswers(): Promise<void> {
  const res = await fetch(`${sim.urls.http}/api/v3/ping`);
  assert.equal(res.status, 200);
}

test('a market-data control frame whose method is nested 6,000 deep is refused (code 2), and the server lives', async () => {
  const ws = new WebSocket(`${sim.urls.ws}/ws`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
  ws.send(`{"method":${deepArray(6000)},"id":1}`);
  const answer = JSON.parse(await reply) as { error: { code: number; msg: string }; id: number };
  assert.equal(answer.error.code, 2);
  assert.equal(answer.id, 1);
  assert.match(answer.error.msg, /^Invalid request: unknown variant /);
  assert.ok(answer.error.msg.length < 400, 'the value is described within a bound');
  ws.close();
  await stillAnswers();
});

for (const route of ['market/place', 'market/cancel', 'market/cancelAll', 'market/setMid']) {
  test(`POST /sim/v1/${route} with {"toString":1} or a 6,000-deep value in a field answers 400`, async () => {
    for (const hostile of ['{"toString":1}', '{"valueOf":1,"toString":1}', deepArray(6000), '["1"]']) {
      const body = `{"symbol":${hostile},"side":"SELL","type":"LIMIT","timeInForce":"GTC","price":"60010","quantity":"0.5"}`;
      const fields = JSON.parse(body) as Record<string, unknown>;
      // Only the arguments the route takes (the rest would be refused as unknown anyway).
      const names = { 'market/place': Object.keys(fields), 'market/cancel': ['symbol'], 'market/cancelAll': ['symbol'], 'market/setMid': ['symbol'] }[route]!;
      const text = `{${names.map((n) => `"${n}":${n === 'symbol' ? hostile : JSON.stringify(fields[n])}`).join(',')}${route === 'market/cancel' ? ',"id":1' : ''}${route === 'market/setMid' ? ',"price":"60000"' : ''}}`;
      const { status, json } = await post(route, text);
      assert.equal(status, 400, `${route} ${hostile.slice(0, 40)}: ${JSON.stringify(json)}`);
    }
    await stillAnswers();
  });
}

test('POST /sim/v1/market/place with a hostile price or quantity answers 400 naming the field', async () => {
  for (const field of ['price', 'quantity', 'side']) {
    for (const hostile of ['{"toString":1}', '{"valueOf":1}', deepArray(10), '["1"]', '[]', 'true']) {
      const fields: Record<string, string> = { symbol: '"BTCUSDT"', side: '"SELL"', type: '"LIMIT"', timeInForce: '"GTC"', price: '"60010"', quantity: '"0.5"' };
      fields[field] = hostile;
      const { status, json } = await post('market/place', `{${Object.entries(fields).map(([k, v]) => `"${k}":${v}`).join(',')}}`);
      assert.equal(status, 400, `${field}=${hostile.slice(0, 40)}: ${JSON.stringify(json)}`);
      const error = json.error as { code?: number; message?: string };
      assert.equal(error.code, -1100, `${field}=${hostile.slice(0, 40)}: ${JSON.stringify(json)}`);
      assert.match(String(error.message), new RegExp(`'${field}'`));
    }
  }
  await stillAnswers();
});

test('POST /sim/v1/faults/rules with a deeply nested transport or unknown action key answers 400', async () => {
  for (const body of [
    `{"on":"order.place","transport":${deepArray(6000)},"action":{"error":-1000}}`,
    `{"on":"order.place","action":{"nope":${deepArray(6000)}}}`,
    `{"on":"order.place","transport":{"toString":1},"action":{"error":-1000}}`,
  ]) {
    const { status, json } = await post('faults/rules', body);
    assert.equal(status, 400, body.slice(0, 60));
    const message = (json.error as { message?: unknown }).message;
    assert.equal(typeof message, 'string');
    assert.ok((message as string).length < 400, 'the value is described within a bound');
  }
  assert.deepEqual(sim.faults.rules(), []);
  await stillAnswers();
});

// ------------------------------------------------------------------ the last line of defence

/** Makes `target[name]` throw while `run` runs (a defect planted where input never reaches). */
async function withDefect<T extends object>(target: T, name: keyof T, run: () => Promise<void>): Promise<void> {
  const original = target[name];
  (target as Record<keyof T, unknown>)[name] = () => {
    throw new TypeError('planted defect');
  };
  try {
    await run();
  } finally {
    (target as Record<keyof T, unknown>)[name] = original;
  }
}

async function open(path: string): Promise<WebSocket> {
  const ws = new WebSocket(`${sim.urls.ws}${path}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

function nextFrame(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>)));
}

test('an exception in any transport is answered with the generic error (-1000), counted, and the process lives', async () => {
  const quiet = console.error;
  console.error = () => undefined; // the planted defects are logged; keep the test output clean
  try {
    const before = sim.stats().internalErrors;
    const api = await open('/ws-api/v3');
    const market = await open('/ws');
    await withDefect(sim.service, 'handle', async () => {
      const res = await fetch(`${sim.urls.http}/api/v3/time`);
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { code: -1000, msg: 'An unknown error occurred while processing the request.' });
      const reply = nextFrame(api);
      api.send('{"id":7,"method":"time"}');
      assert.deepEqual((await reply).error, { code: -1000, msg: 'An unknown error occurred while processing the request.' });
      assert.equal((await reply).status, 500);
    });
    await withDefect(sim.gateway.market, 'isSubscribable', async () => {
      const reply = nextFrame(market);
      market.send('{"method":"SUBSCRIBE","params":["btcusdt@trade"],"id":1}');
      assert.deepEqual(await reply, { error: { code: 2, msg: 'Invalid request' }, id: null });
      const refused = new WebSocket(`${sim.urls.ws}/stream?streams=btcusdt@trade`);
      const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
      assert.equal(status, 500);
    });
    assert.equal(sim.stats().internalErrors, before + 4);
    // The same connections still work.
    const time = nextFrame(api);
    api.send('{"id":8,"method":"time"}');
    assert.equal((await time).status, 200);
    const listed = nextFrame(market);
    market.send('{"method":"LIST_SUBSCRIPTIONS","id":2}');
    assert.deepEqual(await listed, { result: [], id: 2 });
    api.close();
    market.close();
    await stillAnswers();
  } finally {
    console.error = quiet;
  }
});
