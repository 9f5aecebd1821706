// The engine bench's seeded op stream (bench/engine.bench.ts): the scenarios' parameters, the
// generator that draws each op and runs it through an oracle book (a spot-sim Exchange) to know
// which orders rest, and the stream as typed arrays both engines replay. How it is built is
// described at the top of engine.bench.ts.

import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { resolveConfig } from '../src/config/index.ts';
import { Exchange } from '../src/core/exchange.ts';
import type { CoreEvent } from '../src/core/types.ts';

export const T0 = 1_700_000_000_000;
export const SEED = 0x5eed_2024;

// ------------------------------------------------------------------ engines under test

export const config = resolveConfig({ sim: { generator: { enabled: false } } });
export const SYMBOL = 'BTCUSDT';

/**
 * `npm run bench:ab` measures a base commit with these scripts when they run on its src, so
 * that both sides replay the same stream. A core from before `submit(command)` (18ee0d6 and
 * older) had a method per counterparty command instead; the stream and the replay speak both.
 */
export const HAS_SUBMIT = typeof (Exchange.prototype as { submit?: unknown }).submit === 'function';

export interface OlderCore {
  counterpartyOrder(symbolIndex: number, side: 'BUY' | 'SELL', price: number, lots: number, now: number): number;
  counterpartyMarket(symbolIndex: number, side: 'BUY' | 'SELL', lots: number, now: number): void;
  counterpartyCancel(key: number): boolean;
  counterpartyRestingCount(symbolIndex: number): number;
  takeEvents(now: number): CoreEvent[];
  depthSnapshot(symbol: string, limit: number, mode: 'live'): { bids: [number, number][]; asks: [number, number][] } | { code: number };
}

export const olderCore = (ex: Exchange): OlderCore => ex as unknown as OlderCore;

export function newExchange(): { ex: Exchange; sym: number; mid: number } {
  const ex = new Exchange(config, T0);
  const inst = ex.instrument(SYMBOL);
  if (inst === undefined) throw new Error(`${SYMBOL} is not configured`);
  if (!HAS_SUBMIT) olderCore(ex).takeEvents(T0); // the older core kept its start events pending
  return { ex, sym: inst.index, mid: inst.startMid };
}

/** Cancels a counterparty order by book key; whether it was still resting. */
export function cancelled(ex: Exchange, key: number, now: number): boolean {
  if (!HAS_SUBMIT) return olderCore(ex).counterpartyCancel(key);
  const outcome = ex.submit({ type: 'counterpartyCancel', now, key });
  return outcome.ok && outcome.value;
}

/** A counterparty limit order; its book key if it rests, else 0. */
export function placed(ex: Exchange, symbolIndex: number, side: 'BUY' | 'SELL', price: number, lots: number, now: number): number {
  if (!HAS_SUBMIT) return olderCore(ex).counterpartyOrder(symbolIndex, side, price, lots, now);
  const outcome = ex.submit({ type: 'counterpartyLimit', now, symbolIndex, side, price, lots });
  return outcome.ok ? outcome.value : 0;
}

function taken(ex: Exchange, symbolIndex: number, side: 'BUY' | 'SELL', lots: number, now: number): void {
  if (!HAS_SUBMIT) olderCore(ex).counterpartyMarket(symbolIndex, side, lots, now);
  else ex.submit({ type: 'counterpartyTake', now, symbolIndex, side, price: null, lots });
}

export function restingCount(ex: Exchange, symbolIndex: number): number {
  return HAS_SUBMIT ? ex.state.counterpartyResting[symbolIndex]!.length : olderCore(ex).counterpartyRestingCount(symbolIndex);
}

// ------------------------------------------------------------------ seeded op stream

export const LIMIT = 0;
export const CANCEL = 1;
export const MARKET = 2;
export const BUY = 0;
export const SELL = 1;

export class Rand {
  private readonly g: ReturnType<typeof xoroshiro128plus>;
  constructor(seed: number) {
    this.g = xoroshiro128plus(seed);
  }
  /** Uniform integer in [0, n). */
  below(n: number): number {
    return Math.floor(((this.g.next() >>> 0) * n) / 4294967296);
  }
  /** Uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }
  chance(p: number): boolean {
    return (this.g.next() >>> 0) < p * 4294967296;
  }
}

export interface Scenario {
  readonly name: 'shallow' | 'deep' | 'stops' | 'stops-trigger';
  readonly label: string;
  /** Resting orders the stream keeps the book around (and the untimed pre-fill size). */
  readonly target: number;
  /** Passive limits land 1..spread ticks from the mid on their own side. */
  readonly spread: number;
  /** Aggressive limits land 1..cross ticks through the mid. */
  readonly cross: number;
  /** Share of aggressive limits when the book is at its target size (found by trial). */
  readonly aggressiveBase: number;
  /** Timed ops per run. */
  readonly ops: number;
  readonly seed: number;
  /** Issue 33: the account's conditional orders placed after the pre-fill (untimed). */
  readonly stops?: StopsSetup;
  /** Only spot-sim replays it (its triggered stops change the book nodejs-order-book would hold). */
  readonly spotSimOnly?: boolean;
}

/**
 * `count` STOP_LOSS_LIMIT orders of one lot, half SELL with stops `from`..`to` ticks below the
 * mid, half BUY as far above; their limit prices lie 3000 ticks away on their own side, so a
 * triggered one rests far from the flow and trades nothing.
 */
export interface StopsSetup {
  readonly count: number;
  readonly from: number;
  readonly to: number;
}

/** The engine bench's two books; `scale` multiplies the timed ops. */
export function scenarios(scale: number): Scenario[] {
  return [
    { name: 'shallow', label: 'shallow (~1k resting)', target: 1_000, spread: 50, cross: 5, aggressiveBase: 0.4, ops: Math.round(2_000_000 * scale), seed: SEED },
    { name: 'deep', label: 'deep (~250k resting)', target: 250_000, spread: 2_500, cross: 20, aggressiveBase: 0.4, ops: Math.round(1_000_000 * scale), seed: SEED + 1 },
  ];
}

/**
 * The stop-heavy streams (issue 33): the shallow stream as it is, replayed with 100k waiting
 * stops far from the touch (nothing triggers: the flow must not pay for them), and with 100k
 * stops within a few ticks of the mid, which the flow's trades trigger (k at a time).
 */
export function stopScenarios(scale: number): Scenario[] {
  const shallow = scenarios(scale)[0]!;
  return [
    { ...shallow, name: 'stops', label: 'shallow + 100k waiting stops', stops: { count: 100_000, from: 500, to: 5_000 } },
    { ...shallow, name: 'stops-trigger', label: 'shallow + 100k stops it triggers', stops: { count: 100_000, from: 0, to: 8 }, spotSimOnly: true },
  ];
}

/** Whether the core knows conditional orders (a base from before issue 33 replays the flow alone). */
export const HAS_STOPS = HAS_SUBMIT && 'watchedStops' in new Exchange(config, T0).instruments[0]!;

/** Places a scenario's stops on `ex` (after its pre-fill); how many it placed. */
export function placeStops(ex: Exchange, symbolIndex: number, mid: number, setup: StopsSetup): number {
  if (!HAS_STOPS) return 0;
  const inst = ex.instruments[symbolIndex]! as { maxNumOrders: number; maxNumAlgoOrders: number };
  inst.maxNumOrders = Number.MAX_SAFE_INTEGER;
  inst.maxNumAlgoOrders = Number.MAX_SAFE_INTEGER;
  const rnd = new Rand(SEED + 33);
  let placed = 0;
  for (let i = 0; i < setup.count; i++) {
    const sell = i % 2 === 0;
    const d = rnd.range(setup.from, setup.to);
    const outcome = ex.submit({
      type: 'place',
      now: T0,
      symbolIndex,
      side: sell ? 'SELL' : 'BUY',
      orderType: 'STOP_LOSS_LIMIT',
      timeInForce: 'GTC',
      price: sell ? mid + 3_000 : mid - 3_000,
      quantity: 1,
      clientOrderId: null,
      stopPrice: sell ? mid - d : mid + d,
    });
    if (outcome.ok) placed++;
  }
  return placed;
}

export interface OpStream {
  readonly scenario: Scenario;
  /** Ops [0, prefill) build the starting book (untimed); [prefill, length) are timed. */
  readonly prefill: number;
  readonly length: number;
  readonly kind: Uint8Array;
  readonly side: Uint8Array;
  readonly price: Int32Array;
  readonly qty: Int32Array;
  /** CANCEL: the op index of the LIMIT it cancels. */
  readonly target: Int32Array;
  /** LIMIT: nodejs-order-book's id (String(op index)); '' for other ops. */
  readonly ids: string[];
  readonly mix: { limit: number; cancel: number; market: number; aggressive: number; cancelsOfGone: number };
  /** Oracle's resting count over the timed part. */
  readonly resting: { min: number; max: number; mean: number; end: number };
}

export function generate(s: Scenario): OpStream {
  const rnd = new Rand(s.seed);
  const { ex: oracle, sym, mid } = newExchange();
  const prefill = s.target;
  const length = prefill + s.ops;
  const kind = new Uint8Array(length);
  const side = new Uint8Array(length);
  const price = new Int32Array(length);
  const qty = new Int32Array(length);
  const target = new Int32Array(length).fill(-1);
  const ids: string[] = new Array<string>(length).fill('');
  // Book keys are numbers up to 2^53 (src/core/book/order-store.ts): an Int32Array wrapped the ones
  // past 2^31, whose cancels then missed, and the engines disagreed.
  const keyOf = new Float64Array(length); // oracle's book key per LIMIT op (0: did not rest)
  const live: number[] = []; // op indices of limits that rested and were not cancelled (may have filled since)
  const now = T0;
  let nLimit = 0;
  let nCancel = 0;
  let nMarket = 0;
  let nAggressive = 0;
  let nGone = 0;
  let rMin = Infinity;
  let rMax = 0;
  let rSum = 0;

  const placeLimit = (i: number, sd: number, px: number, q: number): void => {
    kind[i] = LIMIT;
    side[i] = sd;
    price[i] = px;
    qty[i] = q;
    ids[i] = String(i);
    const key = placed(oracle, sym, sd === BUY ? 'BUY' : 'SELL', px, q, now);
    keyOf[i] = key;
    if (key !== 0) live.push(i);
  };

  for (let i = 0; i < prefill; i++) {
    const sd = rnd.below(2);
    const d = 1 + rnd.below(s.spread);
    placeLimit(i, sd, sd === BUY ? mid - d : mid + d, rnd.range(1, 10));
  }

  for (let i = prefill; i < length; i++) {
    const resting = restingCount(oracle, sym);
    const u = rnd.below(100);
    if (u < 70) {
      nLimit++;
      // Feedback: more aggressive (crossing) limits when the book is above its target size.
      const pAggressive = Math.min(0.8, Math.max(0.02, s.aggressiveBase + (2 * (resting - s.target)) / s.target));
      const sd = rnd.below(2);
      if (rnd.chance(pAggressive)) {
        nAggressive++;
        const d = 1 + rnd.below(s.cross);
        placeLimit(i, sd, sd === BUY ? mid + d : mid - d, rnd.range(1, 40));
      } else {
        const d = 1 + rnd.below(s.spread);
        placeLimit(i, sd, sd === BUY ? mid - d : mid + d, rnd.range(1, 10));
      }
    } else if (u < 95) {
      nCancel++;
      kind[i] = CANCEL;
      let t = -1;
      let hit = false;
      for (let attempt = 0; attempt < 8 && live.length > 0; attempt++) {
        const j = rnd.below(live.length);
        t = live[j]!;
        live[j] = live[live.length - 1]!;
        live.pop();
        if (cancelled(oracle, keyOf[t]!, now)) {
          hit = true;
          break;
        }
      }
      if (t < 0) t = rnd.below(prefill); // nothing to pick from: a (likely) not-found cancel
      if (!hit) {
        nGone++;
        cancelled(oracle, keyOf[t]!, now); // no-op unless it still rests
      }
      target[i] = t;
    } else {
      nMarket++;
      kind[i] = MARKET;
      side[i] = rnd.below(2);
      qty[i] = rnd.range(1, 50);
      taken(oracle, sym, side[i] === BUY ? 'BUY' : 'SELL', qty[i]!, now);
    }
    if (resting < rMin) rMin = resting;
    if (resting > rMax) rMax = resting;
    rSum += resting;
  }
  const n = s.ops;
  return {
    scenario: s,
    prefill,
    length,
    kind,
    side,
    price,
    qty,
    target,
    ids,
    mix: { limit: nLimit / n, cancel: nCancel / n, market: nMarket / n, aggressive: nAggressive / Math.max(1, nLimit), cancelsOfGone: nGone / Math.max(1, nCancel) },
    resting: { min: rMin, max: rMax, mean: rSum / n, end: restingCount(oracle, sym) },
  };
}
