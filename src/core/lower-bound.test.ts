import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lowerBound } from './lower-bound.ts';

test('lowerBound is the first index whose key is >= the value (the length when none), as a scan finds it', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -50, max: 50 })), fc.integer({ min: -60, max: 60 }), (keys, value) => {
      const sorted = [...keys].sort((a, b) => a - b);
      const scan = sorted.findIndex((k) => k >= value);
      assert.equal(lowerBound(sorted.length, (i) => sorted[i]!, value), scan === -1 ? sorted.length : scan);
    }),
  );
});
