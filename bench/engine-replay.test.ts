import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOurs, runTheirs } from './engine-replay.ts';
import { generate, SEED, type Scenario } from './engine-stream.ts';

// A book of a few orders: the same few slots of the core's order store are reused tens of
// thousands of times, so its book keys grow past 2^31 within the stream.
const TINY: Scenario = { name: 'shallow', label: 'tiny', target: 3, spread: 4, cross: 2, aggressiveBase: 0.4, ops: 40_000, seed: SEED };

test('nodejs-order-book and the core replaying one stream agree on the lots taken and the final book', () => {
  const stream = generate(TINY);
  const ours = runOurs(stream);
  const theirs = runTheirs(stream);
  assert.ok(ours.takerLots > 0, 'the stream trades');
  assert.equal(theirs.takerLots, ours.takerLots);
  assert.equal(theirs.bookDigest, ours.bookDigest);
});
