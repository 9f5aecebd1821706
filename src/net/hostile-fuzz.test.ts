// Structured hostile JSON (issue 18 item 1) to every route of every transport, over real
// sockets: values nested up to 6,000 deep, objects with `toString` / `valueOf` / `__proto__` /
// `constructor` / `toJSON` keys, numbers beyond every range (1e400, 2^63 and more), arrays where
// scalars belong. Every request is answered (no hang), never with a 5xx, the process keeps
// answering, and no exception reaches a transport's last line of defence
// (`stats().internalErrors` stays 0). Values that can never be valid are refused (4xx).
// fuzz.test.ts covers the ordinary malformed inputs in process; this file the hostile shapes.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { startSimulator, type Simulator } from '../index.ts';
import { ENDPOINTS, WS_METHODS } from '../api/endpoints.ts';
import { CONTROL_ROUTES, type ControlRoute } from './control-routes.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.HOSTILE_FUZZ_RUNS ?? 250);

let sim: Simulator;

before(async () => {
  sim = await startSimulator({
    config: {
      sim: {
        port: 0,
        tls_port: 0,
        clock: 'manual',
        start_time_ms: 1_700_000_000_000,
        generator: { enabled: false },
        // Every route of the table exists (the order-list ones only with "reference").
        order_types: 'reference',
        limits: { weight_per_minute: 1_000_000_000, orders_per_10s: 1_000_000_000, orders_per_day: 1_000_000_000 },
      },
    },
  });
});

after(async () => {
  assert.equal(sim.stats().internalErrors, 0, 'an exception reached a last line of defence');
  await sim.stop();
});

// ------------------------------------------------------------------ hostile values (JSON text)

const nest = (open: '[' | '{', depth: number, inner: string): string =>
  open === '[' ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`;

/** Scalars out of every range; never a valid value of any field. */
const hugeNumber = fc.constantFrom('1e400', '-1e400', '92233720368547758070', '-92233720368547758090', '123456789012345678901234567890.5');
const protoObject = fc.constantFrom(
  '{"toString":1}',
  '{"valueOf":{}}',
  '{"toString":1,"valueOf":1}',
  '{"__proto__":{"toString":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"toJSON":1}',
  '{"__proto__":null}',
);
const scalar = fc.oneof(hugeNumber, fc.constantFrom('"BTCUSDT"', '"1"', '""', 'true', 'null', '0', '-1', '"\\u0000"'), fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)));
/** Never a valid value of a scalar field: deep, prototype-named keys, arrays of non-strings. */
const structural = fc.oneof(
  fc.tuple(fc.constantFrom('[', '{') as fc.Arbitrary<'[' | '{'>, fc.integer({ min: 2, max: 6000 }), scalar).map(([open, depth, inner]) => nest(open, depth, inner)),
  protoObject,
  fc.array(fc.oneof(hugeNumber, protoObject, fc.constant('1'), fc.constant('null')), { minLength: 1, maxLength: 3 }).map((items) => `[${items.join(',')}]`),
);
/** Never valid anywhere a number is taken either: the structural values and out-of-range numbers. */
const neverValid = fc.oneof(structural, hugeNumber);
/** Anything: the never-valid values, plain scalars and arrays of strings. */
const anyValue = fc.oneof(neverValid, scalar, fc.constantFrom('["BTCUSDT"]', '["BTCUSDT","BTCUSDT"]', '[]', '{}'));

// ------------------------------------------------------------------ transports

async function httpCall(method: string, path: string, body?: string, contentType = 'application/x-www-form-urlencoded'): Promise<number> {
  const res = await fetch(`${sim.urls.http}${path}`, { method, body, headers: body === undefined ? {} : { 'content-type': contentType } });
  await res.arrayBuffer();
  return res.status;
}

async function wsExchange(path: string, frame: string): Promise<Record<string, unknown> | null> {
  const ws = new WebSocket(`${sim.urls.ws}${path}`);
  try {
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const reply = new Promise<Record<string, unknown> | null>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
      ws.once('close', () => resolve(null));
    });
    ws.send(frame);
    return await reply;
  } finally {
    ws.close();
  }
}

async function stillAnswers(): Promise<void> {
  assert.equal(await httpCall('GET', '/api/v3/ping'), 200);
}

const REST_ENDPOINTS = ENDPOINTS.filter((e) => e.rest !== undefined);
const PARAM_NAMES = ['symbol', 'symbols', 'side', 'type', 'timeInForce', 'quantity', 'price', 'orderId', 'origClientOrderId', 'newClientOrderId', 'limit', 'timestamp', 'recvWindow', 'listenKey', 'cancelOrderId', 'newQty', 'selfTradePreventionMode', 'stopPrice', 'trailingDelta', 'icebergQty', 'quoteOrderQty', 'aboveType', 'belowType', 'orderListId', 'listClientOrderId', 'workingType', 'pendingType'];

test(`REST: hostile JSON in every parameter of every route (${RUNS} requests) gets a reference answer, never a 5xx`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...REST_ENDPOINTS), fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), anyValue), { minLength: 1, maxLength: 4 }), fc.boolean(), async (endpoint, pairs, inBody) => {
      const names = new Set<string>();
      const form = pairs.filter(([k]) => !names.has(k) && names.add(k)).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
      const { method, path } = endpoint.rest!;
      const status = inBody && method !== 'GET' ? await httpCall(method, path, form) : await httpCall(method, `${path}?${form}`);
      assert.ok(status < 500, `${status} for ${method} ${path} ${form.slice(0, 200)}`);
    }),
    { seed: SEED, numRuns: RUNS },
  );
  await stillAnswers();
});

test(`WS API: hostile JSON in the id, method and every param of every method (${RUNS} frames) is answered, never 5xx`, async () => {
  const methods = [...WS_METHODS.keys()];
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...methods),
      // A method that reads no params ignores a number it is given, but no param may be structural.
      fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES, 'apiKey', 'signature', '__proto__', 'toString'), structural), { minLength: 1, maxLength: 3 }),
      fc.constantFrom('params', 'id', 'method'),
      async (method, pairs, where) => {
        const params = `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
        const hostile = pairs[0]![1];
        const frame =
          where === 'params' ? `{"id":1,"method":"${method}","params":${params}}` : where === 'id' ? `{"id":${hostile},"method":"${method}"}` : `{"id":1,"method":${hostile}}`;
        const reply = await wsExchange('/ws-api/v3', frame);
        assert.ok(reply !== null, `no reply for ${frame.slice(0, 200)}`);
        // Every never-valid value is refused: a param, the id (-1130 'id'), the method.
        assert.ok(typeof reply.status === 'number' && reply.status >= 400 && reply.status < 500, `${JSON.stringify(reply).slice(0, 300)} for ${frame.slice(0, 200)}`);
      },
    ),
    { seed: SEED + 1, numRuns: RUNS },
  );
  await stillAnswers();
});

test(`market data: hostile JSON in the method, params and id of control frames (${RUNS} frames) gets an error reply`, async () => {
  const methods = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...methods), neverValid, fc.constantFrom('method', 'params', 'param', 'id'), async (method, hostile, where) => {
      const frame = {
        method: `{"method":${hostile},"id":1}`,
        params: `{"method":"${method}","params":${hostile},"id":1}`,
        param: `{"method":"${method}","params":[${hostile}],"id":1}`,
        id: `{"method":"${method}","params":[],"id":${hostile}}`,
      }[where];
      const reply = await wsExchange('/ws', frame);
      assert.ok(reply !== null, `no reply for ${frame.slice(0, 200)}`);
      const error = reply.error as { code?: unknown } | undefined;
      // LIST_SUBSCRIPTIONS ignores its params; everything else refuses the value.
      if (!(method === 'LIST_SUBSCRIPTIONS' && where !== 'method' && where !== 'id')) assert.ok(error !== undefined && [0, 1, 2, 3].includes(error.code as number), `${JSON.stringify(reply)} for ${frame.slice(0, 200)}`);
    }),
    { seed: SEED + 2, numRuns: RUNS },
  );
  await stillAnswers();
});

// ------------------------------------------------------------------ control API

/** A valid value of each argument name, so one hostile field is what a call is refused for. */
const VALID_ARGUMENT: Readonly<Record<string, unknown>> = {
  includeUserStreams: false, on: false, ms: 0, k: 0, orderId: 999_999, qty: '0.001', muted: false, md: false, wsApi: false,
  symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5', id: 999_999,
};
/** The fault rule's fields (a whole object body), `action.<field>` inside its action. */
const RULE_FIELDS = ['on', 'transport', 'times', 'action', 'action.error', 'action.delayMs', 'action.swallow', 'action.msg'];
const VALID_RULE: Readonly<Record<string, unknown>> = { on: 'order.place', transport: 'rest', times: 1, action: { error: -1013 } };

/** Every route of the control API's own table, with the argument a hostile value goes to. */
const ROUTE_CASES = CONTROL_ROUTES.flatMap((route) => {
  const path = route.path.replace('{id}', '999999');
  if (route.body === 'object') return RULE_FIELDS.map((name) => ({ route, path, name }));
  if (route.body === 'none') return [{ route, path, name: 'x' }];
  return route.body.args.map((arg) => ({ route, path, name: arg.name }));
});

/** The body with `hostileName` set to `hostile` (JSON text) and every other argument valid. */
function controlBody(route: ControlRoute, hostileName: string, hostile: string): string {
  if (route.body === 'none') return `{"${hostileName}":${hostile}}`;
  const names = route.body === 'object' ? Object.keys(VALID_RULE) : route.body.args.map((a) => a.name);
  const valid = route.body === 'object' ? VALID_RULE : VALID_ARGUMENT;
  const members = names.map((name) => {
    if (name === hostileName) return `"${name}":${hostile}`;
    if (name === 'action' && hostileName.startsWith('action.')) {
      const field = hostileName.slice('action.'.length);
      return `"action":{"${field}":${hostile}${field === 'msg' ? ',"status":400,"code":-1' : ''}}`;
    }
    return `"${name}":${JSON.stringify(valid[name])}`;
  });
  return `{${members.join(',')}}`;
}

test(`control API: a hostile value in any argument of any route of its table (${RUNS * 2} requests) is refused with 400; GETs never 5xx`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ROUTE_CASES), neverValid, async ({ route, path, name }, hostile) => {
      const body = controlBody(route, name, hostile);
      const status = await httpCall(route.method, `/sim/v1/${path}`, route.method === 'GET' ? undefined : body, 'application/json');
      // A GET reads no body; every other route refuses the hostile argument.
      if (route.method === 'GET') assert.ok(status < 500, `${status} for GET ${path}`);
      else assert.equal(status, 400, `${status} for ${route.method} ${path} ${body.slice(0, 200)}`);
    }),
    { seed: SEED + 3, numRuns: RUNS * 2 },
  );
  assert.deepEqual(sim.faults.rules(), []);
  await stillAnswers();
});
