// The account's commands (place, cancel, cancelAll, amend, cancelReplace, fault fillOpenOrder)
// in ticks and lots: the matching engine's checks (MAX_NUM_ORDERS, duplicate client ids,
// balances, LIMIT_MAKER), ledger holds, placement through the matcher, and the account's side of
// every fill (FillSink): settlement, trade log, execution reports (spec 3.1, 6.2), balance events.

import { AccountOrder, type AccountBookOrder } from './account-order.ts';
import { Order, type FillSink, type Matcher } from '../book/index.ts';
import type { AmendOrder, AmendResult, CancelAllOrders, CancelOrder, CancelReplace, CancelReplaceResult, CancelResult, FillOpenOrder, PlaceOrder, PlaceResult } from '../commands.ts';
import { apiError, ApiError } from '../errors.ts';
import type { EventQueue } from '../event-queue.ts';
import type { Ledger } from './ledger.ts';
import type { Instrument, Markets } from '../markets.ts';
import type { OrderHistory } from './order-history.ts';
import { marketNotionalError } from './market-notional.ts';
import type { OpenOrders } from './open-orders.ts';
import type { Rng } from '../rng.ts';
import type { TradeLog } from './trade-log.ts';
import type { AccountTrade, ExecutionReport, ExecutionType, Fill, PreventedMatch, RejectReason, Side } from '../types.ts';

/** MAX_NUM_ORDERS (binance-facts §9: 200 on every symbol). */
export const MAX_OPEN_ORDERS_PER_SYMBOL = 200;
const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class AccountDesk implements FillSink<AccountOrder> {
  /** Time of the last balance change (account `updateTime`, `outboundAccountPosition.u`). */
  lastBalanceUpdate = 0;
  private nextOrderId = 1;
  private nextExecutionId = 1;
  /** binance-facts §8: the account's prevented matches are numbered from 0. */
  private nextPreventedMatchId = 0;
  /** The prevented matches of the placement running now (its response lists them). */
  private preventedMatches: PreventedMatch[] = [];
  private readonly clientIdCodes: number[] = new Array<number>(22).fill(0);
  private readonly maxFeeCentiBps: bigint;
  private readonly bookView: { readonly markets: Markets; readonly books: Matcher['books'] };

  constructor(
    private readonly markets: Markets,
    private readonly matcher: Matcher<AccountOrder>,
    private readonly open: OpenOrders,
    private readonly ledger: Ledger,
    private readonly tradeLog: TradeLog,
    private readonly events: EventQueue,
    /** Client order ids are drawn from their own stream, so they never perturb the generator's. */
    private readonly idRng: Rng,
    /** Where ended orders go (API.md section 10); keeps nothing with `ended_orders = "forget"`. */
    private readonly history: OrderHistory,
  ) {
    const { makerCentiBps, takerCentiBps } = markets;
    this.maxFeeCentiBps = makerCentiBps > takerCentiBps ? makerCentiBps : takerCentiBps;
    this.bookView = { markets, books: matcher.books };
  }

  // ---------------------------------------------------------------- commands

  place(cmd: PlaceOrder): PlaceResult | ApiError {
    return marketNotionalError(this.bookView, cmd) ?? this.execute(cmd);
  }

  cancel(cmd: CancelOrder): CancelResult | ApiError {
    const order = this.open.find(cmd, 'UNKNOWN_ORDER');
    if (order instanceof ApiError) return order;
    if (cmd.restriction != null) {
      const partiallyFilled = order.account!.executedQty > 0;
      if (partiallyFilled !== (cmd.restriction === 'ONLY_PARTIALLY_FILLED')) return apiError('CANCEL_RESTRICTED');
    }
    const inst = this.markets.instruments[order.symbolIndex]!;
    return this.cancelResting(inst, order, cmd.cancelClientOrderId ?? this.generateClientId(), cmd.now);
  }

  /** DELETE openOrders: cancels every open order of the symbol, oldest first; -2011 if none. */
  cancelAll(cmd: CancelAllOrders): CancelResult[] | ApiError {
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const open = [...this.open.clientIds[inst.index]!.values()].sort((a, b) => a.id - b.id);
    if (open.length === 0) return apiError('UNKNOWN_ORDER');
    return open.map((order) => this.cancelResting(inst, order, this.generateClientId(), cmd.now));
  }

  /** PUT order/amend/keepPriority: a quantity decrease that keeps the order's place (spec 3.1). */
  amend(cmd: AmendOrder): AmendResult | ApiError {
    const order = this.open.find(cmd, 'UNKNOWN_ORDER');
    if (order instanceof ApiError) return order;
    const inst = this.markets.instruments[order.symbolIndex]!;
    const acct = order.account!;
    const newQty = cmd.newQty;
    if (newQty > acct.origQty) return apiError('AMEND_QTY_INCREASE');
    if (newQty === acct.origQty) return apiError('AMEND_NO_CHANGE');
    if (newQty <= acct.executedQty) return apiError('AMEND_QTY_NOT_ABOVE_FILLED');
    // binance-facts §3.11: without newClientOrderId the amended order gets a generated id.
    const newClientOrderId = cmd.newClientOrderId ?? this.generateClientId();
    const clientIds = this.open.clientIds[inst.index]!;
    if (newClientOrderId !== acct.clientOrderId && clientIds.has(newClientOrderId)) return apiError('DUPLICATE_ORDER');

    const decrease = acct.origQty - newQty;
    this.matcher.reduce(inst, order, decrease);
    const release = lockFor(inst, order.side, acct.price, decrease);
    acct.locked -= release;
    this.ledger.release(order.side === 'BUY' ? inst.quote : inst.base, release);
    this.unreserveLots(inst, order, decrease);
    const origClientOrderId = acct.clientOrderId;
    clientIds.delete(origClientOrderId);
    clientIds.set(newClientOrderId, order);
    acct.clientOrderId = newClientOrderId;
    acct.origQty = newQty;
    acct.updateTime = cmd.now;
    const executionId = this.nextExecutionId;
    this.report(acct, 'REPLACED', cmd.now, { origClientOrderId });
    return { order: acct.view(), origClientOrderId, executionId, transactTime: cmd.now };
  }

  /**
   * cancelReplace (spec 4.1 rule 3, binance-facts §2.5): the new order's filters are checked
   * before anything is cancelled; then the cancel, then the placement.
   */
  cancelReplace(cmd: CancelReplace): CancelReplaceResult | ApiError {
    const refused = marketNotionalError(this.bookView, cmd.place);
    if (refused !== null) return refused;
    const cancel = this.cancel(cmd.cancel);
    let result: CancelReplaceResult;
    if (cancel instanceof ApiError && cmd.mode === 'STOP_ON_FAILURE') {
      result = { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: cancel, newOrderResponse: null };
    } else {
      const placed = this.execute(cmd.place);
      result = {
        cancelResult: cancel instanceof ApiError ? 'FAILURE' : 'SUCCESS',
        newOrderResult: placed instanceof ApiError ? 'FAILURE' : 'SUCCESS',
        cancelResponse: cancel,
        newOrderResponse: placed,
      };
    }
    if (result.cancelResult === 'SUCCESS' && result.newOrderResult === 'SUCCESS') return result;
    // One leg succeeded: -2021 (409); none did: -2022 (400).
    const partial = result.cancelResult === 'SUCCESS' || result.newOrderResult === 'SUCCESS';
    const error = apiError(partial ? 'CANCEL_REPLACE_PARTIAL' : 'CANCEL_REPLACE_FAILED');
    return new ApiError(error.name, error.msg, result);
  }

  /**
   * Fault `fill_open_order` (spec 4.5): a counterparty order crosses the named resting order,
   * sweeping every order ahead of it in price-time first. Returns the lots filled on it.
   */
  fillOpenOrder(cmd: FillOpenOrder): { symbol: string; filled: number } | ApiError {
    const order = this.open.byOrderId(cmd.orderId);
    if (order === undefined || order.account === null) return apiError('NO_SUCH_ORDER');
    if (cmd.lots <= 0) return apiError('FILTER_FAILURE', 'LOT_SIZE');
    const inst = this.markets.instruments[order.symbolIndex]!;
    const wanted = Math.min(cmd.lots, order.remaining);
    const ahead = this.matcher.lotsAhead(inst, order);
    const before = order.account.executedQty;
    const taker = new Order<AccountOrder>(0, inst.index, order.side === 'BUY' ? 'SELL' : 'BUY', order.price, ahead + wanted, null);
    this.matcher.match(inst, taker, order.price, cmd.now, null);
    return { symbol: inst.symbol, filled: order.account.executedQty - before };
  }

  // ---------------------------------------------------------------- placement

  /** Runs a validated placement through the matching engine checks, then the book. */
  private execute(p: PlaceOrder): PlaceResult | ApiError {
    const inst = this.markets.instruments[p.symbolIndex]!;
    const now = p.now;
    if (inst.accountOpenOrders >= MAX_OPEN_ORDERS_PER_SYMBOL) return apiError('MAX_NUM_ORDERS');
    if (p.clientOrderId !== null && this.open.clientIds[inst.index]!.has(p.clientOrderId)) return apiError('DUPLICATE_ORDER');

    let reject: RejectReason = 'NONE';
    let lock = 0n;
    let feeReserve = 0n;
    let feeReservePerLot = 0n;
    if (p.orderType === 'LIMIT_MAKER' && this.matcher.crossesBest(inst, p.side, p.price)) reject = 'WOULD_MATCH_IMMEDIATELY';
    else if (p.orderType === 'MARKET') {
      if (!this.coversMarketOrder(inst, p.side, p.quantity)) reject = 'INSUFFICIENT_BALANCES';
    } else {
      lock = lockFor(inst, p.side, p.price, p.quantity);
      // Spec 2.4: a BUY locks exactly its notional; its worst-case commission is reserved out of
      // free quote on top (issue 18), so no later order can leave its fills unable to pay.
      if (p.side === 'BUY') {
        feeReservePerLot = this.feeReservePerLot(inst, p.price);
        feeReserve = BigInt(p.quantity) * feeReservePerLot;
      }
      if (!this.ledger.hold(p.side === 'BUY' ? inst.quote : inst.base, lock, feeReserve)) reject = 'INSUFFICIENT_BALANCES';
    }

    const orderId = this.nextOrderId++;
    const account = new AccountOrder(orderId, inst.symbol, p.clientOrderId ?? this.generateClientId(), p.side, p.orderType, p.timeInForce, p.price, p.quantity, now);
    if (reject !== 'NONE') {
      // An order the matching engine refuses: -2010 to the caller, REJECTED on the user stream.
      account.status = 'REJECTED';
      this.report(account, 'REJECTED', now, { rejectReason: reject });
      return apiError(reject === 'WOULD_MATCH_IMMEDIATELY' ? 'WOULD_TAKE' : 'INSUFFICIENT_BALANCE');
    }
    account.locked = lock;
    account.feeReserve = feeReserve;
    account.feeReservePerLot = feeReservePerLot;
    account.workingTime = now;
    this.report(account, 'NEW', now);

    const order: AccountBookOrder = new Order(orderId, inst.index, p.side, p.price, p.quantity, account);
    const fills: Fill[] = [];
    const preventedMatches: PreventedMatch[] = (this.preventedMatches = []);
    if (p.timeInForce === 'FOK' && this.matcher.fillable(inst, p.side, p.price, true, p.quantity) < p.quantity) {
      this.expire(inst, order, 'UNFILLED_FOK_ORDER_EXPIRED', now);
    } else {
      this.matcher.match(inst, order, p.orderType === 'MARKET' ? null : p.price, now, fills);
      if (order.remaining > 0) {
        if (p.orderType === 'MARKET') this.expire(inst, order, 'INSUFFICIENT_LIQUIDITY', now);
        else if (p.timeInForce === 'IOC') this.expire(inst, order, 'UNFILLED_IOC_QUANTITY_EXPIRED', now);
        else {
          this.open.add(inst, order);
          this.matcher.rest(inst, order);
        }
      }
    }
    this.preventedMatches = [];
    return { order: account.view(), fills, preventedMatches, transactTime: now };
  }

  /**
   * A MARKET order needs its whole fillable part covered by free balance (binance-facts §9),
   * less the fee reserve of open BUYs: the notional plus each fill's commission (one per maker,
   * each rounded up on its own, as settleFill charges it).
   */
  private coversMarketOrder(inst: Instrument, side: Side, lots: number): boolean {
    if (side === 'SELL') return this.ledger.spendable(inst.base) >= BigInt(lots) * inst.basePerLot;
    let cost = 0n;
    // Own orders are skipped: they expire by self-trade prevention.
    this.matcher.forEachCounterpartyFill(inst, side, lots, (price, q) => {
      const tickLots = BigInt(price) * BigInt(q);
      cost += tickLots * inst.quotePerTickLot + inst.commission(tickLots, this.markets.takerCentiBps);
    });
    return this.ledger.spendable(inst.quote) >= cost;
  }

  /**
   * The fee reserve of one lot of a BUY at `price` ticks: its commission at the higher rate,
   * rounded up to 8 decimals. Per lot, because every fill is rounded up on its own and a fill
   * is whole lots: the fills of n lots never cost more than n of these (ceil(n x) <= n ceil(x)).
   */
  private feeReservePerLot(inst: Instrument, price: number): bigint {
    return inst.commission(BigInt(price), this.maxFeeCentiBps);
  }

  /** Frees the fee reserve of `lots` of a BUY (filled, cancelled or amended away). */
  private unreserveLots(inst: Instrument, order: AccountBookOrder, lots: number): void {
    const acct = order.account!;
    if (acct.feeReserve === 0n) return;
    const freed = BigInt(lots) * acct.feeReservePerLot;
    acct.feeReserve -= freed;
    this.ledger.unreserve(inst.quote, freed);
  }

  private cancelResting(inst: Instrument, order: AccountBookOrder, cancelId: string, now: number): CancelResult {
    const acct = order.account!;
    this.matcher.unrest(inst, order);
    this.open.forget(inst, acct);
    this.releaseLock(inst, order);
    acct.status = 'CANCELED';
    acct.updateTime = now;
    this.report(acct, 'CANCELED', now, { cancelClientOrderId: cancelId, origClientOrderId: acct.clientOrderId });
    this.history.ended(inst.index, acct);
    return { order: acct.view(), origClientOrderId: acct.clientOrderId, clientOrderId: cancelId, transactTime: now };
  }

  /** IOC / FOK / MARKET remainder (spec 3.1 EXPIRED). */
  private expire(inst: Instrument, order: AccountBookOrder, reason: AccountOrder['expiryReason'], now: number): void {
    const acct = order.account!;
    this.releaseLock(inst, order);
    acct.status = 'EXPIRED';
    acct.expiryReason = reason;
    acct.updateTime = now;
    this.report(acct, 'EXPIRED', now);
    this.history.ended(inst.index, acct);
  }

  private releaseLock(inst: Instrument, order: AccountBookOrder): void {
    const acct = order.account!;
    this.ledger.release(order.side === 'BUY' ? inst.quote : inst.base, acct.locked);
    acct.locked = 0n;
    this.ledger.unreserve(inst.quote, acct.feeReserve);
    acct.feeReserve = 0n;
  }

  // ---------------------------------------------------------------- the account's side of matching

  /**
   * One fill of an account order (spec 2.3, 2.5): the ledger settles it, commission charged from
   * free quote at 8 decimals (Instrument.commission); if free quote cannot cover it (other orders
   * locked it since this one was placed), the fill charges what is free. The trade log, the
   * report and the FULL fill all carry the charged figure, so the ledger and the log agree.
   */
  settleFill(inst: Instrument, order: AccountBookOrder, qty: number, price: number, tradeId: number, isMaker: boolean, now: number, fills: Fill[] | null): void {
    const acct = order.account!;
    const notional = inst.notional(price, qty);
    const baseAmount = BigInt(qty) * inst.basePerLot;
    let release: bigint | null = null;
    if (acct.type !== 'MARKET') {
      release = order.side === 'BUY' ? lockFor(inst, 'BUY', acct.price, qty) : baseAmount;
      acct.locked -= release;
    }
    const due = inst.commission(BigInt(price) * BigInt(qty), isMaker ? this.markets.makerCentiBps : this.markets.takerCentiBps);
    // Free quote holds at least this order's fee reserve, which covers `due`: charged in full.
    const commission = this.ledger.settle(inst, order.side, release, notional, baseAmount, due);
    this.unreserveLots(inst, order, qty);
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
    this.report(acct, 'TRADE', now, { lastQty: qty, lastPrice: price, lastQuote: notional, commission, commissionAsset: inst.quote, tradeId, isMaker });
    if (order.remaining === 0) {
      // A filled maker has left the book (the matcher frees its slot next); a taker never rested.
      if (isMaker) this.open.forget(inst, acct);
      this.history.ended(inst.index, acct);
    }
  }

  makerPrevented(inst: Instrument, maker: AccountBookOrder, qty: number, taker: AccountBookOrder, now: number): void {
    const acct = maker.account!;
    this.releaseLock(inst, maker);
    acct.preventedQty += qty;
    acct.status = 'EXPIRED_IN_MATCH';
    acct.updateTime = now;
    const preventedMatchId = this.nextPreventedMatchId++;
    this.preventedMatches.push({ preventedMatchId, makerOrderId: acct.orderId, price: maker.price, makerPreventedQty: qty });
    this.report(acct, 'TRADE_PREVENTION', now, { lastPreventedQty: qty, counterOrderId: taker.id, preventedMatchId });
    this.open.forget(inst, acct);
    this.history.ended(inst.index, acct);
  }

  // ---------------------------------------------------------------- events and ids

  /** Ends a command: one balance event, with the figures, if the account's balances moved. */
  takeBalanceEvent(now: number): void {
    if (!this.ledger.hasChanges) return;
    this.lastBalanceUpdate = now;
    this.events.push({ type: 'balances', eventTime: now, updateTime: now, balances: this.ledger.takeChanged() });
  }

  private report(acct: AccountOrder, executionType: ExecutionType, now: number, extra?: Partial<ExecutionReport>): void {
    this.events.push({
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
      preventedMatchId: -1,
      ...extra,
    });
  }

  /**
   * A 22-character id like the reference exchange's generated ones, from its own seeded stream.
   * Built flat in one step: `+=` made a rope of 21 concatenations that every later read of its
   * characters (a kept order's row, a hash, JSON) had to flatten first.
   */
  private generateClientId(): string {
    const codes = this.clientIdCodes;
    for (let i = 0; i < 22; i++) codes[i] = CLIENT_ID_ALPHABET.charCodeAt(this.idRng.int(0, CLIENT_ID_ALPHABET.length - 1));
    return String.fromCharCode.apply(null, codes);
  }
}

/** What an order holds (spec 2.4): quote notional (BUY) or base quantity (SELL), in atoms. */
function lockFor(inst: Instrument, side: Side, price: number, lots: number): bigint {
  return side === 'SELL' ? BigInt(lots) * inst.basePerLot : inst.notional(price, lots);
}
