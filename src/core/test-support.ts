// Helpers for the core's unit tests: an exchange on a quiet book (generator off unless asked),
// decimal <-> integer conversions per symbol, and JSON that can carry bigints.

import { resolveConfig } from '../config/index.ts';
import type { ReplayConfig, SimConfigInput } from '../config/types.ts';
import type { FlushResult, ListLeg, Outcome, PlaceResult } from './commands.ts';
import { Exchange } from './exchange.ts';
import type { SymbolBook } from './book/index.ts';
import { buildHistory } from './market/index.ts';
import { buildMarkets, type Instrument } from './markets.ts';
import type { Recording } from './recording.ts';
import type { Rng } from './rng.ts';
import type { CoreEvent, ExecutionReport, OrderType, TimeInForce } from './types.ts';
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
  advance(ex, next);
  const inst = ex.instruments[rng.int(0, 1)]!;
  const mid = ex.state.latentMid(inst.index);
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
  const outcome = ex.submit({ type: 'counterpartyLimit', now, symbolIndex: inst.index, side, price: ticks(ex, symbol, price), lots: lots(ex, symbol, qty) });
  return expectOk(outcome);
}

/** Runs the generator up to `now` (the driver's command); the events it caused. */
export function advance(ex: Exchange, now: number, maxSteps = Infinity): CoreEvent[] {
  return ex.submit({ type: 'advance', now, maxSteps }).events;
}

/** Publishes the pending depth batches (the driver's command). */
export function flushDepth(ex: Exchange, now: number): FlushResult {
  return expectOk(ex.submit({ type: 'flushDepth', now }));
}

/** A counterparty MARKET order of `lotsValue` lots; the events it caused. */
export function counterpartyMarket(ex: Exchange, symbolIndex: number, side: 'BUY' | 'SELL', lotsValue: number, now: number): CoreEvent[] {
  return ex.submit({ type: 'counterpartyTake', now, symbolIndex, side, price: null, lots: lotsValue }).events;
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

/** A symbol's book (tests look at its levels). */
export function bookOf(ex: Exchange, symbol: string): SymbolBook | undefined {
  const inst = ex.instrument(symbol);
  return inst && ex.state.books[inst.index];
}

/** A counterparty limit order in ticks and lots; its book key (0: nothing rests). */
export function counterpartyLimit(ex: Exchange, symbolIndex: number, side: 'BUY' | 'SELL', price: number, lotsValue: number, now = T0): number {
  return expectOk(ex.submit({ type: 'counterpartyLimit', now, symbolIndex, side, price, lots: lotsValue }));
}

/** Cancels a resting counterparty order by book key; whether it was resting. */
export function counterpartyCancel(ex: Exchange, key: number, now = T0): boolean {
  return expectOk(ex.submit({ type: 'counterpartyCancel', now, key }));
}

// ---------------------------------------------------------------- issue 33: orders beyond the spec

/** An order in decimals as a test writes it; `quoteOrderQty` in quote units. */
export interface OrderFields {
  readonly side: 'BUY' | 'SELL';
  readonly type: OrderType;
  readonly quantity?: string;
  readonly price?: string;
  readonly stopPrice?: string;
  readonly trailingDelta?: number;
  readonly icebergQty?: string;
  readonly quoteOrderQty?: string;
  readonly timeInForce?: TimeInForce;
  readonly clientOrderId?: string;
}

/** One order of a list (or a placement's fields) in ticks and lots. */
export function legOf(ex: Exchange, symbol: string, f: OrderFields): ListLeg {
  return {
    side: f.side,
    orderType: f.type,
    timeInForce: f.timeInForce ?? 'GTC',
    price: f.price === undefined ? 0 : ticks(ex, symbol, f.price),
    quantity: f.quantity === undefined ? 0 : lots(ex, symbol, f.quantity),
    clientOrderId: f.clientOrderId ?? null,
    ...(f.stopPrice !== undefined && { stopPrice: ticks(ex, symbol, f.stopPrice) }),
    ...(f.trailingDelta !== undefined && { trailingDelta: f.trailingDelta }),
    ...(f.icebergQty !== undefined && { icebergQty: lots(ex, symbol, f.icebergQty) }),
  };
}

/** Places an order given in decimals (any type, issue 33's fields included) on `symbol`. */
export function submitOrder(ex: Exchange, f: OrderFields, now = T0, symbol = 'BTCUSDT'): Outcome<PlaceResult> {
  const inst = ex.instrument(symbol)!;
  const quoteOrderQty = f.quoteOrderQty === undefined ? {} : { quoteOrderQty: atoms(ex, inst.quote, f.quoteOrderQty) };
  return ex.submit({ type: 'place', now, symbolIndex: inst.index, ...legOf(ex, symbol, f), ...quoteOrderQty });
}

/**
 * Public trades between two counterparty orders at each price in turn (a quiet book: nothing
 * else rests near them); the events they and whatever they triggered caused.
 */
export function tradesAt(ex: Exchange, prices: readonly string[], now = T0, symbol = 'BTCUSDT', qty = '0.001'): CoreEvent[] {
  const inst = ex.instrument(symbol)!;
  const events: CoreEvent[] = [];
  for (const price of prices) {
    const p = ticks(ex, symbol, price);
    const q = lots(ex, symbol, qty);
    events.push(...ex.submit({ type: 'counterpartyLimit', now, symbolIndex: inst.index, side: 'SELL', price: p, lots: q }).events);
    events.push(...ex.submit({ type: 'counterpartyTake', now, symbolIndex: inst.index, side: 'BUY', price: p, lots: q }).events);
  }
  return events;
}

/** Each event as `type` (trade), `x/X` (an execution report, `+cause` if any) or `listStatus l/L`. */
export function eventTrail(events: readonly CoreEvent[]): string[] {
  return events.flatMap((e) => {
    if (e.type === 'execution') return [`${e.order.orderId} ${e.executionType}/${e.order.status}${e.cause ? ` ${e.cause}` : ''}${e.order.expiryReason !== 'NONE' ? ` ${e.order.expiryReason}` : ''}`];
    if (e.type === 'listStatus') return [`list ${e.list.orderListId} ${e.list.listStatusType}/${e.list.listOrderStatus}`];
    if (e.type === 'trade') return [`trade ${e.price}`];
    return [];
  });
}

/** A recorded row for a replay test: time in µs, price in ticks, quantity in lots. */
export interface RecordedRow {
  readonly us: number;
  readonly price: number;
  readonly lots: number;
  /** isBuyerMaker (default false: the buyer took). */
  readonly m?: boolean;
  /** The row continues the previous row's aggregate (a trades file's). */
  readonly joins?: boolean;
}

export function recordingOf(symbol: string, rows: readonly RecordedRow[]): Recording {
  const n = rows.length;
  const rec = { symbol, count: n, loadedRows: n, timeUs: new Float64Array(n), price: new Float64Array(n), qty: new Float64Array(n), buyerIsMaker: new Uint8Array(n), newAggregate: new Uint8Array(n) };
  rows.forEach((r, i) => {
    rec.timeUs[i] = r.us;
    rec.price[i] = r.price;
    rec.qty[i] = r.lots;
    rec.buyerIsMaker[i] = r.m === true ? 1 : 0;
    rec.newAggregate[i] = r.joins === true ? 0 : 1;
  });
  return rec;
}

/** An exchange whose BTCUSDT replays `rows` (generator off unless `extra` turns it on), as a simulator builds it. */
export function replayExchange(rows: readonly RecordedRow[], replay: Partial<ReplayConfig> = {}, extra: SimConfigInput = {}, start = T0, recording = recordingOf('BTCUSDT', rows)): Exchange {
  const entry = { symbol: 'BTCUSDT', file: 'BTCUSDT-aggTrades-2025-01-01.csv', ...replay };
  const config = resolveConfig(quietConfig(deepMergePlain(extra, { sim: { replay: [entry] } })));
  const history = buildHistory(config, buildMarkets(config).instruments, start, [], new Map([[entry.symbol, recording]]));
  return new Exchange(config, start, history);
}
