import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runPacked } from './engine-packed.ts';
import { runOurs, runTheirs } from './engine-replay.ts';
import { generate, SEED, type OpStream, type Scenario } from './engine-stream.ts';

// A book of a few orders: the same few slots of the core's order store are reused tens of
// thousands of times, so its book keys grow past 2^31 within the stream.
const TINY: Scenario = { name: 'shallow', label: 'tiny', target: 3, spread: 4, cross: 2, aggressiveBase: 0.4, ops: 40_000, seed: SEED };
const SMALL: Scenario = { name: 'shallow', label: 'small', target: 50, spread: 8, cross: 3, aggressiveBase: 0.4, ops: 30_000, seed: SEED };

/** The other engine ends the stream with the core's lots taken and final book. */
function assertAgreesWithTheCore(stream: OpStream, other: { takerLots: number; bookDigest: string }): void {
  const ours = runOurs(stream);
  assert.ok(ours.takerLots > 0, 'the stream trades');
  assert.equal(other.takerLots, ours.takerLots);
  assert.equal(other.bookDigest, ours.bookDigest);
}

test('nodejs-order-book and the core replaying one stream agree on the lots taken and the final book', () => {
  const stream = generate(TINY);
  assertAgreesWithTheCore(stream, runTheirs(stream));
});

test('the packed what-if book (engine-packed.ts) and the core agree on the lots taken and the final book', () => {
  const stream = generate(SMALL);
  assertAgreesWithTheCore(stream, runPacked(stream));
});
