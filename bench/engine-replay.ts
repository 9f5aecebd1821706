// The engine bench's replays (bench/engine.bench.ts): one op stream through spot-sim's core and
// through nodejs-order-book, each timed after its untimed pre-fill, with what both must agree on
// (taker lots, the final book as a digest).

import { OrderBook, Side as TheirSide } from 'nodejs-order-book';
import type { Exchange } from '../src/core/exchange.ts';
import { BUY, CANCEL, HAS_SUBMIT, LIMIT, newExchange, olderCore, placeStops, SYMBOL, T0, type OlderCore, type OpStream } from './engine-stream.ts';

/** The depth query (src/core/queries.ts; a method of the Exchange in a core from before submit). */
const queries = HAS_SUBMIT ? await import('../src/core/queries.ts') : null;

/** A full collection before the timed part, when node runs with --expose-gc. */
const gc: (() => void) | null = typeof globalThis.gc === 'function' ? () => globalThis.gc!() : null;

export interface RunResult {
  readonly opsPerSec: number;
  /**
   * Ops per second of this process's CPU time (user + system, GC threads included): on a shared
   * machine it moves far less than the wall-clock figure when other work takes the cores.
   */
  readonly opsPerCpuSec: number;
  readonly seconds: number;
  /** Lots traded by takers (must agree between the engines). */
  readonly takerLots: number;
  /** spot-sim: public trades / all events taken; nodejs-order-book: filled makers reported in `done` + partials. */
  readonly fills: number;
  readonly events: number;
  /** Resting lots per [side, price] at the end, as a string, to compare the engines' books. */
  readonly bookDigest: string;
  /** Stop scenarios: the stops placed before the timed part, and how many the flow triggered. */
  readonly stops?: { readonly placed: number; readonly triggered: number };
}

/** A final book as a comparable string: level counts, resting lots and a hash of every [price, lots]. */
function digest(bids: ReadonlyArray<readonly [number, number]>, asks: ReadonlyArray<readonly [number, number]>): string {
  let h = 0;
  let lots = 0;
  for (const [p, q] of bids) {
    h = (Math.imul(h, 31) + p * 7 + q) | 0;
    lots += q;
  }
  h = (Math.imul(h, 31) + 1) | 0;
  for (const [p, q] of asks) {
    h = (Math.imul(h, 31) + p * 7 + q) | 0;
    lots += q;
  }
  return `${bids.length}b/${asks.length}a levels, ${lots} lots, #${(h >>> 0).toString(16)}`;
}

type Replay = (from: number, to: number, count: boolean) => { events: number; trades: number; lots: number; triggers: number };

export function runOurs(st: OpStream): RunResult {
  const { ex, sym, mid } = newExchange();
  const replay = HAS_SUBMIT ? submitReplay(ex, sym, st) : olderCoreReplay(olderCore(ex), sym, st);
  replay(0, st.prefill, false);
  const setup = st.scenario.stops;
  const placed = setup === undefined ? 0 : placeStops(ex, sym, mid, setup);
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = replay(st.prefill, st.length, true);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const snap = queries !== null ? queries.depthSnapshot(ex.state, SYMBOL, Number.MAX_SAFE_INTEGER, 'live') : olderCore(ex).depthSnapshot(SYMBOL, Number.MAX_SAFE_INTEGER, 'live');
  if ('code' in snap) throw new Error('depth snapshot failed');
  return {
    opsPerSec: (st.length - st.prefill) / seconds,
    opsPerCpuSec: ((st.length - st.prefill) * 1e6) / (cpu.user + cpu.system),
    seconds,
    takerLots: r.lots,
    fills: r.trades,
    events: r.events,
    bookDigest: digest(snap.bids, snap.asks),
    ...(setup !== undefined && { stops: { placed, triggered: r.triggers } }),
  };
}

/** Replays through `Exchange.submit(command)`. */
function submitReplay(ex: Exchange, sym: number, st: OpStream): Replay {
  const keys = new Float64Array(st.length); // book keys go past 2^31 (see engine-stream.ts)
  const { kind, side, price, qty, target } = st;
  return (from, to, count) => {
    let events = 0;
    let trades = 0;
    let lots = 0;
    let triggers = 0;
    for (let i = from; i < to; i++) {
      const now = T0 + i;
      const k = kind[i];
      let evs;
      if (k === LIMIT) {
        const placed = ex.submit({ type: 'counterpartyLimit', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: price[i]!, lots: qty[i]! });
        if (placed.ok) keys[i] = placed.value;
        evs = placed.events;
      } else if (k === CANCEL) evs = ex.submit({ type: 'counterpartyCancel', now, key: keys[target[i]!]! }).events;
      else evs = ex.submit({ type: 'counterpartyTake', now, symbolIndex: sym, side: side[i] === BUY ? 'BUY' : 'SELL', price: null, lots: qty[i]! }).events;
      if (count) {
        events += evs.length;
        for (let e = 0; e < evs.length; e++) {
          const ev = evs[e]!;
          if (ev.type === 'trade') {
            trades++;
            lots += ev.qty;
          } else if (ev.type === 'execution' && ev.cause === 'trigger') triggers++;
        }
      }
    }
    return { events, trades, lots, triggers };
  };
}

/** The same replay through the entry points of a core from before `submit` (see OlderCore). */
function olderCoreReplay(ex: OlderCore, sym: number, st: OpStream): Replay {
  const keys = new Float64Array(st.length);
  const { kind, side, price, qty, target } = st;
  return (from, to, count) => {
    let events = 0;
    let trades = 0;
    let lots = 0;
    for (let i = from; i < to; i++) {
      const now = T0 + i;
      const k = kind[i];
      if (k === LIMIT) keys[i] = ex.counterpartyOrder(sym, side[i] === BUY ? 'BUY' : 'SELL', price[i]!, qty[i]!, now);
      else if (k === CANCEL) ex.counterpartyCancel(keys[target[i]!]!);
      else ex.counterpartyMarket(sym, side[i] === BUY ? 'BUY' : 'SELL', qty[i]!, now);
      const evs = ex.takeEvents(now);
      if (count) {
        events += evs.length;
        for (let e = 0; e < evs.length; e++) {
          const ev = evs[e]!;
          if (ev.type === 'trade') {
            trades++;
            lots += ev.qty;
          }
        }
      }
    }
    return { events, trades, lots, triggers: 0 };
  };
}

export function runTheirs(st: OpStream): RunResult {
  const ob = new OrderBook();
  const { kind, side, price, qty, target, ids } = st;
  const replay = (from: number, to: number) => {
    let lots = 0;
    let fills = 0;
    for (let i = from; i < to; i++) {
      const k = kind[i];
      if (k === LIMIT) {
        const size = qty[i]!;
        const r = ob.limit({ id: ids[i]!, side: side[i] === BUY ? TheirSide.BUY : TheirSide.SELL, size, price: price[i]! });
        lots += size - r.quantityLeft;
        fills += r.done.length + (r.partial !== null && r.partial.id !== ids[i] ? 1 : 0);
      } else if (k === CANCEL) {
        ob.cancel(ids[target[i]!]!);
      } else {
        const size = qty[i]!;
        const r = ob.market({ side: side[i] === BUY ? TheirSide.BUY : TheirSide.SELL, size });
        lots += size - r.quantityLeft;
        fills += r.done.length + (r.partial !== null ? 1 : 0);
      }
    }
    return { lots, fills };
  };
  replay(0, st.prefill);
  gc?.();
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = replay(st.prefill, st.length);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(c0);
  const [asks, bids] = ob.depth(); // asks ascending, bids descending
  return {
    opsPerSec: (st.length - st.prefill) / seconds,
    opsPerCpuSec: ((st.length - st.prefill) * 1e6) / (cpu.user + cpu.system),
    seconds,
    takerLots: r.lots,
    fills: r.fills,
    events: 0,
    bookDigest: digest(bids, asks),
  };
}
