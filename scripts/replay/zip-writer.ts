// Writes .zip archives the way the reference's public-data downloads are packed (one deflated
// .csv), for the replay samples, the load benchmark and the zip reader's tests (which also need
// archives that are wrong in one way: several entries, stored data, a bad CRC...).
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '../../src/replay/zip.ts';

export interface ZipInput {
  readonly name: string;
  readonly data: Uint8Array;
  /** 8 deflate (default) or 0 stored; anything else is written as given (for refusals). */
  readonly method?: number;
  /** General-purpose flags (bit 0: encrypted). */
  readonly flags?: number;
  /** Overrides the CRC-32 written (a corrupt archive). */
  readonly crc?: number;
}

/** A .zip of `entries`, each with a local header, its data, and a central directory entry. */
export function writeZip(entries: readonly ZipInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const method = entry.method ?? 8;
    const stored = method === 8 ? deflateRawSync(entry.data, { level: 6 }) : Buffer.from(entry.data);
    const name = Buffer.from(entry.name, 'utf8');
    const crc = entry.crc ?? crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(entry.flags ?? 0, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0x5a210000, 10); // a fixed DOS time and date: the bytes depend on the content only
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.flags ?? 0, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0x5a210000, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, stored);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const centralSize = centrals.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
