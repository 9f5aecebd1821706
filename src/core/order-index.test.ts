import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Order } from './book.ts';
import { OrderIndex } from './order-index.ts';

const order = (key: number) => new Order(key, 0, 'BUY', 100, 1, null);

test('account and counterparty keys: get, size, delete, and gone keys miss', () => {
  const index = new OrderIndex();
  const a = order(7);
  const key = index.newCounterpartyKey();
  assert.ok(key < 0, 'counterparty keys are negative');
  const c = order(key);
  index.set(7, a);
  index.set(key, c);
  assert.equal(index.size, 2);
  assert.equal(index.get(7), a);
  assert.equal(index.get(key), c);
  assert.equal(index.get(key - 1), undefined);
  assert.equal(index.get(-1_000_000), undefined);
  assert.equal(index.get(0), undefined);
  assert.equal(index.delete(key), true);
  assert.equal(index.delete(key), false);
  assert.equal(index.delete(8), false);
  assert.equal(index.get(key), undefined);
  assert.equal(index.size, 1);
  assert.equal(index.delete(7), true);
  assert.equal(index.size, 0);
});

test('a freed slot is reused under a new key; the old key never finds the new order', () => {
  const index = new OrderIndex();
  const first = index.newCounterpartyKey();
  index.set(first, order(first));
  assert.equal(index.delete(first), true);
  const second = index.newCounterpartyKey();
  assert.notEqual(second, first);
  const o = order(second);
  index.set(second, o);
  assert.equal(index.get(first), undefined, 'a stale key misses');
  assert.equal(index.delete(first), false, 'a stale key deletes nothing');
  assert.equal(index.get(second), o);
  assert.equal(index.size, 1);
});

test('keys stay unique across many rests and removals, and the slots stay as many as the most resting at once', () => {
  const index = new OrderIndex();
  const live = new Map<number, Order>();
  const seen = new Set<number>();
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  let most = 0;
  for (let i = 0; i < 200_000; i++) {
    if (live.size < 1000 && (live.size === 0 || next() % 2 === 0)) {
      const key = index.newCounterpartyKey();
      assert.ok(!seen.has(key), `key ${key} handed out twice`);
      seen.add(key);
      const o = order(key);
      index.set(key, o);
      live.set(key, o);
      most = Math.max(most, live.size);
    } else {
      const keys = [...live.keys()];
      const key = keys[next() % keys.length]!;
      assert.equal(index.delete(key), true);
      live.delete(key);
    }
  }
  assert.equal(index.size, live.size);
  for (const [key, o] of live) assert.equal(index.get(key), o);
  assert.ok(index['slots'].length <= most, `${index['slots'].length} slots for at most ${most} resting`);
});
