// The reference's caps and echoes (issue 18 item 4), over real sockets: -1101 for more than 100
// `symbols` and for duplicates on every endpoint taking `symbols` (REST and WS API); WS API
// params sent as JSON numbers beyond 2^53 validated and signed as the digits sent; request ids
// echoed from the top-level `id` member only; an orderId with leading zeros is the number it
// writes, and a refusal's message never names a pattern the refused value matches.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { WebSocket } from 'ws';
import { startSimulator, type Simulator } from '../index.ts';

let sim: Simulator;

before(async () => {
  sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
});
after(() => sim.stop());

async function rest(path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${sim.urls.http}${path}`, { headers: { 'X-MBX-APIKEY': sim.credentials.apiKey } });
  return { status: res.status, body: await res.json() };
}

function signedQuery(query: string): string {
  const q = `${query}&timestamp=${sim.now()}`;
  return `${q}&signature=${createHmac('sha256', sim.credentials.apiSecret).update(q).digest('hex')}`;
}

/** Sends one WS API or market-data frame; the reply's text. */
async function frame(path: string, text: string): Promise<string> {
  const ws = new WebSocket(`${sim.urls.ws}${path}`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(String(data))));
  ws.send(text);
  const out = await reply;
  ws.close();
  return out;
}

const TOO_MANY = { code: -1101, msg: "Too many values sent for parameter 'symbols', maximum allowed up to 100." };
const DUPLICATES = { code: -1101, msg: 'Duplicate values for a parameter detected.' };

test('more than 100 symbols, or the same symbol twice, is -1101 on REST and the WS API', async () => {
  const many = JSON.stringify(Array.from({ length: 101 }, () => 'BTCUSDT'));
  const twice = JSON.stringify(['BTCUSDT', 'ETHUSDT', 'BTCUSDT']);
  for (const path of ['/api/v3/ticker/bookTicker', '/api/v3/exchangeInfo']) {
    assert.deepEqual(await rest(`${path}?symbols=${encodeURIComponent(many)}`), { status: 400, body: TOO_MANY });
    assert.deepEqual(await rest(`${path}?symbols=${encodeURIComponent(twice)}`), { status: 400, body: DUPLICATES });
    assert.equal((await rest(`${path}?symbols=${encodeURIComponent('["BTCUSDT","ETHUSDT"]')}`)).status, 200);
  }
  for (const method of ['ticker.book', 'exchangeInfo']) {
    for (const [symbols, error] of [[many, TOO_MANY], [twice, DUPLICATES]] as const) {
      const reply = JSON.parse(await frame('/ws-api/v3', `{"id":1,"method":"${method}","params":{"symbols":${symbols}}}`)) as { status: number; error: unknown };
      assert.deepEqual([reply.status, reply.error], [400, error]);
    }
  }
});

test('a WS API id beyond 2^53 is echoed from the top-level member, not from one inside params', async () => {
  const api = await frame('/ws-api/v3', '{"method":"ping","params":{"id":7},"id":9007199254740993}');
  assert.match(api, /^\{"id":9007199254740993,"status":200,/);
  const market = await frame('/ws', '{"method":"LIST_SUBSCRIPTIONS","params":[{"id":7}],"id":9007199254740993}');
  assert.equal(market, '{"result":[],"id":9007199254740993}');
  // The params' id coming first in the text changes nothing.
  const first = await frame('/ws-api/v3', '{"params":{"id":7},"method":"ping","id":-9223372036854775808}');
  assert.match(first, /^\{"id":-9223372036854775808,"status":200,/);
});

test('an orderId sent as a JSON number beyond 2^53 is signed and validated as its digits', async () => {
  const { apiKey, apiSecret } = sim.credentials;
  const timestamp = sim.now();
  const payload = `apiKey=${apiKey}&orderId=9223372036854775807&symbol=BTCUSDT&timestamp=${timestamp}`;
  const signature = createHmac('sha256', apiSecret).update(payload).digest('hex');
  const text = `{"id":"q","method":"order.status","params":{"apiKey":"${apiKey}","orderId":9223372036854775807,"symbol":"BTCUSDT","timestamp":${timestamp},"signature":"${signature}"}}`;
  const reply = JSON.parse(await frame('/ws-api/v3', text)) as { status: number; error: { code: number } };
  // The signature verifies (no -1022) and the id names no order: -2013, as for the same digits sent as a string.
  assert.deepEqual([reply.status, reply.error.code], [400, -2013]);
  // One past int64 is refused as not valid, naming the parameter.
  const over = `apiKey=${apiKey}&orderId=9223372036854775808&symbol=BTCUSDT&timestamp=${timestamp}`;
  const overText = `{"id":"r","method":"order.status","params":{"apiKey":"${apiKey}","orderId":9223372036854775808,"symbol":"BTCUSDT","timestamp":${timestamp},"signature":"${createHmac('sha256', apiSecret).update(over).digest('hex')}"}}`;
  const refused = JSON.parse(await frame('/ws-api/v3', overText)) as { error: { code: number; msg: string } };
  assert.deepEqual(refused.error, { code: -1130, msg: "Data sent for parameter 'orderId' is not valid." });
});

test('orderId 00000000000000000001 is order 1; a refusal never names a pattern the value matches', async () => {
  sim.reset();
  const placed = await fetch(`${sim.urls.http}/api/v3/order?${signedQuery('symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000')}`, {
    method: 'POST',
    headers: { 'X-MBX-APIKEY': sim.credentials.apiKey },
  });
  assert.equal(((await placed.json()) as { orderId: number }).orderId, 1);
  const found = await rest(`/api/v3/order?${signedQuery('symbol=BTCUSDT&orderId=00000000000000000001')}`);
  assert.deepEqual([found.status, (found.body as { orderId: number }).orderId], [200, 1]);
  for (const value of ['99999999999999999999', '00000000000000000000000001', '1.5', 'abc', '-']) {
    const refused = await rest(`/api/v3/order?${signedQuery(`symbol=BTCUSDT&orderId=${value}`)}`);
    const { code, msg } = refused.body as { code: number; msg: string };
    assert.equal(refused.status, 400, value);
    const pattern = /legal range is '(.*)'\.$/.exec(msg)?.[1];
    if (pattern !== undefined) assert.ok(!new RegExp(pattern).test(value), `${value}: -${-code} "${msg}" names a pattern it matches`);
  }
});
