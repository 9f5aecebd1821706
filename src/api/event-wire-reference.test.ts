// With order_types = "reference": the executionReport text writer must equal JSON.stringify of
// the reference field list with the conditional fields (user-data-stream.md: `P`, `F`, `g`, `Q`
// from the order, `d`/`D` for a trailing stop, `W` once the order works, `w` false while a stop
// waits or a list's order is pending), and `listStatus` likewise, for every kind of report a
// seeded busy run of stops, trailing stops, icebergs, quote-amount orders and order lists makes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config/index.ts';
import { Exchange } from '../core/exchange.ts';
import { Rng } from '../core/rng.ts';
import { advance, T0 } from '../core/test-support.ts';
import { STP_MODE, type CoreEvent, type ExecutionReport, type ListStatusEvent } from '../core/types.ts';
import { formatPlain } from '../core/units.ts';
import { EventWire } from './event-wire.ts';
import { placeOrderList } from './order-lists.ts';
import { isConditional } from './order-shapes.ts';
import { placeOrder } from './orders.ts';
import { Wire } from './wire.ts';

function referenceReport(ex: Exchange, wire: Wire, r: ExecutionReport): string {
  const o = r.order;
  const inst = ex.instrument(o.symbol)!;
  const isCancel = r.executionType === 'CANCELED' && r.cancelClientOrderId !== null;
  const marketForm = o.type === 'MARKET' || o.type === 'STOP_LOSS' || o.type === 'TAKE_PROFIT';
  const rests = !marketForm && o.timeInForce === 'GTC';
  const waiting = o.status === 'PENDING_NEW' || (isConditional(o.type) && !o.isWorking);
  const onBook = !waiting && (r.executionType === 'NEW' || (rests && (o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')));
  const body: Record<string, unknown> = {
    e: 'executionReport', E: r.eventTime, s: o.symbol, c: isCancel ? r.cancelClientOrderId : o.clientOrderId, S: o.side, o: o.type,
    f: o.timeInForce, q: wire.qty(inst, o.origQty), p: wire.price(inst, o.price), P: wire.price(inst, o.stopPrice), F: wire.qty(inst, o.icebergQty),
    g: o.orderListId, C: isCancel ? (r.origClientOrderId ?? o.clientOrderId) : '', x: r.executionType, X: o.status, r: r.rejectReason,
    i: o.orderId, l: wire.qty(inst, r.lastQty), z: wire.qty(inst, o.executedQty), L: wire.price(inst, r.lastPrice),
    n: r.commissionAsset === null ? '0' : wire.quote(inst, r.commission), N: r.commissionAsset, T: r.eventTime, t: r.tradeId,
    I: r.executionId, w: onBook, m: r.isMaker, M: r.executionType === 'TRADE', O: o.time, Z: wire.quote(inst, o.cumQuote),
    Y: wire.quote(inst, r.lastQuote), Q: wire.quote(inst, o.quoteOrderQty),
  };
  if (o.trailingDelta > 0) Object.assign(body, { d: o.trailingDelta, D: o.trailingTime });
  if ((rests || isConditional(o.type)) && o.workingTime >= 0) body.W = o.workingTime;
  body.V = STP_MODE;
  if (r.executionType === 'TRADE_PREVENTION') {
    Object.assign(body, { v: r.preventedMatchId, u: -1, U: r.counterOrderId, A: wire.qty(inst, o.preventedQty), B: wire.qty(inst, r.lastPreventedQty), Cs: o.symbol });
  }
  if (o.expiryReason !== 'NONE') body.eR = o.expiryReason;
  return JSON.stringify(body);
}

function referenceListStatus(e: ListStatusEvent): string {
  const l = e.list;
  return JSON.stringify({
    e: 'listStatus', E: e.eventTime, s: l.symbol, g: l.orderListId, c: l.contingencyType, l: l.listStatusType, L: l.listOrderStatus,
    r: e.listRejectReason, C: l.listClientOrderId, T: l.transactionTime, O: l.orders.map((o) => ({ s: o.symbol, i: o.orderId, c: o.clientOrderId })),
  });
}

test('executionReport and listStatus texts equal the reference field lists for stops, trailing stops, icebergs, quote amounts and lists', () => {
  const config = resolveConfig({ sim: { seed: 4, order_types: 'reference', generator: { touch_offset_ticks: 30, depth_spread_ticks: 40, level_spacing_ticks: 1, market_rate_per_s: 20 } } });
  const ex = new Exchange(config, T0);
  const wire = new Wire(ex);
  const events = new EventWire(ex, wire);
  const rng = new Rng(7);
  const seen = new Set<string>();
  const check = (list: readonly CoreEvent[]) => {
    for (const e of list) {
      if (e.type === 'listStatus') {
        seen.add(`list ${e.list.listStatusType}`);
        assert.equal(events.listStatus(e), referenceListStatus(e));
      }
      if (e.type !== 'execution') continue;
      const o = e.order;
      seen.add(`${e.executionType}/${o.status}${e.cause ? ` ${e.cause}` : ''}${o.trailingDelta > 0 ? ' trailing' : ''}${o.icebergQty > 0 ? ' iceberg' : ''}${o.quoteOrderQty > 0n ? ' quote' : ''}`);
      assert.equal(events.executionReport(e), referenceReport(ex, wire, e));
    }
  };
  let now = T0;
  for (let step = 0; step < 3000; step++) {
    now += rng.int(0, 20);
    check(advance(ex, now));
    const inst = ex.instruments[0]!;
    const mid = ex.state.latentMid(inst.index);
    const at = (ticks: number) => formatPlain(Math.max(1, mid + ticks), inst.tickDecimals);
    const side = rng.float() < 0.5 ? 'BUY' : 'SELL';
    const up = side === 'BUY' ? 1 : -1;
    const base = { symbol: inst.symbol, side, quantity: formatPlain(inst.minQty * rng.int(100, 400), inst.lotDecimals) };
    const roll = rng.int(0, 7);
    const outcome =
      roll === 0 ? placeOrder(ex, { ...base, type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', stopPrice: at(up * rng.int(40, 200)), price: at(up * 210) }, now, 'reference')
      : roll === 1 ? placeOrder(ex, { ...base, type: 'TAKE_PROFIT', trailingDelta: String(rng.int(10, 60)) }, now, 'reference')
      : roll === 2 ? placeOrder(ex, { ...base, type: 'LIMIT', timeInForce: 'GTC', price: at(-up * rng.int(0, 40)), icebergQty: formatPlain(inst.minQty * 40, inst.lotDecimals) }, now, 'reference')
      : roll === 3 ? placeOrder(ex, { symbol: inst.symbol, side, type: 'MARKET', quoteOrderQty: String(rng.int(20, 200)) }, now, 'reference')
      : roll === 4 ? placeOrder(ex, { ...base, type: 'MARKET' }, now, 'reference')
      : roll === 5
        ? placeOrderList(ex, 'oco', (n) => ({ ...base, aboveType: side === 'SELL' ? 'LIMIT_MAKER' : 'STOP_LOSS', belowType: side === 'SELL' ? 'STOP_LOSS' : 'LIMIT_MAKER', abovePrice: at(300), aboveStopPrice: at(300), belowPrice: at(-300), belowStopPrice: at(-300) })[n] as string | undefined, now)
        : placeOrderList(ex, 'oto', (n) => ({ symbol: inst.symbol, workingType: 'LIMIT', workingSide: side, workingPrice: at(-up * rng.int(0, 20)), workingQuantity: base.quantity, workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: side === 'BUY' ? 'SELL' : 'BUY', pendingPrice: at(up * 400), pendingQuantity: base.quantity })[n] as string | undefined, now);
    check(outcome.events);
  }
  for (const kind of ['NEW/NEW', 'NEW/NEW trigger', 'NEW/PENDING_NEW', 'NEW/NEW activation', 'NEW/NEW trailing', 'NEW/NEW iceberg', 'TRADE/FILLED quote', 'EXPIRED/EXPIRED', 'list EXEC_STARTED', 'list ALL_DONE']) {
    assert.ok(seen.has(kind), `no ${kind} report produced (seen: ${[...seen].sort().join(', ')})`);
  }
});
