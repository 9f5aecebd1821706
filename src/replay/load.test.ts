// Loading `[[sim.replay]]` files at start (API.md section 12): the committed samples in every
// form, the problems of every file in one ConfigError, and startSimulator refusing to serve a
// bad file. The cache has its own tests (cache.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samples } from '../../scripts/replay/generate-samples.ts';
import { writeZip } from '../../scripts/replay/zip-writer.ts';
import { ConfigError, resolveConfig } from '../config/index.ts';
import type { Recording } from '../core/recording.ts';
import { startSimulator } from '../index.ts';
import { BYTES_PER_PRINT, loadRecordings } from './index.ts';

const SAMPLES = new URL('../../fixtures/replay/', import.meta.url).pathname;
const JAN_1_US = Date.UTC(2025, 0, 1) * 1000;

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'spot-sim-replay-'));
}

/** Loads `files` (each an entry of its own symbol... or BTCUSDT alone) with a fresh cache. */
function load(entries: readonly Record<string, unknown>[], cacheDir = tempDir()): Promise<ReadonlyMap<string, Recording>> {
  return loadRecordings(resolveConfig({ sim: { replay: entries, replay_cache_dir: cacheDir } }));
}

async function loadSample(name: string): Promise<Recording> {
  return (await load([{ symbol: 'BTCUSDT', file: join(SAMPLES, name) }])).get('BTCUSDT')!;
}

async function problemsOf(entries: readonly Record<string, unknown>[]): Promise<ConfigError> {
  try {
    await load(entries);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  assert.fail('expected a ConfigError');
}

/** The aggregates of a recording: [time, price, taker side, total lots] each. */
function aggregatesOf(r: Recording): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < r.count; i++) {
    if (r.newAggregate[i] === 1) out.push([r.timeUs[i]!, r.price[i]!, r.buyerIsMaker[i]!, 0]);
    out[out.length - 1]![3]! += r.qty[i]!;
  }
  return out;
}

test('the committed samples are what scripts/replay/generate-samples.ts writes', async () => {
  for (const [name, bytes] of samples()) assert.ok(readFileSync(join(SAMPLES, name)).equals(bytes), `${name} is stale: run npx tsx scripts/replay/generate-samples.ts`);
});

test('the .zip as downloaded and its .csv give the same recording; aggTrades and trades of one tape the same aggregates', async () => {
  const zip = await loadSample('BTCUSDT-aggTrades-2025-01-01.zip');
  const csv = await loadSample('BTCUSDT-aggTrades-2025-01-01.csv');
  assert.equal(zip.count, 300);
  assert.equal(zip.symbol, 'BTCUSDT');
  assert.deepEqual(zip, csv);
  assert.equal(zip.timeUs[0]! >= JAN_1_US && zip.timeUs[0]! < JAN_1_US + 60e6, true, 'µs times of 2025-01-01');
  const trades = await loadSample('BTCUSDT-trades-2025-01-01.zip');
  assert.ok(trades.count > 300, `${trades.count} trades`);
  assert.deepEqual(await loadSample('BTCUSDT-trades-2025-01-01.csv'), trades);
  assert.deepEqual(aggregatesOf(trades), aggregatesOf(zip));
});

test('the ms samples with a header and CRLF: times in µs, whole milliseconds; the hour sample spans an hour', async () => {
  for (const name of ['BTCUSDT-aggTrades-2024-12-31.csv', 'BTCUSDT-trades-2024-12-31.csv']) {
    const r = await loadSample(name);
    assert.ok(r.count >= 300, name);
    assert.ok(r.timeUs.every((t) => t % 1000 === 0 && t >= Date.UTC(2024, 11, 31) * 1000), name);
  }
  assert.deepEqual(aggregatesOf(await loadSample('BTCUSDT-trades-2024-12-31.csv')), aggregatesOf(await loadSample('BTCUSDT-aggTrades-2024-12-31.csv')));
  const hour = await loadSample('BTCUSDT-aggTrades-2025-01-02.csv');
  assert.ok(hour.timeUs[hour.count - 1]! - hour.timeUs[0]! > 3600e6, 'more than an hour');
});

test('the columns take 26 bytes a print, in one buffer', async () => {
  const r = await loadSample('BTCUSDT-trades-2025-01-01.csv');
  assert.equal(BYTES_PER_PRINT, 26);
  assert.equal(r.timeUs.buffer.byteLength, BYTES_PER_PRINT * r.count);
  for (const column of [r.price, r.qty, r.buyerIsMaker, r.newAggregate]) assert.equal(column.buffer, r.timeUs.buffer);
});

test('two symbols, each on its own grid: a size off one lot is refused for that symbol only', async () => {
  const file = join(SAMPLES, 'BTCUSDT-aggTrades-2025-01-01.csv');
  const eth = join(tempDir(), 'ETHUSDT-aggTrades-2025-01-01.csv');
  writeFileSync(eth, '1,3000.01,0.1000,1,1,1735689600000,true,true\n');
  const recordings = await load([{ symbol: 'BTCUSDT', file }, { symbol: 'ETHUSDT', file: eth }]);
  assert.equal(recordings.get('BTCUSDT')!.count, 300);
  assert.equal(recordings.get('ETHUSDT')!.symbol, 'ETHUSDT');
  assert.deepEqual([...recordings.get('ETHUSDT')!.qty], [1000]); // ETHUSDT's lot is 0.0001
  // BTCUSDT's sizes (lot 0.00001) are not all on ETHUSDT's lot.
  assert.match((await problemsOf([{ symbol: 'ETHUSDT', file }])).message, /BTCUSDT-aggTrades-2025-01-01\.csv:1:3 \(qty\): expected a quantity on the lot 0\.0001/);
});

test('a file that cannot be read is named by its key and path', async () => {
  const missing = '/nonexistent/spot-sim/BTCUSDT-aggTrades-2025-01-01.csv';
  const error = await problemsOf([{ symbol: 'BTCUSDT', file: missing }]);
  assert.equal(error.source, 'sim.replay');
  assert.match(error.message, /^invalid configuration \(sim\.replay\): 1 problem\n {2}sim\.replay\[0\]\.file: expected a readable spot aggTrades or trades file of the reference's public data, got "\/nonexistent\/spot-sim\/BTCUSDT-aggTrades-2025-01-01\.csv" \(no such file\)$/);
  const dir = join(tempDir(), 'BTCUSDT-aggTrades-2025-01-01.csv');
  mkdirSync(dir);
  assert.match((await problemsOf([{ symbol: 'BTCUSDT', file: dir }])).message, /sim\.replay\[0\]\.file: .* \(not a file\)$/);
});

test('a .zip that is not one .csv is named by its path, with the reason', async () => {
  const file = join(tempDir(), 'BTCUSDT-aggTrades-2025-01-01.zip');
  writeFileSync(file, writeZip([{ name: 'a.csv', data: Buffer.from('1') }, { name: 'b.csv', data: Buffer.from('2') }]));
  assert.match((await problemsOf([{ symbol: 'BTCUSDT', file }])).message, new RegExp(`\n  ${file}: expected a \\.zip holding exactly one \\.csv, not 2 entries$`));
  writeFileSync(file, 'not a zip');
  assert.match((await problemsOf([{ symbol: 'BTCUSDT', file }])).message, /: expected a \.zip archive \(no end of central directory record/);
});

test('every file\'s problems in one error: rows inside a .zip named by the .zip, line and column; past 20, counted', async () => {
  const dir = tempDir();
  const zip = join(dir, 'BTCUSDT-aggTrades-2025-01-01.zip');
  const rows = Array.from({ length: 25 }, (_, i) => `${i},60000.001,0.01,1,1,${1735689600000 + i},true,true`).join('\n');
  writeFileSync(zip, writeZip([{ name: 'BTCUSDT-aggTrades-2025-01-01.csv', data: Buffer.from(rows) }]));
  const csv = join(dir, 'ETHUSDT-trades-2025-01-01.csv');
  writeFileSync(csv, '1,3000.00,0.1,300,1735689600000,maybe,true\n');
  const error = await problemsOf([{ symbol: 'BTCUSDT', file: zip }, { symbol: 'ETHUSDT', file: csv }]);
  const lines = error.message.split('\n');
  assert.equal(lines[0], 'invalid configuration (sim.replay): 26 problems');
  assert.equal(lines[1], `  ${zip}:1:2 (price): expected a price on the tick 0.01, from 0.01 to 90071992547409.91, got "60000.001"`);
  assert.equal(lines.length, 1 + 20 + 1);
  assert.equal(lines[21], '  and 6 more');
  assert.equal(error.problems.length, 20);
});

test('startSimulator rejects a bad replay file with the ConfigError before it listens', async () => {
  const file = join(tempDir(), 'BTCUSDT-trades-2025-01-01.csv');
  writeFileSync(file, '1,60000.00,0.01,600,1735689600000,true,true\n2,60000.00,0.01,600,1735689500000,true,true\n');
  await assert.rejects(
    startSimulator({ config: { sim: { port: 0, tls_port: 0, replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: tempDir() } } }),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, new RegExp(`${file}:2:5 \\(time\\): expected a time at or after the row before's \\(1735689600000\\): rows in time order, got "1735689500000"`));
      return true;
    },
  );
});

test('a start reads the file once: a reset after the file is gone still works', async () => {
  const file = join(tempDir(), 'BTCUSDT-aggTrades-2025-01-01.csv');
  writeFileSync(file, readFileSync(join(SAMPLES, 'BTCUSDT-aggTrades-2025-01-01.csv')));
  const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1735689600000, replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: tempDir() } } });
  try {
    rmSync(file);
    sim.reset();
    sim.reset();
  } finally {
    await sim.stop();
  }
});
