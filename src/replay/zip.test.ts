// The one .csv of a public-data .zip (API.md section 12), read from hostile bytes: every way an
// archive can be wrong is a refusal with its reason; no cut or flipped byte makes the reader throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeZip } from '../../scripts/replay/zip-writer.ts';
import { crc32, locateSingleCsvEntry, readSingleCsvEntry, slowCrc32, type ZipEntry } from './zip.ts';
import { inflateEntry } from './zip-stream.ts';

const CSV = Buffer.from('1,60000.00,0.01000,1,1,1735689600000000,true,true\n'.repeat(50));
const MAX = 1 << 20;

function refusal(entry: ZipEntry): string {
  assert.ok(!entry.ok, 'expected a refusal');
  return entry.problem;
}

test('the single deflated or stored .csv is returned whole', () => {
  for (const method of [8, 0]) {
    const entry = readSingleCsvEntry(writeZip([{ name: 'BTCUSDT-aggTrades-2025-01-01.csv', data: CSV, method }]), MAX);
    assert.ok(entry.ok);
    assert.equal(entry.name, 'BTCUSDT-aggTrades-2025-01-01.csv');
    assert.deepEqual(entry.data, CSV);
  }
});

test('an archive comment after the directory is fine', () => {
  const zip = writeZip([{ name: 'a.csv', data: CSV }]);
  const comment = Buffer.from('downloaded from data.binance.vision');
  zip.writeUInt16LE(comment.length, zip.length - 2);
  assert.ok(readSingleCsvEntry(Buffer.concat([zip, comment]), MAX).ok);
});

test('not exactly one .csv: refused with the count or the name', () => {
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'a.csv', data: CSV }, { name: 'b.csv', data: CSV }]), MAX)), /exactly one \.csv, not 2 entries/);
  assert.match(refusal(readSingleCsvEntry(writeZip([]), MAX)), /exactly one \.csv, not 0 entries/);
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'BTCUSDT-aggTrades.xlsx', data: CSV }]), MAX)), /one \.csv, not "BTCUSDT-aggTrades\.xlsx"/);
});

test('encrypted, other compression, bad CRC, larger than allowed: refused', () => {
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'a.csv', data: CSV, flags: 1 }]), MAX)), /not encrypted/);
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'a.csv', data: CSV, method: 12 }]), MAX)), /compression method 12/);
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'a.csv', data: CSV, crc: 1 }]), MAX)), /CRC-32/);
  assert.match(refusal(readSingleCsvEntry(writeZip([{ name: 'a.csv', data: CSV }]), 100)), new RegExp(`at most 100 bytes .* holds ${CSV.length}`));
});

test('an entry that inflates beyond the size it declares stops at that size (no zip bomb)', () => {
  const zip = writeZip([{ name: 'a.csv', data: Buffer.alloc(4 << 20, 0x31) }]);
  // Declare 1000 bytes in the central directory: the reader must not inflate 4 MiB to find out.
  const central = zip.length - 22 - 46 - 'a.csv'.length;
  zip.writeUInt32LE(1000, central + 24);
  // zlib stops at the declared size plus one byte, not after 4 MiB.
  assert.equal(refusal(readSingleCsvEntry(zip, MAX)), 'a .zip entry that inflates to the size it declares (1000 bytes; it inflates to more)');
});

/** The entry as the streaming reader gives it (zip-stream.ts): its pieces put together, and their sizes. */
async function streamed(zip: Buffer, max: number): Promise<{ entry: ZipEntry; seen: number[] }> {
  const located = locateSingleCsvEntry(zip, max);
  if (!located.ok) return { entry: located, seen: [] };
  const pieces: Buffer[] = [];
  const verdict = await inflateEntry(located, (piece) => pieces.push(piece));
  const entry: ZipEntry = verdict.ok ? { ok: true, name: verdict.name, data: Buffer.concat(pieces) } : verdict;
  return { entry, seen: pieces.map((piece) => piece.length) };
}

test('the streaming reader gives what the whole reader gives, refusals included, in pieces', async () => {
  const big = Buffer.from('1,60000.00,0.01000,1,1,1735689600000000,true,true\n'.repeat(40_000));
  const inflatesBeyond = writeZip([{ name: 'a.csv', data: Buffer.alloc(4 << 20, 0x31) }]);
  inflatesBeyond.writeUInt32LE(1000, inflatesBeyond.length - 22 - 46 - 'a.csv'.length + 24);
  const zips = [
    writeZip([{ name: 'a.csv', data: big }]),
    writeZip([{ name: 'a.csv', data: CSV, method: 0 }]),
    writeZip([{ name: 'a.csv', data: CSV, crc: 1 }]),
    writeZip([{ name: 'a.csv', data: CSV, method: 12 }]),
    inflatesBeyond,
  ];
  const zip = writeZip([{ name: 'a.csv', data: CSV }]);
  const noise = randomBytes(zip.length);
  for (let i = 0; i < zip.length; i++) {
    const flipped = Buffer.from(zip);
    flipped[i]! ^= noise[i]! | 1;
    zips.push(flipped);
  }
  for (const [i, z] of zips.entries()) {
    const [stream, whole] = [(await streamed(z, 4 << 20)).entry, readSingleCsvEntry(z, 4 << 20)];
    // The same verdict and data; the same reason for each archive made wrong on purpose (a flipped
    // byte in the deflated data may meet zlib's end before or after the declared size is passed).
    if (i < 5 || whole.ok) assert.deepEqual(stream, whole, `zip ${i}`);
    else assert.equal(stream.ok, false, `zip ${i}`);
  }
  const { entry, seen } = await streamed(zips[0]!, 4 << 20);
  assert.ok(entry.ok && entry.data.length === big.length);
  // 1.9 MiB inflate in pieces of at most 256 KiB.
  assert.ok(seen.length >= 8 && seen.every((n) => n > 0 && n <= 256 * 1024), String(seen));
});

test('not a zip, or cut short anywhere, or any byte flipped: a refusal or the data, never a throw', () => {
  assert.match(refusal(readSingleCsvEntry(Buffer.from('aggId,price\n1,2\n'), MAX)), /no end of central directory/);
  assert.match(refusal(readSingleCsvEntry(Buffer.alloc(0), MAX)), /no end of central directory/);
  const zip = writeZip([{ name: 'a.csv', data: CSV }]);
  for (let cut = 0; cut < zip.length; cut++) assert.equal(readSingleCsvEntry(zip.subarray(0, cut), MAX).ok, false, `cut at ${cut}`);
  const noise = randomBytes(zip.length * 4);
  for (let i = 0; i < zip.length * 4; i++) {
    const flipped = Buffer.from(zip);
    flipped[i % zip.length]! ^= noise[i]! | 1;
    const entry = readSingleCsvEntry(flipped, MAX);
    // A flip in an unchecked field (a time, a version) may leave the archive readable; its data is then intact.
    if (entry.ok) assert.deepEqual(entry.data, CSV, `byte ${i % zip.length}`);
  }
});

test('the CRC-32 fallback for Node before 20.15 equals zlib\'s', () => {
  const data = randomBytes(10_000);
  assert.equal(slowCrc32(data), crc32(data));
  assert.equal(slowCrc32(Buffer.from('123456789')), 0xcbf43926);
  // Piece by piece, each from the CRC of the bytes before: the CRC of the whole.
  assert.equal(slowCrc32(data.subarray(4000), slowCrc32(data.subarray(0, 4000))), crc32(data));
  assert.equal(crc32(data.subarray(4000), crc32(data.subarray(0, 4000))), crc32(data));
});
