// The placement filter that needs the book (order/test runs it too, before any balance check):
// NOTIONAL of a MARKET order, with the best opposite price standing in for its price.

import type { SymbolBook } from '../book/index.ts';
import type { PlaceOrder } from '../commands.ts';
import { apiError, type ApiError } from '../errors.ts';
import type { Markets } from '../markets.ts';

export function marketNotionalError(s: { readonly markets: Markets; readonly books: readonly SymbolBook[] }, cmd: PlaceOrder): ApiError | null {
  if (cmd.orderType !== 'MARKET') return null;
  const inst = s.markets.instruments[cmd.symbolIndex]!;
  const best = s.books[cmd.symbolIndex]!.oppositeOf(cmd.side).best();
  if (best === undefined) return null;
  const notional = inst.notional(best.price, cmd.quantity);
  if (notional < inst.minNotional || (inst.maxNotional !== null && notional > inst.maxNotional)) return apiError('FILTER_FAILURE', 'NOTIONAL');
  return null;
}
