// The order-reply text writers (`placed` for ACK/RESULT/FULL, `cancelled`, `cancelledList`) must
// equal JSON.stringify of the reference field lists (binance-facts §3.6, §3.9), for every kind
// of outcome a seeded random run produces: resting, filled, expired (IOC/FOK), self-trade prevented.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CancelResult, PlaceResult } from '../core/commands.ts';
import { Exchange } from '../core/exchange.ts';
import { Rng } from '../core/rng.ts';
import { busyExchange, T0, tradingStep } from '../core/test-support.ts';
import { STP_MODE } from '../core/types.ts';
import { formatPlain } from '../core/units.ts';
import { Wire, ZERO } from './wire.ts';
import { cancelAllOrders, cancelOrder, openOrders, placeOrder } from './orders.ts';

function referencePlaced(ex: Exchange, wire: Wire, r: PlaceResult, respType: 'ACK' | 'RESULT' | 'FULL'): string {
  const o = r.order;
  const ack = { symbol: o.symbol, orderId: o.orderId, orderListId: -1, clientOrderId: o.clientOrderId, transactTime: r.transactTime };
  if (respType === 'ACK') return JSON.stringify(ack);
  const inst = ex.instrument(o.symbol)!;
  const body: Record<string, unknown> = {
    ...ack, price: wire.price(inst, o.price), origQty: wire.qty(inst, o.origQty), executedQty: wire.qty(inst, o.executedQty),
    origQuoteOrderQty: ZERO, cummulativeQuoteQty: wire.quote(inst, o.cumQuote), status: o.status, timeInForce: o.timeInForce,
    type: o.type, side: o.side, workingTime: o.workingTime, selfTradePreventionMode: STP_MODE,
  };
  if (o.expiryReason !== 'NONE') body.expiryReason = o.expiryReason;
  if (o.preventedQty > 0) body.preventedQuantity = wire.qty(inst, o.preventedQty);
  if (respType === 'FULL') {
    body.fills = r.fills.map((f) => ({
      price: wire.price(inst, f.price), qty: wire.qty(inst, f.qty), commission: wire.quote(inst, f.commission),
      commissionAsset: f.commissionAsset, tradeId: f.tradeId,
    }));
  }
  if (r.preventedMatches.length > 0) {
    body.preventedMatches = r.preventedMatches.map((m) => ({
      preventedMatchId: m.preventedMatchId, makerOrderId: m.makerOrderId, price: wire.price(inst, m.price), makerPreventedQuantity: wire.qty(inst, m.makerPreventedQty),
    }));
  }
  return JSON.stringify(body);
}

function referenceCancelled(ex: Exchange, wire: Wire, c: CancelResult): unknown {
  const o = c.order;
  const inst = ex.instrument(o.symbol)!;
  return {
    symbol: o.symbol, origClientOrderId: c.origClientOrderId, orderId: o.orderId, orderListId: -1, clientOrderId: c.clientOrderId,
    transactTime: c.transactTime, price: wire.price(inst, o.price), origQty: wire.qty(inst, o.origQty), executedQty: wire.qty(inst, o.executedQty),
    origQuoteOrderQty: ZERO, cummulativeQuoteQty: wire.quote(inst, o.cumQuote), status: o.status, timeInForce: o.timeInForce,
    type: o.type, side: o.side, selfTradePreventionMode: STP_MODE,
  };
}

test('order reply texts equal the reference field lists for every kind of outcome', () => {
  const ex = busyExchange(5);
  const wire = new Wire(ex);
  const rng = new Rng(17);
  const seen = new Set<string>();
  let now = T0;
  for (let step = 0; step < 3000; step++) {
    const { inst, side, price, ...at } = tradingStep(ex, rng, now);
    now = at.now;
    // Now and then a large order, to sweep several levels and rest the remainder.
    const quantity = formatPlain(inst.minQty * rng.int(1, 500) * (rng.int(0, 4) === 0 ? 40 : 1), inst.lotDecimals);
    const open = openOrders(ex, inst.symbol) as { orderId: number; price: number; side: string; origQty: number }[];
    const roll = rng.int(0, 10);
    if (roll === 10 && open.length > 0) {
      // Cross one of our own resting orders: self-trade prevention (EXPIRE_MAKER) expires the
      // resting one, and the taker's reply still has its plain field list.
      const own = open[rng.int(0, open.length - 1)]!;
      const cross = {
        symbol: inst.symbol, side: own.side === 'BUY' ? 'SELL' : 'BUY', type: 'LIMIT', timeInForce: 'IOC',
        price: formatPlain(own.price, inst.tickDecimals), quantity: formatPlain(own.origQty, inst.lotDecimals),
      };
      const outcome = placeOrder(ex, cross, now);
      if (!outcome.ok) continue;
      if (outcome.events.some((e) => e.type === 'execution' && e.executionType === 'TRADE_PREVENTION')) seen.add('self-trade prevented');
      for (const kind of ['RESULT', 'FULL'] as const) assert.equal(wire.placed(outcome.value, kind).text, referencePlaced(ex, wire, outcome.value, kind));
    } else if (roll < 7) {
      const tif = ['GTC', 'IOC', 'FOK'][rng.int(0, 2)]!;
      // Client ids with characters JSON must escape are refused at the boundary; a quote-free id
      // with every allowed punctuation mark still has to come out verbatim.
      const clientId = rng.int(0, 3) === 0 ? `a.b:c/d_e-${step}` : undefined;
      const outcome =
        roll < 5
          ? placeOrder(ex, { symbol: inst.symbol, side, type: 'LIMIT', timeInForce: tif, price, quantity, newClientOrderId: clientId }, now)
          : placeOrder(ex, { symbol: inst.symbol, side, type: 'MARKET', quantity }, now);
      if (!outcome.ok) continue;
      const o = outcome.value.order;
      seen.add(o.status);
      if (o.expiryReason !== 'NONE') seen.add('expiryReason');
      if (o.preventedQty > 0) seen.add('preventedQuantity');
      if (outcome.value.fills.length > 1) seen.add('several fills');
      for (const kind of ['ACK', 'RESULT', 'FULL'] as const) assert.equal(wire.placed(outcome.value, kind).text, referencePlaced(ex, wire, outcome.value, kind));
    } else if (open.length > 0 && roll < 9) {
      const outcome = cancelOrder(ex, { symbol: inst.symbol, orderId: open[rng.int(0, open.length - 1)]!.orderId, newClientOrderId: `cxl-${step}` }, now);
      if (!outcome.ok) continue;
      seen.add('cancel');
      assert.equal(wire.cancelled(outcome.value).text, JSON.stringify(referenceCancelled(ex, wire, outcome.value)));
    } else if (open.length > 1) {
      const outcome = cancelAllOrders(ex, inst.symbol, now);
      if (!outcome.ok) continue;
      seen.add('cancel all');
      assert.equal(wire.cancelledList(outcome.value).text, JSON.stringify(outcome.value.map((c) => referenceCancelled(ex, wire, 'list' in c ? assert.fail('no order list is open here') : c))));
    }
  }
  for (const kind of ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'EXPIRED', 'expiryReason', 'self-trade prevented', 'several fills', 'cancel', 'cancel all']) {
    assert.ok(seen.has(kind), `no ${kind} outcome produced`);
  }
});
