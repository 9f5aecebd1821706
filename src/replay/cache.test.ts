// The replay cache (API.md section 12: later workers and runs start from a compact binary cache
// keyed by the file's content hash): a miss parses and writes, a hit reads the entry, a corrupt
// or stale entry is ignored and written anew, workers writing one entry at once leave it whole,
// and a cache that cannot be written costs only time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregates, aggTradesCsv } from '../../scripts/replay/synthetic-trades.ts';
import { resolveConfig } from '../config/index.ts';
import type { Recording } from '../core/recording.ts';
import { columnBytes } from './columns.ts';
import { contentHashOf, openEntry, rememberedHash, type EntryKey } from './cache.ts';
import { loadRecordings } from './index.ts';

const SAMPLES = new URL('../../fixtures/replay/', import.meta.url).pathname;
const LATER = () => Date.now() + 60_000;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'spot-sim-replay-cache-'));
}

/** A copy of a sample in a directory of its own (its identity is the test's). */
function copyOf(sample: string): string {
  const file = join(tempDir(), sample);
  copyFileSync(join(SAMPLES, sample), file);
  return file;
}

async function load(file: string, cacheDir: string, nowMs = Date.now()): Promise<Recording> {
  return (await loadRecordings(resolveConfig({ sim: { replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: cacheDir } }), nowMs)).get('BTCUSDT')!;
}

/** The entry of `key`, every row read and checked (no source to fall back on), or undefined when it is not sound. */
function readEntry(dir: string, key: EntryKey, symbol: string): Recording | undefined {
  const entry = openEntry(dir, key, symbol, () => undefined);
  if (entry === undefined) return undefined;
  try {
    entry.loadAll();
    return entry.recording;
  } catch {
    return undefined;
  } finally {
    void entry.close();
  }
}

function sha256Of(parts: readonly Uint8Array[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

function entries(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.bin'));
}

const KEY = (file: string, format: 'aggTrades' | 'trades' = 'aggTrades') => ({ contentHash: contentHashOf(readFileSync(file)), format, tickDecimals: 2, lotDecimals: 5 });

test('a miss parses the file and writes one entry; a hit reads the entry', async () => {
  const file = copyOf('BTCUSDT-aggTrades-2025-01-01.zip');
  const cache = tempDir();
  const parsed = await load(file, cache);
  assert.equal(entries(cache).length, 1);
  assert.deepEqual(readEntry(cache, KEY(file), 'BTCUSDT'), parsed);
  // Change one size in the entry (still a sound entry): the next load must show it.
  const entry = join(cache, entries(cache)[0]!);
  const bytes = readFileSync(entry);
  bytes.writeDoubleLE(7, 64 + 16 * parsed.count);
  writeFileSync(entry, bytes);
  assert.equal((await load(file, cache)).qty[0], 7);
});

test('the same bytes under another name hit the same entry; another grid or kind is another entry', async () => {
  const cache = tempDir();
  const a = copyOf('BTCUSDT-aggTrades-2025-01-01.csv');
  const b = join(tempDir(), 'renamed-aggTrades-x.csv');
  copyFileSync(a, b);
  const cents = await load(a, cache);
  await load(b, cache);
  assert.equal(entries(cache).length, 1);
  // A tick of 0.001: the prices are other numbers of ticks.
  const finer = { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.001', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5' };
  const r = (await loadRecordings(resolveConfig({ sim: { replay: [{ symbol: 'BTCUSDT', file: a }], replay_cache_dir: cache }, instruments: [finer] }))).get('BTCUSDT')!;
  assert.deepEqual([...r.price], [...cents.price].map((p) => p * 10));
  assert.equal(entries(cache).length, 2);
});

test('a file\'s hash is remembered by its identity once its times are old enough, and forgotten when it changes', async () => {
  const file = copyOf('BTCUSDT-aggTrades-2025-01-01.csv');
  const cache = tempDir();
  await load(file, cache);
  assert.equal(rememberedHash(cache, file, statSync(file, { bigint: true })), undefined, 'just written: its times cannot be trusted yet');
  const first = await load(file, cache, LATER());
  assert.equal(rememberedHash(cache, file, statSync(file, { bigint: true })), contentHashOf(readFileSync(file)));
  appendFileSync(file, '3346275300,93519.24000000,0.00100000,1,1,1735690200000000,True,True\n');
  assert.equal(rememberedHash(cache, file, statSync(file, { bigint: true })), undefined);
  const changed = await load(file, cache, LATER());
  assert.equal(changed.count, first.count + 1);
});

test('a corrupt or stale entry is ignored and written anew', async () => {
  const file = copyOf('BTCUSDT-trades-2025-01-01.zip');
  const cache = tempDir();
  const fresh = await load(file, cache);
  const entry = join(cache, entries(cache)[0]!);
  const sound = readFileSync(entry);
  const n = fresh.count;
  const corruptions: [string, (bytes: Buffer) => Buffer][] = [
    ['cut short', (b) => b.subarray(0, b.length - 1)],
    ['empty', () => Buffer.alloc(0)],
    ['another magic', (b) => (b.write('X', 0), b)],
    ['another version', (b) => (b.writeUInt32LE(0, 16), b)],
    ['another content hash', (b) => (b.writeUInt8(b.readUInt8(40) ^ 1, 40), b)],
    ['a count that does not fit the size', (b) => (b.writeDoubleLE(n + 1, 24), b)],
    ['a NaN price', (b) => (b.writeDoubleLE(Number.NaN, 64 + 8 * n), b)],
    ['a fractional size', (b) => (b.writeDoubleLE(1.5, 64 + 16 * n), b)],
    ['time going back', (b) => (b.writeDoubleLE(0, 64 + 8 * (n - 1)), b)],
    ['a flag of 2', (b) => (b.writeUInt8(2, 64 + 24 * n), b)],
    ['an aggregate the rows do not start', (b) => (b.writeUInt8(1 - b.readUInt8(64 + 25 * n + 1), 64 + 25 * n + 1), b)],
  ];
  for (const [what, corrupt] of corruptions) {
    writeFileSync(entry, corrupt(Buffer.from(sound)));
    assert.equal(readEntry(cache, KEY(file, 'trades'), 'BTCUSDT'), undefined, what);
    assert.deepEqual(await load(file, cache), fresh, what);
    assert.ok(readFileSync(entry).equals(sound), `${what}: written anew`);
  }
});

test('a writer that died leaves a temporary file: an hour later the next write removes it', async () => {
  const file = copyOf('BTCUSDT-aggTrades-2025-01-01.csv');
  const cache = tempDir();
  const fresh = join(cache, 'x.bin.123.abc.tmp');
  const old = join(cache, 'y.bin.456.def.tmp');
  writeFileSync(fresh, 'half');
  writeFileSync(old, 'half');
  utimesSync(old, new Date(Date.now() - 3_700_000), new Date(Date.now() - 3_700_000));
  await load(file, cache);
  assert.deepEqual(readdirSync(cache).filter((name) => name.endsWith('.tmp')), ['x.bin.123.abc.tmp']);
});

test('a cache that cannot be written costs only the parse', async () => {
  const file = copyOf('BTCUSDT-aggTrades-2025-01-01.csv');
  const blocked = join(file, 'cache'); // under a regular file: no directory can be made there
  assert.equal((await load(file, blocked, LATER())).count, 300);
  assert.equal((await load(file, blocked, LATER())).count, 300);
});

test('workers loading one file at once into one cache: the same columns, one whole entry, nothing left over', async () => {
  // Big enough (about 12 MB) that the parses and writes of the workers overlap.
  const file = join(tempDir(), 'BTCUSDT-aggTrades-2025-01-01.csv');
  const tape = aggregates({ seed: 9, startUs: Date.UTC(2025, 0, 1) * 1000, aggregates: 150_000, meanGapUs: 500_000, resolutionUs: 1, startPriceTicks: 9_350_000, volatilityTicks: 150 });
  writeFileSync(file, [...aggTradesCsv(tape, { unit: 'us', header: false, crlf: false })].join(''));
  const cache = tempDir();
  const script = [
    `import { loadRecordings } from ${JSON.stringify(new URL('./index.ts', import.meta.url).pathname)};`,
    `import { resolveConfig } from ${JSON.stringify(new URL('../config/index.ts', import.meta.url).pathname)};`,
    `import { createHash } from 'node:crypto';`,
    `process.stdout.write('ready\\n');`,
    `process.stdin.once('data', async () => {`,
    `  const r = (await loadRecordings(resolveConfig({ sim: { replay: [{ symbol: 'BTCUSDT', file: ${JSON.stringify(file)} }], replay_cache_dir: ${JSON.stringify(cache)} } }))).get('BTCUSDT');`,
    `  const hash = createHash('sha256');`,
    `  for (const name of ['timeUs', 'price', 'qty', 'buyerIsMaker', 'newAggregate']) hash.update(new Uint8Array(r[name].buffer, r[name].byteOffset, r[name].byteLength));`,
    `  process.stdout.write(hash.digest('hex') + '\\n');`,
    `  process.exit(0);`,
    `});`,
  ].join('\n');
  const workers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = workers.map(
    (child) =>
      new Promise<string[]>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.once('exit', (code) => (clearTimeout(timer), code === 0 ? resolve(out.trim().split('\n')) : reject(new Error(`worker exited ${code}: ${out}`))));
      }),
  );
  // Every worker is ready before any starts: they parse and write together.
  await Promise.all(workers.map((child) => new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))));
  for (const child of workers) child.stdin.end('go\n');
  const digests = (await Promise.all(outputs)).map((lines) => lines.at(-1));
  const expected = sha256Of(columnBytes(await load(file, tempDir())));
  assert.deepEqual(digests, [expected, expected, expected, expected]);
  assert.deepEqual(readdirSync(cache).filter((name) => !name.startsWith('file-')), entries(cache), 'no temporary file left');
  assert.equal(entries(cache).length, 1);
  const entry = readEntry(cache, KEY(file), 'BTCUSDT');
  assert.ok(entry !== undefined);
  assert.equal(sha256Of(columnBytes(entry)), expected);
  truncateSync(file, 0); // the temporary directory's 12 MB go with the test
});
