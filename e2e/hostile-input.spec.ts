// Issue 18 end to end, through the fixture: hostile input is refused and the worker's simulator
// lives on; a BUY's fee reserve cannot be locked by later orders; the reference's caps and echoes
// (-1101 symbols, top-level id, int64 ids, preventedMatches and `v`).
import { test, expect } from 'spot-sim/fixture';
import { buy, refusal, sell, SYMBOL } from './support/helpers.ts';
import { RawWs } from './support/raw-ws.ts';

test.use({ simConfig: { sim: { generator: { enabled: false }, account: { balances: { BTC: '1', USDT: '5003000' } } } } });
test.beforeEach(({ sim }) => sim.reset());

const deep = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

test('hostile control API bodies and market-data frames are refused; the simulator keeps answering', async ({ sim, client }) => {
  const bodies: [string, string][] = [
    ['market/place', `{"symbol":{"toString":1},"side":"SELL","type":"LIMIT","timeInForce":"GTC","price":"60010","quantity":"0.5"}`],
    ['market/place', `{"symbol":"BTCUSDT","side":"SELL","type":"LIMIT","timeInForce":"GTC","price":"60010","quantity":["1"]}`],
    ['market/setMid', `{"symbol":${deep(6000)},"price":"60000"}`],
    ['faults/rules', `{"on":"order.place","transport":${deep(6000)},"action":{"error":-1013}}`],
  ];
  for (const [route, body] of bodies) {
    const res = await fetch(`${sim.urls.http}/sim/v1/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status, `${route} ${body.slice(0, 60)}`).toBe(400);
  }
  const ws = await RawWs.open(sim, '/ws');
  ws.send(`{"method":${deep(6000)},"id":3}`);
  const reply = await ws.frame((f) => f.json?.id === 3);
  expect(reply.json.error.code).toBe(2);
  expect(await client.rest.ping()).toEqual({});
  expect(sim.stats().internalErrors).toBe(0);
});

test("a resting BUY's fee reserve cannot be locked by later orders; its maker fill pays 500 USDT", async ({ client, faults }) => {
  const first = await client.rest.newOrder(buy('50000', '100'));
  await client.rest.newOrder(buy('1000', '0.5'));
  const refused = await refusal(client.rest.newOrder(buy('1000', '0.5')));
  expect(refused).toMatchObject({ status: 400, code: -2010, msg: 'Account has insufficient balance for requested action.' });
  const user = await client.userData();
  await faults.fillOpenOrder(first.orderId, '100');
  const report = await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE' && e.i === first.orderId);
  expect(report).toMatchObject({ n: '500.00000000', N: 'USDT', m: true });
});

test('-1101 for more than 100 symbols or a duplicate; ids echoed from the top-level member, digit for digit', async ({ sim, client }) => {
  expect(await refusal(client.rest.bookTicker({ symbols: Array.from({ length: 101 }, () => SYMBOL) }))).toMatchObject({
    code: -1101,
    msg: "Too many values sent for parameter 'symbols', maximum allowed up to 100.",
  });
  expect(await refusal(client.rest.exchangeInfo({ symbols: [SYMBOL, SYMBOL] }))).toMatchObject({ code: -1101, msg: 'Duplicate values for a parameter detected.' });
  const api = await RawWs.open(sim, '/ws-api/v3');
  api.send('{"method":"ping","params":{"id":7},"id":9007199254740993}');
  const pong = await api.frame((f) => f.text.startsWith('{"id":9007199254740993,'));
  expect(pong.json.status).toBe(200);
});

test('self-trade prevention: the taker lists preventedMatches, the maker report carries v', async ({ client }) => {
  const user = await client.userData();
  const maker = await client.rest.newOrder(buy('59000', '0.012'));
  const taker = await client.rest.newOrder(sell('59000', '0.012', { newOrderRespType: 'FULL' }));
  expect(taker).toMatchObject({ status: 'NEW', fills: [], preventedMatches: [{ preventedMatchId: 0, makerOrderId: maker.orderId, price: '59000.00000000', makerPreventedQuantity: '0.01200000' }] });
  const report = await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE_PREVENTION');
  expect(report).toMatchObject({ i: maker.orderId, X: 'EXPIRED_IN_MATCH', v: 0, A: '0.01200000', B: '0.01200000', U: taker.orderId });
});
