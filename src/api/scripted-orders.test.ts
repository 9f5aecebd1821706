import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config/index.ts';
import { Exchange } from '../core/exchange.ts';
import { ScriptedOrders } from './scripted-orders.ts';
import type { OrderView } from '../core/types.ts';
import { expectError, expectOk, executionTypes, lots, makeExchange, reports, T0, ticks, toJson } from '../core/test-support.ts';
import { getOrder, placeOrder } from './orders.ts';
import { latentMid } from '../core/queries.ts';
import { invariantViolations } from '../core/invariants.ts';
import { advance, bookOf } from '../core/test-support.ts';

const BTC = 'BTCUSDT';
const sell = (price: string, quantity: string) => ({ symbol: BTC, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price, quantity }) as const;
const buy = (price: string, quantity: string) => ({ symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }) as const;

function quiet() {
  const ex = makeExchange();
  return { ex, market: new ScriptedOrders(ex) };
}

const levels = (ex: Exchange, side: 'bids' | 'asks') => bookOf(ex, BTC)![side].top(10);

test('a scripted SELL rests on the book at its price; ids count from 1, also for orders that do not rest', () => {
  const { ex, market } = quiet();
  assert.equal(expectOk(market.place(sell('60010', '0.5'), T0)), 1);
  assert.deepEqual(levels(ex, 'asks'), [[ticks(ex, BTC, '60010'), lots(ex, BTC, '0.5')]]);
  // A MARKET order on an empty opposite side trades nothing and rests nothing: it still has an id.
  assert.equal(expectOk(market.place({ symbol: BTC, side: 'SELL', type: 'MARKET', quantity: '0.1' }, T0)), 2);
  assert.equal(expectOk(market.place(buy('59990', '0.2'), T0)), 3);
  assert.deepEqual(levels(ex, 'bids'), [[ticks(ex, BTC, '59990'), lots(ex, BTC, '0.2')]]);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test("a scripted BUY trades with the account's resting SELL: the account's report, a public trade, the rest rests", () => {
  const { ex, market } = quiet();
  const own = expectOk(placeOrder(ex, sell('60000', '0.1'), T0)).order;
  const outcome = market.place(buy('60005', '0.3'), T0 + 5);
  assert.ok(outcome.ok);
  assert.deepEqual(executionTypes(outcome.events), ['TRADE/FILLED']);
  const fill = reports(outcome.events)[0]!;
  assert.equal(fill.order.orderId, own.orderId);
  assert.equal(fill.isMaker, true);
  assert.equal(fill.lastPrice, ticks(ex, BTC, '60000'));
  const trade = outcome.events.find((e) => e.type === 'trade');
  assert.deepEqual(trade && { price: trade.price, qty: trade.qty, buyerIsMaker: trade.buyerIsMaker, time: trade.time }, {
    price: ticks(ex, BTC, '60000'),
    qty: lots(ex, BTC, '0.1'),
    buyerIsMaker: false,
    time: T0 + 5,
  });
  assert.ok(outcome.events.some((e) => e.type === 'balances'));
  assert.deepEqual(levels(ex, 'bids'), [[ticks(ex, BTC, '60005'), lots(ex, BTC, '0.2')]]);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('IOC trades what crosses and never rests; FOK trades all or nothing', () => {
  const { ex, market } = quiet();
  market.place(sell('60000', '0.1'), T0);
  market.place(sell('60001', '0.1'), T0);
  const ioc = market.place({ ...buy('60000', '0.3'), timeInForce: 'IOC' }, T0);
  assert.equal(ioc.events.filter((e) => e.type === 'trade').length, 1);
  assert.deepEqual(levels(ex, 'bids'), []);
  assert.deepEqual(levels(ex, 'asks'), [[ticks(ex, BTC, '60001'), lots(ex, BTC, '0.1')]]);

  const tooBig = market.place({ ...buy('60001', '0.2'), timeInForce: 'FOK' }, T0);
  assert.ok(tooBig.ok);
  assert.deepEqual(tooBig.events, []);
  assert.deepEqual(levels(ex, 'asks'), [[ticks(ex, BTC, '60001'), lots(ex, BTC, '0.1')]]);
  const fits = market.place({ ...buy('60001', '0.1'), timeInForce: 'FOK' }, T0);
  assert.equal(fits.events.filter((e) => e.type === 'trade').length, 1);
  assert.deepEqual(levels(ex, 'asks'), []);
  assert.deepEqual(levels(ex, 'bids'), []);
});

test('MARKET sweeps the opposite side at any price; LIMIT_MAKER rests or is refused with -2010', () => {
  const { ex, market } = quiet();
  market.place(buy('59000', '0.1'), T0);
  market.place(buy('58000', '0.1'), T0);
  const swept = market.place({ symbol: BTC, side: 'SELL', type: 'MARKET', quantity: '0.15' }, T0);
  assert.deepEqual(
    swept.events.filter((e) => e.type === 'trade').map((e) => e.type === 'trade' && e.price),
    [ticks(ex, BTC, '59000'), ticks(ex, BTC, '58000')],
  );
  assert.deepEqual(levels(ex, 'bids'), [[ticks(ex, BTC, '58000'), lots(ex, BTC, '0.05')]]);

  const maker = { symbol: BTC, side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.1' } as const;
  assert.deepEqual(expectError(market.place({ ...maker, price: '58000' }, T0)), expectError(placeOrder(ex, { ...maker, price: '58000' }, T0)));
  assert.equal(expectError(market.place({ ...maker, price: '58000' }, T0)).code, -2010);
  expectOk(market.place({ ...maker, price: '58001' }, T0));
  assert.deepEqual(levels(ex, 'asks'), [[ticks(ex, BTC, '58001'), lots(ex, BTC, '0.1')]]);
});

test('cancel removes a resting scripted order once; unknown, filled or other-symbol ids answer false', () => {
  const { ex, market } = quiet();
  const id = expectOk(market.place(sell('60010', '0.5'), T0));
  const higher = expectOk(market.place(sell('60020', '0.1'), T0));
  const taken = expectOk(market.place(sell('60005', '0.1'), T0));
  market.place(buy('60020', '0.1'), T0); // takes 60005 only
  assert.equal(expectOk(market.cancel('ETHUSDT', id, T0)), false);
  assert.equal(expectOk(market.cancel(BTC, 999, T0)), false);
  assert.equal(expectOk(market.cancel(BTC, taken, T0)), false, 'filled');
  assert.equal(expectOk(market.cancel(BTC, higher, T0)), true);
  assert.equal(expectOk(market.cancel(BTC, id, T0)), true);
  assert.equal(expectOk(market.cancel(BTC, String(id), T0)), false);
  assert.deepEqual(levels(ex, 'asks'), []);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('cancelAll removes every counterparty order of the symbol, the generator seed levels included', () => {
  const ex = new Exchange(resolveConfig({}), T0);
  const market = new ScriptedOrders(ex);
  market.place(sell('61000', '0.5'), T0);
  const own = expectOk(placeOrder(ex, buy('50000', '0.01'), T0)).order;
  assert.equal(expectOk(market.cancelAll(BTC, T0)), 41);
  const book = bookOf(ex, BTC)!;
  assert.equal(book.asks.levelCount, 0);
  assert.deepEqual(book.bids.top(5), [[ticks(ex, BTC, '50000'), lots(ex, BTC, '0.01')]], "the account's order stays");
  assert.equal((getOrder(ex, BTC, own.orderId) as OrderView).status, 'NEW');
  assert.equal(bookOf(ex, 'ETHUSDT')!.asks.levelCount, 20, 'other symbols keep theirs');
  assert.equal(expectOk(market.cancelAll(BTC, T0)), 0);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test("the generator's random cancels never take a scripted order: it rests until it trades or the test cancels it", () => {
  // No takers: only the generator's limit orders and random cancels run for two minutes, so on
  // average each of its orders is cancelled six times over (mean_order_lifetime_s 20).
  const ex = new Exchange(resolveConfig({ sim: { generator: { market_rate_per_s: 0 } } }), T0);
  const market = new ScriptedOrders(ex);
  const id = expectOk(market.place(sell('60010', '0.5'), T0));
  const bid = expectOk(market.place(buy('59990', '0.25'), T0));
  advance(ex, T0 + 120_000);
  assert.deepEqual(levels(ex, 'asks')[0], [ticks(ex, BTC, '60010'), lots(ex, BTC, '0.5')]);
  assert.deepEqual(levels(ex, 'bids')[0], [ticks(ex, BTC, '59990'), lots(ex, BTC, '0.25')]);
  assert.deepEqual(invariantViolations(ex.state), []);
  assert.equal(expectOk(market.cancel(BTC, String(id), T0 + 120_000)), true);
  assert.equal(expectOk(market.cancel(BTC, String(bid), T0 + 120_000)), true);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('cancelAll also removes scripted orders, and the generator\'s own cancels go on after it', () => {
  const ex = new Exchange(resolveConfig({}), T0);
  const market = new ScriptedOrders(ex);
  market.place(sell('60010', '0.5'), T0);
  market.place(sell('60020', '0.5'), T0);
  assert.equal(expectOk(market.cancelAll(BTC, T0)), 42);
  assert.equal(bookOf(ex, BTC)!.asks.levelCount, 0);
  advance(ex, T0 + 30_000);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test("setMid moves the generator's latent mid: its next orders come around the new price", () => {
  const ex = new Exchange(resolveConfig({ sim: { generator: { mid_step_max_ticks: 0 } } }), T0);
  const market = new ScriptedOrders(ex);
  expectOk(market.cancelAll(BTC, T0));
  expectOk(market.setMid(BTC, '70000'));
  assert.equal(latentMid(ex.state, BTC), ticks(ex, BTC, '70000'));
  advance(ex, T0 + 5_000);
  const book = bookOf(ex, BTC)!;
  assert.ok(book.bids.best()!.price > ticks(ex, BTC, '69900') && book.asks.best()!.price < ticks(ex, BTC, '70100'), 'the new book surrounds 70000');
});

test('bad arguments get the reference code and message, and change nothing', () => {
  const { ex, market } = quiet();
  market.place(sell('60010', '0.5'), T0);
  const before = toJson({ asks: levels(ex, 'asks'), bids: levels(ex, 'bids') });
  const cases: [unknown, number, string][] = [
    [{ ...sell('60010', '0.5'), symbol: 'NOPE' }, -1121, 'Invalid symbol.'],
    [{ ...sell('60010', '0.5'), symbol: undefined }, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
    [sell('60010', '0.000001'), -1013, 'Filter failure: LOT_SIZE'],
    [sell('60010.001', '0.5'), -1013, 'Filter failure: PRICE_FILTER'],
    [sell('1', '0.001'), -1013, 'Filter failure: NOTIONAL'],
    [sell('60,010', '0.5'), -1100, "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    [sell('60010', '0.000000001'), -1111, "Parameter 'quantity' has too much precision."],
    [{ ...sell('60010', '0.5'), side: 'HOLD' }, -1117, 'Invalid side.'],
    [{ ...sell('60010', '0.5'), type: 'SPOT' }, -1116, 'Invalid orderType.'],
    [{ ...sell('60010', '0.5'), timeInForce: 'GTX' }, -1115, 'Invalid timeInForce.'],
    [{ ...sell('60010', '0.5'), timeInForce: undefined }, -1102, "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed."],
    [{ symbol: BTC, side: 'BUY', type: 'MARKET', quantity: '0.1', price: '1' }, -1106, "Parameter 'price' sent when not required."],
    [null, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ];
  for (const [input, code, msg] of cases) {
    const error = expectError(market.place(input, T0));
    assert.deepEqual({ code: error.code, msg: error.msg }, { code, msg }, JSON.stringify(input));
  }
  assert.deepEqual(pick(expectError(market.cancel('NOPE', 1, T0))), { code: -1121, msg: 'Invalid symbol.' });
  assert.deepEqual(pick(expectError(market.cancel(BTC, -1, T0))), { code: -1100, msg: "Illegal characters found in parameter 'id'; legal range is '^[0-9]{1,20}$'." });
  assert.deepEqual(pick(expectError(market.cancelAll('nope', T0))), { code: -1121, msg: 'Invalid symbol.' });
  assert.deepEqual(pick(expectError(market.setMid('NOPE', '1'))), { code: -1121, msg: 'Invalid symbol.' });
  assert.deepEqual(pick(expectError(market.setMid(BTC, 'abc'))), { code: -1100, msg: "Illegal characters found in parameter 'price'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'." });
  assert.deepEqual(pick(expectError(market.setMid(BTC, '1.000000001'))), { code: -1111, msg: "Parameter 'price' has too much precision." });
  assert.deepEqual(pick(expectError(market.setMid(BTC, '0'))), { code: -1013, msg: 'Filter failure: PRICE_FILTER' });
  assert.deepEqual(pick(expectError(market.setMid(BTC, '1.001'))), { code: -1013, msg: 'Filter failure: PRICE_FILTER' });
  assert.equal(toJson({ asks: levels(ex, 'asks'), bids: levels(ex, 'bids') }), before);
  assert.equal(expectOk(market.place(buy('50000', '0.1'), T0)), 2, 'refused calls took no id');
});

test('the same script gives the same events on two exchanges (no randomness), and reset numbers from 1 again', () => {
  const run = () => {
    const ex = new Exchange(resolveConfig({ sim: { seed: 7 } }), T0);
    const market = new ScriptedOrders(ex);
    const out: string[] = [];
    out.push(toJson(market.place(buy('60100', '0.5'), T0 + 1)));
    out.push(toJson(advance(ex, T0 + 2_000)));
    out.push(toJson(market.place({ symbol: BTC, side: 'SELL', type: 'MARKET', quantity: '1' }, T0 + 2_001)));
    out.push(toJson(market.cancelAll('ETHUSDT', T0 + 2_002)));
    return { out, market };
  };
  const a = run();
  assert.deepEqual(a.out, run().out);
  assert.equal(expectOk(a.market.place(sell('60010', '0.5'), T0 + 3_000)), 3);
  a.market.reset();
  assert.equal(expectOk(a.market.place(sell('60010', '0.5'), T0 + 3_000)), 1);
});

test('ids of finished orders do not pile up: the id map is swept as it grows', () => {
  const { ex, market } = quiet();
  for (let i = 0; i < 5_000; i++) {
    market.place(sell('60000', '0.001'), T0);
    market.place(buy('60000', '0.001'), T0);
  }
  assert.deepEqual(levels(ex, 'asks'), []);
  assert.ok((market.market as unknown as { rested: Map<number, number> }).rested.size <= 1024);
});

function pick(e: { code: number; msg: string }) {
  return { code: e.code, msg: e.msg };
}
