// The rows of kept ended orders (order-history.ts), stored by column in typed arrays, chunk by
// chunk, in the order the orders ended: row `seq` is the seq-th order to end. Why columns and
// not the AccountOrder objects themselves: objects that outlive the young generation are what
// a garbage-collected heap pays for (each is copied on promotion and traced by every major
// GC), and with 100000 kept orders the place/match/cancel path ran at about half its speed
// (bench/order-history.bench.ts). Typed arrays hold no pointers, so the collector does not look
// inside them, and a row costs about 120 bytes instead of about 670.
//
// Chunks of CHUNK rows are allocated as rows arrive and dropped once every row in them has been
// forgotten, so memory follows the kept count, not max_ended_orders.

import type { AccountOrder } from './account-order.ts';
import type { ExpiryReason, OrderStatus, OrderType, OrderView, Side, TimeInForce } from '../types.ts';

const CHUNK = 4096;
/** Client order ids up to this many ASCII characters are stored inline (the reference allows 36). */
const CLIENT_ID_BYTES = 36;

const STATUSES: readonly OrderStatus[] = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'REJECTED', 'EXPIRED', 'EXPIRED_IN_MATCH'];
const TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
const TIFS: readonly TimeInForce[] = ['GTC', 'IOC', 'FOK'];
const SIDES: readonly Side[] = ['BUY', 'SELL'];
const EXPIRY_REASONS: readonly ExpiryReason[] = ['NONE', 'UNFILLED_IOC_QUANTITY_EXPIRED', 'UNFILLED_FOK_ORDER_EXPIRED', 'INSUFFICIENT_LIQUIDITY', 'REJECTED', 'OCO_TRIGGER', 'OTO_PHASE_ONE_EXPIRED'];
const MAX_INT64 = (1n << 63n) - 1n;

/** An order's issue-33 fields (a row keeps them only when one of them is set). */
type Extras = Pick<OrderView, 'stopPrice' | 'icebergQty' | 'trailingDelta' | 'trailingTime' | 'orderListId' | 'quoteOrderQty'>;
const NO_EXTRAS: Extras = { stopPrice: 0, icebergQty: 0, trailingDelta: 0, trailingTime: -1, orderListId: -1, quoteOrderQty: 0n };
const extrasOf = (o: AccountOrder): Extras => ({
  stopPrice: o.stopPrice,
  icebergQty: o.icebergQty,
  trailingDelta: o.trailingDelta,
  trailingTime: o.trailingTime,
  orderListId: o.orderListId,
  quoteOrderQty: o.quoteOrderQty,
});
const codeOf = <T extends string>(table: readonly T[]) => Object.fromEntries(table.map((name, i) => [name, i])) as Record<T, number>;
const STATUS_CODE = codeOf(STATUSES);
const TYPE_CODE = codeOf(TYPES);
const TIF_CODE = codeOf(TIFS);
const SIDE_CODE = codeOf(SIDES);
const EXPIRY_CODE = codeOf(EXPIRY_REASONS);

/**
 * One chunk of rows: the numbers of a row side by side (stride F), its cumQuote, its client id
 * bytes (stride B: length, then up to 36 characters), so one row is three short runs of memory.
 */
class Chunk {
  readonly numbers = new Float64Array(CHUNK * F);
  readonly cumQuote = new BigInt64Array(CHUNK);
  readonly clientIds = new Uint8Array(CHUNK * B);
}

/** Offsets within a row's numbers. */
const ORDER_ID = 0;
const PRICE = 1;
const ORIG_QTY = 2;
const EXECUTED_QTY = 3;
const PREVENTED_QTY = 4;
const TIME = 5;
const UPDATE_TIME = 6;
const WORKING_TIME = 7;
/** symbolIndex + 65536 * (status + 8 * (type + 8 * (timeInForce + 4 * (side + 2 * expiryReason)))): below 2^31. */
const CODES = 8;
const F = 9;
const B = CLIENT_ID_BYTES + 1;
const LONG = 255;

export class KeptOrderRows {
  private chunks: Chunk[] = [];
  /** The seq of the first row of chunks[0]. */
  private firstChunkSeq = 0;
  /** The seq the next row gets. */
  private nextSeq = 0;
  /** The oldest seq not yet released. */
  private oldestSeq = 0;
  /** Rare values that do not fit their column (a client id beyond 36 ASCII, a cumQuote beyond int64). */
  private readonly longClientIds = new Map<number, string>();
  private readonly bigCumQuotes = new Map<number, bigint>();
  /** Issue 33's fields of the rows that have any (conditional, iceberg, listed, quote-amount orders). */
  private readonly extras = new Map<number, Extras>();
  /** The last chunk dropped, for the next one needed. */
  private spare: Chunk | null = null;

  constructor(private readonly symbols: readonly string[]) {}

  get size(): number {
    return this.nextSeq - this.oldestSeq;
  }

  /** The first row still kept. */
  get oldest(): number {
    return this.oldestSeq;
  }

  /** The row the next ended order gets. */
  get end(): number {
    return this.nextSeq;
  }

  /** Copies the order's final fields into a new row; its seq. */
  add(symbolIndex: number, o: AccountOrder): number {
    const seq = this.nextSeq++;
    let c = this.chunks[this.chunks.length - 1];
    if (c === undefined || seq - this.firstChunkSeq >= this.chunks.length * CHUNK) {
      // A dropped chunk is reused: every field of a row is written before it is read, and
      // allocating ~480 KB of array buffers per 4096 orders made V8 collect for the external
      // memory (bench/order-history.bench.ts past max_ended_orders).
      c = this.spare ?? new Chunk();
      this.spare = null;
      if (this.chunks.length === 0) this.firstChunkSeq = seq;
      this.chunks.push(c);
    }
    const i = seq & (CHUNK - 1);
    const n = c.numbers;
    const at = i * F;
    n[at + ORDER_ID] = o.orderId;
    n[at + PRICE] = o.price;
    n[at + ORIG_QTY] = o.origQty;
    n[at + EXECUTED_QTY] = o.executedQty;
    n[at + PREVENTED_QTY] = o.preventedQty;
    n[at + TIME] = o.time;
    n[at + UPDATE_TIME] = o.updateTime;
    n[at + WORKING_TIME] = o.workingTime;
    n[at + CODES] = symbolIndex + 65536 * (STATUS_CODE[o.status] + 8 * (TYPE_CODE[o.type] + 8 * (TIF_CODE[o.timeInForce] + 4 * (SIDE_CODE[o.side] + 2 * EXPIRY_CODE[o.expiryReason]))));
    if (o.stopPrice !== 0 || o.icebergQty !== 0 || o.trailingDelta !== 0 || o.orderListId !== -1 || o.quoteOrderQty !== 0n) this.extras.set(seq, extrasOf(o));
    if (o.cumQuote <= MAX_INT64) c.cumQuote[i] = o.cumQuote;
    else this.bigCumQuotes.set(seq, o.cumQuote);
    this.writeClientId(c, i, seq, o.clientOrderId);
    return seq;
  }

  /** Forgets the oldest row; its seq. Chunks whose rows are all forgotten are dropped. */
  releaseOldest(): number {
    const seq = this.oldestSeq++;
    if (this.longClientIds.size > 0) this.longClientIds.delete(seq);
    if (this.bigCumQuotes.size > 0) this.bigCumQuotes.delete(seq);
    if (this.extras.size > 0) this.extras.delete(seq);
    if (this.oldestSeq - this.firstChunkSeq >= CHUNK) {
      this.spare = this.chunks.shift()!;
      this.firstChunkSeq += CHUNK;
    }
    return seq;
  }

  orderId(seq: number): number {
    return this.chunk(seq).numbers[(seq & (CHUNK - 1)) * F + ORDER_ID]!;
  }

  symbolIndex(seq: number): number {
    return this.chunk(seq).numbers[(seq & (CHUNK - 1)) * F + CODES]! % 65536;
  }

  updateTime(seq: number): number {
    return this.chunk(seq).numbers[(seq & (CHUNK - 1)) * F + UPDATE_TIME]!;
  }

  clientOrderId(seq: number): string {
    const c = this.chunk(seq);
    const at = (seq & (CHUNK - 1)) * B;
    const length = c.clientIds[at]!;
    if (length === LONG) return this.longClientIds.get(seq)!;
    return String.fromCharCode(...c.clientIds.subarray(at + 1, at + 1 + length));
  }

  /** Whether row `seq` has this client id (compared in place, no string built). */
  hasClientOrderId(seq: number, id: string): boolean {
    const c = this.chunk(seq);
    const at = (seq & (CHUNK - 1)) * B;
    const length = c.clientIds[at]!;
    if (length === LONG) return this.longClientIds.get(seq) === id;
    if (length !== id.length) return false;
    for (let k = 0; k < length; k++) if (c.clientIds[at + 1 + k] !== id.charCodeAt(k)) return false;
    return true;
  }

  view(seq: number): OrderView {
    const c = this.chunk(seq);
    const i = seq & (CHUNK - 1);
    const n = c.numbers;
    const at = i * F;
    let codes = Math.floor(n[at + CODES]! / 65536);
    const status = STATUSES[codes % 8]!;
    codes = Math.floor(codes / 8);
    const type = TYPES[codes % 8]!;
    codes = Math.floor(codes / 8);
    const timeInForce = TIFS[codes % 4]!;
    codes = Math.floor(codes / 4);
    const side = SIDES[codes % 2]!;
    const expiryReason = EXPIRY_REASONS[Math.floor(codes / 2)]!;
    const workingTime = n[at + WORKING_TIME]!;
    return {
      symbol: this.symbols[n[at + CODES]! % 65536]!,
      orderId: n[at + ORDER_ID]!,
      clientOrderId: this.clientOrderId(seq),
      price: n[at + PRICE]!,
      origQty: n[at + ORIG_QTY]!,
      executedQty: n[at + EXECUTED_QTY]!,
      preventedQty: n[at + PREVENTED_QTY]!,
      cumQuote: this.bigCumQuotes.get(seq) ?? c.cumQuote[i]!,
      status,
      timeInForce,
      type,
      side,
      time: n[at + TIME]!,
      updateTime: n[at + UPDATE_TIME]!,
      workingTime,
      isWorking: workingTime >= 0,
      expiryReason,
      ...(this.extras.get(seq) ?? NO_EXTRAS),
    };
  }

  private chunk(seq: number): Chunk {
    return this.chunks[Math.floor((seq - this.firstChunkSeq) / CHUNK)]!;
  }

  private writeClientId(c: Chunk, i: number, seq: number, id: string): void {
    const length = id.length;
    const at = i * B;
    if (length <= CLIENT_ID_BYTES) {
      const bytes = c.clientIds;
      let k = 0;
      for (; k < length; k++) {
        const code = id.charCodeAt(k);
        if (code > 127) break;
        bytes[at + 1 + k] = code;
      }
      if (k === length) {
        bytes[at] = length;
        return;
      }
    }
    c.clientIds[at] = LONG;
    this.longClientIds.set(seq, id);
  }
}

/** FNV-1a over the symbol index and the id's characters (the client id table's hash). */
export function hashClientId(symbolIndex: number, clientOrderId: string): number {
  let h = Math.imul((0x811c9dc5 ^ symbolIndex) >>> 0, 0x01000193);
  for (let k = 0; k < clientOrderId.length; k++) h = Math.imul(h ^ clientOrderId.charCodeAt(k), 0x01000193);
  return h >>> 0;
}
