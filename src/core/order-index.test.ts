import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Order } from './book.ts';
import { OrderIndex } from './order-index.ts';

const order = (key: number) => new Order(key, 0, 'BUY', 100, 1, null);

test('account and counterparty keys: get, size, delete, and gone keys miss', () => {
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
  assert.equal(index.delete(7), true);
  assert.equal(index.size, 0);
});
