// `sim.market` (API.md section 8): the scripted counterparty flow, in process and synchronous.
// Each call is checked at the edge (src/api/scripted-orders.ts, as an account order's
// parameters) and runs in the core (src/core/counterparty/scripted-market.ts, through the same `submit` as
// the generator's commands) at the server's current time, and what it caused (the account's
// execution reports, public trades, balance updates) is published at once, as after any order
// the generator places. Bad input throws the SpotSimError the typed client throws for the same
// refusal: the reference exchange's HTTP status, code and message.

import { SpotSimError } from './client/errors.ts';
import type { Outcome } from './core/commands.ts';
import type { CoreEvent } from './core/types.ts';

/**
 * A scripted counterparty order, as an account order's parameters: decimal strings, or numbers
 * taken in plain decimal notation (`0.0000001` for 1e-7).
 * @example
 * const order: ScriptedOrder = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' };
 * const id = sim.market.place(order);
 */
export interface ScriptedOrder {
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly type: 'LIMIT' | 'LIMIT_MAKER' | 'MARKET';
  /** LIMIT only: GTC rests what does not trade, IOC and FOK never rest. */
  readonly timeInForce?: 'GTC' | 'IOC' | 'FOK';
  /** LIMIT and LIMIT_MAKER. */
  readonly price?: string | number;
  readonly quantity: string | number;
}

/** The scripted market's edge (src/api/scripted-orders.ts): checks the arguments, runs them. */
export interface ScriptedCalls {
  place(input: unknown, now: number): Outcome<number>;
  cancel(symbol: unknown, id: unknown, now: number): Outcome<boolean>;
  cancelAll(symbol: unknown, now: number): Outcome<number>;
  setMid(symbol: unknown, price: unknown, now: number): Outcome<null>;
}

export interface MarketHost {
  /** The current core's scripted market (a reset replaces it). */
  readonly scripted: ScriptedCalls;
  now(): number;
  publish(events: CoreEvent[]): void;
}

/**
 * The scripted counterparty flow (`sim.market`; the fixture's `market` records each call as a
 * report step): orders of another trader that go through the generator's own path into the book, so
 * your orders trade with them and the streams show them.
 * @example
 * const ask = sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
 * sim.market.setMid('BTCUSDT', '61000');
 * sim.market.cancel('BTCUSDT', ask);
 */
export class Market {
  /** @internal Made by the simulator (`sim.market`). */
  constructor(private readonly host: MarketHost) {}

  /**
   * Places a counterparty order: LIMIT (GTC rests what does not trade, IOC and FOK never rest),
   * LIMIT_MAKER (refused with -2010 when it would take) or MARKET. It trades with the account's
   * and the generator's resting orders in price-time priority and prints public trades. What
   * rests stays until it trades or you cancel it: the generator's random cancels never pick it
   * (its market orders do trade with it). Returns its id (for `cancel`), also when nothing of it rests.
   * @throws SpotSimError with the reference code: -1121 unknown symbol, -1013 filter failures,
   * -1100 / -1111 malformed or too precise numbers, -1117 / -1116 / -1115 bad side, type or
   * timeInForce, -1102 a missing field.
   */
  place(order: ScriptedOrder): number {
    return this.run((now) => this.host.scripted.place(order, now));
  }

  /** Cancels a resting order placed by `place`; false when it is no longer resting (or unknown). */
  cancel(symbol: string, id: number): boolean {
    return this.run((now) => this.host.scripted.cancel(symbol, id, now));
  }

  /** Cancels every counterparty order of the symbol, both sides, the generator's included; how many. */
  cancelAll(symbol: string): number {
    return this.run((now) => this.host.scripted.cancelAll(symbol, now));
  }

  /**
   * Sets the generator's latent mid of the symbol (a decimal price on the tick grid): its next
   * orders come around it. Orders already resting stay where they are (`cancelAll` clears them).
   */
  setMid(symbol: string, price: string | number): void {
    this.run((now) => this.host.scripted.setMid(symbol, price, now));
  }

  private run<T>(call: (now: number) => Outcome<T>): T {
    const outcome = call(this.host.now());
    if (!outcome.ok) throw new SpotSimError(outcome.error.http, outcome.error.code, outcome.error.msg);
    if (outcome.events.length > 0) this.host.publish(outcome.events);
    return outcome.value;
  }
}
