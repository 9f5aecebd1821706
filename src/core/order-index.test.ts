import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Order } from './book.ts';
import { OrderIndex } from './order-index.ts';

const order = (key: number) => new Order(key, 0, 'BUY', 100, 1, null);

test('keys of both kinds: get, size, delete, and gone keys miss', () => {
  const index = new OrderIndex();
  const a = order(7);
  const c = order(-3);
  index.set(7, a);
  index.set(-3, c);
  assert.equal(index.size, 2);
  assert.equal(index.get(7), a);
  assert.equal(index.get(-3), c);
  assert.equal(index.get(-4), undefined);
  assert.equal(index.get(-1_000_000), undefined);
  assert.equal(index.get(0), undefined);
  assert.equal(index.delete(-3), true);
  assert.equal(index.delete(-3), false);
  assert.equal(index.delete(8), false);
  assert.equal(index.get(-3), undefined);
  assert.equal(index.size, 1);
});

test('counterparty pages: a long-lived order stays found while the pages around it come and go', () => {
  const index = new OrderIndex();
  const pinned = order(-5);
  index.set(-5, pinned);
  const live: number[] = [];
  for (let key = -6; key > -100_000; key--) {
    index.set(key, order(key));
    live.push(key);
    if (live.length > 1000) assert.equal(index.delete(live.shift()!), true);
  }
  assert.equal(index.size, 1 + live.length);
  assert.equal(index.get(-5), pinned);
  for (const key of live) assert.equal(index.get(key)?.id, key);
  assert.equal(index.get(-50), undefined);
  // Pages emptied behind the live window are dropped: only the pinned one and the window's remain.
  const pages = (index as unknown as { pages: Map<number, unknown> }).pages.size;
  assert.ok(pages <= 3, `pages kept: ${pages}`);
});
