// The symbol parameters every market-data row reads (binance-facts §3; API.md section 9):
// `symbol`, `symbols` (a JSON array of names) or neither, and the WS API connection of session rows.

import { apiError } from '../core/errors.ts';
import type { HandlerContext } from './endpoint-types.ts';
import type { Params } from './params.ts';
import type { ConnectionControl } from './session.ts';

export const MAX_SYMBOLS = 100;

/** `symbol`, `symbols` or neither (undefined: every symbol); -1121 for a name not traded here. */
export function symbolList(ctx: HandlerContext, p: Params): string[] | undefined {
  const one = p.get('symbol');
  const many = p.get('symbols');
  if (one !== undefined && many !== undefined) throw apiError('BAD_PARAM_COMBINATION');
  let symbols: string[] | undefined;
  if (one !== undefined) symbols = [one];
  if (many !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(many);
    } catch {
      throw apiError('INVALID_PARAMETER', 'symbols');
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s) => typeof s === 'string')) {
      throw apiError('INVALID_PARAMETER', 'symbols');
    }
    // The reference's cap on `symbols` (rest-api.md: at most 100), and no name twice.
    if (parsed.length > MAX_SYMBOLS) throw apiError('TOO_MANY_SYMBOLS', MAX_SYMBOLS);
    if (new Set(parsed).size !== parsed.length) throw apiError('DUPLICATE_PARAM');
    symbols = parsed as string[];
  }
  for (const s of symbols ?? []) if (ctx.exchange.instrument(s) === undefined) throw apiError('BAD_SYMBOL');
  return symbols;
}

export function connectionOf(ctx: HandlerContext): ConnectionControl {
  if (ctx.connection === undefined) throw apiError('UNAUTHORIZED');
  return ctx.connection;
}

export function requireSymbol(ctx: HandlerContext, p: Params): string {
  const symbol = p.required('symbol');
  if (ctx.exchange.instrument(symbol) === undefined) throw apiError('BAD_SYMBOL');
  return symbol;
}

