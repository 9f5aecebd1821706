import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../config/index.ts';
import { Exchange } from '../exchange.ts';
import { expectOk, reports, T0, ticks } from '../test-support.ts';
import { placeOrder } from '../../api/orders.ts';
import { allTrades, depthSnapshot, latentMid } from '../queries.ts';
import { invariantViolations } from '../invariants.ts';
import { advance, bookOf } from '../test-support.ts';

const BTC = 'BTCUSDT';

test('default generator: seed_levels levels per side, the touch 2990 ticks from the start mid', () => {
  const ex = new Exchange(resolveConfig({}), T0);
  const book = bookOf(ex, BTC)!;
  assert.equal(book.bids.levelCount, 20);
  assert.equal(book.asks.levelCount, 20);
  assert.equal(book.bids.best()!.price, ticks(ex, BTC, '59970.10'));
  assert.equal(book.asks.best()!.price, ticks(ex, BTC, '60029.90'));
  const eth = bookOf(ex, 'ETHUSDT')!;
  assert.equal(eth.bids.best()!.price, ticks(ex, 'ETHUSDT', '2970.10'), 'ETHUSDT starts at its own mid, 3000');
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('generator.enabled = false: an empty book and no flow at all', () => {
  const ex = new Exchange(resolveConfig({ sim: { generator: { enabled: false } } }), T0);
  assert.equal(bookOf(ex, BTC)!.bids.levelCount, 0);
  assert.deepEqual(advance(ex, T0 + 60_000), []);
});

test('a minute of counterparty flow: two-sided, uncrossed, trading, the touch near the offset', () => {
  const ex = new Exchange(resolveConfig({}), T0);
  let trades = 0;
  for (let t = 2; t <= 60_000; t += 2) for (const e of advance(ex, T0 + t)) if (e.type === 'trade') trades++;
  assert.deepEqual(invariantViolations(ex.state), []);
  assert.ok(trades > 10, `public trades: ${trades}`);
  const book = bookOf(ex, BTC)!;
  const mid = latentMid(ex.state, BTC)!;
  const bid = book.bids.best()!.price;
  const ask = book.asks.best()!.price;
  assert.ok(bid < ask);
  // Each touch rests about touch_offset_ticks (2990) from the latent mid; the mid keeps walking
  // after orders are placed, so "about" is within 10%.
  for (const distance of [mid - bid, ask - mid]) assert.ok(distance > 2690 && distance < 3290, `touch distance ${distance}`);
  assert.ok(book.bids.levelCount > 50 && book.asks.levelCount > 50, 'the book fills in');
});

test('a client quoting near the mid rests ahead of the generator and is filled by its market orders', () => {
  const ex = new Exchange(resolveConfig({}), T0);
  const mid = (latentMid(ex.state, BTC)! / 100).toFixed(2);
  const order = expectOk(placeOrder(ex, { symbol: BTC, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: mid, quantity: '0.001' }, T0)).order;
  let filledAt = -1;
  for (let t = 2; t <= 600_000 && filledAt < 0; t += 2) {
    for (const r of reports(advance(ex, T0 + t))) if (r.order.orderId === order.orderId && r.order.status === 'FILLED') filledAt = t;
  }
  assert.ok(filledAt > 0, 'filled within ten simulated minutes');
  assert.equal(allTrades(ex.state, BTC)[0]!.isMaker, true);
});

test('advance runs whole steps only, at most maxSteps per call', () => {
  const a = new Exchange(resolveConfig({ sim: { seed: 3 } }), T0);
  const b = new Exchange(resolveConfig({ sim: { seed: 3 } }), T0);
  advance(a, T0 + 1000);
  for (let t = 1; t <= 1000; t++) advance(b, T0 + t); // a different call pattern, the same steps
  assert.deepEqual(depthSnapshot(a.state, BTC, 5000, 'live'), depthSnapshot(b.state, BTC, 5000, 'live'));
});
