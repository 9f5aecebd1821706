import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPlain, formatScaled, parseScaled, parseScaledBig, ScaledParse, stepDecimals } from './units.ts';

test('stepDecimals reads power-of-ten steps and refuses others', () => {
  assert.equal(stepDecimals('0.01'), 2);
  assert.equal(stepDecimals('0.00001'), 5);
  assert.equal(stepDecimals('1'), 0);
  assert.throws(() => stepDecimals('0.05'));
  assert.throws(() => stepDecimals('10'));
});

test('parseScaled is exact and never rounds', () => {
  assert.equal(parseScaled('60000', 2), 6_000_000);
  assert.equal(parseScaled('60000.01', 2), 6_000_001);
  assert.equal(parseScaled('60000.0100000', 2), 6_000_001);
  assert.equal(parseScaled('0.001', 2), ScaledParse.OffGrid);
  assert.equal(parseScaled('1e5', 2), ScaledParse.Malformed);
  assert.equal(parseScaled('-1', 2), ScaledParse.Malformed);
  assert.equal(parseScaled('', 2), ScaledParse.Malformed);
  assert.equal(parseScaled(' 1', 2), ScaledParse.Malformed);
  assert.equal(parseScaled('99999999999999999999', 5), Infinity);
  assert.equal(parseScaledBig('100.5', 3), 100500n);
  assert.equal(parseScaledBig('100.5001', 3), null);
});

test('formatScaled writes 8 decimals, more only when exactness needs them', () => {
  assert.equal(formatScaled(6_000_000, 2), '60000.00000000');
  assert.equal(formatScaled(1, 5), '0.00001000');
  assert.equal(formatScaled(0, 2), '0.00000000');
  assert.equal(formatScaled(10_000_000n * 10n ** 13n, 13), '10000000.00000000');
  assert.equal(formatScaled(123n, 13), '0.0000000000123');
  assert.equal(formatScaled(-5n, 2), '-0.05000000');
  assert.equal(formatPlain(6_000_001, 2), '60000.01');
  assert.equal(formatPlain(6_000_000, 2), '60000');
});
