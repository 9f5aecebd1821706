// The account's conditional orders waiting for their trigger (issue 33; API.md 11 "Triggers";
// the trailing-stop FAQ): per symbol two indexed heaps of plain stops by stop price (stop-heap.ts)
// and the trailing stops that track. The book hands it the public trades that reach the symbol's
// trigger window (TradeWatch; `Instrument.triggerAbove` / `triggerBelow`, which this keeps at
// the nearest stops, so a trade far from every stop costs two comparisons): it marks the orders whose
// condition the trade meets as triggered and hands them to the account, which runs them after
// the command. Conditions (trailing-stop FAQ table): STOP_LOSS SELL and TAKE_PROFIT BUY when
// last <= stopPrice; STOP_LOSS BUY and TAKE_PROFIT SELL when last >= stopPrice. A trailing stop
// with a stop price waits in the heap until that condition holds and then tracks from that
// trade's price; without one it tracks from placement (the last trade then is its first
// reference, scenario E). Trackers are scanned on each trade: MAX_NUM_ALGO_ORDERS bounds them.

import type { TradeWatch } from '../book/index.ts';
import type { Instrument } from '../markets.ts';
import type { OrderType, Side } from '../types.ts';
import type { AccountBookOrder } from './account-order.ts';
import { StopHeap, WaitingStop } from './stop-heap.ts';

/** Prices (ticks) below this multiply by 10000 + 10000 BIPS within the doubles' exact integers. */
const EXACT_TICKS = 2 ** 53 / 20_000;

class SymbolStops {
  readonly rising = new StopHeap(true);
  readonly falling = new StopHeap(false);
  /** Trailing stops that track (placement order; each trade scans them). */
  trackers: WaitingStop[] = [];
}

/** Whether an order of `type` and `side` triggers when the last price rises to its stop. */
export function triggersRising(type: OrderType, side: Side): boolean {
  const stopLoss = type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT';
  return stopLoss === (side === 'BUY');
}

/** Whether a stop placed now would trigger at once: its condition holds at the last price (API.md 11). */
export function wouldTrigger(type: OrderType, side: Side, stopPrice: number, lastPrice: number): boolean {
  if (stopPrice === 0 || lastPrice === 0) return false;
  return triggersRising(type, side) ? lastPrice >= stopPrice : lastPrice <= stopPrice;
}

/**
 * Whether a trailing stop's delta is met (exact, in ticks and BIPS): a SELL when the price fell
 * `delta` BIPS from its highest, a BUY when it rose `delta` from its lowest.
 */
export function trailingMet(side: Side, price: number, reference: number, delta: number): boolean {
  if (price < EXACT_TICKS && reference < EXACT_TICKS) {
    return side === 'SELL' ? price * 10_000 <= reference * (10_000 - delta) : price * 10_000 >= reference * (10_000 + delta);
  }
  const p = BigInt(price) * 10_000n;
  return side === 'SELL' ? p <= BigInt(reference) * BigInt(10_000 - delta) : p >= BigInt(reference) * BigInt(10_000 + delta);
}

/** The prices at which the next trade can trigger anything: the nearest stops; every price while one tracks. */
function setWindow(inst: Pick<Instrument, 'triggerAbove' | 'triggerBelow'>, s: SymbolStops): void {
  if (s.trackers.length !== 0) {
    inst.triggerAbove = 0;
    return;
  }
  inst.triggerAbove = s.rising.top()?.stopPrice ?? Infinity;
  inst.triggerBelow = s.falling.top()?.stopPrice ?? -1;
}

export class StopBook implements TradeWatch {
  private readonly byId = new Map<number, WaitingStop>();
  private readonly symbols: SymbolStops[];

  constructor(
    symbolCount: number,
    /** A trade met the order's condition: it runs once the command has finished. */
    private readonly onTrigger: (order: AccountBookOrder) => void,
  ) {
    this.symbols = Array.from({ length: symbolCount }, () => new SymbolStops());
  }

  /** Whether the order waits here (untriggered). */
  has(orderId: number): boolean {
    return this.byId.has(orderId);
  }

  /** A conditional order starts waiting (placement, or an order list's activation). */
  add(inst: Instrument, order: AccountBookOrder): void {
    const acct = order.account!;
    const stop = new WaitingStop(order, acct.stopPrice, triggersRising(acct.type, acct.side), acct.trailingDelta);
    const s = this.symbols[inst.index]!;
    this.byId.set(order.id, stop);
    acct.phase = 'waiting';
    inst.watchedStops++;
    if (acct.stopPrice !== 0) (stop.rises ? s.rising : s.falling).push(stop);
    else {
      // No stop price: tracking starts now, from the last trade (none yet: from the next one);
      // its trailingTime was set with its acceptance (order-entry.ts markStart).
      stop.reference = inst.lastPrice;
      s.trackers.push(stop);
    }
    setWindow(inst, s);
  }

  /** Takes a waiting order out (cancelled, expired); false if it was not waiting. */
  remove(inst: Instrument, orderId: number): boolean {
    const stop = this.byId.get(orderId);
    if (stop === undefined) return false;
    this.byId.delete(orderId);
    inst.watchedStops--;
    const s = this.symbols[inst.index]!;
    if (stop.heapAt >= 0) (stop.rises ? s.rising : s.falling).remove(stop);
    else s.trackers = s.trackers.filter((t) => t !== stop);
    setWindow(inst, s);
    return true;
  }

  /** One public trade of a symbol with waiting orders (the book's TradeWatch). */
  traded(inst: Instrument, price: number, now: number): void {
    const s = this.symbols[inst.index]!;
    // Trackers first: one that starts tracking on this trade (below) is judged from the next.
    if (s.trackers.length !== 0) this.track(inst, s, price, now);
    while (s.rising.topReached(price)) this.reached(inst, s, s.rising.pop(), price, now);
    while (s.falling.topReached(price)) this.reached(inst, s, s.falling.pop(), price, now);
    setWindow(inst, s);
  }

  /** For the invariant checks: the symbol's waiting orders, and whether its heaps are sound. */
  waiting(symbolIndex: number): { readonly stops: readonly WaitingStop[]; readonly heapsSound: boolean; readonly window: readonly [number, number] } {
    const s = this.symbols[symbolIndex]!;
    const window = { triggerAbove: Infinity, triggerBelow: -1 };
    setWindow(window, s);
    return { stops: [...s.rising.entries(), ...s.falling.entries(), ...s.trackers], heapsSound: s.rising.consistent() && s.falling.consistent(), window: [window.triggerAbove, window.triggerBelow] };
  }

  get size(): number {
    return this.byId.size;
  }

  /** The stop price condition held: a trailing stop starts tracking from `price`, a plain one triggers. */
  private reached(inst: Instrument, s: SymbolStops, stop: WaitingStop, price: number, now: number): void {
    if (stop.trailingDelta === 0) return this.trigger(inst, stop);
    stop.reference = price;
    stop.order.account!.trailingTime = now;
    s.trackers.push(stop);
  }

  private track(inst: Instrument, s: SymbolStops, price: number, now: number): void {
    let kept = 0;
    const trackers = s.trackers;
    for (let i = 0; i < trackers.length; i++) {
      const stop = trackers[i]!;
      const side = stop.order.side;
      if (stop.reference === 0) {
        stop.reference = price;
        stop.order.account!.trailingTime = now;
      } else if (trailingMet(side, price, stop.reference, stop.trailingDelta)) {
        this.trigger(inst, stop);
        continue;
      } else if (side === 'SELL' ? price > stop.reference : price < stop.reference) stop.reference = price;
      trackers[kept++] = stop;
    }
    trackers.length = kept;
  }

  private trigger(inst: Instrument, stop: WaitingStop): void {
    this.byId.delete(stop.orderId);
    inst.watchedStops--;
    stop.order.account!.phase = 'triggered';
    this.onTrigger(stop.order);
  }
}
