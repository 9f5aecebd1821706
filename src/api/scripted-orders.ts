// The edge of the scripted market (API.md section 8): a test's arguments (decimal strings,
// anything in-process callers pass: src/market.ts's ScriptedOrder) checked as an account order's are (parsePlaceOrder), so
// bad input gets the reference exchange's codes and filter messages (-1121, -1013, -1100,
// -1111, -1117, ...), then handed to the core's ScriptedMarket in ticks and lots.

import type { Outcome } from '../core/commands.ts';
import { apiError, ApiError } from '../core/errors.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Instrument } from '../core/markets.ts';
import { ScriptedMarket } from '../core/counterparty/index.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from '../core/units.ts';
import { scalarText } from '../untrusted.ts';
import { exceedsAssetPrecision, parsePlaceOrder } from './order-params.ts';
import { canonicalDecimal, parseDecimal } from '../config/decimal.ts';

/** The fields of a scripted order; anything else given is not read. */
const ORDER_FIELDS = ['symbol', 'side', 'type', 'timeInForce', 'price', 'quantity'] as const;
const ID_PATTERN = '^[0-9]{1,20}$';

export class ScriptedOrders {
  /** The core's side: ids handed out and the book-dependent filters. */
  readonly market: ScriptedMarket;

  constructor(private readonly core: Exchange) {
    this.market = new ScriptedMarket(core);
  }

  /** Places a counterparty order; its id (also when nothing of it rests). */
  place(input: unknown, now: number): Outcome<number> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return refused(apiError('MANDATORY_PARAM', 'symbol'));
    const given = input as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const name of ORDER_FIELDS) {
      const value = given[name];
      if (value === undefined || value === null) continue;
      // A field of the wrong JSON type (an array, an object, a boolean) is refused, never coerced.
      const text = paramText(value);
      if (text === undefined) return refused(wrongType(name));
      fields[name] = text;
    }
    const parsed = parsePlaceOrder(fields, (s) => this.core.instrument(s), now);
    if (parsed instanceof ApiError) return refused(parsed);
    return this.market.place(parsed, now);
  }

  /** Cancels a resting scripted order of the symbol; false when it is not resting there. */
  cancel(symbol: unknown, id: unknown, now: number): Outcome<boolean> {
    const inst = this.lookup(symbol);
    if (inst instanceof ApiError) return refused(inst);
    // An id as a number, or as digits (a LONG parameter of the reference is sent as text).
    const n = typeof id === 'string' && /^[0-9]{1,20}$/.test(id) ? Number(id) : id;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) return refused(apiError('ILLEGAL_CHARS', 'id', ID_PATTERN));
    return this.market.cancel(inst.index, n, now);
  }

  /** Cancels every counterparty order of the symbol, both sides, the generator's included. */
  cancelAll(symbol: unknown, now: number): Outcome<number> {
    const inst = this.lookup(symbol);
    return inst instanceof ApiError ? refused(inst) : this.market.cancelAll(inst.index, now);
  }

  /** Sets the generator's latent mid of the symbol (a decimal price on the tick grid). */
  setMid(symbol: unknown, price: unknown, now = 0): Outcome<null> {
    const inst = this.lookup(symbol);
    if (inst instanceof ApiError) return refused(inst);
    if (price === undefined || price === null || price === '') return refused(apiError('MANDATORY_PARAM', 'price'));
    const text = paramText(price);
    if (text === undefined) return refused(wrongType('price'));
    const ticks = parseScaled(text, inst.tickDecimals);
    if (ticks === ScaledParse.Malformed) return refused(apiError('ILLEGAL_CHARS', 'price', DECIMAL_PATTERN));
    if (exceedsAssetPrecision(text)) return refused(apiError('BAD_PRECISION', 'price'));
    if (ticks <= 0 || !Number.isSafeInteger(ticks)) return refused(apiError('FILTER_FAILURE', 'PRICE_FILTER'));
    return this.market.setMid(inst.index, ticks, now);
  }

  /** Forgets every id and numbers from 1 again. */
  reset(): void {
    this.market.reset();
  }

  private lookup(symbol: unknown): Instrument | ApiError {
    if (symbol === undefined || symbol === null || symbol === '') return apiError('MANDATORY_PARAM', 'symbol');
    const text = scalarText(symbol);
    if (text === undefined) return wrongType('symbol');
    return this.core.instrument(text) ?? apiError('BAD_SYMBOL');
  }
}

/**
 * A parameter as the text an account order would carry: a number in plain decimal notation, as
 * the typed client sends it (1e-7 is "0.0000001"; never an exponent), a string as it is;
 * undefined for any other JSON type (never coerced: an object's toString is not called).
 */
function paramText(value: unknown): string | undefined {
  if (typeof value === 'number') {
    const parsed = parseDecimal(value);
    if (parsed.ok) return canonicalDecimal(parsed.value);
  }
  return scalarText(value);
}

/** -1100 naming a field given as an array, object or boolean where a string or number belongs. */
function wrongType(name: string): ApiError {
  return apiError('ILLEGAL_CHARS_ANY', name);
}

function refused<T>(error: ApiError): Outcome<T> {
  return { ok: false, error, events: [] };
}
