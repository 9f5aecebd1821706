// Server-to-client WebSocket text frames, built by hand (RFC 6455 5.2): unmasked, FIN set, no
// extensions (permessage-deflate is off), the same bytes `ws` would send. One frame for a payload
// many peers share (`textFrame`), and one buffer for everything a peer sent in one tick
// (`framesOf`), written to its socket in one syscall.

/** FIN + text opcode: every frame we send is one whole text message. */
const FIN_TEXT = 0x81;

/** Header bytes of an unmasked server frame with a payload of `length` bytes (the shortest form, as RFC 6455 5.2 requires). */
function headerLength(length: number): number {
  return length < 126 ? 2 : length < 65536 ? 4 : 10;
}

/** Writes the frame header for a `length`-byte text payload at `offset`; returns the next offset. */
function writeHeader(target: Buffer, offset: number, length: number): number {
  target[offset] = FIN_TEXT;
  if (length < 126) {
    target[offset + 1] = length;
    return offset + 2;
  }
  if (length < 65536) {
    target[offset + 1] = 126;
    target.writeUInt16BE(length, offset + 2);
    return offset + 4;
  }
  target[offset + 1] = 127;
  target.writeUInt32BE(Math.floor(length / 2 ** 32), offset + 2);
  target.writeUInt32BE(length >>> 0, offset + 6);
  return offset + 10;
}

/**
 * A whole text frame (header and payload) for a payload many peers receive (a market-data
 * update): framed once, then handed to every subscriber's socket as the same bytes.
 */
export function textFrame(payload: string | Buffer): Buffer {
  const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const frame = Buffer.allocUnsafe(headerLength(bytes.length) + bytes.length);
  bytes.copy(frame, writeHeader(frame, 0, bytes.length));
  return frame;
}

/** The scratch buffer `framesOf` encodes into while it stays at most this large (larger bursts get their own). */
const MAX_KEPT_SCRATCH = 1024 * 1024;
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Text payloads (framed here) and whole frames from `textFrame`, in order, as one buffer.
 * A string is UTF-8 encoded straight into a scratch buffer sized for the worst case (3 bytes
 * per UTF-16 unit) instead of being measured first: `Buffer.byteLength` walked each payload
 * once more, and flattened the concatenated ones, which was most of its cost (W2 profile). The
 * header is reserved for the worst case and the payload moved back over the unused bytes when
 * the real length needs a shorter one.
 */
export function framesOf(items: readonly (string | Buffer)[]): Buffer {
  let capacity = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (typeof item === 'string') {
      const most = 3 * item.length;
      capacity += headerLength(most) + most;
    } else {
      capacity += item.length;
    }
  }
  let target = scratch;
  if (capacity > target.length) {
    target = Buffer.allocUnsafe(capacity);
    if (capacity <= MAX_KEPT_SCRATCH) scratch = target;
  }
  let offset = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (typeof item !== 'string') {
      offset += item.copy(target, offset);
      continue;
    }
    const reserved = headerLength(3 * item.length);
    const length = target.write(item, offset + reserved);
    const header = headerLength(length);
    if (header !== reserved) target.copyWithin(offset + header, offset + reserved, offset + reserved + length);
    writeHeader(target, offset, length);
    offset += header + length;
  }
  // The socket keeps what it is given until it is sent: a copy of the frames, never the scratch.
  // A buffer made for this call alone (past the kept size) is handed over as it is.
  if (target !== scratch) return target.subarray(0, offset);
  const out = Buffer.allocUnsafe(offset);
  target.copy(out, 0, 0, offset);
  return out;
}
