// Fees cannot be evaded (issue 18 item 3): a resting BUY locks exactly its notional (spec 2.4),
// and the worst-case commission of its open quantity stays reserved out of the free quote: no
// later order (LIMIT or MARKET, BUY, or a SELL of an asset that is another symbol's quote) may
// lock or spend it, so every maker fill is charged its published commission.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Exchange } from '../exchange.ts';
import { counterparty, expectError, expectOk, makeExchange, reports, T0 } from '../test-support.ts';
import { formatScaled } from '../units.ts';
import { amendOrder, cancelOrder, fillOpenOrder, placeOrder } from '../../api/orders.ts';
import { balance } from '../queries.ts';
import { invariantViolations } from '../invariants.ts';

const BTC = 'BTCUSDT';

function buy(ex: Exchange, price: string, quantity: string) {
  return placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity }, T0);
}

function usdt(ex: Exchange): { free: string; locked: string } {
  const b = balance(ex.state, 'USDT');
  return { free: formatScaled(b.free, b.decimals), locked: formatScaled(b.locked, b.decimals) };
}

function commissionOfFill(ex: Exchange, orderId: number, qty: string): string {
  const filled = fillOpenOrder(ex, orderId, qty, T0 + 1);
  assert.ok(filled.ok);
  const report = reports(filled.events).find((r) => r.executionType === 'TRADE' && r.order.orderId === orderId)!;
  return formatScaled(report.commission, ex.instrument(BTC)!.quoteDecimals);
}

test("the issue's scenario: far-away BUYs cannot lock the first BUY's fee reserve; its maker fill is charged 500 USDT (1 bps of 5,000,000)", () => {
  // 5,000,000 notional + 2,000 reserve (4 bps, the highest rate) + 1,000 to spare.
  const ex = makeExchange({ sim: { account: { balances: { USDT: '5003000' } } } });
  const first = expectOk(buy(ex, '50000', '100')).order.orderId;
  assert.deepEqual(usdt(ex), { free: '3000.00000000', locked: '5000000.00000000' });
  // 500 + 0.2 of reserve fits in the 1,000 to spare...
  expectOk(buy(ex, '1000', '0.5'));
  // ...a second one would eat into the first BUY's reserve: -2010, nothing changes.
  const refused = expectError(buy(ex, '1000', '0.5'));
  assert.deepEqual([refused.code, refused.msg], [-2010, 'Account has insufficient balance for requested action.']);
  assert.deepEqual(usdt(ex), { free: '2500.00000000', locked: '5000500.00000000' });
  assert.equal(commissionOfFill(ex, first, '100'), '500.00000000');
  assert.deepEqual(usdt(ex), { free: '2000.00000000', locked: '500.00000000' });
  assert.deepEqual(invariantViolations(ex.state), []);
});

test("a MARKET BUY cannot spend a resting BUY's fee reserve", () => {
  // 5,000,000 locked, 2,000 reserved, 2,000 to spare.
  const ex = makeExchange({ sim: { account: { balances: { USDT: '5004000' } } } });
  const resting = expectOk(buy(ex, '50000', '100')).order.orderId;
  counterparty(ex, 'ETHUSDT', 'SELL', '3000', '10');
  // 1 ETH at 3000 costs 3,001.2 with its commission: free (4,000) has it, the spare 2,000 not.
  const refused = expectError(placeOrder(ex, { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '1' }, T0));
  assert.equal(refused.code, -2010);
  expectOk(placeOrder(ex, { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.5' }, T0));
  assert.equal(commissionOfFill(ex, resting, '100'), '500.00000000');
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('cancelling, filling or amending down a BUY frees its reserve for later orders', () => {
  const ex = makeExchange({ sim: { account: { balances: { USDT: '1000.3' } } } });
  const first = expectOk(buy(ex, '50000', '0.01')).order.orderId; // 500 locked, 0.2 reserved
  expectError(buy(ex, '50000', '0.01')); // needs 500.2; 500.3 free, less the 0.2 reserved
  // Amended down to 0.005: 250 unlocked and 0.1 of its reserve freed.
  assert.ok(amendOrder(ex, { symbol: BTC, orderId: first, newQty: '0.005' }, T0).ok);
  const second = expectOk(buy(ex, '50000', '0.01')).order.orderId;
  assert.ok(cancelOrder(ex, { symbol: BTC, orderId: second }, T0).ok);
  assert.equal(commissionOfFill(ex, first, '0.005'), '0.02500000');
  expectOk(buy(ex, '50000', '0.01'));
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('every maker fill of a BUY is charged in full, however the fills split it', () => {
  // 9 lots at 55555.57: each lot's commission is rounded up on its own fill.
  const ex = makeExchange({ sim: { account: { balances: { USDT: '5.00205' } } } });
  const id = expectOk(buy(ex, '55555.57', '0.00009')).order.orderId;
  let charged = 0n;
  for (let i = 0; i < 9; i++) {
    const filled = fillOpenOrder(ex, id, '0.00001', T0 + 1 + i);
    assert.ok(filled.ok);
    const report = reports(filled.events).find((r) => r.executionType === 'TRADE' && r.order.orderId === id)!;
    // 1 bps of 0.5555557 = 0.00005555557: 0.00005556 each.
    assert.equal(formatScaled(report.commission, ex.instrument(BTC)!.quoteDecimals), '0.00005556');
    charged += report.commission;
  }
  assert.equal(formatScaled(charged, ex.instrument(BTC)!.quoteDecimals), '0.00050004');
  assert.deepEqual(invariantViolations(ex.state), []);
});
