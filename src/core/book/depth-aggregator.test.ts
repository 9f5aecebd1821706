import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterparty, expectOk, lots, makeExchange, T0, ticks } from '../test-support.ts';
import { placeOrder } from '../../api/orders.ts';
import { depthSnapshot } from '../queries.ts';
import { flushDepth } from '../test-support.ts';
import { counterpartyCancel } from '../test-support.ts';

const BTC = 'BTCUSDT';

test('one diff per symbol per batch: U..u span the batch, final quantities, 0 deletes', () => {
  const ex = makeExchange();
  assert.deepEqual(flushDepth(ex, T0).diffs, [], 'nothing pending, nothing published');
  const a = counterparty(ex, BTC, 'BUY', '59000', '0.5');
  counterparty(ex, BTC, 'BUY', '59000', '0.25');
  counterparty(ex, BTC, 'SELL', '61000', '1');
  counterparty(ex, 'ETHUSDT', 'SELL', '3100', '2');
  const first = flushDepth(ex, T0 + 100);
  assert.equal(first.diffs.length, 2);
  const btc = first.diffs.find((d) => d.symbol === BTC)!;
  assert.deepEqual([btc.firstUpdateId, btc.lastUpdateId, btc.eventTime], [1, 3, T0 + 100]);
  assert.deepEqual(btc.bids, [[ticks(ex, BTC, '59000'), lots(ex, BTC, '0.75')]]);
  assert.deepEqual(btc.asks, [[ticks(ex, BTC, '61000'), lots(ex, BTC, '1')]]);
  const eth = first.diffs.find((d) => d.symbol === 'ETHUSDT')!;
  assert.deepEqual([eth.firstUpdateId, eth.lastUpdateId], [1, 1], 'each symbol has its own update ids');

  counterpartyCancel(ex, a);
  counterpartyCancel(ex, 
    counterparty(ex, BTC, 'BUY', '58000', '1'),
  );
  const second = flushDepth(ex, T0 + 200).diffs;
  assert.equal(second.length, 1);
  assert.deepEqual([second[0]!.firstUpdateId, second[0]!.lastUpdateId], [4, 6]);
  assert.deepEqual(second[0]!.bids, [
    [ticks(ex, BTC, '59000'), lots(ex, BTC, '0.25')],
    [ticks(ex, BTC, '58000'), 0],
  ]);
});

test('snapshots: live shows the book now; flushed shows the book as last published', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'BUY', '59000', '0.5');
  flushDepth(ex, T0 + 100);
  counterparty(ex, BTC, 'BUY', '59100', '0.1');
  const live = depthSnapshot(ex.state, BTC, 100, 'live');
  const flushed = depthSnapshot(ex.state, BTC, 100, 'flushed');
  assert.ok(!('code' in live) && !('code' in flushed));
  assert.equal(live.lastUpdateId, 2);
  assert.equal(live.bids.length, 2);
  assert.equal(live.bids[0]![0], ticks(ex, BTC, '59100'), 'best bid first');
  assert.equal(flushed.lastUpdateId, 1);
  assert.deepEqual(flushed.bids, [[ticks(ex, BTC, '59000'), lots(ex, BTC, '0.5')]]);
  const limited = depthSnapshot(ex.state, BTC, 1, 'live');
  assert.ok(!('code' in limited) && limited.bids.length === 1);
  const bad = depthSnapshot(ex.state, 'NOPE', 5, 'live');
  assert.ok('code' in bad && bad.code === -1121);
});

test('bookTicker updates only for symbols whose touch changed during the batch', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'BUY', '59000', '0.5');
  assert.deepEqual(flushDepth(ex, T0).touches.map((t) => [t.symbol, t.bidPrice, t.bidQty, t.askPrice]), [[BTC, ticks(ex, BTC, '59000'), lots(ex, BTC, '0.5'), 0]]);
  counterparty(ex, BTC, 'BUY', '58000', '0.5'); // below the touch: depth changes, touch does not
  const batch = flushDepth(ex, T0 + 100);
  assert.equal(batch.diffs.length, 1);
  assert.deepEqual(batch.touches, []);
});

test('skipNextDepthUpdate leaves a gap in U once; the book and later diffs stay right', () => {
  const ex = makeExchange();
  counterparty(ex, BTC, 'BUY', '59000', '0.5');
  const first = flushDepth(ex, T0).diffs[0]!;
  ex.submit({ type: 'skipDepthUpdate', now: T0, symbolIndex: null, skip: true });
  counterparty(ex, BTC, 'BUY', '59001', '0.5');
  assert.deepEqual(flushDepth(ex, T0 + 100).diffs, [], 'the batch is swallowed');
  counterparty(ex, BTC, 'BUY', '59002', '0.5');
  const third = flushDepth(ex, T0 + 200).diffs[0]!;
  assert.notEqual(third.firstUpdateId, first.lastUpdateId + 1);
  assert.equal(third.firstUpdateId, 3);
  const flushed = depthSnapshot(ex.state, BTC, 10, 'flushed');
  assert.ok(!('code' in flushed) && flushed.bids.length === 3 && flushed.lastUpdateId === 3);
});

test('an account order shows up in the diff like any other', () => {
  const ex = makeExchange();
  expectOk(placeOrder(ex, { symbol: BTC, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '65000', quantity: '0.01' }, T0));
  const diff = flushDepth(ex, T0 + 100).diffs[0]!;
  assert.deepEqual(diff.asks, [[ticks(ex, BTC, '65000'), lots(ex, BTC, '0.01')]]);
});

test('a level emptied and opened again within a batch is in the diff once, with its final quantity, best first', () => {
  const ex = makeExchange();
  const p = (offset: number) => String(59000 + offset);
  counterparty(ex, BTC, 'BUY', p(0), '1');
  flushDepth(ex, T0);
  // Each round empties the level at 59001 (a new Level object each time) and opens it again.
  for (let round = 0; round < 3; round++) counterpartyCancel(ex, counterparty(ex, BTC, 'BUY', p(1), '1'));
  counterparty(ex, BTC, 'BUY', p(1), '0.5');
  counterparty(ex, BTC, 'BUY', p(-1), '2');
  const diff = flushDepth(ex, T0 + 100).diffs[0]!;
  assert.deepEqual(diff.bids, [
    [ticks(ex, BTC, p(1)), lots(ex, BTC, '0.5')],
    [ticks(ex, BTC, p(-1)), lots(ex, BTC, '2')],
  ]);
});

test('thousands of levels opened and emptied before a flush: each price once, final quantities, in order', () => {
  const ex = makeExchange();
  // 3,000 open/empty cycles over 7 ask prices: an emptied level is reopened, never noted twice.
  const expected = new Map<number, number>();
  for (let i = 0; i < 3000; i++) {
    const price = String(61000 + (i % 7));
    counterpartyCancel(ex, counterparty(ex, BTC, 'SELL', price, '1'));
    expected.set(ticks(ex, BTC, price), 0);
  }
  counterparty(ex, BTC, 'SELL', '61003', '0.25');
  expected.set(ticks(ex, BTC, '61003'), lots(ex, BTC, '0.25'));
  const diff = flushDepth(ex, T0 + 100).diffs[0]!;
  assert.deepEqual(diff.asks, [...expected].sort((a, b) => a[0] - b[0]));
  assert.deepEqual(diff.bids, []);
});

test('an emptied level is kept for its price until the flush that publishes it, then forgotten', () => {
  const ex = makeExchange();
  const bids = ex.state.books[ex.instrument(BTC)!.index]!.bids;
  const price = ticks(ex, BTC, '59000');
  const first = counterparty(ex, BTC, 'BUY', '59000', '1');
  const level = bids.level(price);
  counterpartyCancel(ex, first);
  assert.equal(bids.level(price), undefined, 'an emptied level is not a level of the book');
  const second = counterparty(ex, BTC, 'BUY', '59000', '1');
  assert.equal(bids.level(price), level, 'reopened before the flush: the same level');
  counterpartyCancel(ex, second);
  flushDepth(ex, T0 + 100);
  counterparty(ex, BTC, 'BUY', '59000', '1');
  assert.notEqual(bids.level(price), level, 'after the flush the price gets a new level');
});
