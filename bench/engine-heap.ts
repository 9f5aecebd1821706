// The engine bench's heap figure (bench/engine.bench.ts): bytes per resting order, the same
// seeded orders put on an empty book of each engine, measured between full collections (the
// process runs with --expose-gc). The bytes are the JS heap's plus the ArrayBuffers': since
// 23f1371 the core keeps its resting orders in typed arrays (src/core/book/order-store.ts), whose
// memory is outside `heapUsed`, and counting only the heap put it at 4 B per order.

import { OrderBook, Side as TheirSide } from 'nodejs-order-book';
import { newExchange, placed, Rand, restingCount, SEED, T0 } from './engine-stream.ts';

export const HEAP_ORDERS = 200_000;
export const HEAP_SPREAD = 2_500;

/** heapUsed + arrayBuffers after full collections, repeated until it settles (one gc() right
 * after a big phase can leave garbage behind that a later collection reclaims, skewing the delta). */
function heapUsed(): number {
  let last = Infinity;
  for (let i = 0; i < 20; i++) {
    globalThis.gc!();
    const memory = process.memoryUsage();
    const used = memory.heapUsed + memory.arrayBuffers;
    if (Math.abs(last - used) < 64 * 1024) return used;
    last = used;
  }
  return last;
}

export function heapOurs(): number {
  const { ex, sym, mid } = newExchange();
  const rnd = new Rand(SEED ^ 0x4ea9);
  const before = heapUsed();
  for (let i = 0; i < HEAP_ORDERS; i++) {
    const buy = rnd.below(2) === 0;
    const d = 1 + rnd.below(HEAP_SPREAD);
    placed(ex, sym, buy ? 'BUY' : 'SELL', buy ? mid - d : mid + d, rnd.range(1, 10), T0);
  }
  const after = heapUsed();
  if (restingCount(ex, sym) !== HEAP_ORDERS) throw new Error('heap test: some orders did not rest');
  return (after - before) / HEAP_ORDERS;
}

export function heapTheirs(): number {
  const ob = new OrderBook();
  const rnd = new Rand(SEED ^ 0x4ea9);
  const mid = newExchange().mid;
  const before = heapUsed();
  for (let i = 0; i < HEAP_ORDERS; i++) {
    const buy = rnd.below(2) === 0;
    const d = 1 + rnd.below(HEAP_SPREAD);
    // The id string is created here: it counts only if the book keeps it.
    ob.limit({ id: String(i), side: buy ? TheirSide.BUY : TheirSide.SELL, size: rnd.range(1, 10), price: buy ? mid - d : mid + d });
  }
  const after = heapUsed();
  const [asks, bids] = ob.depth();
  if (asks.length + bids.length === 0) throw new Error('heap test: empty book');
  return (after - before) / HEAP_ORDERS;
}

