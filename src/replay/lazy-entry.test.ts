// A start from the replay cache reads only the rows it needs (issue 35: a later worker's start
// adds < 50 ms): the rows through a little past `from` at start, more as the clock asks, the rest
// in the background; every row loaded equals the parse's, and an entry damaged after start is
// replaced by the source file's parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, openSync, readdirSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregates, aggTradesCsv } from '../../scripts/replay/synthetic-trades.ts';
import { resolveConfig } from '../config/index.ts';
import type { Recording } from '../core/recording.ts';
import { openRecordings, type OpenRecordings } from './index.ts';
import { PIECE_ROWS } from './lazy-entry.ts';

const ROWS = 3 * PIECE_ROWS + 1000;
const START_US = Date.UTC(2025, 0, 1) * 1000;
const GAP_US = 500_000;

/** A µs aggTrades file of ROWS rows, one every GAP_US on average, in a directory of its own. */
function bigFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'spot-sim-lazy-')), 'BTCUSDT-aggTrades-2025-01-01.csv');
  const tape = aggregates({ seed: 5, startUs: START_US, aggregates: ROWS, meanGapUs: GAP_US, resolutionUs: 1, startPriceTicks: 9_350_000, volatilityTicks: 150 });
  writeFileSync(file, [...aggTradesCsv(tape, { unit: 'us', header: false, crlf: false })].join(''));
  return file;
}

const FILE = bigFile();
const LATER = Date.now() + 60_000;

function open(cacheDir: string, from: number | null = null): Promise<OpenRecordings> {
  const replay = [{ symbol: 'BTCUSDT', file: FILE, ...(from === null ? {} : { from }) }];
  return openRecordings(resolveConfig({ sim: { replay, replay_cache_dir: cacheDir } }), LATER);
}

/** A cache holding the file's entry (and its hash remembered), and the parse it was made from. */
async function primed(): Promise<{ cacheDir: string; parsed: Recording }> {
  const cacheDir = mkdtempSync(join(tmpdir(), 'spot-sim-lazy-cache-'));
  const first = await open(cacheDir);
  const parsed = first.recordings.get('BTCUSDT')!;
  await first.close(); // the entry is written by then
  assert.equal(parsed.loadedRows, ROWS, 'a parse holds every row');
  return { cacheDir, parsed };
}

function sameRows(a: Recording, b: Recording, to: number): void {
  for (const column of ['timeUs', 'price', 'qty', 'buyerIsMaker', 'newAggregate'] as const) {
    assert.deepEqual(a[column].subarray(0, to), b[column].subarray(0, to), column);
  }
}

test('a start from the cache reads one piece; the clock asks for more, a piece at a time, and the rows are the parse\'s', async () => {
  const { cacheDir, parsed } = await primed();
  const later = await open(cacheDir);
  const recording = later.recordings.get('BTCUSDT')!;
  try {
    assert.equal(recording.count, ROWS);
    assert.equal(recording.loadedRows, PIECE_ROWS, 'the first piece only');
    sameRows(recording, parsed, PIECE_ROWS);
    const wanted = parsed.timeUs[PIECE_ROWS + 10]!;
    later.loadThrough([{ symbol: 'BTCUSDT', throughUs: wanted }]);
    assert.equal(recording.loadedRows, 2 * PIECE_ROWS);
    assert.ok(recording.timeUs[recording.loadedRows - 1]! >= wanted, 'through the first row at or past the time asked');
    later.loadThrough([{ symbol: 'ETHUSDT', throughUs: Infinity }]); // not replayed: nothing to do
    assert.equal(recording.loadedRows, 2 * PIECE_ROWS);
    later.loadRestInBackground();
    await later.backgroundEnded();
    assert.equal(recording.loadedRows, ROWS);
    sameRows(recording, parsed, ROWS);
  } finally {
    await later.close();
  }
});

test('a later `from` loads the rows before it (the history) and the first published milliseconds after it', async () => {
  const { cacheDir, parsed } = await primed();
  const fromRow = 2 * PIECE_ROWS + 5;
  const from = Math.ceil(parsed.timeUs[fromRow]! / 1000);
  const later = await open(cacheDir, from);
  const recording = later.recordings.get('BTCUSDT')!;
  try {
    assert.equal(recording.loadedRows, 3 * PIECE_ROWS);
    sameRows(recording, parsed, 3 * PIECE_ROWS);
  } finally {
    await later.close();
  }
});

test('a piece damaged after start is replaced by the file parsed again; the background reading stops before it', async () => {
  const { cacheDir, parsed } = await primed();
  const later = await open(cacheDir);
  const recording = later.recordings.get('BTCUSDT')!;
  try {
    // A time in the third piece made to go backwards (a promise broken), in the entry on disk.
    const entry = join(cacheDir, readdirSync(cacheDir).find((name) => name.endsWith('.bin'))!);
    const fd = openSync(entry, 'r+');
    const damaged = Buffer.alloc(8);
    damaged.writeDoubleLE(1);
    writeSync(fd, damaged, 0, 8, 64 + 8 * (2 * PIECE_ROWS + 7));
    closeSync(fd);
    later.loadRestInBackground();
    await later.backgroundEnded();
    assert.equal(recording.loadedRows, 2 * PIECE_ROWS, 'the background reading stops at the damaged piece');
    later.loadThrough([{ symbol: 'BTCUSDT', throughUs: Infinity }]);
    assert.equal(recording.loadedRows, ROWS);
    sameRows(recording, parsed, ROWS);
  } finally {
    await later.close();
  }
});

test('close stops the background reading and closes the entry', async () => {
  const { cacheDir } = await primed();
  const later = await open(cacheDir);
  later.loadRestInBackground();
  await later.close();
  const recording = later.recordings.get('BTCUSDT')!;
  assert.ok(recording.loadedRows < ROWS, 'stopped before the end');
  await later.close(); // twice: no error
});
