// The exchange core's facade: one synchronous, deterministic entry point per command. Time
// arrives with each command; randomness comes from one seeded generator; nothing here touches
// sockets, clocks or the process (ARCHITECTURE rule 1). Every command returns its result and
// the events it caused, in the order they happened: order reports and public trades as they
// occur, then one balance event if the account's balances moved. Level changes are not events:
// the depth aggregator notes them, and the depth stream reads them from there.

import type { Config } from '../config/types.ts';
import { AccountOrder } from './account-order.ts';
import { Order, SymbolBook, type BookSide } from './book.ts';
import { DepthAggregator } from './depth-aggregator.ts';
import { apiError, ApiError } from './errors.ts';
import { CounterpartyGenerator, type CounterpartyVenue } from './generator.ts';
import { ConservationCursor, invariantViolations, type CoreState } from './invariants.ts';
import { Ledger } from './ledger.ts';
import { OrderIndex } from './order-index.ts';
import { buildMarkets, type Instrument, type Markets } from './markets.ts';
import { exceedsAssetPrecision, isValidClientOrderId, CLIENT_ORDER_ID_PATTERN, parsePlaceOrder, type ParsedOrder, type PlaceOrderCommand } from './order-request.ts';
import { Rng } from './rng.ts';
import { MY_TRADES_DEFAULT_LIMIT, MY_TRADES_MAX_LIMIT, TradeLog } from './trade-log.ts';
import type {
  AccountTrade,
  AssetBalance,
  CoreEvent,
  DepthDiff,
  DepthSnapshot,
  ExecutionReport,
  ExecutionType,
  Fill,
  OrderView,
  RejectReason,
  Side,
  Touch,
} from './types.ts';
import { parseScaled, ScaledParse, DECIMAL_PATTERN } from './units.ts';

export type Outcome<T> =
  | { readonly ok: true; readonly value: T; readonly events: CoreEvent[] }
  | { readonly ok: false; readonly error: ApiError; readonly events: CoreEvent[] };

export interface PlaceResult {
  readonly order: OrderView;
  readonly fills: readonly Fill[];
  readonly transactTime: number;
}

export interface CancelCommand {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly origClientOrderId?: string;
  /** The cancel's own id (`c` of the CANCELED report); generated when absent. */
  readonly newClientOrderId?: string;
}

export interface CancelResult {
  readonly order: OrderView;
  readonly origClientOrderId: string;
  /** The cancel request's id. */
  readonly clientOrderId: string;
  readonly transactTime: number;
}

export interface AmendCommand {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly origClientOrderId?: string;
  readonly newClientOrderId?: string;
  readonly newQty?: string;
}

export interface AmendResult {
  readonly order: OrderView;
  readonly origClientOrderId: string;
  readonly executionId: number;
  readonly transactTime: number;
}

export type CancelReplaceMode = 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';

export interface CancelReplaceCommand extends PlaceOrderCommand {
  readonly cancelReplaceMode?: string;
  readonly cancelOrderId?: number;
  readonly cancelOrigClientOrderId?: string;
  readonly cancelNewClientOrderId?: string;
}

/** binance-facts §2.5: the two legs' results; on failure this is the error's `data`. */
export interface CancelReplaceResult {
  readonly cancelResult: 'SUCCESS' | 'FAILURE';
  readonly newOrderResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  readonly cancelResponse: CancelResult | ApiError;
  readonly newOrderResponse: PlaceResult | ApiError | null;
}

export interface TradesQuery {
  readonly symbol?: string;
  readonly orderId?: number;
  readonly fromId?: number;
  readonly startTime?: number;
  readonly endTime?: number;
  readonly limit?: number;
}

export type BalanceView = AssetBalance;

export interface FlushResult {
  readonly diffs: DepthDiff[];
  /** bookTicker updates: symbols whose touch changed during the batch. */
  readonly touches: Touch[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Spare counterparty Order objects kept: enough for a book shrinking by that many at once. */
const MAX_SPARE_ORDERS = 16_384;
/** Times above this are microseconds (as for `timestamp` in api/auth.ts). */
const MICROSECOND_THRESHOLD = 100_000_000_000_000;
const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class Exchange implements CounterpartyVenue, CoreState {
  readonly markets: Markets;
  /** @internal */ readonly books: SymbolBook[];
  private readonly depth: DepthAggregator[];
  /** Every resting order by book key (account: orderId > 0; counterparty: < 0). */
  /** @internal */ readonly orders = new OrderIndex();
  /** The account's open orders per symbol by client order id. */
  /** @internal */ readonly clientIds: Map<string, Order>[];
  /** The counterparty's resting orders per symbol, for O(1) random picks. */
  /** @internal */ readonly counterpartyResting: Order[][];
  /** @internal */ readonly ledger: Ledger;
  /** @internal */ readonly tradeLog = new TradeLog();
  private readonly generator: CounterpartyGenerator;
  /** Client order ids are drawn from their own stream, so they never perturb the generator's. */
  private readonly idRng: Rng;
  /** @internal */ readonly maxFeeCentiBps: bigint;
  /** @internal */ readonly conservation = new ConservationCursor();
  /** Time of the last balance change (account `updateTime`, `outboundAccountPosition.u`). */
  lastBalanceUpdate = 0;
  private nextOrderId = 1;
  private nextExecutionId = 1;
  private readonly pending = new PendingEvents();
  /**
   * Counterparty orders that ended (filled, cancelled, or takers done matching), reused for the
   * next ones: the counterparty's commands then allocate no Order, and new resting orders no
   * longer survive young-generation collections (each was copied twice, then promoted).
   */
  private readonly spareOrders: Order[] = [];

  constructor(
    readonly config: Config,
    readonly startTime: number,
  ) {
    this.markets = buildMarkets(config);
    const instruments = this.markets.instruments;
    this.books = instruments.map(() => new SymbolBook());
    this.depth = instruments.map((inst, i) => new DepthAggregator(inst.symbol, this.books[i]!));
    this.clientIds = instruments.map(() => new Map());
    this.counterpartyResting = instruments.map(() => []);
    this.ledger = new Ledger(this.markets.startBalances, this.markets.assetDecimals);
    const seed = config.sim.seed;
    this.generator = new CounterpartyGenerator(config.sim.generator, instruments, new Rng(seed), config.sim.driver_tick_ms, startTime);
    this.idRng = new Rng((seed ^ 0x5bd1e995) >>> 0);
    const { makerCentiBps, takerCentiBps } = this.markets;
    this.maxFeeCentiBps = makerCentiBps > takerCentiBps ? makerCentiBps : takerCentiBps;

    this.generator.seed(this);
    this.pending.discard();
    for (const agg of this.depth) agg.publishSilently();
  }

  // ---------------------------------------------------------------- lookups

  get instruments(): readonly Instrument[] {
    return this.markets.instruments;
  }

  instrument(symbol: string): Instrument | undefined {
    return this.markets.bySymbol.get(symbol);
  }

  book(symbol: string): SymbolBook | undefined {
    const inst = this.instrument(symbol);
    return inst && this.books[inst.index];
  }

  latentMid(symbol: string): number | undefined {
    const inst = this.instrument(symbol);
    return inst && this.generator.latentMid(inst.index);
  }

  balances(): BalanceView[] {
    return this.ledger.assets().map((asset) => this.ledger.snapshot(asset));
  }

  balance(asset: string): BalanceView {
    return this.ledger.snapshot(asset);
  }

  /** The account's open orders, oldest id first. */
  openOrders(symbol?: string): OrderView[] | ApiError {
    let views: OrderView[];
    if (symbol !== undefined) {
      const inst = this.instrument(symbol);
      if (inst === undefined) return apiError('BAD_SYMBOL');
      views = [...this.clientIds[inst.index]!.values()].map((o) => o.account!.view());
    } else {
      views = this.clientIds.flatMap((m) => [...m.values()].map((o) => o.account!.view()));
    }
    return views.sort((a, b) => a.orderId - b.orderId);
  }

  openOrderCount(): number {
    let n = 0;
    for (const inst of this.instruments) n += inst.accountOpenOrders;
    return n;
  }

  /** GET order: an open order by id or client id; ended orders are forgotten (-2013). */
  getOrder(symbol: string | undefined, orderId?: number, origClientOrderId?: string): OrderView | ApiError {
    const found = this.findAccountOrder(symbol, orderId, origClientOrderId, 'NO_SUCH_ORDER');
    return found instanceof ApiError ? found : found.account!.view();
  }

  depthSnapshot(symbol: string, limit: number, mode: 'live' | 'flushed'): DepthSnapshot | ApiError {
    const inst = this.instrument(symbol);
    if (inst === undefined) return apiError('BAD_SYMBOL');
    if (mode === 'flushed') return this.depth[inst.index]!.publishedSnapshot(limit);
    const book = this.books[inst.index]!;
    return { lastUpdateId: inst.updateId, bids: book.bids.top(limit), asks: book.asks.top(limit) };
  }

  bookTicker(symbol: string): Touch | ApiError {
    const inst = this.instrument(symbol);
    if (inst === undefined) return apiError('BAD_SYMBOL');
    return this.depth[inst.index]!.touch(inst.updateId);
  }

  /** myTrades (spec 4.1 rule 1, binance-facts §3.14). */
  myTrades(query: TradesQuery): AccountTrade[] | ApiError {
    // binance-facts §1.1: startTime and endTime are accepted in ms or µs, like timestamp.
    const ms = (t: number | undefined) => (t !== undefined && t > MICROSECOND_THRESHOLD ? Math.floor(t / 1000) : t);
    const q = { ...query, startTime: ms(query.startTime), endTime: ms(query.endTime) };
    if (!q.symbol) return apiError('MANDATORY_PARAM', 'symbol');
    if (this.instrument(q.symbol) === undefined) return apiError('BAD_SYMBOL');
    const hasRange = q.startTime !== undefined || q.endTime !== undefined;
    if (q.fromId !== undefined && hasRange) return apiError('BAD_PARAM_COMBINATION');
    if (q.orderId !== undefined && hasRange) return apiError('BAD_PARAM_COMBINATION');
    if (q.startTime !== undefined && q.endTime !== undefined) {
      if (q.endTime < q.startTime) return apiError('INVALID_PARAMETER', 'endTime');
      if (q.endTime - q.startTime > DAY_MS) return apiError('LOOKUP_INTERVAL_TOO_BIG', 24);
    }
    if (q.limit !== undefined && q.limit < 1) return apiError('INVALID_PARAMETER', 'limit');
    const limit = Math.min(q.limit ?? MY_TRADES_DEFAULT_LIMIT, MY_TRADES_MAX_LIMIT);
    return this.tradeLog.query(q.symbol, { ...q, limit });
  }

  allTrades(symbol?: string): readonly AccountTrade[] {
    return this.tradeLog.all(symbol);
  }

  /** Every violated invariant of the core's state (tests call this after each step). */
  invariantViolations(): string[] {
    return invariantViolations(this);
  }

  // ---------------------------------------------------------------- account commands

  /** order/test: validates everything that does not need the matching engine. */
  testOrder(cmd: PlaceOrderCommand): ApiError | null {
    const parsed = this.validatePlace(cmd);
    return parsed instanceof ApiError ? parsed : null;
  }

  placeOrder(cmd: PlaceOrderCommand, now: number): Outcome<PlaceResult> {
    const parsed = this.validatePlace(cmd);
    if (parsed instanceof ApiError) return { ok: false, error: parsed, events: [] };
    const result = this.execute(parsed, now);
    const events = this.finish(now);
    return result instanceof ApiError ? { ok: false, error: result, events } : { ok: true, value: result, events };
  }

  cancelOrder(cmd: CancelCommand, now: number): Outcome<CancelResult> {
    const result = this.cancel(cmd, now);
    const events = this.finish(now);
    return result instanceof ApiError ? { ok: false, error: result, events } : { ok: true, value: result, events };
  }

  /** DELETE openOrders: cancels every open order of the symbol, oldest first; -2011 if none. */
  cancelAllOrders(symbol: string | undefined, now: number): Outcome<CancelResult[]> {
    if (!symbol) return { ok: false, error: apiError('MANDATORY_PARAM', 'symbol'), events: [] };
    const inst = this.instrument(symbol);
    if (inst === undefined) return { ok: false, error: apiError('BAD_SYMBOL'), events: [] };
    const open = [...this.clientIds[inst.index]!.values()].sort((a, b) => a.id - b.id);
    if (open.length === 0) return { ok: false, error: apiError('UNKNOWN_ORDER'), events: [] };
    const results = open.map((order) => this.cancelResting(inst, order, this.generateClientId(), now));
    return { ok: true, value: results, events: this.finish(now) };
  }

  /** PUT order/amend/keepPriority: a quantity decrease that keeps the order's place (spec 3.1). */
  amendOrder(cmd: AmendCommand, now: number): Outcome<AmendResult> {
    const result = this.amend(cmd, now);
    const events = this.finish(now);
    return result instanceof ApiError ? { ok: false, error: result, events } : { ok: true, value: result, events };
  }

  /**
   * cancelReplace (spec 4.1 rule 3, binance-facts §2.5): the new order's parameters and filters
   * are checked before anything is cancelled; then the cancel, then the placement.
   */
  cancelReplace(cmd: CancelReplaceCommand, now: number): Outcome<CancelReplaceResult> {
    const fail = (error: ApiError): Outcome<CancelReplaceResult> => ({ ok: false, error, events: [] });
    const mode = cmd.cancelReplaceMode;
    if (!mode) return fail(apiError('MANDATORY_PARAM', 'cancelReplaceMode'));
    if (mode !== 'STOP_ON_FAILURE' && mode !== 'ALLOW_FAILURE') return fail(apiError('INVALID_PARAMETER', 'cancelReplaceMode'));
    if (cmd.cancelOrderId === undefined && cmd.cancelOrigClientOrderId === undefined) {
      return fail(apiError('EITHER_PARAM', 'cancelOrderId', 'cancelOrigClientOrderId'));
    }
    const parsed = this.validatePlace(cmd);
    if (parsed instanceof ApiError) return fail(parsed);

    const cancel = this.cancel(
      { symbol: cmd.symbol, orderId: cmd.cancelOrderId, origClientOrderId: cmd.cancelOrigClientOrderId, newClientOrderId: cmd.cancelNewClientOrderId },
      now,
    );
    let result: CancelReplaceResult;
    if (cancel instanceof ApiError && mode === 'STOP_ON_FAILURE') {
      result = { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: cancel, newOrderResponse: null };
    } else {
      const placed = this.execute(parsed, now);
      result = {
        cancelResult: cancel instanceof ApiError ? 'FAILURE' : 'SUCCESS',
        newOrderResult: placed instanceof ApiError ? 'FAILURE' : 'SUCCESS',
        cancelResponse: cancel,
        newOrderResponse: placed,
      };
    }
    const events = this.finish(now);
    if (result.cancelResult === 'SUCCESS' && result.newOrderResult === 'SUCCESS') return { ok: true, value: result, events };
    // One leg succeeded: -2021 (409); none did: -2022 (400).
    const partial = result.cancelResult === 'SUCCESS' || result.newOrderResult === 'SUCCESS';
    const error = apiError(partial ? 'CANCEL_REPLACE_PARTIAL' : 'CANCEL_REPLACE_FAILED');
    return { ok: false, error: new ApiError(error.name, error.msg, result), events };
  }

  /**
   * Fault `fill_open_order` (spec 4.5): a counterparty order crosses the named resting order,
   * sweeping every order ahead of it in price-time first. Returns the lots filled on it.
   */
  fillOpenOrder(orderId: number, qty: string, now: number): Outcome<{ symbol: string; filled: number }> {
    const order = this.orders.get(orderId);
    if (order === undefined || order.account === null) return { ok: false, error: apiError('NO_SUCH_ORDER'), events: [] };
    const inst = this.markets.instruments[order.symbolIndex]!;
    const lots = parseScaled(qty, inst.lotDecimals);
    if (lots === ScaledParse.Malformed) return { ok: false, error: apiError('ILLEGAL_CHARS', 'qty', DECIMAL_PATTERN), events: [] };
    if (lots <= 0) return { ok: false, error: apiError('FILTER_FAILURE', 'LOT_SIZE'), events: [] };
    const wanted = Math.min(lots, order.remaining);
    const side = this.books[inst.index]!.sideOf(order.side);
    let ahead = 0;
    for (let i = side.levels.length - 1; i >= 0; i--) {
      const level = side.levels[i]!;
      if (level === order.level) {
        for (let o = level.head; o !== order && o !== null; o = o.next) ahead += o.remaining;
        break;
      }
      ahead += level.qty;
    }
    const before = order.account.executedQty;
    const taker = new Order(0, inst.index, order.side === 'BUY' ? 'SELL' : 'BUY', order.price, ahead + wanted, null);
    this.match(inst, taker, order.price, now, null);
    const filled = order.account.executedQty - before;
    return { ok: true, value: { symbol: inst.symbol, filled }, events: this.finish(now) };
  }

  // ---------------------------------------------------------------- time-driven work

  /** Runs the counterparty generator up to `now`; returns what it caused. */
  advance(now: number, maxSteps = Infinity): CoreEvent[] {
    this.generator.advance(this, now, maxSteps);
    return this.finish(now);
  }

  /** Publishes the pending depth batch of every symbol (spec 6.1: one diff per symbol). */
  flushDepth(now: number): FlushResult {
    const diffs: DepthDiff[] = [];
    const touches: Touch[] = [];
    for (const agg of this.depth) {
      if (!agg.hasPending) continue;
      const diff = agg.flush(now);
      if (diff !== null) diffs.push(diff);
      const touch = agg.touchIfChanged();
      if (touch !== null) touches.push(touch);
    }
    return { diffs, touches };
  }

  /**
   * Back to the starting state at `now` (sim.reset()): exactly what a new Exchange with the same
   * configuration would hold, in place, so every holder of this object sees the fresh state.
   */
  resetTo(now: number): void {
    Object.assign(this, new Exchange(this.config, now));
  }

  /** The server clock's offset changed by `deltaMs`: the generator's step grid follows it. */
  shiftTime(deltaMs: number): void {
    this.generator.shiftTime(deltaMs);
  }

  /** Fault `skip_next_depth_update`: the next batch of each symbol is published silently. */
  skipNextDepthUpdate(symbol?: string): void {
    for (const agg of this.depth) if (symbol === undefined || agg.symbol === symbol) agg.skipNextDiff();
  }

  /** Cancels a skip not yet taken (faults `clear()`). */
  cancelDepthSkip(): void {
    for (const agg of this.depth) agg.skipNextDiff(false);
  }

  /** The events produced since the last command returned (counterparty calls made directly). */
  takeEvents(now: number): CoreEvent[] {
    return this.finish(now);
  }

  // ---------------------------------------------------------------- counterparty entry points

  counterpartyLimit(symbolIndex: number, side: Side, price: number, lots: number, now: number): void {
    this.counterpartyOrder(symbolIndex, side, price, lots, now);
  }

  /** Places a counterparty limit order; returns its book key if it rests, else 0. */
  counterpartyOrder(symbolIndex: number, side: Side, price: number, lots: number, now: number): number {
    const inst = this.markets.instruments[symbolIndex]!;
    // Id 0 while it takes (a counterparty taker's id is never read); a book key if it rests.
    const order = this.newCounterpartyOrder(0, symbolIndex, side, price, lots);
    this.match(inst, order, price, now, null);
    if (order.remaining === 0) {
      this.spareOrder(order);
      return 0;
    }
    order.id = this.orders.newCounterpartyKey();
    this.rest(inst, order);
    const resting = this.counterpartyResting[symbolIndex]!;
    order.slot = resting.length;
    resting.push(order);
    return order.id;
  }

  counterpartyMarket(symbolIndex: number, side: Side, lots: number, now: number): void {
    const inst = this.markets.instruments[symbolIndex]!;
    const order = this.newCounterpartyOrder(0, symbolIndex, side, 0, lots);
    this.match(inst, order, null, now, null);
    this.spareOrder(order);
  }

  /**
   * A counterparty taker that matches up to `price` (ticks) and never rests: the scripted
   * market's IOC and FOK orders (a MARKET one is `counterpartyMarket`).
   */
  counterpartyTake(symbolIndex: number, side: Side, price: number, lots: number, now: number): void {
    const inst = this.markets.instruments[symbolIndex]!;
    const order = this.newCounterpartyOrder(0, symbolIndex, side, price, lots);
    this.match(inst, order, price, now, null);
    this.spareOrder(order);
  }

  /** Moves a symbol's latent mid (ticks): the generator's next orders come around it. */
  setLatentMid(symbolIndex: number, mid: number): void {
    this.generator.setLatentMid(symbolIndex, mid);
  }

  counterpartyRestingCount(symbolIndex: number): number {
    return this.counterpartyResting[symbolIndex]!.length;
  }

  counterpartyCancelAt(symbolIndex: number, i: number, _now: number): void {
    this.counterpartyCancel(this.counterpartyResting[symbolIndex]![i]!.id);
  }

  /** Cancels a resting counterparty order by book key; false if it is gone. */
  counterpartyCancel(id: number): boolean {
    const order = this.orders.get(id);
    if (order === undefined || order.account !== null) return false;
    const inst = this.markets.instruments[order.symbolIndex]!;
    this.unrest(inst, order);
    return true;
  }

  // ---------------------------------------------------------------- placement

  private validatePlace(cmd: PlaceOrderCommand): ParsedOrder | ApiError {
    const parsed = parsePlaceOrder(cmd, (s) => this.instrument(s));
    if (parsed instanceof ApiError || parsed.type !== 'MARKET') return parsed;
    // NOTIONAL for MARKET orders: the best opposite price stands in for the order's price.
    const inst = parsed.instrument;
    const best = this.books[inst.index]!.oppositeOf(parsed.side).best();
    if (best !== undefined) {
      const notional = inst.notional(best.price, parsed.quantity);
      if (notional < inst.minNotional || (inst.maxNotional !== null && notional > inst.maxNotional)) {
        return apiError('FILTER_FAILURE', 'NOTIONAL');
      }
    }
    return parsed;
  }

  /** Runs a validated placement through the matching engine checks, then the book. */
  private execute(p: ParsedOrder, now: number): PlaceResult | ApiError {
    const inst = p.instrument;
    if (inst.accountOpenOrders >= MAX_OPEN_ORDERS_PER_SYMBOL) return apiError('MAX_NUM_ORDERS');
    if (p.clientOrderId !== null && this.clientIds[inst.index]!.has(p.clientOrderId)) return apiError('DUPLICATE_ORDER');
    const book = this.books[inst.index]!;
    const opposite = book.oppositeOf(p.side);

    let reject: RejectReason = 'NONE';
    let lock = 0n;
    if (p.type === 'LIMIT_MAKER' && crosses(opposite, p.side, p.price)) reject = 'WOULD_MATCH_IMMEDIATELY';
    else if (p.type === 'MARKET') {
      if (!this.coversMarketOrder(inst, p.side, p.quantity)) reject = 'INSUFFICIENT_BALANCES';
    } else {
      lock = this.lockFor(inst, p.side, p.price, p.quantity);
      // Spec 2.4: a BUY locks its notional; free quote must also cover its worst-case commission.
      const cover = p.side === 'BUY' ? lock + inst.commission(BigInt(p.price) * BigInt(p.quantity), this.maxFeeCentiBps) : lock;
      if (!this.ledger.tryLock(p.side === 'BUY' ? inst.quote : inst.base, lock, cover)) reject = 'INSUFFICIENT_BALANCES';
    }

    const orderId = this.nextOrderId++;
    const account = new AccountOrder(orderId, inst.symbol, p.clientOrderId ?? this.generateClientId(), p.side, p.type, p.timeInForce, p.price, p.quantity, now);
    if (reject !== 'NONE') {
      // An order the matching engine refuses: -2010 to the caller, REJECTED on the user stream.
      account.status = 'REJECTED';
      this.report(account, 'REJECTED', now, { rejectReason: reject });
      return apiError(reject === 'WOULD_MATCH_IMMEDIATELY' ? 'WOULD_TAKE' : 'INSUFFICIENT_BALANCE');
    }
    account.locked = lock;
    account.workingTime = now;
    this.report(account, 'NEW', now);

    const order = new Order(orderId, inst.index, p.side, p.price, p.quantity, account);
    const fills: Fill[] = [];
    if (p.timeInForce === 'FOK' && this.fillableAgainst(inst, order) < p.quantity) {
      this.expire(inst, order, 'UNFILLED_FOK_ORDER_EXPIRED', now);
    } else {
      this.match(inst, order, p.type === 'MARKET' ? null : p.price, now, fills);
      if (order.remaining > 0) {
        if (p.type === 'MARKET') this.expire(inst, order, 'INSUFFICIENT_LIQUIDITY', now);
        else if (p.timeInForce === 'IOC') this.expire(inst, order, 'UNFILLED_IOC_QUANTITY_EXPIRED', now);
        else this.restAccountOrder(inst, order);
      }
    }
    return { order: account.view(), fills, transactTime: now };
  }

  /** What an order locks (spec 2.4): quote notional (BUY) or base quantity (SELL), in atoms. */
  private lockFor(inst: Instrument, side: Side, price: number, lots: number): bigint {
    return side === 'SELL' ? BigInt(lots) * inst.basePerLot : inst.notional(price, lots);
  }

  /** A MARKET order needs its whole fillable part covered by free balance (binance-facts §9). */
  private coversMarketOrder(inst: Instrument, side: Side, lots: number): boolean {
    if (side === 'SELL') return this.ledger.free(inst.base) >= BigInt(lots) * inst.basePerLot;
    let need = lots;
    let tickLots = 0n;
    const asks = this.books[inst.index]!.asks;
    for (let i = asks.levels.length - 1; i >= 0 && need > 0; i--) {
      for (let o = asks.levels[i]!.head; o !== null && need > 0; o = o.next) {
        if (o.account !== null) continue; // own orders expire by self-trade prevention
        const q = Math.min(need, o.remaining);
        tickLots += BigInt(o.price) * BigInt(q);
        need -= q;
      }
    }
    const cost = tickLots * inst.quotePerTickLot + inst.commission(tickLots, this.markets.takerCentiBps);
    return this.ledger.free(inst.quote) >= cost;
  }

  /** Lots a FOK taker could fill now (own orders excluded: they would expire, not fill). */
  private fillableAgainst(inst: Instrument, taker: Order): number {
    const opposite = this.books[inst.index]!.oppositeOf(taker.side);
    let total = 0;
    for (let i = opposite.levels.length - 1; i >= 0 && total < taker.remaining; i--) {
      const level = opposite.levels[i]!;
      if (!crosses(opposite, taker.side, taker.price, level.price)) break;
      for (let o = level.head; o !== null; o = o.next) if (o.account === null) total += o.remaining;
    }
    return total;
  }

  // ---------------------------------------------------------------- matching

  /**
   * Matches `taker` against the opposite side in price-time priority up to `limit` (null: any
   * price). Self-trade prevention is EXPIRE_MAKER (spec 1.4): an own resting order the account's
   * taker would meet expires, and matching goes on.
   */
  private match(inst: Instrument, taker: Order, limit: number | null, now: number, fills: Fill[] | null): void {
    const opposite = this.books[inst.index]!.oppositeOf(taker.side);
    const isBuy = taker.side === 'BUY';
    while (taker.remaining > 0) {
      const level = opposite.best();
      if (level === undefined) break;
      if (limit !== null && (isBuy ? level.price > limit : level.price < limit)) break;
      let maker = level.head;
      while (maker !== null && taker.remaining > 0) {
        const next = maker.next;
        if (taker.account !== null && maker.account !== null) this.preventSelfTrade(inst, opposite, maker, taker, now);
        else this.trade(inst, opposite, maker, taker, now, fills);
        maker = next;
      }
    }
  }

  private trade(inst: Instrument, opposite: BookSide, maker: Order, taker: Order, now: number, fills: Fill[] | null): void {
    const qty = maker.remaining < taker.remaining ? maker.remaining : taker.remaining;
    const price = maker.price;
    const tradeId = ++inst.lastTradeId;
    opposite.reduce(maker, qty);
    if (maker.remaining === 0) {
      opposite.remove(maker);
      this.orders.delete(maker.id);
      if (maker.account === null) this.retireCounterpartyOrder(maker);
    }
    this.levelChanged(inst, maker.side, price);
    taker.remaining -= qty;
    this.pending.push({
      type: 'trade',
      symbol: inst.symbol,
      tradeId,
      price,
      qty,
      time: now,
      // A retired maker keeps its fields until it is reused, which no code below does.
      buyerIsMaker: maker.side === 'BUY',
    });
    if (maker.account !== null) {
      this.settle(inst, maker, qty, price, tradeId, true, now, null);
      if (maker.remaining === 0) this.forgetAccountOrder(inst, maker);
    }
    if (taker.account !== null) this.settle(inst, taker, qty, price, tradeId, false, now, fills);
  }

  /**
   * Moves balances for one fill of an account order and records it (spec 2.3, 2.5). The
   * commission is charged from free quote after the fill's own amounts moved, at 8 decimals
   * (Instrument.commission); if free quote cannot cover it (other orders locked it since this one
   * was placed), the fill charges what is free. The trade log, the report and the FULL fill all
   * carry the charged figure, so the ledger and the log agree exactly.
   */
  private settle(inst: Instrument, order: Order, qty: number, price: number, tradeId: number, isMaker: boolean, now: number, fills: Fill[] | null): void {
    const acct = order.account!;
    const notional = inst.notional(price, qty);
    const baseAmount = BigInt(qty) * inst.basePerLot;
    const hasLock = acct.type !== 'MARKET';
    if (order.side === 'BUY') {
      if (hasLock) {
        // The lock was the notional at the order's price; a better fill price frees the rest.
        const release = this.lockFor(inst, 'BUY', acct.price, qty);
        acct.locked -= release;
        this.ledger.spendLocked(inst.quote, release);
        this.ledger.addFree(inst.quote, release - notional);
      } else {
        this.ledger.addFree(inst.quote, -notional);
      }
      this.ledger.addFree(inst.base, baseAmount);
    } else {
      if (hasLock) {
        acct.locked -= baseAmount;
        this.ledger.spendLocked(inst.base, baseAmount);
      } else {
        this.ledger.addFree(inst.base, -baseAmount);
      }
      this.ledger.addFree(inst.quote, notional);
    }
    const due = inst.commission(BigInt(price) * BigInt(qty), isMaker ? this.markets.makerCentiBps : this.markets.takerCentiBps);
    const commission = this.ledger.chargeFree(inst.quote, due, inst.commissionUnit);
    acct.executedQty += qty;
    acct.cumQuote += notional;
    acct.updateTime = now;
    acct.status = order.remaining === 0 ? 'FILLED' : 'PARTIALLY_FILLED';
    const fill: AccountTrade = {
      symbol: inst.symbol,
      tradeId,
      orderId: acct.orderId,
      price,
      qty,
      quoteQty: notional,
      commission,
      commissionAsset: inst.quote,
      time: now,
      isBuyer: order.side === 'BUY',
      isMaker,
    };
    this.tradeLog.append(fill);
    fills?.push(fill);
    this.report(acct, 'TRADE', now, {
      lastQty: qty,
      lastPrice: price,
      lastQuote: notional,
      commission,
      commissionAsset: inst.quote,
      tradeId,
      isMaker,
    });
  }

  private preventSelfTrade(inst: Instrument, opposite: BookSide, maker: Order, taker: Order, now: number): void {
    const acct = maker.account!;
    const qty = maker.remaining;
    opposite.remove(maker);
    this.levelChanged(inst, maker.side, maker.price);
    maker.remaining = 0;
    this.releaseLock(inst, maker);
    acct.preventedQty += qty;
    acct.status = 'EXPIRED_IN_MATCH';
    acct.updateTime = now;
    this.report(acct, 'TRADE_PREVENTION', now, { lastPreventedQty: qty, counterOrderId: taker.id });
    this.forgetAccountOrder(inst, maker);
  }

  /** IOC / FOK / MARKET remainder (spec 3.1 EXPIRED). */
  private expire(inst: Instrument, order: Order, reason: AccountOrder['expiryReason'], now: number): void {
    const acct = order.account!;
    this.releaseLock(inst, order);
    acct.status = 'EXPIRED';
    acct.expiryReason = reason;
    acct.updateTime = now;
    this.report(acct, 'EXPIRED', now);
  }

  private releaseLock(inst: Instrument, order: Order): void {
    const acct = order.account!;
    this.ledger.unlock(order.side === 'BUY' ? inst.quote : inst.base, acct.locked);
    acct.locked = 0n;
  }

  // ---------------------------------------------------------------- cancel and amend

  private cancel(cmd: CancelCommand, now: number): CancelResult | ApiError {
    if (cmd.newClientOrderId !== undefined && !isValidClientOrderId(cmd.newClientOrderId)) {
      return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
    }
    const order = this.findAccountOrder(cmd.symbol, cmd.orderId, cmd.origClientOrderId, 'UNKNOWN_ORDER');
    if (order instanceof ApiError) return order;
    const inst = this.markets.instruments[order.symbolIndex]!;
    return this.cancelResting(inst, order, cmd.newClientOrderId ?? this.generateClientId(), now);
  }

  private cancelResting(inst: Instrument, order: Order, cancelId: string, now: number): CancelResult {
    const acct = order.account!;
    this.unrest(inst, order);
    this.releaseLock(inst, order);
    acct.status = 'CANCELED';
    acct.updateTime = now;
    this.report(acct, 'CANCELED', now, { cancelClientOrderId: cancelId, origClientOrderId: acct.clientOrderId });
    this.forgetAccountOrder(inst, order);
    return { order: acct.view(), origClientOrderId: acct.clientOrderId, clientOrderId: cancelId, transactTime: now };
  }

  private amend(cmd: AmendCommand, now: number): AmendResult | ApiError {
    if (!cmd.newQty) return apiError('MANDATORY_PARAM', 'newQty');
    const order = this.findAccountOrder(cmd.symbol, cmd.orderId, cmd.origClientOrderId, 'UNKNOWN_ORDER');
    if (order instanceof ApiError) return order;
    const inst = this.markets.instruments[order.symbolIndex]!;
    const acct = order.account!;
    const newQty = parseScaled(cmd.newQty, inst.lotDecimals);
    if (newQty === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'newQty', DECIMAL_PATTERN);
    if (exceedsAssetPrecision(cmd.newQty)) return apiError('BAD_PRECISION', 'newQty');
    if (newQty <= 0 || newQty < inst.minQty) return apiError('FILTER_FAILURE', 'LOT_SIZE');
    if (newQty > acct.origQty) return apiError('AMEND_QTY_INCREASE');
    if (newQty === acct.origQty) return apiError('AMEND_NO_CHANGE');
    if (newQty <= acct.executedQty) return apiError('AMEND_QTY_NOT_ABOVE_FILLED');
    // binance-facts §3.11: without newClientOrderId the amended order gets a generated id.
    const newClientOrderId = cmd.newClientOrderId ?? this.generateClientId();
    if (!isValidClientOrderId(newClientOrderId)) return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
    const clientIds = this.clientIds[inst.index]!;
    if (newClientOrderId !== acct.clientOrderId && clientIds.has(newClientOrderId)) return apiError('DUPLICATE_ORDER');

    const decrease = acct.origQty - newQty;
    const side = this.books[inst.index]!.sideOf(order.side);
    side.reduce(order, decrease);
    this.levelChanged(inst, order.side, order.price);
    const release = this.lockFor(inst, order.side, acct.price, decrease);
    acct.locked -= release;
    this.ledger.unlock(order.side === 'BUY' ? inst.quote : inst.base, release);
    const origClientOrderId = acct.clientOrderId;
    clientIds.delete(origClientOrderId);
    clientIds.set(newClientOrderId, order);
    acct.clientOrderId = newClientOrderId;
    acct.origQty = newQty;
    acct.updateTime = now;
    const executionId = this.nextExecutionId;
    this.report(acct, 'REPLACED', now, { origClientOrderId });
    return { order: acct.view(), origClientOrderId, executionId, transactTime: now };
  }

  /** Finds an open account order by id and/or client id (both: the id decides, the client id must match). */
  private findAccountOrder(symbol: string | undefined, orderId: number | undefined, clientOrderId: string | undefined, missing: 'NO_SUCH_ORDER' | 'UNKNOWN_ORDER'): Order | ApiError {
    if (!symbol) return apiError('MANDATORY_PARAM', 'symbol');
    const inst = this.instrument(symbol);
    if (inst === undefined) return apiError('BAD_SYMBOL');
    if (orderId === undefined && clientOrderId === undefined) return apiError('EITHER_PARAM', 'orderId', 'origClientOrderId');
    let order: Order | undefined;
    if (orderId !== undefined) {
      order = this.orders.get(orderId);
      if (order !== undefined && (order.account === null || order.symbolIndex !== inst.index)) order = undefined;
      if (order !== undefined && clientOrderId !== undefined && order.account!.clientOrderId !== clientOrderId) {
        // binance-facts §3.8: a query with both ids finds the order by id; a client id that
        // does not match it is -2039, not -2013.
        if (missing === 'NO_SUCH_ORDER') return apiError('CLIENT_ORDER_ID_MISMATCH');
        order = undefined;
      }
    } else {
      order = this.clientIds[inst.index]!.get(clientOrderId!);
    }
    return order ?? apiError(missing);
  }

  // ---------------------------------------------------------------- book bookkeeping

  private rest(inst: Instrument, order: Order): void {
    const side = this.books[inst.index]!.sideOf(order.side);
    side.add(order);
    this.levelChanged(inst, order.side, order.price);
    this.orders.set(order.id, order);
  }

  private restAccountOrder(inst: Instrument, order: Order): void {
    this.rest(inst, order);
    this.clientIds[inst.index]!.set(order.account!.clientOrderId, order);
    inst.accountOpenOrders++;
  }

  /** Takes a resting order off the book (cancel, expiry); not for fills. */
  private unrest(inst: Instrument, order: Order): void {
    const side = this.books[inst.index]!.sideOf(order.side);
    side.remove(order);
    this.levelChanged(inst, order.side, order.price);
    this.orders.delete(order.id);
    if (order.account === null) this.retireCounterpartyOrder(order);
  }

  private forgetAccountOrder(inst: Instrument, order: Order): void {
    this.orders.delete(order.id);
    if (this.clientIds[inst.index]!.delete(order.account!.clientOrderId)) inst.accountOpenOrders--;
  }

  /** A counterparty order left the book: out of the random-pick index, kept for reuse. */
  private retireCounterpartyOrder(order: Order): void {
    this.dropCounterpartyIndex(order);
    this.spareOrder(order);
  }

  private newCounterpartyOrder(id: number, symbolIndex: number, side: Side, price: number, lots: number): Order {
    const spare = this.spareOrders.pop();
    return spare === undefined ? new Order(id, symbolIndex, side, price, lots, null) : spare.reuse(id, symbolIndex, side, price, lots);
  }

  /** Keeps a finished counterparty order for reuse; beyond the cap it is left to the GC. */
  private spareOrder(order: Order): void {
    if (this.spareOrders.length < MAX_SPARE_ORDERS) this.spareOrders.push(order);
  }

  private dropCounterpartyIndex(order: Order): void {
    const resting = this.counterpartyResting[order.symbolIndex]!;
    const last = resting.pop()!;
    if (last !== order) {
      resting[order.slot] = last;
      last.slot = order.slot;
    }
    order.slot = -1;
  }

  /**
   * A level's quantity changed: a new book update id, and the level joins the depth batch (the
   * aggregator reads its quantity from the book at the flush, so nothing else is recorded).
   */
  private levelChanged(inst: Instrument, side: Side, price: number): void {
    this.depth[inst.index]!.record(side, price, ++inst.updateId);
  }

  // ---------------------------------------------------------------- events and ids

  private report(acct: AccountOrder, executionType: ExecutionType, now: number, extra?: Partial<ExecutionReport>): void {
    this.pending.push({
      type: 'execution',
      executionType,
      order: acct.view(),
      eventTime: now,
      executionId: this.nextExecutionId++,
      rejectReason: 'NONE',
      lastQty: 0,
      lastPrice: 0,
      lastQuote: 0n,
      commission: 0n,
      commissionAsset: null,
      tradeId: -1,
      isMaker: false,
      cancelClientOrderId: null,
      origClientOrderId: null,
      lastPreventedQty: 0,
      counterOrderId: -1,
      ...extra,
    });
  }

  /** Ends a command: one balance event if the account's balances moved; hands over the events. */
  private finish(now: number): CoreEvent[] {
    if (this.ledger.hasChanges) {
      this.lastBalanceUpdate = now;
      this.pending.push({ type: 'balances', eventTime: now, updateTime: now, balances: this.ledger.takeChanged() });
    }
    return this.pending.take();
  }

  /** A 22-character id like the reference exchange's generated ones, from its own seeded stream. */
  private generateClientId(): string {
    let id = '';
    for (let i = 0; i < 22; i++) id += CLIENT_ID_ALPHABET[this.idRng.int(0, CLIENT_ID_ALPHABET.length - 1)];
    return id;
  }
}

/**
 * The events of the command under way. They are appended to one array kept across commands, and
 * each command hands over an exact-size copy: a new array per command, grown to 17 slots by its
 * first push, was a fifth of the core's allocation on the engine bench's deep book.
 */
class PendingEvents {
  private readonly buffer: (CoreEvent | null)[] = [];
  private count = 0;

  push(event: CoreEvent): void {
    this.buffer[this.count++] = event;
  }

  /**
   * The events so far, oldest first, in a new array; the buffer lets go of them. No events (a
   * cancel or a passive order of the counterparty flow: most commands) share one frozen array.
   */
  take(): CoreEvent[] {
    const n = this.count;
    if (n === 0) return NO_EVENTS;
    const buffer = this.buffer;
    const events = new Array<CoreEvent>(n);
    for (let i = 0; i < n; i++) {
      events[i] = buffer[i]!;
      buffer[i] = null;
    }
    this.count = 0;
    return events;
  }

  discard(): void {
    this.take();
  }
}

const NO_EVENTS = Object.freeze([]) as unknown as CoreEvent[];

/** MAX_NUM_ORDERS (binance-facts §9: 200 on every symbol). */
export const MAX_OPEN_ORDERS_PER_SYMBOL = 200;

/** Whether a taker of `side` at `price` would meet `levelPrice` (default: the opposite best). */
function crosses(opposite: BookSide, side: Side, price: number, levelPrice?: number): boolean {
  const p = levelPrice ?? opposite.best()?.price;
  if (p === undefined) return false;
  return side === 'BUY' ? p <= price : p >= price;
}
