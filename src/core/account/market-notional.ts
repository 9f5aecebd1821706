// The placement filter that needs the book (order/test runs it too, before any balance check):
// NOTIONAL of a MARKET order, with the best opposite price standing in for its price; the same
// for the market forms of issue 33 (STOP_LOSS, TAKE_PROFIT: at placement and again when they
// trigger). A `quoteOrderQty` MARKET order's notional is the amount it names.

import type { SymbolBook } from '../book/index.ts';
import type { PlaceOrder } from '../commands.ts';
import { apiError, type ApiError } from '../errors.ts';
import type { Instrument, Markets } from '../markets.ts';
import type { Side } from '../types.ts';

export function marketNotionalError(s: { readonly markets: Markets; readonly books: readonly SymbolBook[] }, cmd: PlaceOrder): ApiError | null {
  const marketForm = cmd.orderType === 'MARKET' || cmd.orderType === 'STOP_LOSS' || cmd.orderType === 'TAKE_PROFIT';
  if (!marketForm) return null;
  const inst = s.markets.instruments[cmd.symbolIndex]!;
  const quoteOrderQty = cmd.quoteOrderQty ?? 0n;
  const refused = quoteOrderQty !== 0n ? !withinNotional(inst, quoteOrderQty) : marketNotionalFails(inst, s.books[cmd.symbolIndex]!, cmd.side, cmd.quantity);
  return refused ? apiError('FILTER_FAILURE', 'NOTIONAL') : null;
}

/** Whether `lots` of a market form of `side` break NOTIONAL at the best opposite price (none: they pass). */
export function marketNotionalFails(inst: Instrument, book: SymbolBook, side: Side, lots: number): boolean {
  const best = book.oppositeOf(side).best();
  return best !== undefined && !withinNotional(inst, inst.notional(best.price, lots));
}

function withinNotional(inst: Instrument, notional: bigint): boolean {
  return notional >= inst.minNotional && (inst.maxNotional === null || notional <= inst.maxNotional);
}
