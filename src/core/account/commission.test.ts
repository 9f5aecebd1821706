// Commission at the asset's precision and the BUY lock (issue 13 items 3 and 4): commissions are
// charged at 8 decimals (exchangeInfo quoteCommissionPrecision), rounded up; a BUY locks exactly
// its notional; placement needs the notional plus the worst-case commission free, and that
// commission stays reserved (issue 18), so every fill is charged in full and every record shows it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../exchange.ts';
import { atoms, counterparty, expectError, expectOk, lots, makeExchange, reports, T0 } from '../test-support.ts';
import { formatScaled } from '../units.ts';
import { fillOpenOrder, placeOrder } from '../../api/orders.ts';
import { allTrades, balance, balances } from '../queries.ts';
import { invariantViolations } from '../invariants.ts';
import { counterpartyMarket } from '../test-support.ts';

const BTC = 'BTCUSDT';

function buy(ex: Exchange, price: string, quantity: string) {
  return placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }, T0);
}

function usdt(ex: Exchange): { free: string; locked: string } {
  const b = balance(ex.state, 'USDT');
  return { free: formatScaled(b.free, b.decimals), locked: formatScaled(b.locked, b.decimals) };
}

test('a maker BUY of 0.00009 at 55555.57 is charged 0.00050001 (8 decimals, rounded up) in the fill, the report, myTrades and the balance', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '100' } } } });
  const id = expectOk(buy(ex, '55555.57', '0.00009')).order.orderId;
  const inst = ex.instrument(BTC)!;
  const events = counterpartyMarket(ex, inst.index, 'SELL', lots(ex, BTC, '0.00009'), T0 + 1);
  const report = reports(events).find((r) => r.executionType === 'TRADE')!;
  // 1 bps of 5.0000013 is 0.00050000013: charged 0.00050001.
  assert.equal(formatScaled(report.commission, inst.quoteDecimals), '0.00050001');
  const trade = allTrades(ex.state, BTC).find((t) => t.orderId === id)!;
  assert.equal(trade.commission, report.commission);
  assert.equal(formatScaled(trade.quoteQty, inst.quoteDecimals), '5.00000130');
  // 100 - 5.0000013 - 0.00050001: eight decimals, exactly.
  assert.deepEqual(usdt(ex), { free: '94.99949869', locked: '0.00000000' });
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('a BUY locks exactly price x quantity; the fee reserve is checked at placement, not locked', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '1000' } } } });
  expectOk(buy(ex, '50000', '0.01'));
  assert.deepEqual(usdt(ex), { free: '500.00000000', locked: '500.00000000' });
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('placement refuses (-2010) a BUY whose notional plus worst-case commission free quote cannot cover', () => {
  const short = makeExchange({ sim: { account: { balances: { USDT: '500.19999999' } } } });
  const before = balances(short.state);
  const error = expectError(buy(short, '50000', '0.01'));
  assert.equal(error.code, -2010);
  assert.equal(error.msg, 'Account has insufficient balance for requested action.');
  assert.deepEqual(balances(short.state), before);

  // 500 notional + 0.2 (4 bps, the highest rate) is exactly enough; only the 500 is locked.
  const enough = makeExchange({ sim: { account: { balances: { USDT: '500.2' } } } });
  expectOk(buy(enough, '50000', '0.01'));
  assert.deepEqual(usdt(enough), { free: '0.20000000', locked: '500.00000000' });
});

test("a BUY that would lock another BUY's fee reserve is refused (-2010); that BUY's fill is charged in full", () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '510' } } } });
  const first = expectOk(buy(ex, '50000', '0.01')).order.orderId;
  // 10 free, 0.2 of it reserved for the first BUY: 9.984 + 0.0039936 no longer fits.
  const refused = expectError(buy(ex, '41600', '0.00024'));
  assert.equal(refused.code, -2010);
  assert.deepEqual(usdt(ex), { free: '10.00000000', locked: '500.00000000' });
  const filled = fillOpenOrder(ex, first, '0.01', T0 + 1);
  assert.ok(filled.ok);
  const report = reports(filled.events).find((r) => r.executionType === 'TRADE')!;
  const inst = ex.instrument(BTC)!;
  assert.equal(formatScaled(report.commission, inst.quoteDecimals), '0.05000000');
  assert.equal(allTrades(ex.state, BTC).at(-1)!.commission, report.commission);
  assert.deepEqual(usdt(ex), { free: '9.95000000', locked: '0.00000000' });
  assert.equal(balance(ex.state, 'BTC').free, atoms(ex, 'BTC', '100.01'));
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('a SELL pays its commission at 8 decimals out of the proceeds', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '0' } } } });
  counterparty(ex, BTC, 'BUY', '55555.57', '0.00009');
  const result = expectOk(placeOrder(ex, { symbol: BTC, side: 'SELL', type: 'MARKET', quantity: '0.00009' }, T0));
  const inst = ex.instrument(BTC)!;
  // 4 bps of 5.0000013 is 0.00200000052: charged 0.00200001.
  assert.equal(formatScaled(result.fills[0]!.commission, inst.quoteDecimals), '0.00200001');
  assert.deepEqual(usdt(ex), { free: '4.99800129', locked: '0.00000000' });
  assert.deepEqual(invariantViolations(ex.state), []);
});
