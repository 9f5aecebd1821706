// Every time parameter of every endpoint takes milliseconds or microseconds (rest-api.md and
// web-socket-api.md "General API Information": "Timestamp parameters (e.g. startTime, endTime,
// timestamp) can be passed in milliseconds or microseconds"), through one parser: Params.time
// reads them, time-unit.ts classes each by magnitude. Two tables, both built from the endpoint
// table itself:
// 1. which parameters each row reads, and through which accessor: a row that reads a time
//    parameter with anything but the time parser fails here (a new row included);
// 2. per row that reads a time, over REST and the WS API: each window sent in microseconds
//    answers exactly what the same window in milliseconds answers, and the window matters.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { hmacHex, queryString, wsPayload } from '../client/signing.ts';
import { resolveConfig } from '../config/index.ts';
import { ManualClock } from '../core/clock.ts';
import { Exchange } from '../core/exchange.ts';
import { startSimulator, type Simulator } from '../index.ts';
import { ENDPOINTS, type Endpoint } from './endpoints.ts';
import { Params } from './params.ts';
import { Service } from './service.ts';

/** A minute boundary: candles open on the trades. */
const T0 = 1_700_000_040_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Names of time parameters: `startTime`, `endTime`, any `...Time`, and `timestamp`. */
const TIME_NAME = /Time$|^timestamp$/;

type Accessor = 'get' | 'has' | 'required' | 'int' | 'bool' | 'time';

/** Params that note which accessor each handler used for each name (the outermost call only). */
class RecordingParams extends Params {
  readonly reads: { accessor: Accessor; name: string }[] = [];
  private depth = 0;

  private noted<T>(accessor: Accessor, name: string, read: () => T): T {
    if (this.depth === 0) this.reads.push({ accessor, name });
    this.depth++;
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  override get(name: string) {
    return this.noted('get', name, () => super.get(name));
  }
  override has(name: string) {
    return this.noted('has', name, () => super.has(name));
  }
  override required(name: string) {
    return this.noted('required', name, () => super.required(name));
  }
  override int(name: string) {
    return this.noted('int', name, () => super.int(name));
  }
  override bool(name: string) {
    return this.noted('bool', name, () => super.bool(name));
  }
  override time(name: string) {
    return this.noted('time', name, () => super.time(name));
  }
}

/** Runs every row's weight and handler on a quiet exchange; the parameters each one read, by row. */
function readsByEndpoint(): Map<Endpoint, RecordingParams['reads']> {
  const config = resolveConfig({ sim: { generator: { enabled: false }, history: { minutes: 0 } } });
  const exchange = new Exchange(config, T0);
  const credentials = { apiKey: config.sim.account.api_key, apiSecret: config.sim.account.api_secret };
  const service = new Service(config, () => exchange, new ManualClock(T0), credentials, () => undefined);
  const out = new Map<Endpoint, RecordingParams['reads']>();
  for (const endpoint of ENDPOINTS) {
    const values = new Map([
      ['symbol', 'BTCUSDT'],
      ['interval', '1m'],
      ['startTime', String(T0)],
      ['endTime', String(T0 + MINUTE)],
      ['limit', '10'],
    ]);
    const params = new RecordingParams(values, '');
    try {
      endpoint.weight(params);
    } catch {
      // A refusal is fine: only what was read matters here.
    }
    try {
      endpoint.run({ service, exchange, now: T0, events: [] }, params);
    } catch {
      // The session and user-data rows need a connection; their reads so far still count.
    }
    out.set(endpoint, params.reads);
  }
  return out;
}

const READS = readsByEndpoint();
/** The rows that read a time parameter: the rows the behaviour tests below run. */
const TIME_ROWS = ENDPOINTS.filter((e) => READS.get(e)!.some((r) => TIME_NAME.test(r.name)));

test('every time parameter any row of the endpoint table reads goes through the time parser', () => {
  const bypassing = ENDPOINTS.flatMap((e) => READS.get(e)!.filter((r) => TIME_NAME.test(r.name) && r.accessor !== 'time').map((r) => `${e.id}: ${r.name} via ${r.accessor}()`));
  assert.deepEqual(bypassing, []);
  // The recorder sees the rows that take times (it would pass vacuously if it saw none).
  assert.deepEqual(
    TIME_ROWS.map((e) => e.id),
    ['trades.aggregate', 'klines', 'uiKlines', 'myTrades', 'allOrders', 'allOrderLists'],
  );
});

// ---------------------------------------------------------------- over the wire

let sim: Simulator;

before(async () => {
  sim = await startSimulator({
    config: {
      sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: T0, generator: { enabled: false }, history: { minutes: 0 }, account: { ended_orders: 'keep' }, order_types: 'reference' },
    },
  });
  // One trade of the account a minute, T0 .. T0 + 3 min, then a minute more.
  for (let i = 0; i < 4; i++) {
    const placed = await rest({ id: 'order.place', rest: { method: 'POST', path: '/api/v3/order' }, security: 'SIGNED' } as Endpoint, {
      symbol: 'BTCUSDT',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '60000',
      quantity: '0.001',
    });
    assert.equal(placed.status, 200, JSON.stringify(placed.body));
    sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.001' });
    // And an order list a minute (allOrderLists), placed after the trade so its prices bracket it.
    const list = await rest({ id: 'orderList.place.oco', rest: { method: 'POST', path: '/api/v3/orderList/oco' }, security: 'SIGNED' } as Endpoint, {
      symbol: 'BTCUSDT',
      side: 'SELL',
      quantity: '0.001',
      aboveType: 'LIMIT_MAKER',
      abovePrice: '61000',
      belowType: 'STOP_LOSS',
      belowStopPrice: '59000',
    });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    sim.advanceTime(MINUTE);
  }
});
after(() => sim.stop());

type Values = Record<string, string | number>;
interface Answer {
  readonly status: number;
  readonly body: unknown;
}

async function rest(endpoint: Endpoint, values: Values, timestamp = sim.now()): Promise<Answer> {
  let query = queryString(values);
  if (endpoint.security === 'SIGNED') {
    query = `${query}&timestamp=${timestamp}`;
    query = `${query}&signature=${hmacHex(sim.credentials.apiSecret, query)}`;
  }
  const res = await fetch(`${sim.urls.http}${endpoint.rest!.path}?${query}`, {
    method: endpoint.rest!.method,
    headers: { 'X-MBX-APIKEY': sim.credentials.apiKey },
  });
  return { status: res.status, body: await res.json() };
}

let api: WebSocket;
let nextId = 1;

async function wsApi(endpoint: Endpoint, values: Values, timestamp = sim.now()): Promise<Answer> {
  if (api === undefined) {
    api = new WebSocket(`${sim.urls.ws}/ws-api/v3`);
    await new Promise((resolve, reject) => api.once('open', resolve).once('error', reject));
  }
  let params: Values = values;
  if (endpoint.security === 'SIGNED') {
    params = { ...values, apiKey: sim.credentials.apiKey, timestamp };
    params = { ...params, signature: hmacHex(sim.credentials.apiSecret, wsPayload(params)) };
  }
  const id = nextId++;
  const reply = new Promise<{ status: number; result?: unknown; error?: unknown }>((resolve) => {
    const onMessage = (data: unknown) => {
      const frame = JSON.parse(String(data)) as { id: number; status: number; result?: unknown; error?: unknown };
      if (frame.id !== id) return;
      api.off('message', onMessage);
      resolve(frame);
    };
    api.on('message', onMessage);
  });
  api.send(JSON.stringify({ id, method: endpoint.ws, params }));
  const frame = await reply;
  return { status: frame.status, body: frame.result ?? frame.error };
}

after(() => api?.close());

const us = (ms: number) => ms * 1000;

/** Windows in microseconds and the millisecond windows that mean the same. */
const WINDOWS: readonly { readonly name: string; readonly micro: Values; readonly milli: Values; readonly narrows?: boolean }[] = [
  { name: 'startTime and endTime', micro: { startTime: us(T0 + MINUTE), endTime: us(T0 + 2 * MINUTE) }, milli: { startTime: T0 + MINUTE, endTime: T0 + 2 * MINUTE }, narrows: true },
  { name: 'endTime only', micro: { endTime: us(T0 + MINUTE) }, milli: { endTime: T0 + MINUTE }, narrows: true },
  { name: 'startTime only', micro: { startTime: us(T0 + 2 * MINUTE) }, milli: { startTime: T0 + 2 * MINUTE }, narrows: true },
  // A bound between two milliseconds keeps the window inclusive: the start rounds up, the end down.
  {
    name: 'bounds inside a millisecond',
    micro: { startTime: us(T0 + MINUTE) + 1, endTime: us(T0 + 3 * MINUTE) - 1 },
    milli: { startTime: T0 + MINUTE + 1, endTime: T0 + 3 * MINUTE - 1 },
    narrows: true,
  },
  { name: 'end before start', micro: { startTime: us(T0 + 2 * MINUTE), endTime: us(T0 + MINUTE) }, milli: { startTime: T0 + 2 * MINUTE, endTime: T0 + MINUTE } },
  { name: 'more than a day apart', micro: { startTime: us(T0), endTime: us(T0 + DAY) + 1 }, milli: { startTime: T0, endTime: T0 + DAY + 1 } },
  { name: 'a day apart', micro: { startTime: us(T0 - DAY + 3 * MINUTE), endTime: us(T0 + 3 * MINUTE) }, milli: { startTime: T0 - DAY + 3 * MINUTE, endTime: T0 + 3 * MINUTE } },
  // Units mixed: each value is classed on its own.
  { name: 'ms start, µs end', micro: { startTime: T0 + MINUTE, endTime: us(T0 + 2 * MINUTE) }, milli: { startTime: T0 + MINUTE, endTime: T0 + 2 * MINUTE }, narrows: true },
];

/** What each row needs besides the window. */
const BASE: Values = { symbol: 'BTCUSDT', interval: '1m' };

for (const endpoint of TIME_ROWS) {
  const transports = [...(endpoint.rest ? [['REST', rest] as const] : []), ...(endpoint.ws ? [['WS API', wsApi] as const] : [])];
  for (const [transport, call] of transports) {
    test(`${endpoint.id} (${transport}): every window in microseconds answers as in milliseconds`, async () => {
      const whole = await call(endpoint, BASE);
      assert.equal(whole.status, 200, JSON.stringify(whole.body));
      assert.ok(Array.isArray(whole.body) && whole.body.length >= 4, `${endpoint.id} has the four trades' rows`);
      for (const window of WINDOWS) {
        const milli = await call(endpoint, { ...BASE, ...window.milli });
        const micro = await call(endpoint, { ...BASE, ...window.micro });
        assert.deepEqual(micro, milli, `${window.name}: ${JSON.stringify(window.micro)}`);
        if (window.narrows) {
          assert.equal(milli.status, 200, `${window.name}: ${JSON.stringify(milli.body)}`);
          assert.ok(Array.isArray(milli.body) && milli.body.length > 0 && milli.body.length < (whole.body as unknown[]).length, `${window.name} narrows the rows`);
        }
      }
      if (endpoint.security === 'SIGNED') {
        // The request's own timestamp in microseconds, with a window in microseconds.
        const window = WINDOWS[0]!;
        assert.deepEqual(await call(endpoint, { ...BASE, ...window.micro }, us(sim.now())), await call(endpoint, { ...BASE, ...window.milli }));
      }
    });
  }
}
