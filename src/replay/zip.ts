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

function refuse(problem: string): ZipEntry {
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

/**
 * The data of the single `.csv` entry of `zip`, or why there is none. `maxBytes` bounds the
 * inflated size (checked against the declared size before inflating, and by zlib while it does).
 */
export function readSingleCsvEntry(zip: Buffer, maxBytes: number): ZipEntry {
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
  let data: Buffer;
  if (method === STORED) {
    if (compressedSize !== size) return refuse('a stored .zip entry whose sizes agree (corrupt archive)');
    data = stored;
  } else {
    try {
      // One byte of headroom: an entry that inflates to more than it declares is caught below, not cut.
      data = zlib.inflateRawSync(stored, { maxOutputLength: Math.max(1, size + 1) });
    } catch (error) {
      return refuse(`a .zip entry that inflates (${(error as Error).message.split('\n')[0]!.slice(0, 80)})`);
    }
  }
  if (data.length !== size) return refuse(`a .zip entry of the size it declares (${size} bytes, inflated ${data.length})`);
  if (crc32(data) !== crc) return refuse('a .zip entry whose CRC-32 matches its data (corrupt archive)');
  return { ok: true, name, data };
}

/** zlib's CRC-32 where Node has it (20.15 and later; a namespace import, so older ones still load), else the same sum computed here. */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
export const crc32: (data: Uint8Array) => number = nativeCrc32 === undefined ? slowCrc32 : (data) => nativeCrc32(data) >>> 0;

let crcTable: Uint32Array | undefined;

/** CRC-32 (ISO-HDLC, as zip and zlib compute it) without zlib's. */
export function slowCrc32(data: Uint8Array): number {
  const table = (crcTable ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  }));
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
