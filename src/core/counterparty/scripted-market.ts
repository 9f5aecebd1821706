// The scripted market (API.md section 8): counterparty orders a test places, cancels and moves
// by hand. They enter the book through `Exchange.submit` as the generator's counterparty
// commands do, so they rest, trade with the account's orders and print public trades exactly
// as the generator's; like them they draw no randomness, so the same calls give the same book.
// Arguments arrive parsed (ticks, lots, instrument index: src/api/scripted-orders.ts); this
// keeps the ids it hands out and the filters that need the book (LIMIT_MAKER, MARKET NOTIONAL).
// In a replayed symbol (API.md section 12) they trade only with the account's orders and rest
// beside the synthetic levels, so "would take" and "fills whole" count the account's orders alone.

import type { Command, Outcome, PlaceOrder, ResultOf } from '../commands.ts';
import { NO_EVENTS } from '../event-queue.ts';
import { apiError, type ApiError } from '../errors.ts';
import type { Instrument, Markets } from '../markets.ts';
import { bestOpposite, counterpartyOrderSymbol, counterpartyRestingCount, fillableLots, isReplayed, wouldCross } from '../queries.ts';
import type { CoreState } from '../state.ts';
import type { CoreEvent } from '../types.ts';

/** What the scripted market uses of the exchange: the one entry every client uses, and reads. */
export interface CounterpartyPort {
  readonly markets: Markets;
  /** Read only through the queries (queries.ts). */
  readonly state: CoreState;
  submit<C extends Command>(cmd: C): Outcome<ResultOf<C>>;
}

/** A scripted counterparty order, parsed: the order fields of a placement (ticks, lots), no ids. */
export type ScriptedPlacement = Pick<PlaceOrder, 'symbolIndex' | 'side' | 'orderType' | 'timeInForce' | 'price' | 'quantity'>;

/** The id map is swept of finished orders when it grows past this (and twice its live size). */
const SWEEP_MIN = 1024;

export class ScriptedMarket {
  private nextId = 1;
  /** Id -> book key of the scripted orders that rested (finished ones are swept lazily). */
  private readonly rested = new Map<number, number>();
  private sweepAt = SWEEP_MIN;

  constructor(private readonly core: CounterpartyPort) {}

  /** Places a counterparty order; its id (also when nothing of it rests). */
  place(p: ScriptedPlacement, now: number): Outcome<number> {
    const { symbolIndex, side, price, quantity: lots } = p;
    const inst = this.core.markets.instruments[symbolIndex]!;
    const state = this.core.state;
    const best = bestOpposite(state, symbolIndex, side);
    const accountOnly = isReplayed(state, symbolIndex);
    let key = 0;
    let events: CoreEvent[];
    if (p.orderType === 'MARKET') {
      // NOTIONAL for a MARKET order: the best opposite price stands in for its price (as for the account's).
      if (best !== undefined && !withinNotional(inst, best, lots)) return refused(apiError('FILTER_FAILURE', 'NOTIONAL'));
      events = this.core.submit({ type: 'counterpartyTake', now, symbolIndex, side, price: null, lots }).events;
    } else if (p.orderType === 'LIMIT_MAKER' || p.timeInForce === 'GTC') {
      const wouldTake = () => (accountOnly ? fillableLots(state, symbolIndex, side, price, true) > 0 : wouldCross(state, symbolIndex, side, price));
      if (p.orderType === 'LIMIT_MAKER' && wouldTake()) return refused(apiError('WOULD_TAKE'));
      const outcome = this.core.submit({ type: 'counterpartyLimit', now, symbolIndex, side, price, lots, scripted: true });
      if (!outcome.ok) return outcome; // a replayed symbol's scripted orders may not cross each other
      key = outcome.value;
      events = outcome.events;
    } else if (p.timeInForce === 'IOC' || fillableLots(state, symbolIndex, side, price, accountOnly) >= lots) {
      events = this.core.submit({ type: 'counterpartyTake', now, symbolIndex, side, price, lots }).events;
    } else {
      events = NO_EVENTS; // FOK that cannot fill whole: nothing happens, it still has an id
    }
    const id = this.nextId++;
    if (key !== 0) this.remember(id, key);
    return { ok: true, value: id, events };
  }

  /** Cancels a resting scripted order of the symbol; false when it is not resting there. */
  cancel(symbolIndex: number, id: number, now: number): Outcome<boolean> {
    const key = this.rested.get(id);
    if (key === undefined || counterpartyOrderSymbol(this.core.state, key) !== symbolIndex) return { ok: true, value: false, events: NO_EVENTS };
    this.rested.delete(id);
    return this.core.submit({ type: 'counterpartyCancel', now, key: key! });
  }

  /** Cancels every counterparty order of the symbol, both sides, the generator's included. */
  cancelAll(symbolIndex: number, now: number): Outcome<number> {
    const { generator, scripted } = counterpartyRestingCount(this.core.state, symbolIndex);
    // From the end: each cancel then moves no other order in its pick list.
    for (let i = generator - 1; i >= 0; i--) this.core.submit({ type: 'counterpartyCancelAt', now, symbolIndex, slot: i });
    for (let i = scripted - 1; i >= 0; i--) this.core.submit({ type: 'counterpartyCancelAt', now, symbolIndex, slot: i, scripted: true });
    return { ok: true, value: generator + scripted, events: NO_EVENTS };
  }

  /** Sets the generator's latent mid of the symbol (ticks); refused in a replayed symbol, whose prices are the recording's. */
  setMid(symbolIndex: number, mid: number, now: number): Outcome<null> {
    if (isReplayed(this.core.state, symbolIndex)) return refused(apiError('REPLAYED_SYMBOL', this.core.markets.instruments[symbolIndex]!.symbol));
    return this.core.submit({ type: 'setLatentMid', now, symbolIndex, mid });
  }

  /** Forgets every id and numbers from 1 again (sim.reset()). */
  reset(): void {
    this.nextId = 1;
    this.rested.clear();
    this.sweepAt = SWEEP_MIN;
  }

  /** Keeps the id of an order that rested; drops the ids of finished ones when the map grows. */
  private remember(id: number, key: number): void {
    this.rested.set(id, key);
    if (this.rested.size < this.sweepAt) return;
    for (const [known, bookKey] of this.rested) if (counterpartyOrderSymbol(this.core.state, bookKey) === undefined) this.rested.delete(known);
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
