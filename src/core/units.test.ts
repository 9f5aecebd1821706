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

test('formatScaled: the fast number path agrees with exact bigint arithmetic near every boundary', () => {
  const exact = (v: bigint, d: number): string => {
    const neg = v < 0n;
    const a = neg ? -v : v;
    const unit = 10n ** BigInt(d);
    let frac = (a % unit).toString().padStart(d, '0');
    if (frac.length < 8) frac = frac.padEnd(8, '0');
    else while (frac.length > 8 && frac.endsWith('0')) frac = frac.slice(0, -1);
    return `${neg ? '-' : ''}${a / unit}.${frac}`;
  };
  const values = [0n, 1n, 9n, 10n, 99_999_999n, 100_000_000n, 2n ** 52n - 1n, 2n ** 52n, 2n ** 52n + 1n, 2n ** 53n - 1n, 2n ** 64n + 7n];
  for (let d = 1; d <= 22; d++) {
    const unit = 10n ** BigInt(d);
    for (let k = 1n; k < 2n ** 52n / unit && k < 10n ** 6n; k = k * 7n + 3n) values.push(k * unit - 1n, k * unit, k * unit + 1n);
  }
  for (const v of values) {
    for (let d = 1; d <= 22; d++) {
      assert.equal(formatScaled(v, d), exact(v, d), `${v} at ${d} decimals`);
      assert.equal(formatScaled(-v, d), exact(-v, d), `-${v} at ${d} decimals`);
      if (v <= 2n ** 52n) assert.equal(formatScaled(Number(v), d), exact(v, d), `number ${v} at ${d} decimals`);
    }
  }
});
