// Helpers of the exchange's unit tests (src/core/exchange-*.test.ts) that go through the api's
// order functions: in the api layer, which may import the core (the core's own test-support.ts
// may not import the api).

import assert from 'node:assert/strict';
import type { Exchange } from '../core/exchange.ts';
import { invariantViolations } from '../core/invariants.ts';
import { balance } from '../core/queries.ts';
import { T0 } from '../core/test-support.ts';
import { placeOrder } from './orders.ts';

export const BTC = 'BTCUSDT';

export function place(ex: Exchange, fields: Record<string, string>, now = T0) {
  return placeOrder(ex, { symbol: BTC, ...fields }, now);
}

export function limit(ex: Exchange, side: 'BUY' | 'SELL', price: string, quantity: string, extra: Record<string, string> = {}) {
  return place(ex, { side, type: 'LIMIT', timeInForce: 'GTC', price, quantity, ...extra });
}

export function free(ex: Exchange, asset: string): bigint {
  return balance(ex.state, asset).free;
}

export function locked(ex: Exchange, asset: string): bigint {
  return balance(ex.state, asset).locked;
}

/** The core's invariants hold (balances conserved, locks match open orders...). */
export function assertHealthy(ex: Exchange): void {
  assert.deepEqual(invariantViolations(ex.state), []);
}
