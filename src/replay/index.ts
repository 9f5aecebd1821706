// The recorded days a configuration replays (API.md section 12), loaded once per start, before
// anything listens, and never again (a reset reuses them): each `[[sim.replay]]` file read from
// the cache when its content was parsed before, else read (the .zip's one .csv, or the .csv),
// checked row by row on the instrument's grids and cached. Every problem of every file is
// collected into one ConfigError naming file, line and column (the command line exits 2), so
// nothing is served half-loaded.
import { readFileSync, statSync, type BigIntStats } from 'node:fs';
import { replayFormatOf } from '../config/replay.ts';
import type { Config, InstrumentConfig, ReplayConfig } from '../config/types.ts';
import type { Recording } from '../core/recording.ts';
import { stepDecimals } from '../core/units.ts';
import { FileProblems, failureReason } from '../file-problems.ts';
import { contentHashOf, defaultCacheDir, readEntry, rememberedHash, rememberHash, writeEntry, type EntryKey } from './cache.ts';
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

/** The recording of each replayed symbol; throws one ConfigError naming every problem of every file. */
export function loadRecordings(config: Config, nowMs: number = Date.now()): ReadonlyMap<string, Recording> {
  const problems = new FileProblems();
  const recordings = new Map<string, Recording>();
  const cacheDir = config.sim.replay_cache_dir ?? defaultCacheDir();
  config.sim.replay.forEach((entry, i) => {
    const inst = config.instruments.find((candidate) => candidate.symbol === entry.symbol)!;
    const recording = loadOne(entry, `${SOURCE}[${i}].file`, inst, cacheDir, nowMs, problems);
    if (recording !== undefined) recordings.set(entry.symbol, recording);
  });
  problems.throwIfAny(SOURCE);
  return recordings;
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

/** One entry's recording: from the cache when its file was parsed before, else parsed (and cached). */
function loadOne(entry: ReplayConfig, keyPath: string, inst: InstrumentConfig, cacheDir: string, nowMs: number, problems: FileProblems): Recording | undefined {
  const { file, symbol } = entry;
  const stat = statOf(file, keyPath, problems);
  if (stat === undefined) return undefined;
  const format = replayFormatOf(entry)!; // the configuration checked that one is known
  const grid: Grid = { tick: inst.tick, lot: inst.lot, tickDecimals: stepDecimals(inst.tick), lotDecimals: stepDecimals(inst.lot) };
  const keyOf = (contentHash: string): EntryKey => ({ contentHash, format, tickDecimals: grid.tickDecimals, lotDecimals: grid.lotDecimals });

  // A later worker or run: the file is as it was when its hash was remembered.
  const remembered = rememberedHash(cacheDir, file, stat);
  const cached = remembered === undefined ? undefined : readEntry(cacheDir, keyOf(remembered), symbol);
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
  const sameContent = remembered === contentHash ? undefined : readEntry(cacheDir, key, symbol);
  if (sameContent !== undefined) return sameContent;
  let csv: Uint8Array = bytes;
  if (/\.zip$/i.test(file)) {
    const zip = readSingleCsvEntry(bytes, MAX_FILE_BYTES);
    if (!zip.ok) {
      problems.add(file, zip.problem);
      return undefined;
    }
    csv = zip.data;
  }
  const recording = readTradesCsv(csv, file, format, symbol, grid, problems);
  if (recording !== undefined) writeEntry(cacheDir, key, recording);
  return recording;
}
