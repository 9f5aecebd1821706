// Property-based fuzzing of every input surface (issue: reliability under bad input), driven
// in-process through the real transport code (REST handler, WS API connection, market-data
// control frames) with fast-check and fixed seeds (printed by fast-check on failure). For each
// generated input: no crash, no 500, a reply (no hang), the reference error code with its HTTP
// status, and, for a refused request, no change of state: book, balances, open orders, ids and
// the trade log are fingerprinted before and after.

import { EventEmitter } from 'node:events';
import { createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startSimulator, type Simulator } from '../index.ts';
import { ERRORS } from '../core/errors.ts';
import { createRestHandler } from './rest-server.ts';
import { Outbox } from './outbox.ts';
import { WsApiConnection } from './ws-api.ts';
import { Peer } from './ws-peer.ts';
import type { WebSocket } from 'ws';
import { openOrders, placeOrder } from '../api/orders.ts';
import { balances, depthSnapshot, openOrderLists } from '../core/queries.ts';

/** Inputs per surface; the total is the 100,000 per run. */
const RUNS = {
  rest: Number(process.env.FUZZ_REST_RUNS ?? 50_000),
  wsApi: Number(process.env.FUZZ_WS_API_RUNS ?? 30_000),
  market: Number(process.env.FUZZ_MARKET_RUNS ?? 20_000),
};
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/** Every (code, http) pair of the error table: a refusal must be one of these rows. */
const KNOWN_REFUSALS = new Set(Object.values(ERRORS).map((row) => `${row.code}/${row.http}`));

let sim: Simulator;

before(async () => {
  sim = await startSimulator({
    config: {
      sim: {
        port: 0,
        tls_port: 0,
        clock: 'manual',
        start_time_ms: Date.UTC(2026, 0, 1),
        // The reference's order types: a superset of the spec's routes and parameters (the spec's
        // own answers are pinned by e2e/order-types-spec-pinned.spec.ts).
        order_types: 'reference',
        limits: { weight_per_minute: 1_000_000_000, orders_per_10s: 1_000_000_000, orders_per_day: 1_000_000_000 },
      },
    },
  });
  // A few of the account's own orders resting, so cancels and amends have targets.
  const ex = sim.exchange;
  for (const [price, side] of [
    ['59000', 'BUY'],
    ['61000', 'SELL'],
  ] as const) {
    const placed = placeOrder(ex, { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price, newClientOrderId: `fuzz-${side}` }, sim.now());
    assert.ok(placed.ok);
  }
});

after(async () => {
  await sim.stop();
});

/** Everything a refused request must leave alone. */
function fingerprint(s: Simulator): string {
  const ex = s.exchange;
  return JSON.stringify({
    balances: balances(ex.state).map((b) => [b.asset, String(b.free), String(b.locked)]),
    open: openOrders(ex),
    lists: openOrderLists(ex.state),
    books: ex.instruments.map((i) => depthSnapshot(ex.state, i.symbol, 5000, 'live')),
    ids: [ex['desk'].reports.nextOrderId, ex['desk'].reports.nextExecutionId],
    trades: ex.state.tradeLog.size,
    listenKeys: [...s.service.listenKeys['keys'].keys()],
  }, (_key, value) => (typeof value === 'bigint' ? String(value) : value));
}

function assertReferenceRefusal(status: number, body: unknown, context: string): void {
  assert.notEqual(status, 500, `500 for ${context}`);
  const { code } = body as { code?: unknown };
  assert.equal(typeof code, 'number', `no error code for ${context}: ${JSON.stringify(body)}`);
  assert.ok(KNOWN_REFUSALS.has(`${code}/${status}`), `unknown refusal ${code}/${status} for ${context}`);
}

// ------------------------------------------------------------------ generators

const PARAM_NAMES = [
  'symbol', 'side', 'type', 'timeInForce', 'quantity', 'price', 'quoteOrderQty', 'newClientOrderId', 'newOrderRespType',
  'orderId', 'origClientOrderId', 'limit', 'symbols', 'timestamp', 'recvWindow', 'signature', 'cancelReplaceMode',
  'cancelOrderId', 'newQty', 'fromId', 'startTime', 'endTime', 'omitZeroBalances', 'computeCommissionRates', 'listenKey',
  'selfTradePreventionMode', 'stopPrice', 'icebergQty', 'apiKey', 'subscriptionId', 'trailingDelta', 'aboveType', 'belowType',
  'abovePrice', 'belowStopPrice', 'workingType', 'pendingType', 'orderListId', 'listClientOrderId', 'stopLimitPrice',
];

const nastyString = fc.oneof(
  fc.constantFrom('', ' ', 'BTCUSDT', 'btcusdt', 'ETHUSDT', 'NOPE', 'BUY', 'SELL', 'LIMIT', 'MARKET', 'LIMIT_MAKER', 'GTC', 'IOC', 'FOK', 'FULL', 'ACK', 'RESULT', 'true', 'false', 'null', '[]', '["BTCUSDT"]', '[1]', '{}', 'STOP_ON_FAILURE', 'ALLOW_FAILURE', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT_LIMIT'),
  fc.constantFrom('0', '-1', '1', '0.001', '0.00000001', '1e5', '1E-8', 'NaN', 'Infinity', '99999999999999999999999', '0.0000000000001', '60000.123456789', '00001', '+1', '1.', '.5', '9007199254740993', '-0'),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer().map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('%ZZ', '%', '%E2%82', 'a%00b', '%F0%9F%92%A9', '+', '&', '=', '=='),
  fc.string({ minLength: 200, maxLength: 3000 }),
);

const paramPairs = fc.array(fc.tuple(fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 12 })), nastyString), { maxLength: 14 });

function encodePairs(pairs: readonly (readonly [string, string])[], raw: boolean): string {
  return pairs.map(([k, v]) => (raw ? `${k}=${v}` : `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)).join('&');
}

const signatureMode = fc.constantFrom('none', 'valid', 'garbage', 'wrong-hex', 'empty');

function withSignature(payload: string, mode: string, secret: string): string {
  switch (mode) {
    case 'valid':
      return `signature=${createHmac('sha256', secret).update(payload).digest('hex')}`;
    case 'garbage':
      return 'signature=not-a-signature';
    case 'wrong-hex':
      return `signature=${'ab'.repeat(32)}`;
    case 'empty':
      return 'signature=';
    default:
      return '';
  }
}

// ------------------------------------------------------------------ REST

interface Captured {
  status: number;
  body: string;
  ended: boolean;
}

function fakeExchange(method: string, url: string, headers: Record<string, string>, body: string): { req: IncomingMessage; res: ServerResponse; out: Captured } {
  const out: Captured = { status: 0, body: '', ended: false };
  const req = Object.assign(new EventEmitter(), { method, url, headers, resume() {} }) as unknown as IncomingMessage;
  const res = Object.assign(new EventEmitter(), {
    headersSent: false,
    writeHead(status: number) {
      out.status = status;
      (res as { headersSent: boolean }).headersSent = true;
      return res;
    },
    end(text?: string) {
      out.body = text ?? '';
      out.ended = true;
    },
    destroy() {},
  }) as unknown as ServerResponse;
  return { req, res, out };
}

const REST_PATHS = [
  '/api/v3/ping', '/api/v3/time', '/api/v3/exchangeInfo', '/api/v3/depth', '/api/v3/ticker/bookTicker', '/api/v3/account',
  '/api/v3/account/commission', '/api/v3/order', '/api/v3/order/test', '/api/v3/order/cancelReplace',
  '/api/v3/order/amend/keepPriority', '/api/v3/openOrders', '/api/v3/myTrades', '/api/v3/userDataStream',
  '/api/v3/allOrders',
  '/api/v3/rateLimit/order', '/api/v3/nope', '/', '/api/v3/order/', '/api/v3/orderList/oco', '/api/v3/orderList/oto',
  '/api/v3/orderList/otoco', '/api/v3/order/oco', '/api/v3/orderList', '/api/v3/openOrderList', '/api/v3/allOrderList',
];

test(`REST: ${RUNS.rest} generated requests get a reference answer and refusals change nothing`, () => {
  const handler = createRestHandler({ service: sim.service, outbox: new Outbox() });
  const { apiKey, apiSecret } = sim.credentials;
  let refused = 0;
  fc.assert(
    fc.property(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'),
      fc.constantFrom(...REST_PATHS),
      paramPairs,
      paramPairs,
      fc.boolean(),
      fc.constantFrom('none', 'now', 'old', 'future', 'micros', 'garbage'),
      signatureMode,
      fc.constantFrom('valid', 'missing', 'wrong', 'huge'),
      (method, path, queryPairs, bodyPairs, rawEncoding, timestampMode, sigMode, keyMode) => {
        const now = sim.now();
        const ts = { none: null, now, old: now - 100_000, future: now + 5000, micros: now * 1000, garbage: 'yesterday' }[timestampMode];
        let query = encodePairs(queryPairs, rawEncoding);
        if (ts !== null) query += `${query ? '&' : ''}timestamp=${ts}`;
        const body = method === 'GET' ? '' : encodePairs(bodyPairs, rawEncoding);
        const sig = withSignature(query + body, sigMode, apiSecret);
        if (sig) query += `${query ? '&' : ''}${sig}`;
        const headers: Record<string, string> = {};
        if (keyMode === 'valid') headers['x-mbx-apikey'] = apiKey;
        if (keyMode === 'wrong') headers['x-mbx-apikey'] = 'not-the-key';
        if (keyMode === 'huge') headers['x-mbx-apikey'] = 'k'.repeat(5000);
        const url = query ? `${path}?${query}` : path;
        const before = fingerprint(sim);
        const { req, res, out } = fakeExchange(method, url, headers, body);
        handler(req, res);
        if (body) req.emit('data', Buffer.from(body));
        req.emit('end');
        const context = `${method} ${url} body=${JSON.stringify(body)}`;
        assert.ok(out.ended, `no reply (hang) for ${context}`);
        if (out.status === 200) return;
        refused++;
        assertReferenceRefusal(out.status, JSON.parse(out.body), context);
        assert.equal(fingerprint(sim), before, `state changed by a refused request: ${context}`);
      },
    ),
    { seed: SEED, numRuns: RUNS.rest },
  );
  assert.ok(refused > RUNS.rest / 2, `most generated requests should be refused (${refused})`);
});

// ------------------------------------------------------------------ WS API

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  /** The net.Socket a Peer writes its frames to: decodes them back into `sent`. */
  readonly socket = {
    destroyed: false,
    write: (bytes: Buffer): boolean => {
      for (let at = 0; at < bytes.length; ) {
        let length = bytes[at + 1]! & 0x7f;
        let start = at + 2;
        if (length === 126) [length, start] = [bytes.readUInt16BE(at + 2), at + 4];
        else if (length === 127) [length, start] = [Number(bytes.readBigUInt64BE(at + 2)), at + 10];
        this.sent.push(bytes.toString('utf8', start, start + length));
        at = start + length;
      }
      return true;
    },
  };
  ping(): void {}
  close(): void {
    this.readyState = 3;
    this.emit('close');
  }
  terminate(): void {
    this.close();
  }
}

function fakePeer(kind: 'api' | 'market'): { peer: Peer; socket: FakeSocket } {
  const socket = new FakeSocket();
  const peer = new Peer(socket as unknown as WebSocket, socket.socket, kind, sim.now(), 0, () => {});
  return { peer, socket };
}

const WS_METHODS = [
  'ping', 'time', 'exchangeInfo', 'depth', 'ticker.book', 'session.logon', 'session.status', 'session.logout',
  'userDataStream.subscribe', 'userDataStream.subscribe.signature', 'userDataStream.unsubscribe', 'order.place',
  'order.test', 'order.cancel', 'order.cancelReplace', 'order.amend.keepPriority', 'order.status', 'openOrders.status',
  'openOrders.cancelAll', 'account.status', 'v3/order.place', 'nope', '', 'ORDER.PLACE', 'orderList.place',
  'orderList.place.oco', 'orderList.place.oto', 'orderList.place.otoco', 'orderList.cancel', 'orderList.status',
  'openOrderLists.status', 'allOrderLists',
];

const jsonScalar = fc.oneof(nastyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.bigInt().map((b) => Number(b)));
const wsId = fc.oneof(
  fc.integer({ min: 0 }),
  fc.constantFrom(null, -1, 1.5, 'abc', 'x'.repeat(40), '92233720368547758070', 'a b', true, [], {}),
  fc.string({ maxLength: 40 }),
);

test(`WS API: ${RUNS.wsApi} generated frames each get one reply with a reference code, refusals change nothing`, () => {
  const { apiKey, apiSecret } = sim.credentials;
  const users = sim.gateway.users;
  let replies = 0;
  fc.assert(
    fc.property(
      fc.oneof(
        // Structured requests: valid envelope, random method and params.
        fc.record({
          id: wsId,
          method: fc.oneof(fc.constantFrom(...WS_METHODS), jsonScalar),
          params: fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom(...PARAM_NAMES), fc.string({ maxLength: 10 })), jsonScalar, { maxKeys: 12 }), jsonScalar, fc.array(jsonScalar, { maxLength: 3 })),
          sign: fc.constantFrom('none', 'valid', 'bad'),
        }),
        // Raw text: not JSON, or JSON of the wrong shape.
        fc.oneof(fc.string({ maxLength: 200 }), fc.json(), fc.constantFrom('{', '[]', 'null', '"x"', '{"id":1}', '{"method":"ping","id":1', '{"id":9223372036854775808,"method":"ping"}')),
      ),
      fc.boolean(),
      (frame, binary) => {
        let text: string;
        if (typeof frame === 'string') text = frame;
        else {
          let params: unknown = frame.params;
          if (frame.sign !== 'none' && typeof params === 'object' && params !== null && !Array.isArray(params)) {
            const p: Record<string, unknown> = { ...(params as Record<string, unknown>), apiKey, timestamp: sim.now() };
            delete p.signature;
            const payload = Object.keys(p).sort().map((k) => `${k}=${String(p[k])}`).join('&');
            p.signature = frame.sign === 'valid' ? createHmac('sha256', apiSecret).update(payload).digest('hex') : 'bad';
            params = p;
          }
          text = JSON.stringify({ id: frame.id, method: frame.method, params });
        }
        const { peer, socket } = fakePeer('api');
        new WsApiConnection(peer, { service: sim.service, users, outbox: new Outbox() }, true);
        const before = fingerprint(sim);
        socket.emit('message', Buffer.from(text), binary);
        peer.flush(); // what the end of this tick would write
        const context = `frame ${text.slice(0, 300)} binary=${binary}`;
        assert.equal(socket.sent.length >= 1, true, `no reply (hang) for ${context}`);
        const reply = JSON.parse(socket.sent[0]!) as { id: unknown; status: number; error?: { code: number } };
        replies++;
        assert.notEqual(reply.status, 500, `500 for ${context}`);
        if (reply.status !== 200) {
          assertReferenceRefusal(reply.status, reply.error, context);
          assert.equal(fingerprint(sim), before, `state changed by a refused frame: ${context}`);
        }
        socket.close();
      },
    ),
    { seed: SEED + 1, numRuns: RUNS.wsApi },
  );
  assert.equal(replies, RUNS.wsApi);
});

// ------------------------------------------------------------------ market-data control frames

test(`market data: ${RUNS.market} generated control frames get a reference reply (codes 0-3) or a result`, () => {
  const market = sim.gateway.market;
  const streamName = fc.oneof(fc.constantFrom('btcusdt@depth', 'btcusdt@depth@100ms', 'ethusdt@trade', 'btcusdt@bookTicker', 'BTCUSDT@depth', 'btcusdt@kline_1m', 'nope'), fc.string({ maxLength: 30 }));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.record({
          method: fc.oneof(fc.constantFrom('SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY', 'subscribe', 'PING'), jsonScalar),
          params: fc.oneof(fc.array(fc.oneof(streamName, jsonScalar), { maxLength: 5 }), jsonScalar, fc.constant(['combined', true]), fc.constant(['combined', 'yes'])),
          id: wsId,
        }),
        fc.oneof(fc.string({ maxLength: 200 }), fc.json()),
      ),
      fc.boolean(),
      fc.boolean(),
      (frame, binary, combined) => {
        const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
        const { peer, socket } = fakePeer('market');
        market.open(peer, combined, []);
        socket.emit('message', Buffer.from(text), binary);
        peer.flush();
        const context = `frame ${text.slice(0, 300)}`;
        assert.equal(socket.sent.length, 1, `expected one reply for ${context}`);
        const reply = JSON.parse(socket.sent[0]!) as { result?: unknown; error?: { code: number; msg: string }; id?: unknown };
        if (reply.error !== undefined) assert.ok([0, 1, 2, 3].includes(reply.error.code), `code ${reply.error.code} for ${context}`);
        else assert.ok('result' in reply, `neither result nor error for ${context}`);
        socket.close();
      },
    ),
    { seed: SEED + 2, numRuns: RUNS.market },
  );
});
