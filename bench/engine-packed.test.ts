import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPacked } from './engine-packed.ts';
import { runOurs } from './engine-replay.ts';
import { generate, SEED, type Scenario } from './engine-stream.ts';

const SMALL: Scenario = { name: 'shallow', label: 'small', target: 50, spread: 8, cross: 3, aggressiveBase: 0.4, ops: 30_000, seed: SEED };

test('the packed what-if book and the core replaying one stream agree on the lots taken and the final book', () => {
  const stream = generate(SMALL);
  const ours = runOurs(stream);
  const packed = runPacked(stream);
  assert.ok(ours.takerLots > 0, 'the stream trades');
  assert.equal(packed.takerLots, ours.takerLots);
  assert.equal(packed.bookDigest, ours.bookDigest);
});
