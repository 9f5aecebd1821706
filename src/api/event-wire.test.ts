// The executionReport text writer must equal JSON.stringify of the reference field list
// (binance-facts §7.1) for every kind of report: NEW, TRADE, CANCELED, EXPIRED, REJECTED,
// REPLACED and TRADE_PREVENTION, produced here by a seeded random run; outboundAccountPosition
// likewise.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Exchange } from '../core/exchange.ts';
import { Rng } from '../core/rng.ts';
import { busyExchange, T0, tradingStep } from '../core/test-support.ts';
import { STP_MODE, type ExecutionReport } from '../core/types.ts';
import { formatPlain, formatScaled } from '../core/units.ts';
import { EventWire } from './event-wire.ts';
import { Wire, ZERO } from './wire.ts';
import { amendOrder, cancelOrder, openOrders, placeOrder } from './orders.ts';
import { balance } from '../core/queries.ts';

/** The field list as an object, in the reference order: what the text writer must produce. */
function reference(ex: Exchange, wire: Wire, r: ExecutionReport): string {
  const o = r.order;
  const inst = ex.instrument(o.symbol)!;
  const isCancel = r.executionType === 'CANCELED' && r.cancelClientOrderId !== null;
  const rests = o.type !== 'MARKET' && o.timeInForce === 'GTC';
  const onBook = r.executionType === 'NEW' || (rests && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED'));
  const body: Record<string, unknown> = {
    e: 'executionReport', E: r.eventTime, s: o.symbol, c: isCancel ? r.cancelClientOrderId : o.clientOrderId, S: o.side, o: o.type,
    f: o.timeInForce, q: wire.qty(inst, o.origQty), p: wire.price(inst, o.price), P: ZERO, F: ZERO, g: -1,
    C: isCancel ? (r.origClientOrderId ?? o.clientOrderId) : '', x: r.executionType, X: o.status, r: r.rejectReason, i: o.orderId,
    l: wire.qty(inst, r.lastQty), z: wire.qty(inst, o.executedQty), L: wire.price(inst, r.lastPrice),
    n: r.commissionAsset === null ? '0' : wire.quote(inst, r.commission), N: r.commissionAsset, T: r.eventTime, t: r.tradeId,
    I: r.executionId, w: onBook, m: r.isMaker, M: r.executionType === 'TRADE', O: o.time, Z: wire.quote(inst, o.cumQuote),
    Y: wire.quote(inst, r.lastQuote), Q: ZERO,
  };
  if (rests && o.workingTime >= 0) body.W = o.workingTime;
  body.V = STP_MODE;
  if (r.executionType === 'TRADE_PREVENTION') {
    Object.assign(body, { v: r.preventedMatchId, u: -1, U: r.counterOrderId, A: wire.qty(inst, o.preventedQty), B: wire.qty(inst, r.lastPreventedQty), Cs: o.symbol });
  }
  if (o.expiryReason !== 'NONE') body.eR = o.expiryReason;
  return JSON.stringify(body);
}

test('executionReport text equals the reference field list for every kind of report', () => {
  const ex = busyExchange(3);
  const wire = new Wire(ex);
  const events = new EventWire(ex, wire);
  const rng = new Rng(99);
  const seen = new Set<string>();
  let now = T0;
  for (let step = 0; step < 4000; step++) {
    const { inst, side, price, ...at } = tradingStep(ex, rng, now);
    now = at.now;
    const quantity = formatPlain(inst.minQty * rng.int(1, 500), inst.lotDecimals);
    const open = openOrders(ex, inst.symbol) as { orderId: number; origQty: number }[];
    const roll = rng.int(0, 9);
    let outcome;
    if (roll < 4) outcome = placeOrder(ex, { symbol: inst.symbol, side, type: 'LIMIT', timeInForce: ['GTC', 'IOC', 'FOK'][rng.int(0, 2)], price, quantity }, now);
    else if (roll < 5) outcome = placeOrder(ex, { symbol: inst.symbol, side, type: 'MARKET', quantity }, now);
    else if (roll < 6) outcome = placeOrder(ex, { symbol: inst.symbol, side, type: 'LIMIT_MAKER', price, quantity }, now);
    else if (open.length > 0 && roll < 8) outcome = cancelOrder(ex, { symbol: inst.symbol, orderId: open[rng.int(0, open.length - 1)]!.orderId, newClientOrderId: `cxl-${step}` }, now);
    else if (open.length > 0) {
      const o = open[rng.int(0, open.length - 1)]!;
      outcome = amendOrder(ex, { symbol: inst.symbol, orderId: o.orderId, newQty: formatPlain(Math.max(1, Math.floor(o.origQty / 2)), inst.lotDecimals) }, now);
    } else continue;
    for (const e of outcome.events) {
      if (e.type === 'balances') {
        seen.add('outboundAccountPosition');
        const B = e.balances.map(({ asset: a }) => {
          const bal = balance(ex.state, a);
          return { a, f: formatScaled(bal.free, bal.decimals), l: formatScaled(bal.locked, bal.decimals) };
        });
        assert.equal(events.accountPosition(e), JSON.stringify({ e: 'outboundAccountPosition', E: e.eventTime, u: ex.state.lastBalanceUpdate, B }));
      }
      if (e.type !== 'execution') continue;
      seen.add(e.executionType);
      assert.equal(events.executionReport(e), reference(ex, wire, e));
    }
  }
  for (const kind of ['NEW', 'TRADE', 'CANCELED', 'EXPIRED', 'REPLACED', 'TRADE_PREVENTION', 'outboundAccountPosition']) assert.ok(seen.has(kind), `no ${kind} report produced`);
});

test('outboundAccountPosition is written from the event alone: a later command does not change its text', () => {
  const ex = busyExchange(5);
  const events = new EventWire(ex, new Wire(ex));
  const first = placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.01' }, T0);
  const balance = first.events.find((e) => e.type === 'balances')!;
  const text = events.accountPosition(balance);
  assert.match(text, /"a":"USDT","f":"9999500\.00000000","l":"500\.00000000"/);
  placeOrder(ex, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.02' }, T0 + 7);
  assert.equal(events.accountPosition(balance), text);
  assert.match(text, new RegExp(`"u":${T0},`));
});
