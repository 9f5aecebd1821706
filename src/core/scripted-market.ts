// The scripted market (API.md section 8): counterparty orders a test places, cancels and moves
// by hand. They enter the book through the exchange's counterparty entry points, the ones the
// generator uses (counterpartyOrder, counterpartyMarket, counterpartyTake, counterpartyCancel),
// so they rest, trade with the account's orders and print public trades exactly as the
// generator's do; and like them they draw no randomness, so the same calls give the same book.
// Arguments are checked as an account order's are (parsePlaceOrder), so bad input gets the
// reference exchange's codes and filter messages (-1121, -1013, -1100, -1111, -1117, ...).

import { apiError, ApiError } from './errors.ts';
import type { Exchange, Outcome } from './exchange.ts';
import type { Instrument } from './markets.ts';
import { exceedsAssetPrecision, parsePlaceOrder } from './order-request.ts';
import type { CoreEvent } from './types.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from './units.ts';

/** A scripted counterparty order (decimal strings, as an account order's parameters). */
export interface ScriptedOrder {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'LIMIT' | 'LIMIT_MAKER' | 'MARKET';
  /** LIMIT only: GTC rests what does not trade, IOC and FOK never rest. */
  readonly timeInForce?: 'GTC' | 'IOC' | 'FOK';
  /** LIMIT and LIMIT_MAKER. */
  readonly price?: string;
  readonly quantity: string;
}

/** The fields of a scripted order; anything else given is not read. */
const ORDER_FIELDS = ['symbol', 'side', 'type', 'timeInForce', 'price', 'quantity'] as const;
const ID_PATTERN = '^[0-9]{1,20}$';
/** The id map is swept of finished orders when it grows past this (and twice its live size). */
const SWEEP_MIN = 1024;
const NO_EVENTS: CoreEvent[] = [];

export class ScriptedMarket {
  private nextId = 1;
  /** Id -> book key of the scripted orders that rested (finished ones are swept lazily). */
  private readonly rested = new Map<number, number>();
  private sweepAt = SWEEP_MIN;

  constructor(private readonly exchange: Exchange) {}

  /** Places a counterparty order; its id (also when nothing of it rests). */
  place(input: unknown, now: number): Outcome<number> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return refused(apiError('MANDATORY_PARAM', 'symbol'));
    const given = input as Record<string, unknown>;
    const cmd: Record<string, string> = {};
    for (const name of ORDER_FIELDS) if (given[name] !== undefined && given[name] !== null) cmd[name] = String(given[name]);
    const parsed = parsePlaceOrder(cmd, (s) => this.exchange.instrument(s));
    if (parsed instanceof ApiError) return refused(parsed);
    const { instrument: inst, side, type, timeInForce, price, quantity } = parsed;
    const opposite = this.exchange.books[inst.index]!.oppositeOf(side);
    const best = opposite.best()?.price;
    const crosses = best !== undefined && (side === 'BUY' ? best <= price : best >= price);

    let key = 0;
    if (type === 'MARKET') {
      // NOTIONAL for a MARKET order: the best opposite price stands in for its price (as for the account's).
      if (best !== undefined && !withinNotional(inst, best, quantity)) return refused(apiError('FILTER_FAILURE', 'NOTIONAL'));
      this.exchange.counterpartyMarket(inst.index, side, quantity, now);
    } else if (type === 'LIMIT_MAKER') {
      if (crosses) return refused(apiError('WOULD_TAKE'));
      key = this.exchange.counterpartyOrder(inst.index, side, price, quantity, now);
    } else if (timeInForce === 'GTC') {
      key = this.exchange.counterpartyOrder(inst.index, side, price, quantity, now);
    } else if (timeInForce === 'IOC' || this.fillable(inst, side, price) >= quantity) {
      this.exchange.counterpartyTake(inst.index, side, price, quantity, now);
    }
    const id = this.nextId++;
    if (key !== 0) this.remember(id, key);
    return { ok: true, value: id, events: this.exchange.takeEvents(now) };
  }

  /** Cancels a resting scripted order of the symbol; false when it is not resting there. */
  cancel(symbol: unknown, id: unknown, now: number): Outcome<boolean> {
    const inst = this.lookup(symbol);
    if (inst instanceof ApiError) return refused(inst);
    // An id as a number, or as digits (a LONG parameter of the reference is sent as text).
    const n = typeof id === 'string' && /^[0-9]{1,20}$/.test(id) ? Number(id) : id;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) return refused(apiError('ILLEGAL_CHARS', 'id', ID_PATTERN));
    const key = this.rested.get(n);
    const order = key === undefined ? undefined : this.exchange.orders.get(key);
    if (order === undefined || order.symbolIndex !== inst.index) return { ok: true, value: false, events: NO_EVENTS };
    this.rested.delete(n);
    const cancelled = this.exchange.counterpartyCancel(key!);
    return { ok: true, value: cancelled, events: this.exchange.takeEvents(now) };
  }

  /** Cancels every counterparty order of the symbol, both sides, the generator's included. */
  cancelAll(symbol: unknown, now: number): Outcome<number> {
    const inst = this.lookup(symbol);
    if (inst instanceof ApiError) return refused(inst);
    const count = this.exchange.counterpartyRestingCount(inst.index);
    // From the end: each cancel then moves no other order in the generator's index.
    for (let i = count - 1; i >= 0; i--) this.exchange.counterpartyCancelAt(inst.index, i, now);
    return { ok: true, value: count, events: this.exchange.takeEvents(now) };
  }

  /** Sets the generator's latent mid of the symbol (a decimal price on the tick grid). */
  setMid(symbol: unknown, price: unknown): Outcome<null> {
    const inst = this.lookup(symbol);
    if (inst instanceof ApiError) return refused(inst);
    if (price === undefined || price === null || price === '') return refused(apiError('MANDATORY_PARAM', 'price'));
    const text = String(price);
    const ticks = parseScaled(text, inst.tickDecimals);
    if (ticks === ScaledParse.Malformed) return refused(apiError('ILLEGAL_CHARS', 'price', DECIMAL_PATTERN));
    if (exceedsAssetPrecision(text)) return refused(apiError('BAD_PRECISION', 'price'));
    if (ticks <= 0 || !Number.isSafeInteger(ticks)) return refused(apiError('FILTER_FAILURE', 'PRICE_FILTER'));
    this.exchange.setLatentMid(inst.index, ticks);
    return { ok: true, value: null, events: NO_EVENTS };
  }

  /** Forgets every id and numbers from 1 again (sim.reset()). */
  reset(): void {
    this.nextId = 1;
    this.rested.clear();
    this.sweepAt = SWEEP_MIN;
  }

  private lookup(symbol: unknown): Instrument | ApiError {
    if (symbol === undefined || symbol === null || symbol === '') return apiError('MANDATORY_PARAM', 'symbol');
    return this.exchange.instrument(String(symbol)) ?? apiError('BAD_SYMBOL');
  }

  /** Lots a taker of `side` limited at `price` would fill now (every resting order counts). */
  private fillable(inst: Instrument, side: 'BUY' | 'SELL', price: number): number {
    const levels = this.exchange.books[inst.index]!.oppositeOf(side).levels;
    let total = 0;
    for (let i = levels.length - 1; i >= 0; i--) {
      const level = levels[i]!;
      if (side === 'BUY' ? level.price > price : level.price < price) break;
      total += level.qty;
    }
    return total;
  }

  /** Keeps the id of an order that rested; drops the ids of finished ones when the map grows. */
  private remember(id: number, key: number): void {
    this.rested.set(id, key);
    if (this.rested.size < this.sweepAt) return;
    for (const [known, bookKey] of this.rested) if (this.exchange.orders.get(bookKey) === undefined) this.rested.delete(known);
    this.sweepAt = Math.max(SWEEP_MIN, 2 * this.rested.size);
  }
}

function withinNotional(inst: Instrument, price: number, lots: number): boolean {
  const notional = inst.notional(price, lots);
  return notional >= inst.minNotional && (inst.maxNotional === null || notional <= inst.maxNotional);
}

function refused<T>(error: ApiError): Outcome<T> {
  return { ok: false, error, events: NO_EVENTS };
}
