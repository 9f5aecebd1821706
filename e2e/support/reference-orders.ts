// Shared support of the specs of `[sim] order_types = "reference"` (docs/orders.md): the worker
// configuration (generator off, so only the scripted `market` moves prices) and a trade at a
// price, which is what moves a symbol's last price and so triggers conditional orders.
import type { FixtureMarket, SimConfigInput } from 'spot-sim/fixture';
import type { ExecutionReportEvent, UserEvent } from 'spot-sim';

export const SYMBOL = 'BTCUSDT';

/** order_types = "reference", no counterparty generator: prices move only by `market`. */
export const REFERENCE: SimConfigInput = { sim: { order_types: 'reference', generator: { enabled: false } } };

/**
 * A public trade of `quantity` at `price` between two counterparty orders: a resting bid there,
 * taken by a MARKET sell. The book must hold no higher bid (the sell would take that first).
 */
export function tradeAt(market: FixtureMarket, price: string, quantity = '0.001'): void {
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity });
}

/** The executionReports of one order among `events`, as `x/X` pairs with `w` (on the book). */
export function reportsOf(events: readonly UserEvent[], orderId: number): string[] {
  return events.filter((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === orderId).map((e) => `${e.x}/${e.X} w=${e.w}`);
}

/** The user-data events as `e` names, executionReports with their order and `x/X`, listStatus with `l/L`. */
export function timeline(events: readonly UserEvent[]): string[] {
  return events.map((e) => {
    if (e.e === 'executionReport') return `#${e.i} ${e.x}/${e.X}`;
    if (e.e === 'listStatus') return `list ${e.g} ${e.l}/${e.L}`;
    return e.e;
  });
}
