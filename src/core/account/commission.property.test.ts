// Property tests (fast-check, fixed seeds) of commissions at the asset's precision (issue 13
// item 3) and the BUY lock (item 4): for generated fee rates, balances, prices and fills, every
// commission is the rate's commission rounded up to 8 decimals (computed here independently with
// decimal.js), also on tight balances (issue 18: open BUYs' fee reserves keep it payable); the fill, the report, the
// trade log and the ledger agree; no balance goes negative; every asset is conserved.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import type { Outcome } from '../commands.ts';
import type { Exchange } from '../exchange.ts';
import { makeExchange, reports, T0 } from '../test-support.ts';
import type { CoreEvent } from '../types.ts';
import { formatPlain, formatScaled } from '../units.ts';
import { cancelOrder, fillOpenOrder, placeOrder } from '../../api/orders.ts';
import { allTrades, balance, balances, openOrders } from '../queries.ts';
import { invariantViolations } from '../invariants.ts';
import { counterpartyLimit, counterpartyCancel } from '../test-support.ts';

const SEED = 20261123;
const RUNS = Number(process.env.COMMISSION_PROPERTY_RUNS ?? 300);
const BTC = 'BTCUSDT';
const EIGHT_DECIMALS = /^[0-9]+\.[0-9]{8}$/;

interface Step {
  readonly side: 'BUY' | 'SELL';
  /** Ticks (0.01) and lots (0.00001) of the account's resting order. */
  readonly ticks: number;
  readonly lots: number;
  /** How the order is filled: by the counterparty (maker) in pieces, or by crossing it (taker). */
  readonly fill: 'maker' | 'taker';
  readonly pieces: readonly number[];
  /**
   * Issue 33: how the maker order comes to rest: placed as is, as an iceberg (refilled between
   * pieces), as a STOP_LOSS_LIMIT a trade triggers, or as the LIMIT_MAKER leg of an OCO (the
   * pair's one hold becomes the leg's own at its first fill).
   */
  readonly kind: 'plain' | 'iceberg' | 'stop' | 'oco';
}

const step: fc.Arbitrary<Step> = fc.record({
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  ticks: fc.integer({ min: 1, max: 9_000_000 }),
  lots: fc.integer({ min: 1, max: 200_000 }),
  fill: fc.constantFrom('maker' as const, 'taker' as const),
  pieces: fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 4 }),
  kind: fc.constantFrom('plain' as const, 'iceberg' as const, 'stop' as const, 'oco' as const),
});

/** A fee rate in bps with up to 2 decimals (the configuration's precision). */
const bps = fc.integer({ min: 0, max: 5_000 }).map((centi) => formatPlain(centi, 2));

/** The reference figure: price x qty x rate, rounded up to 8 decimals, by decimal arithmetic. */
function dueCommission(price: string, qty: string, rateBps: string): Decimal {
  return new Decimal(price).mul(qty).mul(rateBps).div(10_000).toDecimalPlaces(8, Decimal.ROUND_UP);
}

/**
 * Runs one step; returns the events. With `drain`, a second resting BUY takes up as much of the
 * free quote as placement allows before the step's own order is filled, so that fill's
 * commission may find less free quote than it is due (item 4).
 */
function run(ex: Exchange, s: Step, now: number, drain = false): CoreEvent[] {
  const inst = ex.instrument(BTC)!;
  const price = formatPlain(s.ticks, inst.tickDecimals);
  const quantity = formatPlain(s.lots, inst.lotDecimals);
  const events: CoreEvent[] = [];
  if (s.fill === 'taker') {
    // The counterparty rests first; the account's IOC order takes it; what is left is cancelled.
    const opposite = s.side === 'BUY' ? 'SELL' : 'BUY';
    const key = counterpartyLimit(ex, inst.index, opposite, s.ticks, s.lots, now);
    events.push(...placeOrder(ex, { symbol: BTC, side: s.side, type: 'LIMIT', timeInForce: 'IOC', price, quantity }, now).events);
    if (key !== 0) counterpartyCancel(ex, key);
    return events;
  }
  const orderId = restMaker(ex, s, now, events);
  if (orderId === null) return events;
  const drained: number[] = [];
  if (drain) {
    // Half the step's price (at least one tick), so the filler rests behind the step's order.
    const fillerTicks = Math.max(1, Math.floor(s.ticks / 2));
    const perLot = inst.notional(fillerTicks, 1);
    let fillerLots = Number(balance(ex.state, inst.quote).free / perLot);
    for (let tries = 0; fillerLots > 0 && tries < 8; tries++, fillerLots = Math.floor(fillerLots * 0.999) - 1) {
      const filler = placeOrder(ex, 
        { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: formatPlain(fillerTicks, inst.tickDecimals), quantity: formatPlain(fillerLots, inst.lotDecimals) },
        now,
      );
      events.push(...filler.events);
      if (filler.ok) {
        drained.push(filler.value.order.orderId);
        break;
      }
    }
  }
  for (const piece of s.pieces) {
    const filled = fillOpenOrder(ex, orderId, formatPlain(piece, inst.lotDecimals), now);
    if (!filled.ok) break;
    events.push(...filled.events);
  }
  for (const id of [orderId, ...drained]) events.push(...cancelOrder(ex, { symbol: BTC, orderId: id }, now).events);
  return events;
}

/** Rests the step's maker order as its kind says; its orderId, or null when it did not rest. */
function restMaker(ex: Exchange, s: Step, now: number, events: CoreEvent[]): number | null {
  const inst = ex.instrument(BTC)!;
  const leg = { side: s.side, timeInForce: 'GTC', price: s.ticks, quantity: s.lots, clientOrderId: null } as const;
  const resting = (outcome: Outcome<{ order: { orderId: number; status: string } }>, id?: number): number | null => {
    events.push(...outcome.events);
    if (!outcome.ok) return null;
    const found = openOrders(ex.state, BTC).find((o) => o.orderId === (id ?? outcome.value.order.orderId));
    return found !== undefined && found.isWorking && found.executedQty === 0 ? found.orderId : null;
  };
  // A last trade next to the price, between two counterparty orders, for the stop and the OCO.
  const tradeAt = (ticks: number) => {
    counterpartyLimit(ex, inst.index, 'SELL', ticks, 1, now);
    events.push(...ex.submit({ type: 'counterpartyTake', now, symbolIndex: inst.index, side: 'BUY', price: ticks, lots: 1 }).events);
  };
  const away = s.side === 'BUY' ? 1 : -1;
  if (s.kind === 'iceberg') return resting(ex.submit({ type: 'place', now, symbolIndex: inst.index, orderType: 'LIMIT', ...leg, icebergQty: Math.max(1, Math.floor(s.lots / 3)) }));
  if (s.kind === 'stop' && s.ticks > 2) {
    tradeAt(s.ticks);
    const placed = ex.submit({ type: 'place', now, symbolIndex: inst.index, orderType: 'STOP_LOSS_LIMIT', ...leg, stopPrice: s.ticks + away });
    events.push(...placed.events);
    if (!placed.ok) return null;
    tradeAt(s.ticks + away);
    return resting({ ok: true, value: placed.value, events: [] });
  }
  if (s.kind === 'oco' && s.ticks > 3) {
    tradeAt(s.ticks + away);
    const stopLoss = { ...leg, orderType: 'STOP_LOSS', price: 0, stopPrice: s.ticks + 2 * away } as const;
    const maker = { ...leg, orderType: 'LIMIT_MAKER' } as const;
    const placed = ex.submit({ type: 'placeOrderList', now, symbolIndex: inst.index, listClientOrderId: null, contingency: 'OCO', ...(s.side === 'BUY' ? { above: stopLoss, below: maker } : { above: maker, below: stopLoss }) });
    events.push(...placed.events);
    if (!placed.ok) return null;
    return resting({ ok: true, value: placed.value.orderReports[1]!, events: [] });
  }
  const price = formatPlain(s.ticks, inst.tickDecimals);
  const quantity = formatPlain(s.lots, inst.lotDecimals);
  return resting(placeOrder(ex, { symbol: BTC, side: s.side, type: 'LIMIT', timeInForce: 'GTC', price, quantity }, now));
}

function checkCommissions(ex: Exchange, events: readonly CoreEvent[], maker: string, taker: string, rich: boolean): void {
  const inst = ex.instrument(BTC)!;
  for (const r of reports(events)) {
    if (r.executionType !== 'TRADE') continue;
    const text = formatScaled(r.commission, inst.quoteDecimals);
    assert.match(text, EIGHT_DECIMALS, `commission ${text} has more than 8 decimals`);
    const price = formatScaled(r.lastPrice, inst.tickDecimals);
    const qty = formatScaled(r.lastQty, inst.lotDecimals);
    const due = dueCommission(price, qty, r.isMaker ? maker : taker);
    const charged = new Decimal(text);
    // Rich accounts always pay the full figure; otherwise never more than it, never negative.
    if (rich) assert.ok(charged.eq(due), `${qty} @ ${price} (${r.isMaker ? 'maker' : 'taker'}): charged ${text}, due ${due.toFixed(8)}`);
    else assert.ok(charged.gte(0) && charged.lte(due), `charged ${text}, due at most ${due.toFixed(8)}`);
    // The trade log holds the same figure as the report.
    const logged = allTrades(ex.state, BTC).find((t) => t.tradeId === r.tradeId && t.orderId === r.order.orderId)!;
    assert.equal(logged.commission, r.commission);
  }
  for (const b of balances(ex.state)) {
    assert.ok(b.free >= 0n && b.locked >= 0n, `${b.asset} negative: ${b.free}/${b.locked}`);
    // Balances stay at the assets' 8 decimals (notionals here have 7, commissions 8).
    assert.match(formatScaled(b.free, b.decimals), EIGHT_DECIMALS);
  }
  assert.deepEqual(invariantViolations(ex.state), []);
}

test(`${RUNS} generated fee rates and fills: commissions rounded up to 8 decimals, the ledger and the log agree, assets conserved`, () => {
  let trades = 0;
  fc.assert(
    fc.property(bps, bps, fc.array(step, { minLength: 1, maxLength: 8 }), (maker, taker, steps) => {
      const ex = makeExchange({ sim: { fees: { maker_bps: maker, taker_bps: taker } } });
      let now = T0;
      for (const s of steps) {
        const events = run(ex, s, (now += 1));
        checkCommissions(ex, events, maker, taker, true);
        trades += reports(events).filter((r) => r.executionType === 'TRADE').length;
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
  assert.ok(trades > RUNS, `fills happened: ${trades}`);
});

test(`${RUNS} generated tight balances: every fill is charged its full commission (fee reserves), and nothing goes negative`, () => {
  let capped = 0;
  let fills = 0;
  fc.assert(
    fc.property(
      bps,
      bps,
      // A few to a few thousand USDT, with cents: placements and fills run close to the edge.
      fc.integer({ min: 500, max: 500_000 }).map((cents) => formatPlain(cents, 2)),
      fc.array(step, { minLength: 2, maxLength: 10 }),
      (maker, taker, quote, steps) => {
        const ex = makeExchange({ sim: { fees: { maker_bps: maker, taker_bps: taker }, account: { balances: { USDT: quote, BTC: '1' } } } });
        let now = T0;
        for (const s of steps) {
          const events = run(ex, s, (now += 1), true);
          checkCommissions(ex, events, maker, taker, false);
          for (const r of reports(events)) {
            if (r.executionType !== 'TRADE') continue;
            fills++;
            const inst = ex.instrument(BTC)!;
            const due = dueCommission(formatScaled(r.lastPrice, inst.tickDecimals), formatScaled(r.lastQty, inst.lotDecimals), r.isMaker ? maker : taker);
            if (new Decimal(formatScaled(r.commission, inst.quoteDecimals)).lt(due)) capped++;
          }
        }
      },
    ),
    { seed: SEED + 1, numRuns: RUNS },
  );
  // Before fee reserves these cases reached fills charged less than due (free quote ran out).
  assert.ok(fills > RUNS, `fills happened: ${fills}`);
  assert.equal(capped, 0, `fills charged less than their commission: ${capped}`);
});
