// A .zip's one .csv inflated in the background while its rows are read (issue 35 item 6: a day
// loads from the .zip in under 2 s). node:zlib's stream inflates in the thread pool, a piece at a
// time, and the caller reads each piece right after zlib has been handed the next one, so reading
// and inflating overlap instead of adding up. The pieces are never gathered into one buffer: the
// first touch of a fresh 206 MiB buffer alone cost about a second here, as much as the parse.
// (zlib's one-shot inflateRawSync is slower here than its stream: it gathers its output; a worker
// thread running the stream gained nothing over this.) The checks are readSingleCsvEntry's
// (zip.ts): the declared size bounds the output (zlib is stopped as soon as it is passed), the
// CRC-32 is checked as the bytes come, and zlib's refusal is the reason.
import * as zlib from 'node:zlib';
import { checkedEntry, crc32, inflatesBeyond, notInflating, type LocatedEntry, type ZipEntry } from './zip.ts';

/** Inflated bytes per piece of zlib's work: few callbacks, and the reader never far behind. */
const CHUNK_BYTES = 256 * 1024;

/** An entry read piece by piece: whether it was whole and sound (readSingleCsvEntry's verdict, without the data). */
export type StreamedEntry = { readonly ok: true; readonly name: string; readonly size: number } | { readonly ok: false; readonly problem: string };

/**
 * Inflates the entry, handing each piece of its data in order to `onPiece` (right after zlib has
 * been handed its next piece of work); its verdict once all is inflated. After a refusal no
 * piece comes.
 */
export function inflateEntry(entry: LocatedEntry, onPiece: (piece: Buffer) => void): Promise<StreamedEntry> {
  if (!entry.deflated) {
    const verdict = checkedEntry(entry, entry.stored, entry.stored.length, crc32(entry.stored));
    if (verdict.ok) onPiece(entry.stored);
    return Promise.resolve(verdictOf(verdict, entry));
  }
  return new Promise((resolve) => {
    const waiting: Buffer[] = [];
    let filled = 0;
    let crc = 0;
    let done = false;
    let reading: NodeJS.Immediate | null = null;
    const read = () => {
      reading = null;
      for (const piece of waiting.splice(0)) onPiece(piece);
    };
    const finish = (verdict: ZipEntry) => {
      if (done) return;
      done = true;
      if (reading !== null) clearImmediate(reading);
      // The pieces not read yet, before the verdict (a refusal drops them: nothing of it is used).
      if (verdict.ok) read();
      resolve(verdictOf(verdict, entry));
    };
    const inflater = zlib.createInflateRaw({ chunkSize: CHUNK_BYTES });
    inflater.on('data', (chunk: Buffer) => {
      if (done) return;
      if (filled + chunk.length > entry.size) {
        inflater.destroy();
        return finish(inflatesBeyond(entry));
      }
      crc = crc32(chunk, crc);
      filled += chunk.length;
      waiting.push(chunk);
      reading ??= setImmediate(read);
    });
    inflater.on('error', (error) => finish(notInflating(error)));
    inflater.on('end', () => finish(checkedEntry(entry, EMPTY, filled, crc)));
    inflater.end(entry.stored);
  });
}

const EMPTY = Buffer.alloc(0);

function verdictOf(verdict: ZipEntry, entry: LocatedEntry): StreamedEntry {
  return verdict.ok ? { ok: true, name: verdict.name, size: entry.size } : verdict;
}
