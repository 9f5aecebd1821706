import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PickList } from './resting-orders.ts';

const contents = (list: PickList): number[] => Array.from({ length: list.length }, (_, i) => list.at(i));

test('a pick list removes by swapping the last slot in (the order seeded cancels pick from)', () => {
  const list = new PickList();
  for (let slot = 10; slot < 15; slot++) assert.equal(list.push(slot), slot - 10, 'push answers the position');
  assert.equal(list.removeAt(1), 14, 'the last slot moved to position 1');
  assert.deepEqual(contents(list), [10, 14, 12, 13]);
  assert.equal(list.removeAt(3), -1, 'removing the last moves nothing');
  assert.deepEqual(contents(list), [10, 14, 12]);
});

test('a pick list grows past its first capacity and keeps every slot in place', () => {
  const list = new PickList();
  for (let slot = 0; slot < 1000; slot++) list.push(slot);
  assert.equal(list.length, 1000);
  assert.deepEqual(contents(list), Array.from({ length: 1000 }, (_, i) => i));
});
