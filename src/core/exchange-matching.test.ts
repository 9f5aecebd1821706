// The exchange's placing and matching, through the api's order functions (spec 2.4, 3.1;
// binance-facts §8, §9): a resting LIMIT and what it locks, fills at the maker price with
// taker and maker commission, partial fills, IOC/FOK/MARKET expiry, LIMIT_MAKER, self-trade
// prevention, the account's trade history (myTrades) and the scripted fill (fillOpenOrder).
// Refused placements are in exchange-refusals.test.ts; cancel, amend and cancelReplace in
// exchange-cancelling.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  atoms,
  counterparty,
  counterpartyCancel,
  counterpartyLimit,
  counterpartyMarket,
  executionTypes,
  expectError,
  expectOk,
  lots,
  makeExchange,
  reports,
  T0,
  ticks,
} from './test-support.ts';
import type { BalanceEvent, DepthSnapshot, PublicTrade } from './types.ts';
import { fillOpenOrder, getOrder, myTrades, openOrders } from '../api/orders.ts';
import { BTC, place, limit, free, locked, assertHealthy } from '../api/exchange-test-orders.ts';
import { balances, bookTicker, depthSnapshot } from './queries.ts';

test('a resting LIMIT order: NEW, id 1, its quote notional locked, one level change, then balances', () => {
  const ex = makeExchange();
  const updateIdBefore = (depthSnapshot(ex.state, 'BTCUSDT', 5000, 'live') as DepthSnapshot).lastUpdateId;
  const outcome = limit(ex, 'BUY', '59000', '0.001');
  const result = expectOk(outcome);
  // The level change is one book update id, and the level shows in the live book.
  const live = depthSnapshot(ex.state, 'BTCUSDT', 5000, 'live') as DepthSnapshot;
  assert.equal(live.lastUpdateId, updateIdBefore + 1);
  assert.ok(live.bids.some(([price, qty]) => price === result.order.price && qty === result.order.origQty));
  assert.equal(result.order.orderId, 1);
  assert.equal(result.order.status, 'NEW');
  assert.equal(result.order.clientOrderId.length, 22);
  assert.deepEqual(result.fills, []);
  assert.deepEqual(
    outcome.events.map((e) => e.type),
    ['execution', 'balances'],
  );
  assert.deepEqual((outcome.events[1] as BalanceEvent).balances.map((b) => b.asset), ['USDT']);
  // Spec 2.4: exactly the 59 USDT notional (the fee reserve is checked, not locked).
  assert.equal(locked(ex, 'USDT'), atoms(ex, 'USDT', '59'));
  assert.equal(free(ex, 'USDT'), atoms(ex, 'USDT', '9999941'));
  const second = expectOk(limit(ex, 'SELL', '61000', '0.002'));
  assert.equal(second.order.orderId, 2);
  assert.equal(locked(ex, 'BTC'), atoms(ex, 'BTC', '0.002'));
  assertHealthy(ex);
});

test('a crossing LIMIT fills at the maker price with taker commission in the quote asset', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '59000', '0.001');
  const outcome = limit(ex, 'BUY', '59500', '0.001');
  const result = expectOk(outcome);
  assert.equal(result.order.status, 'FILLED');
  assert.equal(result.order.executedQty, lots(ex, BTC, '0.001'));
  assert.equal(result.fills.length, 1);
  assert.equal(result.fills[0]!.price, ticks(ex, BTC, '59000'));
  assert.equal(result.fills[0]!.commission, atoms(ex, 'USDT', '0.0236'));
  assert.equal(result.fills[0]!.commissionAsset, 'USDT');
  assert.deepEqual(executionTypes(outcome.events), ['NEW/NEW', 'TRADE/FILLED']);
  const trade = outcome.events.find((e): e is PublicTrade => e.type === 'trade')!;
  assert.equal(trade.tradeId, 1);
  assert.equal(trade.buyerIsMaker, false);
  const report = reports(outcome.events)[1]!;
  assert.equal(report.tradeId, 1);
  assert.equal(report.isMaker, false);
  assert.equal(report.lastPrice, ticks(ex, BTC, '59000'));
  // The whole lock (at 59500) is released; 59 + 0.0236 is paid.
  assert.equal(locked(ex, 'USDT'), 0n);
  assert.equal(free(ex, 'USDT'), atoms(ex, 'USDT', '9999940.9764'));
  assert.equal(free(ex, 'BTC'), atoms(ex, 'BTC', '100.001'));
  assert.equal(outcome.events.at(-1)!.type, 'balances');
  assertHealthy(ex);
});

test('a resting order filled by the counterparty pays the maker fee', () => {
  const ex = makeExchange();
  const id = expectOk(limit(ex, 'SELL', '60000', '0.5')).order.orderId;
  const inst = ex.instrument(BTC)!;
  const events = counterpartyMarket(ex, inst.index, 'BUY', lots(ex, BTC, '0.2'), T0 + 5);
  assert.deepEqual(executionTypes(events), ['TRADE/PARTIALLY_FILLED']);
  const report = reports(events)[0]!;
  assert.equal(report.isMaker, true);
  assert.equal(report.commission, atoms(ex, 'USDT', '1.2')); // 1 bps of 12000
  assert.equal(free(ex, 'USDT'), atoms(ex, 'USDT', '10011998.8'));
  assert.equal(locked(ex, 'BTC'), atoms(ex, 'BTC', '0.3'));
  const view = getOrder(ex, BTC, id);
  assert.ok(!('code' in view));
  assert.equal(view.status, 'PARTIALLY_FILLED');
  assertHealthy(ex);
});

test('partial fill then rest: PARTIALLY_FILLED on the book', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '59000', '0.001');
  const outcome = limit(ex, 'BUY', '59500', '0.003');
  assert.equal(expectOk(outcome).order.status, 'PARTIALLY_FILLED');
  assert.deepEqual(bookTicker(ex.state, BTC), {
    symbol: BTC,
    updateId: ex.instrument(BTC)!.updateId,
    bidPrice: ticks(ex, BTC, '59500'),
    bidQty: lots(ex, BTC, '0.002'),
    askPrice: 0,
    askQty: 0,
  });
  assertHealthy(ex);
});

test('IOC remainder expires; FOK expires untouched unless fully fillable', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '59000', '0.001');
  const ioc = limit(ex, 'BUY', '59000', '0.003', { timeInForce: 'IOC' });
  const iocOrder = expectOk(ioc).order;
  assert.equal(iocOrder.status, 'EXPIRED');
  assert.equal(iocOrder.expiryReason, 'UNFILLED_IOC_QUANTITY_EXPIRED');
  assert.deepEqual(executionTypes(ioc.events), ['NEW/NEW', 'TRADE/PARTIALLY_FILLED', 'EXPIRED/EXPIRED']);
  assert.equal(locked(ex, 'USDT'), 0n);

  counterparty(ex, BTC, 'SELL', '59000', '0.001');
  const updateBefore = ex.instrument(BTC)!.updateId;
  const fok = limit(ex, 'BUY', '59000', '0.002', { timeInForce: 'FOK' });
  assert.equal(expectOk(fok).order.status, 'EXPIRED');
  assert.equal(expectOk(fok).order.expiryReason, 'UNFILLED_FOK_ORDER_EXPIRED');
  assert.deepEqual(expectOk(fok).fills, []);
  assert.equal(ex.instrument(BTC)!.updateId, updateBefore, 'the book is untouched');

  const fokOk = limit(ex, 'BUY', '59000', '0.001', { timeInForce: 'FOK' });
  assert.equal(expectOk(fokOk).order.status, 'FILLED');
  assertHealthy(ex);
});

test('MARKET walks the book, expires on missing liquidity, and needs the balance for its fillable part', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: 1000 } } } });
  const empty = place(ex, { side: 'BUY', type: 'MARKET', quantity: '0.01' });
  assert.equal(expectOk(empty).order.status, 'EXPIRED');
  assert.equal(expectOk(empty).order.expiryReason, 'INSUFFICIENT_LIQUIDITY');
  assert.deepEqual(executionTypes(empty.events), ['NEW/NEW', 'EXPIRED/EXPIRED']);

  counterparty(ex, BTC, 'SELL', '100', '1');
  counterparty(ex, BTC, 'SELL', '200', '1');
  const walk = place(ex, { side: 'BUY', type: 'MARKET', quantity: '1.5' });
  const order = expectOk(walk).order;
  assert.equal(order.status, 'FILLED');
  assert.equal(order.price, 0);
  assert.equal(order.cumQuote, atoms(ex, 'USDT', '200'));
  assert.deepEqual(expectOk(walk).fills.map((f) => f.price), [ticks(ex, BTC, '100'), ticks(ex, BTC, '200')]);
  // 1000 - 200 - 0.08 commission
  assert.equal(free(ex, 'USDT'), atoms(ex, 'USDT', '799.92'));

  // 0.5 left @ 200 plus 0.5 @ 10000: 5100 USDT would be needed, 799.92 is there.
  counterparty(ex, BTC, 'SELL', '10000', '1');
  const before = balances(ex.state);
  const broke = place(ex, { side: 'BUY', type: 'MARKET', quantity: '1' });
  const error = expectError(broke);
  assert.equal(error.code, -2010);
  assert.equal(error.msg, 'Account has insufficient balance for requested action.');
  assert.deepEqual(executionTypes(broke.events), ['REJECTED/REJECTED']);
  assert.equal(reports(broke.events)[0]!.rejectReason, 'INSUFFICIENT_BALANCES');
  assert.deepEqual(balances(ex.state), before, 'a refused MARKET order moves nothing');
  assertHealthy(ex);
});

test('LIMIT_MAKER that would take is rejected with -2010; one that does not cross rests', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'SELL', '60000', '1');
  const before = balances(ex.state);
  const taking = place(ex, { side: 'BUY', type: 'LIMIT_MAKER', price: '60000', quantity: '0.001' });
  const error = expectError(taking);
  assert.equal(error.code, -2010);
  assert.equal(error.msg, 'Order would immediately match and take.');
  assert.equal(reports(taking.events)[0]!.rejectReason, 'WOULD_MATCH_IMMEDIATELY');
  assert.deepEqual(balances(ex.state), before, 'a rejected order moves no balance');
  assert.deepEqual(openOrders(ex, BTC), []);
  const resting = expectOk(place(ex, { side: 'BUY', type: 'LIMIT_MAKER', price: '59999.99', quantity: '0.001' }));
  assert.equal(resting.order.status, 'NEW');
  assert.equal(resting.order.type, 'LIMIT_MAKER');
  assertHealthy(ex);
});

test('self-trade prevention EXPIRE_MAKER: the own resting order expires in match, matching goes on', () => {
  const ex = makeExchange();
  const own = expectOk(limit(ex, 'SELL', '59000', '0.001')).order;
  counterparty(ex, BTC, 'SELL', '59000', '0.001');
  const outcome = limit(ex, 'BUY', '59000', '0.002');
  const taker = expectOk(outcome);
  assert.deepEqual(executionTypes(outcome.events), ['NEW/NEW', 'TRADE_PREVENTION/EXPIRED_IN_MATCH', 'TRADE/PARTIALLY_FILLED']);
  const prevention = reports(outcome.events)[1]!;
  assert.equal(prevention.order.orderId, own.orderId);
  assert.equal(prevention.lastPreventedQty, lots(ex, BTC, '0.001'));
  assert.equal(prevention.order.preventedQty, lots(ex, BTC, '0.001'));
  assert.equal(taker.order.status, 'PARTIALLY_FILLED');
  assert.equal(taker.fills.length, 1);
  assert.equal(expectError({ ok: false, error: getOrder(ex, BTC, own.orderId) as never, events: [] }).code, -2013);
  assert.equal(locked(ex, 'BTC'), 0n);
  assertHealthy(ex);
});

test('myTrades: oldest id first, fromId, time range, -1128 and -1127, limit capped at 1000', () => {
  const ex = makeExchange();
  const inst = ex.instrument(BTC)!;
  for (let i = 0; i < 5; i++) {
    counterparty(ex, BTC, 'SELL', '60000', '0.001', T0 + i * 1000);
    expectOk(place(ex, { side: 'BUY', type: 'MARKET', quantity: '0.001' }, T0 + i * 1000));
    // A counterparty-only match consumes a trade id the account never sees.
    counterpartyLimit(ex, inst.index, 'SELL', ticks(ex, BTC, '61000'), 1, T0);
    counterpartyMarket(ex, inst.index, 'BUY', 1, T0);
  }
  const all = myTrades(ex, { symbol: BTC }) as { tradeId: number; time: number }[];
  assert.deepEqual(all.map((t) => t.tradeId), [1, 3, 5, 7, 9]);
  assert.deepEqual((myTrades(ex, { symbol: BTC, fromId: 4 }) as { tradeId: number }[]).map((t) => t.tradeId), [5, 7, 9]);
  assert.deepEqual((myTrades(ex, { symbol: BTC, limit: 2 }) as { tradeId: number }[]).map((t) => t.tradeId), [7, 9]);
  assert.deepEqual(
    (myTrades(ex, { symbol: BTC, startTime: T0 + 1000, endTime: T0 + 3000 }) as { tradeId: number }[]).map((t) => t.tradeId),
    [3, 5, 7],
  );
  assert.deepEqual((myTrades(ex, { symbol: BTC, orderId: 2 }) as { tradeId: number }[]).map((t) => t.tradeId), [3]);
  const combo = myTrades(ex, { symbol: BTC, fromId: 1, startTime: T0, endTime: T0 + 1 });
  assert.ok('code' in combo && combo.code === -1128);
  const wide = myTrades(ex, { symbol: BTC, startTime: T0, endTime: T0 + 24 * 3600_000 + 1 });
  assert.ok('code' in wide && wide.code === -1127 && wide.msg === 'More than 24 hours between startTime and endTime.');
  assert.equal((myTrades(ex, { symbol: BTC, limit: 5000 }) as unknown[]).length, 5);
  const unknown = myTrades(ex, { symbol: 'XXX' });
  assert.ok('code' in unknown && unknown.code === -1121);
});

test('fillOpenOrder sweeps the orders ahead in price-time, then fills the named order', () => {
  const ex = makeExchange();
  const ahead = expectOk(limit(ex, 'BUY', '59000', '0.002')).order;
  const better = counterparty(ex, BTC, 'BUY', '59500', '0.001');
  const target = expectOk(limit(ex, 'BUY', '59000', '0.003')).order;
  const outcome = fillOpenOrder(ex, target.orderId, '0.002', T0 + 10);
  assert.equal(expectOk(outcome).filled, lots(ex, BTC, '0.002'));
  const types = reports(outcome.events).map((r) => `${r.order.orderId}:${r.executionType}/${r.order.status}`);
  assert.deepEqual(types, [`${ahead.orderId}:TRADE/FILLED`, `${target.orderId}:TRADE/PARTIALLY_FILLED`]);
  assert.equal(counterpartyCancel(ex, better), false, 'the better-priced order was swept');
  assert.equal(expectError(fillOpenOrder(ex, 424242, '1', T0)).code, -2013);
  assertHealthy(ex);
});

test('order views and reports carry times: created, updated, working', () => {
  const ex = makeExchange();
  const order = expectOk(limit(ex, 'SELL', '60000', '0.002')).order;
  assert.deepEqual([order.time, order.updateTime, order.workingTime, order.isWorking], [T0, T0, T0, true]);
  const report = reports(counterpartyMarket(ex, ex.instrument(BTC)!.index, 'BUY', lots(ex, BTC, '0.001'), T0 + 50))[0]!;
  assert.equal(report.eventTime, T0 + 50);
  assert.equal(report.order.updateTime, T0 + 50);
  assert.equal(report.order.time, T0);
});
