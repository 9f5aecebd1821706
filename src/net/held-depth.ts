// Depth diffs and bookTicker updates held through one manual-clock jump (docs/time.md, "Streams
// during a jump"): a day of 100 ms batches is 864,000 diffs a client cannot read until the call
// returns. Held, a symbol's diffs merge into one that spans their update ids (U of the first, u
// of the last, each touched level at its last quantity), which is what a client keeping a local
// book needs: the reference's sync rule only asks that a diff's U..u cover the next id
// (binance-facts §5, web-socket-streams.md "How to manage a local order book correctly"). A
// diff that does not continue the held one (a gap a fault made) sends the held one first, so
// the gap stays visible. A touch is state: the last one per symbol is kept.

import type { DepthDiff, Touch } from '../core/types.ts';

interface MergedDiff {
  readonly symbol: string;
  eventTime: number;
  readonly firstUpdateId: number;
  lastUpdateId: number;
  readonly bids: Map<number, number>;
  readonly asks: Map<number, number>;
}

export class HeldDepth {
  /** Per symbol, in the order the symbols first came. */
  private readonly diffs = new Map<string, MergedDiff>();
  private readonly touches = new Map<string, Touch>();

  /** Holds `diff`; returns the held diff it cannot continue (send that one now), else null. */
  add(diff: DepthDiff): DepthDiff | null {
    const held = this.diffs.get(diff.symbol);
    if (held !== undefined && diff.firstUpdateId === held.lastUpdateId + 1) {
      held.eventTime = diff.eventTime;
      held.lastUpdateId = diff.lastUpdateId;
      for (const [price, qty] of diff.bids) held.bids.set(price, qty);
      for (const [price, qty] of diff.asks) held.asks.set(price, qty);
      return null;
    }
    this.diffs.delete(diff.symbol);
    this.diffs.set(diff.symbol, {
      symbol: diff.symbol,
      eventTime: diff.eventTime,
      firstUpdateId: diff.firstUpdateId,
      lastUpdateId: diff.lastUpdateId,
      bids: new Map(diff.bids),
      asks: new Map(diff.asks),
    });
    return held === undefined ? null : merged(held);
  }

  addTouch(touch: Touch): void {
    this.touches.delete(touch.symbol);
    this.touches.set(touch.symbol, touch);
  }

  /** Everything held, and forgets it: one diff and one touch per symbol. */
  take(): { diffs: DepthDiff[]; touches: Touch[] } {
    const out = { diffs: [...this.diffs.values()].map(merged), touches: [...this.touches.values()] };
    this.diffs.clear();
    this.touches.clear();
    return out;
  }
}

/** The diff as the core makes one: bids best (highest) first, asks best (lowest) first. */
function merged(held: MergedDiff): DepthDiff {
  return {
    symbol: held.symbol,
    eventTime: held.eventTime,
    firstUpdateId: held.firstUpdateId,
    lastUpdateId: held.lastUpdateId,
    bids: [...held.bids].sort((a, b) => b[0] - a[0]),
    asks: [...held.asks].sort((a, b) => a[0] - b[0]),
  };
}
