import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PagedTable } from './paged-table.ts';

test('get, set, replace, delete, size; keys never set miss', () => {
  const table = new PagedTable<string>();
  table.set(3, 'a');
  table.set(40, 'b');
  table.set(3, 'c');
  assert.equal(table.size, 2);
  assert.equal(table.get(3), 'c');
  assert.equal(table.get(40), 'b');
  assert.equal(table.get(4), undefined);
  assert.equal(table.get(1_000_000), undefined);
  assert.equal(table.delete(3), true);
  assert.equal(table.delete(3), false);
  assert.equal(table.delete(99), false);
  assert.equal(table.get(3), undefined);
  assert.equal(table.size, 1);
});

test('pages follow the live keys: a sliding window keeps a few, a long-lived key pins only its own', () => {
  const table = new PagedTable<number>();
  table.set(5, 5);
  const live: number[] = [];
  for (let key = 6; key < 100_000; key++) {
    table.set(key, key);
    live.push(key);
    if (live.length > 1000) assert.equal(table.delete(live.shift()!), true);
  }
  assert.equal(table.size, 1 + live.length);
  assert.equal(table.get(5), 5);
  for (const key of live) assert.equal(table.get(key), key);
  assert.equal(table.get(50), undefined);
  assert.ok(table.pageCount <= 4, `pages kept: ${table.pageCount}`);
});
