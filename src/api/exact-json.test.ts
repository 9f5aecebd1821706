import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ExactInteger, parseExact, roundedIntegers } from './exact-json.ts';

test('the exact scan reads any JSON text as JSON.parse does, integers beyond 2^53 aside', () => {
  fc.assert(
    fc.property(fc.json(), (text) => {
      const parsed = JSON.parse(text) as unknown;
      const exact = parseExact(text, Symbol('fallback'));
      const plain = JSON.stringify(exact, (_k, v: unknown) => (v instanceof ExactInteger ? Number(v.digits) : v));
      assert.equal(plain, JSON.stringify(parsed));
    }),
    { seed: 181, numRuns: 2000 },
  );
});

test('integers beyond 2^53 keep their digits; __proto__ stays an own member; deep text falls back', () => {
  const text = '{"id":9223372036854775807,"params":{"orderId":-9007199254740993,"price":1e300,"__proto__":{"a":1},"x":1.5}}';
  const frame = JSON.parse(text) as Record<string, unknown>;
  assert.equal(roundedIntegers(frame), true);
  const exact = parseExact(text, frame) as { id: ExactInteger; params: Record<string, unknown> };
  assert.deepEqual(exact.id, new ExactInteger('9223372036854775807'));
  assert.deepEqual(exact.params.orderId, new ExactInteger('-9007199254740993'));
  assert.equal(exact.params.price, 1e300);
  assert.equal(exact.params.x, 1.5);
  assert.ok(Object.hasOwn(exact.params, '__proto__'));
  assert.equal(roundedIntegers(JSON.parse('{"id":9007199254740991,"params":{"a":[9007199254740993]}}') as Record<string, unknown>), false);
  const deep = `{"id":9223372036854775807,"params":${'['.repeat(100)}${']'.repeat(100)}}`;
  const fallback = JSON.parse(deep) as unknown;
  assert.equal(parseExact(deep, fallback), fallback);
});
