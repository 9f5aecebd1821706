import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BookSide, Order, type BookStore, type Level } from './book.ts';
import { NONE, OrderStore } from './order-store.ts';

const accountOrder = (orderId: number) => new Order(orderId, 0, 'BUY', 100, 1, null);

test('counterparty keys find their slot, account orders are found by orderId, gone keys miss', () => {
  const store: BookStore = new OrderStore<Level, Order>();
  const slot = store.allocate(0);
  const key = store.keyAt(slot);
  assert.ok(key < 0, 'counterparty keys are negative');
  const a = accountOrder(7);
  store.addAccount(a);
  assert.notEqual(a.slot, slot);
  assert.equal(store.size, 2);
  assert.equal(store.slotOf(key), slot);
  assert.equal(store.account(7), a);
  assert.equal(store.accountAt(a.slot), a);
  assert.equal(store.accountAt(slot), null);
  assert.equal(store.keyAt(a.slot), key - 1, 'the next slot, same generation');
  assert.equal(store.slotOf(key - 1), NONE, "an account order's slot key finds nothing");
  assert.equal(store.slotOf(key - 2), NONE);
  assert.equal(store.slotOf(-1_000_000), NONE);
  assert.equal(store.slotOf(0), NONE);
  assert.equal(store.slotOf(7), NONE, 'an orderId is no counterparty key');
  store.free(slot);
  assert.equal(store.slotOf(key), NONE);
  assert.equal(store.size, 1);
  store.removeAccount(a);
  assert.equal(store.account(7), undefined);
  assert.equal(a.slot, NONE);
  assert.equal(store.size, 0);
});

test('a freed slot is reused under a new key; the old key never finds the new order', () => {
  const store: BookStore = new OrderStore<Level, Order>();
  const first = store.allocate(0);
  const firstKey = store.keyAt(first);
  store.free(first);
  const second = store.allocate(0);
  assert.equal(second, first, 'last freed, first reused');
  assert.notEqual(store.keyAt(second), firstKey);
  assert.equal(store.slotOf(firstKey), NONE, 'a stale key misses');
  assert.equal(store.slotOf(store.keyAt(second)), second);
  // An account order in between does not hand the slot's next counterparty key out twice.
  store.free(second);
  const a = accountOrder(1);
  store.addAccount(a);
  const accountKey = store.keyAt(a.slot);
  store.removeAccount(a);
  const third = store.allocate(0);
  assert.ok(![firstKey, accountKey].includes(store.keyAt(third)));
});

test('keys stay unique across many rests and removals, and the slots stay as many as the most resting at once', () => {
  const store: BookStore = new OrderStore<Level, Order>();
  const live = new Map<number, number>();
  const seen = new Set<number>();
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  let most = 0;
  for (let i = 0; i < 200_000; i++) {
    if (live.size < 3000 && (live.size === 0 || next() % 2 === 0)) {
      const slot = store.allocate(0);
      const key = store.keyAt(slot);
      assert.ok(!seen.has(key), `key ${key} handed out twice`);
      seen.add(key);
      live.set(key, slot);
      most = Math.max(most, live.size);
    } else {
      const keys = [...live.keys()];
      const key = keys[next() % keys.length]!;
      assert.equal(store.slotOf(key), live.get(key));
      store.free(live.get(key)!);
      live.delete(key);
    }
  }
  assert.equal(store.size, live.size);
  for (const [key, slot] of live) assert.equal(store.slotOf(key), slot);
  assert.ok(store.slotCount <= most, `${store.slotCount} slots for at most ${most} resting`);
  assert.ok(most > 1024, 'the records grew past their first capacity');
});

test('a level keeps its slots in time order through adds, removals from any place and reductions', () => {
  const store: BookStore = new OrderStore<Level, Order>();
  const side = new BookSide('BUY', 0, store);
  const slots = [0, 1, 2, 3].map(() => store.allocate(0));
  slots.forEach((slot, i) => side.add(slot, 100, i + 1));
  const order = (): number[] => {
    const out: number[] = [];
    for (let s = side.level(100)!.head; s !== NONE; s = store.next(s)) out.push(s);
    return out;
  };
  assert.deepEqual(order(), slots);
  assert.equal(side.level(100)!.qty, 10);
  side.remove(slots[1]!);
  side.remove(slots[3]!);
  assert.deepEqual(order(), [slots[0], slots[2]]);
  assert.equal(side.level(100)!.tail, slots[2]);
  side.reduce(slots[2]!, side.level(100)!, 2);
  assert.equal(store.remaining(slots[2]!), 1);
  assert.equal(side.level(100)!.qty, 2);
  side.remove(slots[0]!);
  side.remove(slots[2]!);
  assert.equal(side.level(100), undefined, 'an empty level is off the book');
  assert.equal(side.levelCount, 0);
});

test('account orders stay found by slot and by orderId whichever of them leave first', () => {
  const store: BookStore = new OrderStore<Level, Order>();
  const orders = [1, 2, 3, 4, 5].map(accountOrder);
  for (const o of orders) store.addAccount(o);
  const counterparty = store.allocate(0);
  // Out of order, so each removal but the last moves another order's entry.
  for (const gone of [orders[1]!, orders[0]!, orders[4]!]) {
    store.removeAccount(gone);
    assert.equal(store.account(gone.id), undefined);
    for (const o of orders.filter((x) => x.slot !== NONE)) {
      assert.equal(store.accountAt(o.slot), o, `order ${o.id} by its slot after ${gone.id} left`);
      assert.equal(store.account(o.id), o);
      assert.ok(store.isAccount(o.slot));
    }
  }
  assert.equal(store.accountCount, 2);
  const again = accountOrder(6);
  store.addAccount(again);
  assert.equal(store.accountAt(again.slot), again, 'a new order in a freed slot is found by it');
  for (const o of [orders[2]!, orders[3]!]) assert.equal(store.accountAt(o.slot), o);
  assert.equal(store.accountAt(counterparty), null);
  assert.equal(store.isAccount(counterparty), false);
});
