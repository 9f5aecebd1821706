// `sim.openOrders(symbol?)` and `sim.balances()`: the account as GET /api/v3/openOrders and
// GET /api/v3/account list it, read in process. A read is not a request: it spends no request
// weight and moves no counter of `stats()`, so a test (the fixture's waiting matchers) can watch
// the account as often as it likes without changing what it watches.

import { account } from './api/info-shapes.ts';
import { openOrders } from './api/orders.ts';
import type { Service } from './api/service.ts';
import { SpotSimError } from './client/errors.ts';
import type { Balance, Order } from './client/types.ts';
import { isApiError } from './core/errors.ts';
import type { Exchange } from './core/exchange.ts';

/** `openOrders(symbol?)` takes a symbol name or nothing (in process and through connectSimulator alike). */
export function checkSymbolArgument(symbol: unknown): asserts symbol is string | undefined {
  if (symbol !== undefined && typeof symbol !== 'string') throw new TypeError(`openOrders(symbol?): symbol must be a string (got ${typeof symbol})`);
}

/** The account's open orders (of `symbol`), oldest first; an unknown symbol throws -1121 as REST answers it. */
export function openOrdersOf(core: Exchange, service: Service, symbol: unknown): Order[] {
  checkSymbolArgument(symbol);
  const views = openOrders(core, symbol);
  if (isApiError(views)) throw new SpotSimError(views.http, views.code, views.msg);
  return views.map((v) => service.wire.order(v));
}

/** Every asset's balance of the account (zero ones included), by asset name. */
export function balancesOf(core: Exchange, service: Service): Balance[] {
  return account(service.config.sim.fees, core, false).balances;
}
