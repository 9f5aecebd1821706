import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { framesOf, textFrame } from './frames.ts';

/** Reads unmasked server text frames back (RFC 6455 5.2), checking each uses the shortest length form. */
function readFrames(bytes: Buffer): string[] {
  const payloads: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    assert.equal(bytes[at], 0x81, 'FIN + text opcode');
    const short = bytes[at + 1]!;
    assert.equal(short & 0x80, 0, 'a server frame is unmasked');
    let length = short;
    at += 2;
    if (short === 126) {
      length = bytes.readUInt16BE(at);
      assert.ok(length >= 126, `a 16-bit length of ${length} should have been the 7-bit form`);
      at += 2;
    } else if (short === 127) {
      length = bytes.readUInt32BE(at) * 2 ** 32 + bytes.readUInt32BE(at + 4);
      assert.ok(length >= 65536, `a 64-bit length of ${length} should have been a shorter form`);
      at += 8;
    }
    assert.ok(at + length <= bytes.length, 'the payload fits in what was written');
    payloads.push(bytes.toString('utf8', at, at + length));
    at += length;
  }
  return payloads;
}

test('framesOf frames each payload with its UTF-8 length in the shortest form, at every length boundary', () => {
  const payloads = [
    '',
    'a'.repeat(41), // 3 x 41 < 126: no header to give back
    'a'.repeat(50), // reserved for 150 bytes (16-bit length), needs the 7-bit form: moved back
    'a'.repeat(125),
    'a'.repeat(126),
    'é'.repeat(62), // 124 bytes
    'é'.repeat(63), // 126 bytes
    'a'.repeat(30_000), // reserved for 90,000 bytes (64-bit length), needs 16 bits
    'a'.repeat(65_535),
    'a'.repeat(65_536),
    '€'.repeat(21_846), // 65,538 bytes
    '😀 \ud800 lone surrogate',
    '€'.repeat(600_000), // 1.8 MB: its own buffer, sized for 3 bytes a unit with nothing to spare
  ];
  assert.deepEqual(readFrames(framesOf(payloads)), payloads.map((p) => Buffer.from(p).toString('utf8')));
  for (const p of payloads) assert.deepEqual(framesOf([p]), textFrame(p), `one frame for ${p.length} units`);
});

test('framesOf keeps shared frames as they are, in order between the payloads it frames', () => {
  const shared = textFrame('{"e":"depthUpdate"}');
  const out = framesOf(['first', shared, 'x'.repeat(200), shared]);
  assert.deepEqual(readFrames(out), ['first', '{"e":"depthUpdate"}', 'x'.repeat(200), '{"e":"depthUpdate"}']);
});

test('a buffer framesOf returned is not changed by a later call (the socket may still hold it)', () => {
  const first = framesOf(['a'.repeat(1000)]);
  const copy = Buffer.from(first);
  framesOf(['b'.repeat(1000)]);
  framesOf(['c'.repeat(2_000_000)]); // past the kept scratch size
  framesOf(['d'.repeat(1000)]);
  assert.deepEqual(first, copy);
});

test('framesOf agrees with framing each payload alone, for any mix of strings and shared frames', () => {
  const item = fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 100 }).map((s) => textFrame(s)));
  fc.assert(
    fc.property(fc.array(item, { maxLength: 12 }), (items) => {
      const expected = Buffer.concat(items.map((i) => (typeof i === 'string' ? textFrame(i) : i)));
      assert.deepEqual(framesOf(items), expected);
    }),
  );
});
