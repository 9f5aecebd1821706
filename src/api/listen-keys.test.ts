// Listen keys are bearer secrets (issue 13 item 6): whoever has one reads the account's
// executionReports. They come from a cryptographic random source, never from the seed (which is
// printed at start) and never again after a reset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ListenKeys } from './listen-keys.ts';

const T = 1_700_000_000_000;

test('a listen key is 64 random alphanumeric characters: two servers (same seed, same config) get different keys', () => {
  const a = new ListenKeys(60_000).create(T);
  const b = new ListenKeys(60_000).create(T);
  assert.match(a, /^[A-Za-z0-9]{64}$/);
  assert.match(b, /^[A-Za-z0-9]{64}$/);
  assert.notEqual(a, b);
  // Not derivable from the seed the server prints.
  assert.notEqual(a, createHash('sha256').update('spot-sim listen key 7 1').digest('hex'));
});

test('while valid the same key is returned; after a delete, expiry or reset the next key is a new one', () => {
  const keys = new ListenKeys(60_000);
  const first = keys.create(T);
  assert.equal(keys.create(T + 1), first);
  keys.remove(first);
  const second = keys.create(T + 2);
  assert.notEqual(second, first);
  keys.clear();
  const third = keys.create(T + 3);
  assert.ok(![first, second].includes(third));
  assert.ok(keys.isValid(third, T + 3));
  assert.ok(!keys.isValid(first, T + 3));
});
