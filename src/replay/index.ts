// The recorded days a configuration replays (API.md section 12), opened once per start, before
// anything listens, and never again (a reset reuses them): each `[[sim.replay]]` file read from
// the cache when its content was parsed before (lazily: the rows up to a little past `from` at
// start, the rest as the replay reaches them and in the background; lazy-entry.ts), else read
// (the .zip's one .csv, or the .csv), checked row by row on the instrument's grids and cached.
// Every problem of every file is collected into one ConfigError naming file, line and column
// (the command line exits 2), so nothing is served half-loaded.
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { replayFormatOf, type ReplayFormat } from '../config/replay.ts';
import type { Config, InstrumentConfig, ReplayConfig } from '../config/types.ts';
import type { Recording } from '../core/recording.ts';
import { stepDecimals } from '../core/units.ts';
import { FileProblems, failureReason } from '../file-problems.ts';
import { contentHashOf, defaultCacheDir, openEntry, rememberedHash, rememberHash, writeEntry, type EntryKey } from './cache.ts';
import { LazyEntry } from './lazy-entry.ts';
import { countLines, readTradesCsv, TradesCsvParser, type Grid } from './trades-file.ts';
import { locateSingleCsvEntry, readSingleCsvEntry } from './zip.ts';
import { inflateEntry } from './zip-stream.ts';

export type { Recording } from '../core/recording.ts';
export { BYTES_PER_PRINT } from './columns.ts';
export { defaultCacheDir } from './cache.ts';

const SOURCE = 'sim.replay';
/**
 * The largest file, and the largest .csv inside a .zip, read: 2 GiB, about 25 million trades
 * (a busy day of the busiest symbol is a few million; a month's file is refused with this reason).
 */
export const MAX_FILE_BYTES = 2 ** 31;

/** The recordings of a start, some still being read from the cache (lazy-entry.ts). */
export interface OpenRecordings {
  /** By symbol. */
  readonly recordings: ReadonlyMap<string, Recording>;
  /** Loads each symbol's rows through the recorded time (µs) the next move of the clock needs (Exchange.recordedTimeNeeded). */
  loadThrough(needs: readonly { readonly symbol: string; readonly throughUs: number }[]): void;
  /** Reads the rows not yet loaded in the background, until all are or `close`. */
  loadRestInBackground(): void;
  /** @internal Settles when the background reading has ended (tests and benchmarks wait on it). */
  backgroundEnded(): Promise<void>;
  /** Stops reading and closes the cache entries (after this, no row is loaded any more). */
  close(): Promise<void>;
}

/**
 * The recording of each replayed symbol, each holding at least its rows through the first one
 * past `from` plus two published milliseconds (what a new core reads: its history and first
 * prints); throws one ConfigError naming every problem of every file.
 */
export async function openRecordings(config: Config, nowMs: number = Date.now()): Promise<OpenRecordings> {
  const problems = new FileProblems();
  const recordings = new Map<string, Recording>();
  const lazy = new Map<string, LazyEntry>();
  const cacheDir = config.sim.replay_cache_dir ?? defaultCacheDir();
  // The cache's writes, in the thread pool: a start does not wait for them, `close` does.
  const writes: Promise<unknown>[] = [];
  for (const [i, entry] of config.sim.replay.entries()) {
    const inst = config.instruments.find((candidate) => candidate.symbol === entry.symbol)!;
    const opened = await loadOne(entry, `${SOURCE}[${i}].file`, inst, { dir: cacheDir, writes }, nowMs, problems);
    if (opened instanceof LazyEntry) {
      loadStart(opened, entry);
      lazy.set(entry.symbol, opened);
      recordings.set(entry.symbol, opened.recording);
    } else if (opened !== undefined) recordings.set(entry.symbol, opened);
  }
  if (problems.total > 0) {
    await Promise.all([...[...lazy.values()].map((entry) => entry.close()), ...writes]);
    problems.throwIfAny(SOURCE);
  }
  return {
    recordings,
    loadThrough(needs) {
      for (const need of needs) lazy.get(need.symbol)?.loadThroughUs(need.throughUs);
    },
    loadRestInBackground() {
      for (const entry of lazy.values()) entry.loadRestInBackground();
    },
    async backgroundEnded() {
      await Promise.all([...lazy.values()].map((entry) => entry.backgroundEnded()));
    },
    async close() {
      await Promise.all([...[...lazy.values()].map((entry) => entry.close()), ...writes]);
    },
  };
}

/** The recording of each replayed symbol, every row loaded; throws one ConfigError naming every problem of every file. */
export async function loadRecordings(config: Config, nowMs: number = Date.now()): Promise<ReadonlyMap<string, Recording>> {
  const open = await openRecordings(config, nowMs);
  try {
    open.loadThrough([...open.recordings.keys()].map((symbol) => ({ symbol, throughUs: Infinity })));
  } finally {
    await open.close();
  }
  return open.recordings;
}

/**
 * The rows a new core reads at start (its history, and the prints due at once): through the first
 * row at or past `from` plus two published milliseconds, as ReplayCounterparty.recordedTimeNeeded
 * asks for the start instant.
 */
function loadStart(entry: LazyEntry, config: ReplayConfig): void {
  entry.loadThroughUs(-Infinity); // the first piece: the first row's time
  const fromUs = config.from === null ? entry.recording.timeUs[0]! : config.from * 1000;
  entry.loadThroughUs(fromUs + 2 * 1000 * config.speed);
}

const READABLE = "a readable spot aggTrades or trades file of the reference's public data";

/** The file's metadata, or undefined with its problem noted (missing, a directory, too large). */
function statOf(file: string, keyPath: string, problems: FileProblems): BigIntStats | undefined {
  let stat: BigIntStats;
  try {
    stat = statSync(file, { bigint: true });
  } catch (error) {
    problems.add(keyPath, READABLE, `${JSON.stringify(file)} (${failureReason(error)})`);
    return undefined;
  }
  if (!stat.isFile()) problems.add(keyPath, READABLE, `${JSON.stringify(file)} (not a file)`);
  else if (stat.size > BigInt(MAX_FILE_BYTES)) problems.add(keyPath, `a file of at most ${MAX_FILE_BYTES} bytes (a day's file)`, `${JSON.stringify(file)} (${stat.size} bytes)`);
  else return stat;
  return undefined;
}

/**
 * One entry's recording: from the cache when its file was parsed before (opened, rows loaded as
 * needed), else parsed (and cached in the background).
 */
async function loadOne(entry: ReplayConfig, keyPath: string, inst: InstrumentConfig, cache: { dir: string; writes: Promise<unknown>[] }, nowMs: number, problems: FileProblems): Promise<Recording | LazyEntry | undefined> {
  const { file, symbol } = entry;
  const cacheDir = cache.dir;
  const stat = statOf(file, keyPath, problems);
  if (stat === undefined) return undefined;
  const format = replayFormatOf(entry)!; // the configuration checked that one is known
  const grid: Grid = { tick: inst.tick, lot: inst.lot, tickDecimals: stepDecimals(inst.tick), lotDecimals: stepDecimals(inst.lot) };
  const keyOf = (contentHash: string): EntryKey => ({ contentHash, format, tickDecimals: grid.tickDecimals, lotDecimals: grid.lotDecimals });
  // An entry found damaged once opened: the file parsed again if its bytes are still those the
  // entry was made from, and the entry written anew.
  const reparse = (key: EntryKey) => () => {
    const bytes = readQuietly(file);
    if (bytes === undefined || contentHashOf(bytes) !== key.contentHash) return undefined;
    const parsed = parseNow(bytes, file, format, symbol, grid, new FileProblems());
    if (parsed !== undefined) cache.writes.push(writeEntry(cacheDir, key, parsed));
    return parsed;
  };

  // A later worker or run: the file is as it was when its hash was remembered.
  const remembered = rememberedHash(cacheDir, file, stat);
  const cached = remembered === undefined ? undefined : openEntry(cacheDir, keyOf(remembered), symbol, reparse(keyOf(remembered)));
  if (cached !== undefined) return cached;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    problems.add(keyPath, READABLE, `${JSON.stringify(file)} (${failureReason(error)})`);
    return undefined;
  }
  const contentHash = contentHashOf(bytes);
  cache.writes.push(rememberHash(cacheDir, file, stat, contentHash, nowMs));
  const key = keyOf(contentHash);
  // The same bytes at another path, or the file changed back, were parsed before.
  const sameContent = remembered === contentHash ? undefined : openEntry(cacheDir, key, symbol, reparse(key));
  if (sameContent !== undefined) return sameContent;
  const recording = await parse(bytes, file, format, symbol, grid, problems);
  if (recording !== undefined) cache.writes.push(writeEntry(cacheDir, key, recording));
  return recording;
}

/**
 * The file's rows (the .zip's one .csv, or the .csv), or undefined with its problems noted; a
 * .zip's rows are read while it inflates (zip-stream.ts).
 */
async function parse(bytes: Buffer, file: string, format: ReplayFormat, symbol: string, grid: Grid, problems: FileProblems): Promise<Recording | undefined> {
  if (!/\.zip$/i.test(file)) return readTradesCsv(bytes, file, format, symbol, grid, problems);
  const entry = locateSingleCsvEntry(bytes, MAX_FILE_BYTES);
  if (!entry.ok) {
    problems.add(file, entry.problem);
    return undefined;
  }
  // The rows' problems count only if the entry turns out whole and sound (as when it is inflated first).
  const rowProblems = new FileProblems();
  const parser = new TradesCsvParser(file, format, symbol, grid, rowProblems, (firstPiece, dataStart) => estimatedRows(firstPiece, dataStart, entry.size));
  const inflated = await inflateEntry(entry, (piece) => parser.push(piece, false));
  if (!inflated.ok) {
    problems.add(file, inflated.problem);
    return undefined;
  }
  parser.push(EMPTY, true);
  const recording = parser.finish();
  problems.addAll(rowProblems);
  return recording;
}

const EMPTY = new Uint8Array(0);

/** Rows to make room for: the lines of the first piece, scaled to the declared size (the columns grow if more come). */
function estimatedRows(firstPiece: Uint8Array, dataStart: number, size: number): number {
  const seen = firstPiece.length - dataStart;
  return seen <= 0 ? 1024 : Math.ceil(countLines(firstPiece, dataStart) * ((size - dataStart) / seen) * 1.02) + 16;
}

/** The same, all at once (an entry damaged after start, re-read while the clock waits). */
function parseNow(bytes: Buffer, file: string, format: ReplayFormat, symbol: string, grid: Grid, problems: FileProblems): Recording | undefined {
  let csv: Uint8Array = bytes;
  if (/\.zip$/i.test(file)) {
    const zip = readSingleCsvEntry(bytes, MAX_FILE_BYTES);
    if (!zip.ok) {
      problems.add(file, zip.problem);
      return undefined;
    }
    csv = zip.data;
  }
  return readTradesCsv(csv, file, format, symbol, grid, problems);
}

function readQuietly(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
