// The control API's scripted-market routes (API.md section 8): `POST /sim/v1/market/<method>`
// with the arguments by name, `{"result": ...}` back; refusals of the market answer 400 with the
// reference exchange's code and message, malformed bodies 400 with a message naming the problem.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type Simulator } from '../index.ts';
import { latentMid } from '../core/queries.ts';

let sim: Simulator;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
});
after(() => sim.stop());

async function post(route: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${sim.urls.http}/sim/v1/${route}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const order = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' };

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
    assert.deepEqual(await post(route, body), { status: 400, json: { code, msg } }, `${route} ${JSON.stringify(body)}`);
  }
  assert.equal(sim.stats().touch.BTCUSDT?.ask, null);
  assert.deepEqual(await post('market/place', order), { status: 200, json: { result: 1 } }, 'refused calls took no id');
});

test('malformed bodies and unknown methods answer 400 naming the problem; GET is not a route', async () => {
  assert.deepEqual(await post('market/place', { ...order, newClientOrderId: 'x' }), {
    status: 400,
    json: { error: "unknown argument 'newClientOrderId'; expected symbol, side, type, timeInForce, price, quantity" },
  });
  assert.deepEqual(await post('market/place', '[1]'), { status: 400, json: { error: 'the body must be a JSON object of named arguments' } });
  assert.deepEqual(await post('market/buy', {}), { status: 400, json: { error: "unknown market method 'buy'; known: place, cancel, cancelAll, setMid" } });
  const get = await fetch(`${sim.urls.http}/sim/v1/market/place`);
  assert.equal(get.status, 404);
  await get.body?.cancel();
});
