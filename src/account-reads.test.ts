// `sim.openOrders(symbol?)` and `sim.balances()` (docs/control-api.md, docs/fixture.md): the
// account as GET /api/v3/openOrders and GET /api/v3/account list it, read in process (no request
// weight, no counter of stats() moved), refused as REST refuses (-1121 for an unknown symbol);
// and the same reads over the control API, `GET /sim/v1/open-orders?symbol=` and `/balances`.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SpotSimClient, SpotSimError, startSimulator, type Simulator } from './index.ts';

let sim: Simulator;
let client: SpotSimClient;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
  client = new SpotSimClient(sim, { now: () => sim.now() });
});
after(async () => {
  await client.close();
  await sim.stop();
});

const order = (symbol: string, price: string) => ({ symbol, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price }) as const;

async function control(route: string): Promise<{ status: number; body: { result?: unknown; error?: { message: string; code?: number; type?: string } } }> {
  const res = await fetch(`${sim.urls.http}/sim/v1/${route}`);
  return { status: res.status, body: (await res.json()) as never };
}

test('openOrders and balances are what REST answers, and reading them moves no counter', async () => {
  sim.reset();
  await client.rest.newOrder(order('BTCUSDT', '59000'));
  await client.rest.newOrder(order('ETHUSDT', '2900'));
  await client.rest.newOrder(order('BTCUSDT', '58000'));
  const { connections: _a, ...before } = sim.stats();
  const all = sim.openOrders();
  const btc = sim.openOrders('BTCUSDT');
  const balances = sim.balances();
  const { connections: _b, ...after } = sim.stats();
  assert.deepEqual(after, before);
  assert.deepEqual(all, await client.rest.openOrders());
  assert.deepEqual(btc, await client.rest.openOrders({ symbol: 'BTCUSDT' }));
  assert.deepEqual(btc.map((o) => o.price), ['59000.00000000', '58000.00000000']);
  assert.deepEqual(balances, (await client.rest.account()).balances);
  assert.deepEqual(balances.find((b) => b.asset === 'USDT'), { asset: 'USDT', free: '9998801.00000000', locked: '1199.00000000' });
});

test('an unknown symbol is -1121 as on REST; a symbol that is not a string is a TypeError', () => {
  assert.throws(() => sim.openOrders('NOPEUSDT'), (e: unknown) => e instanceof SpotSimError && e.code === -1121 && e.msg === 'Invalid symbol.');
  assert.throws(() => sim.openOrders(5 as never), new TypeError('openOrders(symbol?): symbol must be a string (got number)'));
});

test('the control API serves both reads; the query names only symbol', async () => {
  sim.reset();
  await client.rest.newOrder(order('BTCUSDT', '59000'));
  await client.rest.newOrder(order('ETHUSDT', '2900'));
  assert.deepEqual(await control('open-orders'), { status: 200, body: { result: sim.openOrders() } });
  assert.deepEqual(await control('open-orders?symbol=ETHUSDT'), { status: 200, body: { result: sim.openOrders('ETHUSDT') } });
  assert.deepEqual(await control('balances'), { status: 200, body: { result: sim.balances() } });
  assert.deepEqual(await control('open-orders?symbol=NOPEUSDT'), { status: 400, body: { error: { message: 'Invalid symbol.', code: -1121, type: 'SpotSimError' } } });
  assert.deepEqual(await control('open-orders?sym=BTCUSDT'), { status: 400, body: { error: { message: "unknown argument 'sym'; expected symbol", type: 'FaultError' } } });
  assert.deepEqual(await control('open-orders?symbol=BTCUSDT&symbol=ETHUSDT'), { status: 400, body: { error: { message: "argument 'symbol' given twice", type: 'FaultError' } } });
});
