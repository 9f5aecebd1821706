// Helpers for the core's unit tests: an exchange on a quiet book (generator off unless asked),
// decimal <-> integer conversions per symbol, and JSON that can carry bigints.

import { resolveConfig } from '../config/index.ts';
import type { SimConfigInput } from '../config/types.ts';
import { Exchange, type Outcome } from './exchange.ts';
import type { Instrument } from './markets.ts';
import type { Rng } from './rng.ts';
import type { CoreEvent, ExecutionReport } from './types.ts';
import { formatPlain, parseScaled, parseScaledBig } from './units.ts';

export const T0 = 1_700_000_000_000;

export function quietConfig(extra: SimConfigInput = {}): SimConfigInput {
  return deepMergePlain({ sim: { generator: { enabled: false } } }, extra);
}

export function makeExchange(extra: SimConfigInput = {}, startTime = T0): Exchange {
  return new Exchange(resolveConfig(quietConfig(extra)), startTime);
}

/** A busy book: the generator on, its orders dense and close to the touch, trades flowing. */
export function busyExchange(seed: number): Exchange {
  return new Exchange(resolveConfig({ sim: { seed, generator: { touch_offset_ticks: 30, depth_spread_ticks: 40, level_spacing_ticks: 1, market_rate_per_s: 20 } } }), T0);
}

export interface TradingStep {
  readonly now: number;
  readonly inst: Instrument;
  readonly side: 'BUY' | 'SELL';
  /** A limit price near the touch, on either side of it. */
  readonly price: string;
}

/** One step of a seeded walk over a busy book: time moves on, then a symbol, side and price. */
export function tradingStep(ex: Exchange, rng: Rng, now: number): TradingStep {
  const next = now + rng.int(0, 5);
  ex.advance(next);
  const inst = ex.instruments[rng.int(0, 1)]!;
  const mid = ex.latentMid(inst.symbol)!;
  const side = rng.float() < 0.5 ? 'BUY' : 'SELL';
  const price = formatPlain(Math.max(1, mid + (side === 'BUY' ? 1 : -1) * rng.int(-50, 40)), inst.tickDecimals);
  return { now: next, inst, side, price };
}

export function ticks(ex: Exchange, symbol: string, price: string): number {
  return parseScaled(price, ex.instrument(symbol)!.tickDecimals);
}

export function lots(ex: Exchange, symbol: string, qty: string): number {
  return parseScaled(qty, ex.instrument(symbol)!.lotDecimals);
}

export function atoms(ex: Exchange, asset: string, amount: string): bigint {
  return parseScaledBig(amount, ex.markets.assetDecimals.get(asset)!)!;
}

export function qtyText(ex: Exchange, symbol: string, lotsValue: number): string {
  return formatPlain(lotsValue, ex.instrument(symbol)!.lotDecimals);
}

/** Rests a counterparty limit order given in decimals; returns its book key. */
export function counterparty(ex: Exchange, symbol: string, side: 'BUY' | 'SELL', price: string, qty: string, now = T0): number {
  const inst = ex.instrument(symbol)!;
  const id = ex.counterpartyOrder(inst.index, side, ticks(ex, symbol, price), lots(ex, symbol, qty), now);
  ex.takeEvents(now);
  return id;
}

export function reports(events: readonly CoreEvent[]): ExecutionReport[] {
  return events.filter((e): e is ExecutionReport => e.type === 'execution');
}

export function executionTypes(events: readonly CoreEvent[]): string[] {
  return reports(events).map((r) => `${r.executionType}/${r.order.status}`);
}

export function expectOk<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.code} ${outcome.error.msg}`);
  return outcome.value;
}

export function expectError<T>(outcome: Outcome<T>): { code: number; msg: string; data?: unknown } {
  if (outcome.ok) throw new Error('expected an error, got success');
  return outcome.error;
}

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

function deepMergePlain(a: any, b: any): any {
  if (typeof a !== 'object' || a === null || Array.isArray(a) || typeof b !== 'object' || b === null || Array.isArray(b)) {
    return b === undefined ? a : b;
  }
  const out: any = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in a ? deepMergePlain(a[k], v) : v;
  return out;
}
