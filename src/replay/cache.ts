// The compact binary cache of parsed replay files (API.md section 12: "later workers and runs
// start from a compact binary cache of it, keyed by the file's content hash"). An entry is a
// 64-byte header and the Recording's columns as they lie in memory (columns.ts), so a start
// reads it straight into the buffer the columns view, a piece at a time as the replay reaches
// the rows (lazy-entry.ts). Its name carries the SHA-256 of the
// file's bytes, the kind and the instrument's grids (the columns are in ticks and lots); the
// header repeats them and the columns are checked against the Recording's promises, so an
// entry that is stale, cut short, of another version or corrupt is ignored and written anew.
//
// Hashing a day's .zip costs more than reading its entry, so the hash of a file is remembered
// by its identity (device, inode, size, modification and change times; as git's index does),
// and only a file whose identity changed is hashed again. Writers never collide: each writes a
// file of its own and renames it over the entry (atomic), so concurrent workers that parse the
// same file leave one whole entry and a reader never sees half of one (a writer that died leaves
// its own file, removed an hour later). Any error of the cache (a read-only or missing
// directory) only costs the parse; it never fails a start. Entries are never evicted: the
// directory may be deleted at any time.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, rmSync, statSync, type BigIntStats } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { endianness, homedir } from 'node:os';
import { join } from 'node:path';
import type { ReplayFormat } from '../config/replay.ts';
import type { Recording } from '../core/recording.ts';
import { BYTES_PER_PRINT, columnBytes } from './columns.ts';
import { LazyEntry, readFully, type Reparse } from './lazy-entry.ts';

const MAGIC = 'SPOTSIM-REPLAY\0\0';
/** Bumped whenever the layout or the parse changes what an entry holds. */
const VERSION = 1;
const HEADER_BYTES = 64;
const HASH_BYTES = 32;
/** An identity record is a few hundred bytes; anything larger is not one. */
const MAX_IDENTITY_BYTES = 4096;
/**
 * A file changed less than this long before its identity is recorded could change again within
 * the same timestamp tick unseen (git's "racy" case): its hash is then not remembered.
 */
const RACY_MS = 3000n;
/** The columns are stored as this machine holds them: little-endian, as every platform Node runs on today. */
const NATIVE_LITTLE_ENDIAN = endianness() === 'LE';

/** What an entry's columns depend on besides the file's bytes. */
export interface EntryKey {
  /** SHA-256 of the file's bytes, hex. */
  readonly contentHash: string;
  readonly format: ReplayFormat;
  readonly tickDecimals: number;
  readonly lotDecimals: number;
}

/** The platform's per-user cache directory (as Playwright keeps its browsers), spot-sim/replay in it. */
export function defaultCacheDir(): string {
  const home = homedir();
  if (process.platform === 'win32') return join(process.env['LOCALAPPDATA'] || join(home, 'AppData', 'Local'), 'spot-sim', 'replay');
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'spot-sim', 'replay');
  return join(process.env['XDG_CACHE_HOME'] || join(home, '.cache'), 'spot-sim', 'replay');
}

export function contentHashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function entryName(key: EntryKey): string {
  return `${key.contentHash}-${key.format}-t${key.tickDecimals}-l${key.lotDecimals}.v${VERSION}.bin`;
}

function header(key: EntryKey, count: number): Buffer {
  const out = Buffer.alloc(HEADER_BYTES);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(VERSION, 16);
  out.writeUInt8(key.format === 'aggTrades' ? 0 : 1, 20);
  out.writeUInt8(key.tickDecimals, 21);
  out.writeUInt8(key.lotDecimals, 22);
  out.writeDoubleLE(count, 24);
  Buffer.from(key.contentHash, 'hex').copy(out, 32, 0, HASH_BYTES);
  return out;
}

/**
 * The cached columns of `key`, opened: the header checked (this key's, a whole count, the file
 * exactly header + columns) and no row read yet (lazy-entry.ts); undefined when there is no
 * sound entry. `reparse` is the source's parse, for an entry damaged after this check.
 */
export function openEntry(dir: string, key: EntryKey, symbol: string, reparse: Reparse): LazyEntry | undefined {
  if (!NATIVE_LITTLE_ENDIAN) return undefined;
  let fd: number;
  try {
    fd = openSync(join(dir, entryName(key)), 'r');
  } catch {
    return undefined;
  }
  try {
    const expected = header(key, 0);
    const found = Buffer.alloc(HEADER_BYTES);
    if (readFully(fd, found, 0)) {
      const count = found.readDoubleLE(24);
      found.writeDoubleLE(0, 24);
      if (found.equals(expected) && Number.isSafeInteger(count) && count >= 1 && fstatSync(fd).size === HEADER_BYTES + BYTES_PER_PRINT * count) {
        return new LazyEntry(fd, HEADER_BYTES, symbol, count, key.format === 'aggTrades', reparse);
      }
    }
  } catch {
    // Unreadable: as no entry.
  }
  closeSync(fd);
  return undefined;
}

/**
 * Writes `parts` through a file of its own renamed over `name`; false (and nothing left behind)
 * on any error. In the thread pool: a start does not wait for its entry to be written.
 */
async function writeAtomically(dir: string, name: string, parts: readonly Uint8Array[]): Promise<boolean> {
  const temporary = join(dir, `${name}.${process.pid}.${randomUUID()}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const file = await open(temporary, 'w');
    try {
      // Part by part: the columns are written from where they lie, never copied into one buffer.
      for (const part of parts) for (let done = 0; done < part.length; ) done += (await file.write(part, done)).bytesWritten;
    } finally {
      await file.close();
    }
    await rename(temporary, join(dir, name));
    return true;
  } catch {
    // Nothing was written where nothing can be (a path under a file: ENOTDIR), or it goes.
    await rm(temporary, { force: true }).catch(() => undefined);
    return false;
  }
}

/** Stores the columns of `key` (best effort: a cache that cannot be written costs only time). */
export async function writeEntry(dir: string, key: EntryKey, recording: Recording, nowMs = Date.now()): Promise<boolean> {
  if (!NATIVE_LITTLE_ENDIAN) return false;
  sweepAbandoned(dir, nowMs);
  return writeAtomically(dir, entryName(key), [header(key, recording.count), ...columnBytes(recording)]);
}

/** A writer that died between writing and renaming left its file: gone once it is this old. */
const ABANDONED_MS = 3_600_000;

/** Removes the temporary files of writers that died (an entry is written rarely: this is cheap). */
function sweepAbandoned(dir: string, nowMs: number): void {
  try {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.tmp')) continue;
      const path = join(dir, name);
      if (nowMs - statSync(path).mtimeMs > ABANDONED_MS) rmSync(path, { force: true });
    }
  } catch {
    // No directory yet, or one being swept by another worker: nothing to do.
  }
}

/** A file's identity: what changes whenever its bytes may have. */
function identityOf(path: string, stat: BigIntStats): string {
  return JSON.stringify({ path, dev: String(stat.dev), ino: String(stat.ino), size: String(stat.size), mtimeNs: String(stat.mtimeNs), ctimeNs: String(stat.ctimeNs) });
}

function identityName(path: string): string {
  return `file-${createHash('sha256').update(path).digest('hex').slice(0, 40)}.json`;
}

/** The content hash remembered for the file at `path` as `stat` describes it, if any. */
export function rememberedHash(dir: string, path: string, stat: BigIntStats): string | undefined {
  try {
    const record = join(dir, identityName(path));
    if (statSync(record).size > MAX_IDENTITY_BYTES) return undefined;
    const text = readFileSync(record, 'utf8');
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { identity, contentHash } = parsed as { identity?: unknown; contentHash?: unknown };
    return identity === identityOf(path, stat) && typeof contentHash === 'string' && /^[0-9a-f]{64}$/.test(contentHash) ? contentHash : undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the content hash of the file at `path` (unless it changed too recently to trust its times). */
export async function rememberHash(dir: string, path: string, stat: BigIntStats, contentHash: string, nowMs: number): Promise<void> {
  const changedMs = (stat.ctimeNs > stat.mtimeNs ? stat.ctimeNs : stat.mtimeNs) / 1_000_000n;
  if (BigInt(Math.floor(nowMs)) - changedMs < RACY_MS) return;
  await writeAtomically(dir, identityName(path), [Buffer.from(JSON.stringify({ identity: identityOf(path, stat), contentHash }))]);
}
