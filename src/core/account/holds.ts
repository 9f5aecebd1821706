// What an open order holds of the account's balances (spec 2.4, issue 18, API.md 11 "Amounts and
// locks"), in one place: placement takes it, fills, amends and endings give it back, and the
// invariant checks recompute it. A SELL locks its base quantity. A BUY locks its notional at its
// lock price and reserves, out of free quote, the worst-case commission of its open lots. A
// MARKET order (and a triggered STOP_LOSS / TAKE_PROFIT, which trades as one) holds nothing: it
// pays from free funds. An order list's PENDING_NEW order holds nothing until it is activated.

import type { Instrument } from '../markets.ts';
import type { Side } from '../types.ts';
import type { AccountOrder } from './account-order.ts';

/** Atoms an open order keeps: `lock` moved to locked, `reserve` kept out of free quote. */
export interface Need {
  readonly lock: bigint;
  readonly reserve: bigint;
}

export const NOTHING: Need = { lock: 0n, reserve: 0n };

/** What an order holds (spec 2.4): quote notional (BUY) or base quantity (SELL), in atoms. */
export function lockFor(inst: Instrument, side: Side, price: number, lots: number): bigint {
  return side === 'SELL' ? BigInt(lots) * inst.basePerLot : inst.notional(price, lots);
}

/**
 * The fee reserve of one lot of a BUY at `price` ticks: its commission at the higher rate,
 * rounded up to 8 decimals. Per lot, because every fill is rounded up on its own and a fill
 * is whole lots: the fills of n lots never cost more than n of these (ceil(n x) <= n ceil(x)).
 */
export function feeReservePerLot(inst: Instrument, price: number, maxFeeCentiBps: bigint): bigint {
  return inst.commission(BigInt(price), maxFeeCentiBps);
}

/** Whether the order pays its fills from free funds (a MARKET order, a triggered market form). */
export function paysFromFree(acct: AccountOrder): boolean {
  return acct.price === 0 && acct.phase !== 'waiting';
}

/** What `acct` holds for `lots` open lots in its current phase. */
export function needOf(inst: Instrument, acct: AccountOrder, lots: number, maxFeeCentiBps: bigint): Need {
  if (acct.phase === 'pending' || paysFromFree(acct)) return NOTHING;
  return needAt(inst, acct.side, acct.lockPrice, lots, maxFeeCentiBps);
}

/** What `lots` of an order of `side` hold when a BUY's lock is figured at `lockPrice` ticks. */
export function needAt(inst: Instrument, side: Side, lockPrice: number, lots: number, maxFeeCentiBps: bigint): Need {
  if (side === 'SELL') return { lock: BigInt(lots) * inst.basePerLot, reserve: 0n };
  return { lock: inst.notional(lockPrice, lots), reserve: BigInt(lots) * feeReservePerLot(inst, lockPrice, maxFeeCentiBps) };
}

/**
 * The price a BUY's lock is figured at: its own, or for a STOP_LOSS / TAKE_PROFIT (no price) its
 * stop price; a trailing one without uses the last price, or the start mid when the symbol never
 * traded (API.md 11 "Amounts and locks").
 */
export function lockPriceOf(inst: Instrument, price: number, stopPrice: number): number {
  return price !== 0 ? price : stopPrice || inst.lastPrice || inst.startMid;
}

/** The larger of two needs, part by part: what the two legs of an OCO hold together. */
export function largerNeed(a: Need, b: Need): Need {
  return { lock: a.lock > b.lock ? a.lock : b.lock, reserve: a.reserve > b.reserve ? a.reserve : b.reserve };
}

/** The asset an order of `side` locks. */
export function lockedAsset(inst: Instrument, side: Side): string {
  return side === 'BUY' ? inst.quote : inst.base;
}
