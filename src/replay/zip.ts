// The one .csv inside a .zip of the reference's public data (API.md section 12: "A .zip holds
// exactly one .csv"), read with node:zlib. The archive is untrusted bytes: every offset and
// length is checked against the buffer before it is used, the inflated size is bounded by the
// size the archive declares (itself bounded by the caller), and the entry's CRC-32 is checked,
// so a truncated, corrupt or hostile archive is a refusal with a reason, never a crash or an
// unbounded allocation. Read: the end-of-central-directory record, the central directory's one
// entry, its local header and data (PKWARE APPNOTE.TXT 4.3). Not read: zip64, several disks,
// encryption, compression other than stored or deflate (the public files use none of them).
import * as zlib from 'node:zlib';

export type ZipEntry = { readonly ok: true; readonly name: string; readonly data: Buffer } | { readonly ok: false; readonly problem: string };

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const STORED = 0;
const DEFLATED = 8;
/** General-purpose flag bits: 0 encrypted, 6 strong encryption. */
const ENCRYPTED_FLAGS = 0x41;
/** Names are shown in messages: this long at most. */
const MAX_SHOWN_NAME = 80;

function refuse(problem: string): { readonly ok: false; readonly problem: string } {
  return { ok: false, problem };
}

/** The end-of-central-directory record's offset: the last signature whose comment ends the file. */
function findEndRecord(zip: Buffer): number {
  const lowest = Math.max(0, zip.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = zip.length - EOCD_SIZE; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === EOCD_SIGNATURE && at + EOCD_SIZE + zip.readUInt16LE(at + 20) === zip.length) return at;
  }
  return -1;
}

function shownName(raw: Buffer): string {
  const text = raw.toString('utf8');
  return JSON.stringify(text.length > MAX_SHOWN_NAME ? `${text.slice(0, MAX_SHOWN_NAME - 3)}...` : text);
}

/** The single `.csv` entry of a .zip, found and checked, not yet inflated. */
export interface LocatedEntry {
  readonly ok: true;
  readonly name: string;
  readonly deflated: boolean;
  /** The entry's data as stored (deflated, or the .csv itself). */
  readonly stored: Buffer;
  /** The size it declares once inflated, and its CRC-32. */
  readonly size: number;
  readonly crc: number;
}

/**
 * The data of the single `.csv` entry of `zip`, or why there is none. `maxBytes` bounds the
 * inflated size (checked against the declared size before inflating, and by zlib while it does).
 */
export function readSingleCsvEntry(zip: Buffer, maxBytes: number): ZipEntry {
  const entry = locateSingleCsvEntry(zip, maxBytes);
  if (!entry.ok) return entry;
  let data: Buffer = entry.stored;
  if (entry.deflated) {
    try {
      // One byte of headroom: zlib stops there, so an entry that inflates to more than it declares is never inflated whole.
      data = zlib.inflateRawSync(entry.stored, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch (error) {
      return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? inflatesBeyond(entry) : notInflating(error);
    }
  }
  return checkedEntry(entry, data, data.length, crc32(data));
}

/** An entry whose data inflates to more than the size it declares (stopped there: no zip bomb). */
export function inflatesBeyond(entry: LocatedEntry): ZipEntry {
  return refuse(`a .zip entry that inflates to the size it declares (${entry.size} bytes; it inflates to more)`);
}

/** An entry that does not inflate: zlib's reason, its first line, bounded. */
export function notInflating(error: unknown): ZipEntry {
  return refuse(`a .zip entry that inflates (${(error as Error).message.split('\n')[0]!.slice(0, 80)})`);
}

/** The entry of `data` (inflated to `inflated` bytes with this CRC-32) if it is the one declared. */
export function checkedEntry(entry: LocatedEntry, data: Buffer, inflated: number, crc: number): ZipEntry {
  if (inflated !== entry.size) return refuse(`a .zip entry of the size it declares (${entry.size} bytes, inflated ${inflated})`);
  if (crc !== entry.crc) return refuse('a .zip entry whose CRC-32 matches its data (corrupt archive)');
  return { ok: true, name: entry.name, data };
}

/** The single `.csv` entry of `zip` and what it declares, or why there is none (`maxBytes` bounds its size). */
export function locateSingleCsvEntry(zip: Buffer, maxBytes: number): LocatedEntry | { readonly ok: false; readonly problem: string } {
  const end = findEndRecord(zip);
  if (end < 0) return refuse('a .zip archive (no end of central directory record: not a zip, or cut short)');
  const disk = zip.readUInt16LE(end + 4);
  const centralDisk = zip.readUInt16LE(end + 6);
  const onDisk = zip.readUInt16LE(end + 8);
  const entries = zip.readUInt16LE(end + 10);
  const centralSize = zip.readUInt32LE(end + 12);
  const centralOffset = zip.readUInt32LE(end + 16);
  if (entries === 0xffff || centralSize === 0xffffffff || centralOffset === 0xffffffff) return refuse('a .zip without zip64 records (entries under 4 GiB)');
  if (disk !== 0 || centralDisk !== 0 || onDisk !== entries) return refuse('a .zip on one disk (a split archive is not read)');
  if (entries !== 1) return refuse(`a .zip holding exactly one .csv, not ${entries} entries`);
  if (centralOffset + centralSize > end || centralSize < CENTRAL_SIZE) return refuse('a .zip whose central directory lies inside it (corrupt archive)');
  const at = centralOffset;
  if (zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) return refuse('a .zip whose central directory starts with its signature (corrupt archive)');
  const flags = zip.readUInt16LE(at + 8);
  const method = zip.readUInt16LE(at + 10);
  const crc = zip.readUInt32LE(at + 16);
  const compressedSize = zip.readUInt32LE(at + 20);
  const size = zip.readUInt32LE(at + 24);
  const nameLength = zip.readUInt16LE(at + 28);
  const localOffset = zip.readUInt32LE(at + 42);
  if (at + CENTRAL_SIZE + nameLength > centralOffset + centralSize) return refuse('a .zip whose entry name lies inside its central directory (corrupt archive)');
  const rawName = zip.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
  const name = rawName.toString('utf8');
  if (!/\.csv$/i.test(name)) return refuse(`a .zip holding one .csv, not ${shownName(rawName)}`);
  if ((flags & ENCRYPTED_FLAGS) !== 0) return refuse(`a .zip whose entry is not encrypted (${shownName(rawName)} is)`);
  if (method !== STORED && method !== DEFLATED) return refuse(`a .zip entry stored or deflated (compression method ${method} is not read)`);
  if (size > maxBytes) return refuse(`a .csv of at most ${maxBytes} bytes (${shownName(rawName)} holds ${size}: use a day's file)`);
  if (localOffset + LOCAL_SIZE > centralOffset || zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) return refuse('a .zip whose entry starts with a local header (corrupt archive)');
  const dataStart = localOffset + LOCAL_SIZE + zip.readUInt16LE(localOffset + 26) + zip.readUInt16LE(localOffset + 28);
  const dataEnd = dataStart + compressedSize;
  if (dataEnd > centralOffset) return refuse('a .zip whose entry data lies before its central directory (corrupt or cut short)');
  const stored = zip.subarray(dataStart, dataEnd);
  if (method === STORED && compressedSize !== size) return refuse('a stored .zip entry whose sizes agree (corrupt archive)');
  return { ok: true, name, deflated: method === DEFLATED, stored, size, crc };
}

/** zlib's CRC-32 where Node has it (20.15 and later; a namespace import, so older ones still load), else the same sum computed here. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
export const crc32: (data: Uint8Array, previous?: number) => number =
  nativeCrc32 === undefined ? slowCrc32 : (data, previous = 0) => nativeCrc32(data, previous) >>> 0;

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, as zip and zlib compute it) without zlib's; `previous`: the CRC of the bytes before `data`. */
export function slowCrc32(data: Uint8Array, previous = 0): number {
  const table = (crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  }));
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
