// The fault rule model (API.md 3.1): what a rule may say, which requests it takes, how its
// `times` and hits count, and how the spec's calls sit on it as presets.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routesFor } from '../api/endpoints.ts';
import { FaultRangeError, FaultRuleError } from './checks.ts';
import { FaultRules, MAX_RULES } from './rules.ts';
import type { EndpointInfo, FaultRule } from './rule.ts';

/** The endpoints served with order_types = "spec" (the default); the reference's list rows are tested below. */
const ENDPOINTS = routesFor('spec').endpoints;
const endpoint = (id: string): EndpointInfo => ENDPOINTS.find((e) => (e.ws ?? e.id) === id)!;
const PLACE = endpoint('order.place');
const CANCEL = endpoint('order.cancel');
const PING = endpoint('ping');
const LISTEN_KEY = endpoint('userDataStream.start');

test('an error rule answers its row of the error table at the point where the reference answers that code', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.use({ on: 'order.cancel', action: { error: -2011 } });
  assert.equal(rules.refusalAt('admission', CANCEL, 'rest'), null);
  assert.equal(rules.refusalAt('key', CANCEL, 'rest'), null);
  assert.deepEqual(rules.refusalAt('handler', CANCEL, 'rest'), { status: 400, code: -2011, row: 'UNKNOWN_ORDER', msg: 'Unknown order sent.' });
  assert.equal(rules.refusalAt('handler', CANCEL, 'rest'), null, 'times defaults to 1');

  rules.use({ on: '*', action: { error: -1003 } });
  assert.equal(rules.refusalAt('admission', PING, 'ws-api')?.status, 429);
  rules.use({ on: '*', action: { status: 401, code: -2015, msg: 'revoked' } });
  assert.equal(rules.refusalAt('handler', PLACE, 'rest'), null, '-2015 is decided where the key is checked');
  assert.deepEqual(rules.refusalAt('key', PLACE, 'rest'), { status: 401, code: -2015, row: null, msg: 'revoked' });
});

test('a rule takes only its endpoints and transport; arrays and * work; times 0 lasts until removed; hits count', () => {
  const rules = new FaultRules(ENDPOINTS);
  const ws = rules.use({ on: ['order.place', 'order.cancel'], transport: 'ws-api', times: 0, action: { swallow: true } });
  assert.equal(rules.replyFault(PLACE, 'rest').outcome, 'send');
  assert.equal(rules.replyFault(PING, 'ws-api').outcome, 'send');
  for (let i = 0; i < 5; i++) assert.equal(rules.replyFault(i % 2 ? PLACE : CANCEL, 'ws-api').outcome, 'swallow');
  assert.equal(ws.hits, 5);
  ws.remove();
  assert.equal(rules.replyFault(PLACE, 'ws-api').outcome, 'send');
  assert.equal(ws.hits, 5, 'hits stay readable after removal');

  const all = rules.use({ on: '*', times: 2, action: { delayMs: 250 } });
  assert.equal(rules.replyFault(LISTEN_KEY, 'rest').delayMs, 250);
  assert.equal(rules.replyFault(PING, 'ws-api').delayMs, 250);
  assert.equal(rules.replyFault(PING, 'ws-api').delayMs, 0);
  assert.equal(all.hits, 2);
  // A spent rule stays listed with its hits until removed.
  assert.deepEqual(rules.list(), [{ id: all.id, on: '*', times: 2, hits: 2, action: { delayMs: 250 } }]);
});

test('delay and reply points decide apart: a request can be delayed and closed by two rules', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.use({ on: 'ping', action: { delayMs: 10 } });
  rules.use({ on: 'ping', action: { close: true } });
  assert.deepEqual({ ...rules.replyFault(PING, 'rest'), hold: undefined }, { delayMs: 10, outcome: 'close', hold: undefined });
});

test('the first armed rule at a point takes the request: presets first (ban before rate limit), then users in order', () => {
  const rules = new FaultRules(ENDPOINTS);
  const mine = rules.use({ on: '*', action: { error: -1003 } });
  rules.arm('rateLimit', 1);
  rules.arm('ban', 1);
  assert.equal(rules.refusalAt('admission', PING, 'rest')?.status, 418);
  assert.equal(rules.refusalAt('admission', PING, 'rest')?.row, 'TOO_MUCH_WEIGHT');
  assert.equal(mine.hits, 0);
  assert.equal(rules.refusalAt('admission', PING, 'rest')?.row, 'TOO_MUCH_WEIGHT');
  assert.equal(mine.hits, 1);
  assert.deepEqual([rules.fired.ban, rules.fired.rateLimit], [1, 1]);
});

test('presets: re-arming replaces, 0 disarms, armed() tells what is left, the ack delay reads back, spent slots leave the list', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.arm('rejectOrder', 3);
  rules.arm('rejectOrder', 2);
  assert.equal(rules.armed('rejectOrder'), 2);
  assert.equal(rules.refusalAt('handler', CANCEL, 'rest'), null, 'reject_next_orders is for placements only');
  assert.equal(rules.refusalAt('handler', PLACE, 'ws-api')?.msg, 'Market is closed.');
  assert.equal(rules.armed('rejectOrder'), 1);
  assert.equal(rules.refusalAt('handler', PLACE, 'rest')?.code, -2010);
  assert.equal(rules.armed('rejectOrder'), 0);
  assert.deepEqual(rules.list(), []);

  rules.arm('ackDelay', 0, 1500);
  assert.equal(rules.ackDelayMs, 1500);
  assert.equal(rules.replyFault(PLACE, 'ws-api').delayMs, 1500);
  assert.equal(rules.replyFault(PLACE, 'rest').delayMs, 0, 'set_ack_delay_ms is a WS API fault');
  assert.equal(rules.replyFault(PING, 'ws-api').delayMs, 0, 'and only for order changes');
  assert.deepEqual(rules.list()[0], { id: rules.list()[0]!.id, on: ['order.place', 'order.cancel', 'order.cancelReplace', 'order.amend.keepPriority', 'openOrders.cancelAll'], transport: 'ws-api', times: 0, hits: 1, action: { delayMs: 1500 }, preset: 'setAckDelayMs' });
  rules.disarm('ackDelay');
  assert.equal(rules.ackDelayMs, 0);
});

test('auth presets are consumed only where a key or a signature is checked', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.arm('failTimestamp', 1);
  assert.equal(rules.refusalAt('key', LISTEN_KEY, 'rest'), null);
  assert.equal(rules.refusalAt('signature', PLACE, 'rest')?.msg, 'Timestamp for this request is outside of the recvWindow.');
});

test('a held request is closed when its rule goes (remove, disarm or clear), and counted', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.arm('restUnresponsive', 0);
  const closed: string[] = [];
  rules.arrival(undefined, 'rest')!.hold(() => closed.push('unknown route'));
  const release = rules.arrival(PING, 'rest')!.hold(() => closed.push('ping'));
  rules.arrival(PLACE, 'rest')!.hold(() => closed.push('order'));
  assert.equal(rules.arrival(PLACE, 'ws-api'), null);
  release(); // the client went away by itself
  assert.equal(rules.disarm('restUnresponsive'), 2);
  assert.deepEqual(closed, ['unknown route', 'order']);

  const swallow = rules.use({ on: 'ping', transport: 'rest', action: { swallow: true } });
  rules.replyFault(PING, 'rest').hold(() => closed.push('swallowed'));
  swallow.remove();
  assert.deepEqual(closed.at(-1), 'swallowed');
});

test('clear() removes every rule and switch; preset counters stay', () => {
  const rules = new FaultRules(ENDPOINTS);
  rules.use({ on: '*', times: 0, action: { error: -1000 } });
  rules.arm('failAuth', 5);
  assert.ok(rules.refusalAt('key', PLACE, 'rest'));
  rules.userStreamMuted = true;
  rules.duplicateNextUserEvents(3);
  rules.clear();
  assert.deepEqual(rules.list(), []);
  assert.equal(rules.refusalAt('handler', PLACE, 'rest'), null);
  assert.equal(rules.userStreamMuted, false);
  assert.equal(rules.duplicateThisEvent(), false);
  assert.equal(rules.fired.failAuth, 1);
});

test('endpoints(): every endpoint id with its transports and REST route', () => {
  const list = new FaultRules(ENDPOINTS).endpoints();
  assert.equal(list.length, ENDPOINTS.length);
  assert.deepEqual(list.find((e) => e.id === 'order.place'), { id: 'order.place', transports: ['rest', 'ws-api'], rest: 'POST /api/v3/order' });
  assert.deepEqual(list.find((e) => e.id === 'ticker.book'), { id: 'ticker.book', transports: ['rest', 'ws-api'], rest: 'GET /api/v3/ticker/bookTicker' });
  assert.deepEqual(list.find((e) => e.id === 'userDataStream.stop'), { id: 'userDataStream.stop', transports: ['rest'], rest: 'DELETE /api/v3/userDataStream' });
  assert.deepEqual(list.find((e) => e.id === 'session.logon'), { id: 'session.logon', transports: ['ws-api'] });
});

test('bad rules are refused naming the problem, and nothing is armed', () => {
  const rules = new FaultRules(ENDPOINTS);
  const bad: [unknown, RegExp, new (message: string) => Error][] = [
    [null, /must be an object/, FaultRuleError],
    [{ on: 'order.explode', action: { error: -2011 } }, /unknown endpoint 'order.explode'/, FaultRuleError],
    [{ on: ['ping', 'nope'], action: { swallow: true } }, /unknown endpoint 'nope'/, FaultRuleError],
    [{ on: [], action: { swallow: true } }, /on must be an endpoint id/, FaultRuleError],
    [{ action: { swallow: true } }, /on must be an endpoint id/, FaultRuleError],
    [{ on: 'ping', action: { explode: true } }, /unknown action \{"explode":true\}/, FaultRuleError],
    [{ on: 'ping' }, /action must be one of/, FaultRuleError],
    [{ on: 'ping', action: { swallow: false } }, /swallow must be true/, FaultRuleError],
    [{ on: 'ping', action: { error: -9999 } }, /unknown error code -9999/, FaultRuleError],
    [{ on: 'ping', action: { status: 200, code: 1, msg: 'x' } }, /status must be an HTTP error status/, FaultRangeError],
    [{ on: 'ping', action: { status: 400, code: 1 } }, /unknown action/, FaultRuleError],
    [{ on: 'ping', action: { delayMs: 2 ** 31 } }, /delayMs must be an integer from 0 to 2147483647/, FaultRangeError],
    [{ on: 'ping', times: -1, action: { close: true } }, /times must be a non-negative integer/, FaultRangeError],
    [{ on: 'ping', transport: 'udp', action: { close: true } }, /unknown transport "udp"/, FaultRuleError],
    [{ on: 'ping', when: 'now', action: { close: true } }, /unknown rule field 'when'/, FaultRuleError],
    [{ on: 'session.logon', transport: 'rest', action: { close: true } }, /'session.logon' has no REST route/, FaultRuleError],
    [{ on: 'userDataStream.start', transport: 'ws-api', action: { close: true } }, /'userDataStream.start' is not a WS API method/, FaultRuleError],
    [{ on: 'ping', action: { error: -2015 } }, /'ping' needs no API key, so it never answers -2015/, FaultRuleError],
    [{ on: 'userDataStream.start', action: { error: -1021 } }, /'userDataStream.start' is not SIGNED/, FaultRuleError],
  ];
  for (const [rule, message, type] of bad) {
    assert.throws(() => rules.use(rule as FaultRule), (e: unknown) => e instanceof type && e instanceof Error && message.test(e.message), JSON.stringify(rule));
  }
  assert.ok(new FaultRuleError('x') instanceof TypeError);
  assert.deepEqual(rules.list(), []);
});

test(`at most ${MAX_RULES} rules of users at once`, () => {
  const rules = new FaultRules(ENDPOINTS);
  for (let i = 0; i < MAX_RULES; i++) rules.use({ on: 'ping', action: { close: true } });
  assert.throws(() => rules.use({ on: 'ping', action: { close: true } }), FaultRangeError);
  rules.clear();
  rules.use({ on: 'ping', action: { close: true } });
});

test('with order_types = "reference" the order-list rows are endpoints too: listed, and the ack delay covers their WS API placements and cancel', () => {
  const reference = new FaultRules(routesFor('reference').endpoints);
  assert.deepEqual(
    reference.endpoints().filter((e) => e.id.startsWith('orderList') || e.id.includes('OrderList')).map((e) => `${e.id} ${e.rest}`),
    [
      'orderList.place POST /api/v3/order/oco',
      'orderList.place.oco POST /api/v3/orderList/oco',
      'orderList.place.oto POST /api/v3/orderList/oto',
      'orderList.place.otoco POST /api/v3/orderList/otoco',
      'orderList.cancel DELETE /api/v3/orderList',
      'orderList.status GET /api/v3/orderList',
      'openOrderLists.status GET /api/v3/openOrderList',
      'allOrderLists GET /api/v3/allOrderList',
    ],
  );
  assert.equal(new FaultRules(ENDPOINTS).endpoints().some((e) => e.id.startsWith('orderList')), false);
  reference.arm('ackDelay', 0, 10);
  assert.deepEqual(reference.list()[0]!.on, ['order.place', 'order.cancel', 'order.cancelReplace', 'order.amend.keepPriority', 'openOrders.cancelAll', 'orderList.place', 'orderList.place.oco', 'orderList.place.oto', 'orderList.place.otoco', 'orderList.cancel']);
});
