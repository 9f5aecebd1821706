// What-if measurement, not used by the product: how fast the engine bench's stream runs through a
// book whose orders are packed 8 int32s to an order in one Int32Array (32 bytes; the core packs
// its resting orders too since 23f1371, src/core/order-store.ts, but keeps its command, outcome
// and event objects) and whose levels are arrays indexed by price, with nothing but matching,
// a trade tape (4 doubles a trade, as the core's market data keeps) and a changed-level note per
// depth batch (as the core's depth aggregator keeps). No command or outcome objects, no event
// objects, no account orders, no order index beyond the packed slots. Both replays must end with
// the same lots taken and the same book (checked on every run, and by engine-replay.test.ts).
//
// It bounds what a leaner order path could gain; the core's figures stay those of engine.bench.ts.
//
//   npx tsx bench/engine-packed.ts [--only=shallow|deep] [--runs=3]

import { performance } from 'node:perf_hooks';
import { digest, runOurs } from './engine-replay.ts';
import { BUY, CANCEL, generate, LIMIT, scenarios, type OpStream } from './engine-stream.ts';
import { flag } from './support.ts';

/** Fields of a packed order (int32 offsets); -1 links mean none. */
const NEXT = 0;
const PREV = 1;
const REMAINING = 2;
const PRICE = 3;
const SIDE = 4;
/** The op that placed it: a cancel names that op, so a reused slot never matches an old cancel. */
const OWNER = 5;
const STRIDE = 8;
const BID = 0;
const ASK = 1;

class PackedBook {
  private orders = new Int32Array(1024 * STRIDE);
  private free = new Int32Array(1024);
  private freeCount = 0;
  private used = 0;
  // Per side, per price index (price - the stream's lowest price).
  private readonly head: Int32Array[];
  private readonly tail: Int32Array[];
  readonly count: Int32Array[];
  readonly qty: Float64Array[];
  private readonly notedInBatch: Int32Array[];
  private readonly touched: Int32Array[];
  private readonly touchedCount = [0, 0];
  private readonly batch = 1;
  /** Best price index per side: bids the highest with orders, asks the lowest. */
  private readonly best: number[];
  private readonly resting = [0, 0];
  private readonly tape = new Float64Array(1 << 22);
  private tapeAt = 0;
  lotsTaken = 0;

  constructor(readonly levels: number) {
    const ints = (fill: number) => [new Int32Array(levels).fill(fill), new Int32Array(levels).fill(fill)];
    this.head = ints(-1);
    this.tail = ints(-1);
    this.count = ints(0);
    this.notedInBatch = ints(0);
    this.touched = ints(0);
    this.qty = [new Float64Array(levels), new Float64Array(levels)];
    this.best = [-1, levels];
  }

  /** Takes up to `lots` from the side opposite `side`, through price index `limit`; the lots left. */
  take(side: number, limit: number, lots: number, time: number): number {
    const opposite = 1 - side;
    const orders = this.orders;
    const head = this.head[opposite]!;
    const tail = this.tail[opposite]!;
    const count = this.count[opposite]!;
    const qty = this.qty[opposite]!;
    let left = lots;
    while (left > 0) {
      const p = this.best[opposite]!;
      if (opposite === ASK ? p >= this.levels || p > limit : p < 0 || p < limit) break;
      let maker = head[p]!;
      while (maker >= 0 && left > 0) {
        const at = maker * STRIDE;
        const remaining = orders[at + REMAINING]!;
        const traded = remaining < left ? remaining : left;
        left -= traded;
        orders[at + REMAINING] = remaining - traded;
        qty[p] = qty[p]! - traded;
        this.record(time, p, traded, opposite);
        const next = orders[at + NEXT]!;
        if (remaining === traded) {
          head[p] = next;
          if (next >= 0) orders[next * STRIDE + PREV] = -1;
          else tail[p] = -1;
          count[p] = count[p]! - 1;
          this.resting[opposite] = this.resting[opposite]! - 1;
          this.release(maker);
        }
        maker = next;
      }
      this.note(opposite, p);
      if (count[p] === 0) this.findBest(opposite, opposite === ASK ? p + 1 : p - 1);
    }
    this.lotsTaken += lots - left;
    return left;
  }

  /** Puts `lots` at the back of price index `p`; the order's slot. */
  rest(side: number, p: number, lots: number, owner: number): number {
    const slot = this.allocate();
    const orders = this.orders;
    const at = slot * STRIDE;
    const tail = this.tail[side]!;
    const last = tail[p]!;
    orders[at + NEXT] = -1;
    orders[at + PREV] = last;
    orders[at + REMAINING] = lots;
    orders[at + PRICE] = p;
    orders[at + SIDE] = side;
    orders[at + OWNER] = owner;
    if (last >= 0) orders[last * STRIDE + NEXT] = slot;
    else this.head[side]![p] = slot;
    tail[p] = slot;
    const count = this.count[side]!;
    const qty = this.qty[side]!;
    count[p] = count[p]! + 1;
    qty[p] = qty[p]! + lots;
    this.resting[side] = this.resting[side]! + 1;
    if (side === BID ? p > this.best[BID]! : p < this.best[ASK]!) this.best[side] = p;
    this.note(side, p);
    return slot;
  }

  /** Cancels the order in `slot` if op `owner` placed it and it still rests. */
  cancel(slot: number, owner: number): boolean {
    const orders = this.orders;
    const at = slot * STRIDE;
    if (orders[at + OWNER] !== owner) return false;
    const side = orders[at + SIDE]!;
    const p = orders[at + PRICE]!;
    const prev = orders[at + PREV]!;
    const next = orders[at + NEXT]!;
    if (prev >= 0) orders[prev * STRIDE + NEXT] = next;
    else this.head[side]![p] = next;
    if (next >= 0) orders[next * STRIDE + PREV] = prev;
    else this.tail[side]![p] = prev;
    const qty = this.qty[side]!;
    const count = this.count[side]!;
    qty[p] = qty[p]! - orders[at + REMAINING]!;
    const left = count[p]! - 1;
    count[p] = left;
    this.resting[side] = this.resting[side]! - 1;
    this.note(side, p);
    this.release(slot);
    if (left === 0 && p === this.best[side]) this.findBest(side, side === BID ? p - 1 : p + 1);
    return true;
  }

  private record(time: number, p: number, lots: number, makerSide: number): void {
    const at = this.tapeAt;
    const tape = this.tape;
    tape[at] = time;
    tape[at + 1] = p;
    tape[at + 2] = lots;
    tape[at + 3] = makerSide;
    this.tapeAt = (at + 4) & (tape.length - 1);
  }

  private note(side: number, p: number): void {
    const noted = this.notedInBatch[side]!;
    if (noted[p] === this.batch) return;
    noted[p] = this.batch;
    this.touched[side]![this.touchedCount[side]!++] = p;
  }

  private findBest(side: number, from: number): void {
    const count = this.count[side]!;
    if (this.resting[side] === 0) {
      this.best[side] = side === BID ? -1 : this.levels;
      return;
    }
    let p = from;
    if (side === BID) while (count[p] === 0) p--;
    else while (count[p] === 0) p++;
    this.best[side] = p;
  }

  private allocate(): number {
    if (this.freeCount > 0) return this.free[--this.freeCount]!;
    const slot = this.used++;
    if ((slot + 1) * STRIDE > this.orders.length) {
      const orders = new Int32Array(this.orders.length * 2);
      orders.set(this.orders);
      this.orders = orders;
      const free = new Int32Array(this.free.length * 2);
      free.set(this.free);
      this.free = free;
    }
    return slot;
  }

  private release(slot: number): void {
    this.orders[slot * STRIDE + OWNER] = -1;
    this.free[this.freeCount++] = slot;
  }
}

export interface PackedResult {
  readonly opsPerSec: number;
  readonly takerLots: number;
  readonly bookDigest: string;
}

export function runPacked(st: OpStream): PackedResult {
  const { kind, side, price, qty, target } = st;
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < st.length; i++) {
    if (kind[i] !== LIMIT) continue;
    low = Math.min(low, price[i]!);
    high = Math.max(high, price[i]!);
  }
  const book = new PackedBook(high - low + 1);
  const slotOf = new Int32Array(st.length).fill(-1);
  const replay = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const k = kind[i];
      const s = side[i] === BUY ? BID : ASK;
      if (k === LIMIT) {
        const p = price[i]! - low;
        const left = book.take(s, p, qty[i]!, i);
        if (left > 0) slotOf[i] = book.rest(s, p, left, i);
      } else if (k === CANCEL) {
        const t = target[i]!;
        if (slotOf[t]! >= 0) book.cancel(slotOf[t]!, t);
      } else {
        book.take(s, s === BID ? book.levels : -1, qty[i]!, i);
      }
    }
  };
  replay(0, st.prefill);
  const before = book.lotsTaken;
  globalThis.gc?.();
  const t0 = performance.now();
  replay(st.prefill, st.length);
  const seconds = (performance.now() - t0) / 1000;
  const bids: [number, number][] = [];
  const asks: [number, number][] = [];
  for (let p = book.levels - 1; p >= 0; p--) if (book.count[BID]![p]! > 0) bids.push([p + low, book.qty[BID]![p]!]);
  for (let p = 0; p < book.levels; p++) if (book.count[ASK]![p]! > 0) asks.push([p + low, book.qty[ASK]![p]!]);
  return { opsPerSec: (st.length - st.prefill) / seconds, takerLots: book.lotsTaken - before, bookDigest: digest(bids, asks) };
}

if (process.argv[1]?.endsWith('engine-packed.ts')) {
  const runs = Number(flag('runs') ?? 3);
  const only = flag('only');
  for (const sc of scenarios(1)) {
    if (only !== undefined && only !== sc.name) continue;
    const st = generate(sc);
    console.log(`${sc.label}: ${st.length - st.prefill} timed ops, spot-sim's core and the packed book alternately (${runs} runs each)`);
    for (let run = 0; run < runs; run++) {
      const ours = runOurs(st);
      const packed = runPacked(st);
      const agree = ours.takerLots === packed.takerLots && ours.bookDigest === packed.bookDigest;
      console.log(`  spot-sim ${(ours.opsPerSec / 1e6).toFixed(2)}M ops/s, packed ${(packed.opsPerSec / 1e6).toFixed(2)}M ops/s: ${(packed.opsPerSec / ours.opsPerSec).toFixed(2)}x; same lots and book: ${agree ? 'yes' : `NO (${ours.takerLots} / ${packed.takerLots}, ${ours.bookDigest} / ${packed.bookDigest})`}`);
    }
  }
}
