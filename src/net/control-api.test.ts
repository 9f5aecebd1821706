// The control API's scripted-market routes (API.md section 8): `POST /sim/v1/market/<method>`
// with the arguments by name, `{"result": ...}` back; refusals of the market answer 400 with the
// reference exchange's code and message, malformed bodies 400 with a message naming the problem.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../index.ts';
import { latentMid } from '../core/queries.ts';

let sim: Simulator;
/** What a local tool sends (a change needs it: control-access.test.ts). */
const JSON_BODY = { 'Content-Type': 'application/json' };

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
});
after(() => sim.stop());

async function post(route: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${sim.urls.http}/sim/v1/${route}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: JSON_BODY });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const order = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' } as const;

test('place, cancel, cancelAll and setMid answer {"result": ...} and act on the book', async () => {
  sim.reset();
  assert.deepEqual(await post('market/place', order), { status: 200, json: { result: 1 } });
  assert.deepEqual(await post('market/place', { ...order, price: '60020' }), { status: 200, json: { result: 2 } });
  assert.equal(sim.stats().touch.BTCUSDT?.ask, '60010.00000000');
  assert.deepEqual(await post('market/cancel', { symbol: 'BTCUSDT', id: 1 }), { status: 200, json: { result: true } });
  assert.deepEqual(await post('market/cancel', { symbol: 'BTCUSDT', id: 1 }), { status: 200, json: { result: false } });
  assert.equal(sim.stats().touch.BTCUSDT?.ask, '60020.00000000');
  // MARKET: no timeInForce, no price.
  assert.deepEqual(await post('market/place', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.1' }), { status: 200, json: { result: 3 } });
  assert.deepEqual(await post('market/cancelAll', { symbol: 'BTCUSDT' }), { status: 200, json: { result: 1 } });
  assert.equal(sim.stats().touch.BTCUSDT?.ask, null);
  assert.deepEqual(await post('market/setMid', { symbol: 'ETHUSDT', price: '3100.5' }), { status: 200, json: { result: null } });
  assert.equal(latentMid(sim.exchange.state, 'ETHUSDT'), 310_050);
});

test('bad arguments answer 400 with the reference code and message and change nothing', async () => {
  sim.reset();
  const cases: [string, unknown, number, string][] = [
    ['market/place', { ...order, symbol: 'DOGEBTC' }, -1121, 'Invalid symbol.'],
    ['market/place', { ...order, quantity: '0.000001' }, -1013, 'Filter failure: LOT_SIZE'],
    ['market/place', { ...order, price: '0.01', quantity: '1' }, -1013, 'Filter failure: NOTIONAL'],
    ['market/place', { ...order, price: '60010.005' }, -1013, 'Filter failure: PRICE_FILTER'],
    ['market/place', { ...order, price: '6e4' }, -1100, "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    ['market/place', { ...order, quantity: '0.123456789' }, -1111, "Parameter 'quantity' has too much precision."],
    ['market/place', { ...order, side: 'sell' }, -1117, 'Invalid side.'],
    ['market/place', { ...order, type: 'STOP' }, -1116, 'Invalid orderType.'],
    ['market/place', { ...order, timeInForce: 'DAY' }, -1115, 'Invalid timeInForce.'],
    ['market/place', { side: 'SELL', type: 'MARKET', quantity: '1' }, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
    ['market/cancel', { symbol: 'NOPE', id: 1 }, -1121, 'Invalid symbol.'],
    ['market/cancel', { symbol: 'BTCUSDT', id: 'x' }, -1100, "Illegal characters found in parameter 'id'; legal range is '^[0-9]{1,20}$'."],
    ['market/cancelAll', {}, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
    ['market/setMid', { symbol: 'BTCUSDT', price: '-1' }, -1100, "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
  ];
  for (const [route, body, code, msg] of cases) {
    assert.deepEqual(await post(route, body), { status: 400, json: { error: { message: msg, code, type: 'SpotSimError' } } }, `${route} ${JSON.stringify(body)}`);
  }
  assert.equal(sim.stats().touch.BTCUSDT?.ask, null);
  assert.deepEqual(await post('market/place', order), { status: 200, json: { result: 1 } }, 'refused calls took no id');
});

test('malformed bodies answer 400 naming the problem; an unknown method 404; GET on a method 405 with Allow', async () => {
  assert.deepEqual(await post('market/place', { ...order, newClientOrderId: 'x' }), {
    status: 400,
    json: { error: { message: "unknown argument 'newClientOrderId'; expected symbol, side, type, timeInForce, price, quantity", type: 'FaultError' } },
  });
  assert.deepEqual(await post('market/place', '[1]'), { status: 400, json: { error: { message: 'the body must be a JSON object of named arguments', type: 'FaultError' } } });
  const unknown = await post('market/buy', {});
  assert.equal(unknown.status, 404);
  assert.match((unknown.json.error as { message: string }).message, /unknown market method 'buy'; known: place, cancel, cancelAll, setMid/);
  const get = await fetch(`${sim.urls.http}/sim/v1/market/place`);
  assert.equal(get.status, 405);
  assert.equal(get.headers.get('allow'), 'POST');
  await get.body?.cancel();
});

test('mark and reset refuse a body that is not empty or {} (as faults/clear does), changing nothing', async () => {
  sim.reset();
  sim.market.place(order);
  for (const route of ['mark', 'reset', 'faults/clear']) {
    for (const body of ['garbage', '[1]', '{"k":1}']) assert.equal((await post(route, body)).status, 400, `${route} ${body}`);
    assert.equal((await post(route, '{}')).status, 200, route);
    sim.market.place(order);
  }
  assert.equal((await post('mark', '')).status, 200);
});

test('rules by id: GET and DELETE of an unknown or malformed id answer 404; DELETE faults/rules removes all', async () => {
  sim.faults.clear();
  const a = sim.faults.use({ on: 'ping', times: 0, action: { delayMs: 1 } });
  sim.faults.use({ on: 'time', times: 0, action: { delayMs: 1 } });
  const one = await fetch(`${sim.urls.http}/sim/v1/faults/rules/${a.id}`);
  assert.deepEqual(await one.json(), { result: { id: a.id, on: 'ping', times: 0, hits: 0, action: { delayMs: 1 } } });
  for (const [method, id] of [['GET', '424242'], ['DELETE', '424242'], ['DELETE', 'abc'], ['GET', '0']] as const) {
    const res = await fetch(`${sim.urls.http}/sim/v1/faults/rules/${id}`, { method, headers: JSON_BODY });
    assert.equal(res.status, 404, `${method} ${id}`);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /no fault rule with id/);
  }
  const all = await fetch(`${sim.urls.http}/sim/v1/faults/rules`, { method: 'DELETE', headers: JSON_BODY });
  assert.deepEqual(await all.json(), { result: 2 });
  assert.deepEqual(sim.faults.rules(), []);
});

test('config, credentials, urls, ports and now read the handle', async () => {
  const get = async (route: string) => ((await (await fetch(`${sim.urls.http}/sim/v1/${route}`)).json()) as { result: unknown }).result;
  assert.deepEqual(await get('credentials'), sim.credentials);
  assert.deepEqual(await get('urls'), sim.urls);
  assert.deepEqual(await get('ports'), sim.ports);
  assert.equal(await get('now'), sim.now());
  assert.deepEqual(await get('config'), JSON.parse(JSON.stringify(sim.config)));
});

test('advance-time refusals keep their class on the wire: type RangeError, the in-process message, the clock unmoved', async () => {
  sim.reset();
  const start = sim.now();
  const inProcess = (() => {
    try {
      sim.advanceTime(0.25);
    } catch (error) {
      return error as Error;
    }
    return assert.fail('advanceTime(0.25) was accepted');
  })();
  assert.equal(inProcess.constructor, RangeError);
  assert.deepEqual(await post('advance-time', { ms: 0.25 }), { status: 400, json: { error: { message: inProcess.message, type: 'RangeError' } } });
  assert.equal(sim.now(), start);
});
