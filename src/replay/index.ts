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
import { readTradesCsv, type Grid } from './trades-file.ts';
import { readSingleCsvEntry } from './zip.ts';

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
 * past `from` plus one published millisecond (what a new core reads: its history and first
 * prints); throws one ConfigError naming every problem of every file.
 */
export function openRecordings(config: Config, nowMs: number = Date.now()): OpenRecordings {
  const problems = new FileProblems();
  const recordings = new Map<string, Recording>();
  const lazy = new Map<string, LazyEntry>();
  const cacheDir = config.sim.replay_cache_dir ?? defaultCacheDir();
  config.sim.replay.forEach((entry, i) => {
    const inst = config.instruments.find((candidate) => candidate.symbol === entry.symbol)!;
    const opened = loadOne(entry, `${SOURCE}[${i}].file`, inst, cacheDir, nowMs, problems);
    if (opened instanceof LazyEntry) {
      loadStart(opened, entry);
      lazy.set(entry.symbol, opened);
      recordings.set(entry.symbol, opened.recording);
    } else if (opened !== undefined) recordings.set(entry.symbol, opened);
  });
  if (problems.total > 0) {
    for (const entry of lazy.values()) void entry.close();
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
      await Promise.all([...lazy.values()].map((entry) => entry.close()));
    },
  };
}

/** The recording of each replayed symbol, every row loaded; throws one ConfigError naming every problem of every file. */
export function loadRecordings(config: Config, nowMs: number = Date.now()): ReadonlyMap<string, Recording> {
  const open = openRecordings(config, nowMs);
  try {
    open.loadThrough([...open.recordings.keys()].map((symbol) => ({ symbol, throughUs: Infinity })));
  } finally {
    void open.close();
  }
  return open.recordings;
}

/** The rows a new core reads at start: through the first row at or past `from` plus one published millisecond (counterparty/replay.ts). */
function loadStart(entry: LazyEntry, config: ReplayConfig): void {
  entry.loadThroughUs(-Infinity); // the first piece: the first row's time
  const fromUs = config.from === null ? entry.recording.timeUs[0]! : config.from * 1000;
  entry.loadThroughUs(fromUs + 1000 * config.speed);
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
 * needed), else parsed (and cached).
 */
function loadOne(entry: ReplayConfig, keyPath: string, inst: InstrumentConfig, cacheDir: string, nowMs: number, problems: FileProblems): Recording | LazyEntry | undefined {
  const { file, symbol } = entry;
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
    const parsed = parseBytes(bytes, file, format, symbol, grid, new FileProblems());
    if (parsed !== undefined) writeEntry(cacheDir, key, parsed);
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
  rememberHash(cacheDir, file, stat, contentHash, nowMs);
  const key = keyOf(contentHash);
  // The same bytes at another path, or the file changed back, were parsed before.
  const sameContent = remembered === contentHash ? undefined : openEntry(cacheDir, key, symbol, reparse(key));
  if (sameContent !== undefined) return sameContent;
  const recording = parseBytes(bytes, file, format, symbol, grid, problems);
  if (recording !== undefined) writeEntry(cacheDir, key, recording);
  return recording;
}

/** The file's rows parsed (the .zip's one .csv, or the .csv), or undefined with its problems noted. */
function parseBytes(bytes: Buffer, file: string, format: ReplayFormat, symbol: string, grid: Grid, problems: FileProblems): Recording | undefined {
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
