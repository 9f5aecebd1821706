// One id per operation (issue 22 item 6): an operation's id in the endpoint table is its WS API
// method name when it has one, so fault rules, the typed client and the docs name it alike
// (`ticker.book`, never `bookTicker` in one place and `ticker.book` in another).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from './endpoints.ts';

test('an operation with a WS API method has that method name as its id; ids are unique', () => {
  assert.deepEqual(ENDPOINTS.filter((e) => e.ws !== undefined && e.ws !== e.id).map((e) => `${e.id} vs ${e.ws}`), []);
  assert.equal(new Set(ENDPOINTS.map((e) => e.id)).size, ENDPOINTS.length);
});
