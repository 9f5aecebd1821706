// A cache entry read as the replay goes (issue 35: a later worker's start adds under 50 ms, and
// reading a day's 62 MiB entry alone takes several times that here). At start only the rows up to
// a little past `from` are read; the simulator loads the rows each move of the clock may print
// before the core moves (`loadThroughUs`), and reads the rest in the background, a piece at a
// time, so a wall-clock replay rarely waits. Every piece is checked against the Recording's
// promises (columns.ts) before its rows count as loaded, as the whole entry was before.
//
// The entry's file stays open until `close`: the cache directory may be deleted at any time (the
// docs say so), and an open file outlives its name. A piece that cannot be read whole or breaks a
// promise means the entry was damaged after start: `onDamaged` parses the source file again (its
// identity and content hash were checked at start) and the columns are filled from it.
import { closeSync, read, readSync } from 'node:fs';
import type { Recording } from '../core/recording.ts';
import { columnBytes, columnKeepsPromises, columnOffset, COLUMNS, recordingOver } from './columns.ts';

/** Rows read and checked at a time: 1.7 MB of columns, a few milliseconds here. */
export const PIECE_ROWS = 65_536;

/** The whole recording parsed again from its source file, or undefined when that fails. */
export type Reparse = () => Recording | undefined;

export class LazyEntry {
  readonly recording: Recording;
  private loaded = 0;
  private fd: number | null;
  /** The background reading, while it runs. */
  private reading: Promise<void> | null = null;
  private closing = false;

  /**
   * @param fd the entry, open; owned from here on.
   * @param dataStart the byte offset of the columns in the entry (after its header).
   */
  constructor(
    fd: number,
    private readonly dataStart: number,
    symbol: string,
    count: number,
    private readonly everyRowNew: boolean,
    private readonly onDamaged: Reparse,
  ) {
    this.fd = fd;
    const columns = recordingOver(symbol, count);
    const loaded = () => this.loaded;
    this.recording = Object.defineProperty({ ...columns }, 'loadedRows', { get: loaded, enumerable: true });
  }

  /** Loads rows until one recorded at or after `us` is loaded, or every row is (the first piece at least). */
  loadThroughUs(us: number): void {
    const { count, timeUs } = this.recording;
    while (this.loaded < count && (this.loaded === 0 || timeUs[this.loaded - 1]! < us)) this.loadPiece();
  }

  /** Loads every row now. */
  loadAll(): void {
    while (this.loaded < this.recording.count) this.loadPiece();
  }

  /** Reads the rows not yet loaded in the background, a piece at a time, until all are or `close`. */
  loadRestInBackground(): void {
    this.reading ??= this.readRest().finally(() => {
      this.reading = null;
      if (this.closing) this.closeFile();
    });
  }

  /** Settles when the background reading has ended (every row loaded, a damaged piece met, or closed). */
  async backgroundEnded(): Promise<void> {
    await this.reading;
  }

  /** Stops the background reading and closes the file (rows not loaded by then are no longer read). */
  async close(): Promise<void> {
    this.closing = true;
    if (this.reading !== null) await this.reading;
    this.closeFile();
  }

  private closeFile(): void {
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) closeSync(fd);
  }

  private pieceEnd(from: number): number {
    return Math.min(this.recording.count, from + PIECE_ROWS);
  }

  /** The byte views and file positions of rows [from, to), column by column. */
  private pieceParts(from: number, to: number): { view: Uint8Array; position: number }[] {
    const buffer = this.recording.timeUs.buffer;
    const count = this.recording.count;
    return COLUMNS.map((column, c) => {
      const offset = columnOffset(c, count) + from * column.bytes;
      return { view: new Uint8Array(buffer, offset, (to - from) * column.bytes), position: this.dataStart + offset };
    });
  }

  /** Whether rows [from, to), just read, keep the promises (column by column: the aggregates read the others). */
  private keepsPromises(from: number, to: number): boolean {
    for (let c = 0; c < COLUMNS.length; c++) if (!columnKeepsPromises(this.recording, c, from, to, this.everyRowNew)) return false;
    return true;
  }

  /** Reads and checks the next piece synchronously; a damaged entry is replaced by the source's parse. */
  private loadPiece(): void {
    const from = this.loaded;
    const to = this.pieceEnd(from);
    const fd = this.fd;
    const whole = fd !== null && this.pieceParts(from, to).every((part) => readFully(fd, part.view, part.position));
    if (whole && this.keepsPromises(from, to)) this.loaded = to;
    else this.replaceFromSource();
  }

  private replaceFromSource(): void {
    const parsed = this.onDamaged();
    if (parsed === undefined || parsed.count !== this.recording.count) {
      throw new Error(`spot-sim: the replay cache entry of ${this.recording.symbol} was damaged after start, and its file no longer parses as it did at start`);
    }
    const from = columnBytes(parsed);
    columnBytes(this.recording).forEach((column, c) => column.set(from[c]!));
    this.loaded = this.recording.count;
  }

  private async readRest(): Promise<void> {
    while (!this.closing && this.loaded < this.recording.count) {
      const from = this.loaded;
      const to = this.pieceEnd(from);
      const fd = this.fd;
      if (fd === null) return;
      const whole = await Promise.all(this.pieceParts(from, to).map((part) => readFullyAsync(fd, part.view, part.position)));
      // A move of the clock may have loaded these rows meanwhile (the same bytes, read again).
      if (this.closing || this.loaded !== from) continue;
      // A damaged piece is left to `loadPiece`, when (if ever) the replay reaches it.
      if (!whole.every(Boolean) || !this.keepsPromises(from, to)) return;
      this.loaded = to;
    }
  }
}

/** Reads exactly `target.length` bytes at `position`, or returns false. */
export function readFully(fd: number, target: Uint8Array, position: number): boolean {
  let done = 0;
  while (done < target.length) {
    const n = readSync(fd, target, done, target.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

function readFullyAsync(fd: number, target: Uint8Array, position: number): Promise<boolean> {
  return new Promise((resolve) => {
    const next = (done: number): void => {
      if (done === target.length) return resolve(true);
      read(fd, target, done, target.length - done, position + done, (error, n) => (error !== null || n === 0 ? resolve(false) : next(done + n)));
    };
    next(0);
  });
}
