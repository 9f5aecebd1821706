// The account's executions for the whole run (spec 2.4/2.5), per symbol, oldest id first.
// Orders are forgotten when they end; their trades stay here for myTrades.

import type { AccountTrade } from '../types.ts';
import { lowerBound } from '../lower-bound.ts';

export const MY_TRADES_DEFAULT_LIMIT = 500;
export const MY_TRADES_MAX_LIMIT = 1000;

export interface TradeQuery {
  readonly orderId?: number;
  readonly fromId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  /** Already capped to 1..1000. */
  readonly limit: number;
}

export class TradeLog {
  private readonly bySymbol = new Map<string, AccountTrade[]>();
  private total = 0;

  append(trade: AccountTrade): void {
    let list = this.bySymbol.get(trade.symbol);
    if (list === undefined) this.bySymbol.set(trade.symbol, (list = []));
    list.push(trade);
    this.total++;
  }

  get size(): number {
    return this.total;
  }

  all(symbol?: string): readonly AccountTrade[] {
    if (symbol !== undefined) return this.bySymbol.get(symbol) ?? [];
    return [...this.bySymbol.values()].flat();
  }

  /**
   * myTrades semantics (binance-facts §3.14): `fromId` returns ids >= fromId; a start time
   * returns the oldest trades from it; otherwise the most recent `limit` trades. Always oldest
   * id first.
   */
  query(symbol: string, q: TradeQuery): AccountTrade[] {
    const list = this.bySymbol.get(symbol) ?? [];
    const matches = (t: AccountTrade) =>
      (q.orderId === undefined || t.orderId === q.orderId) &&
      (q.startTime === undefined || t.time >= q.startTime) &&
      (q.endTime === undefined || t.time <= q.endTime);
    const out: AccountTrade[] = [];
    if (q.fromId !== undefined || q.startTime !== undefined) {
      for (let i = q.fromId === undefined ? 0 : lowerBoundById(list, q.fromId); i < list.length && out.length < q.limit; i++) {
        if (matches(list[i]!)) out.push(list[i]!);
      }
      return out;
    }
    for (let i = list.length - 1; i >= 0 && out.length < q.limit; i--) if (matches(list[i]!)) out.push(list[i]!);
    return out.reverse();
  }
}

function lowerBoundById(list: readonly AccountTrade[], id: number): number {
  return lowerBound(list.length, (i) => list[i]!.tradeId, id);
}
