// The quantity of a MARKET order given as `quoteOrderQty` (issue 33; rest-api.md "New order":
// BUY spends, SELL receives that much quote; API.md 11 "Amounts and locks"): walking the
// counterparty's makers best first as the order would meet them (the account's own are skipped:
// self-trade prevention expires them), a BUY takes the largest lot-grid quantity whose notional
// does not exceed `quoteOrderQty` (the commission comes on top, spec 2.3) and a SELL the
// smallest whose proceeds reach it, at most the free base. When the book runs out first, the
// rest is priced at the last level reached: the order then trades what there is and expires
// (INSUFFICIENT_LIQUIDITY). No counterparty liquidity at all, or a quantity below LOT_SIZE's
// minimum, is refused (-2010, errors.md).

import type { Matcher } from '../book/index.ts';
import { apiError, type ApiError } from '../errors.ts';
import type { Instrument } from '../markets.ts';
import type { Side } from '../types.ts';
import type { AccountOrder } from './account-order.ts';

/** The lots a `quoteOrderQty` MARKET order of `side` takes; `freeBase`: the SELL's spendable base atoms. */
export function quoteMarketLots(matcher: Matcher<AccountOrder>, inst: Instrument, side: Side, quoteOrderQty: bigint, freeBase: bigint): number | ApiError {
  let lots = 0;
  let amount = 0n;
  let lastPrice = 0;
  let reached = false;
  matcher.forEachCounterpartyFill(inst, side, Number.MAX_SAFE_INTEGER, (price, q) => {
    const perLot = inst.notional(price, 1);
    lastPrice = price;
    const left = quoteOrderQty - amount;
    // BUY: as many lots as the rest buys; SELL: as many as it takes to receive the rest.
    const wanted = side === 'BUY' ? left / perLot : (left + perLot - 1n) / perLot;
    if (wanted <= BigInt(q)) {
      lots += Number(wanted);
      amount += wanted * perLot;
      reached = true;
      return false;
    }
    lots += q;
    amount += BigInt(q) * perLot;
    return true;
  });
  if (lastPrice === 0) return apiError('NO_BOOK_LIQUIDITY');
  if (!reached) {
    const perLot = inst.notional(lastPrice, 1);
    const left = quoteOrderQty - amount;
    lots += Number(side === 'BUY' ? left / perLot : (left + perLot - 1n) / perLot);
  }
  if (lots > inst.maxQty) lots = inst.maxQty;
  if (lots < inst.minQty) return apiError('LOT_SIZE_LIQUIDITY');
  // A SELL is capped by the free base; with less than LOT_SIZE's minimum it stays uncapped, and
  // the balance check refuses it as any order the account cannot cover.
  const baseLots = Number(freeBase / inst.basePerLot);
  if (side === 'SELL' && lots > baseLots && baseLots >= inst.minQty) lots = baseLots;
  return lots;
}
