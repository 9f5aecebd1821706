// An accepted order's life after the desk's checks: the holds it takes and gives back
// (holds.ts), matching through the book, resting, and its endings (filled, cancelled, expired),
// each with its execution report; and the account's side of every fill (FillSink): settlement,
// trade log, reports (spec 2.3, 2.5, 3.1). What an order list does when one of its orders
// fills or expires is the list desk's (ListHooks), told only for orders of a list.

import { NONE, Order, type FillSink, type Matcher } from '../book/index.ts';
import type { CancelResult } from '../commands.ts';
import type { Instrument, Markets } from '../markets.ts';
import type { AccountTrade, ExecutionReport, ExpiryReason, Fill, PreventedMatch, Side } from '../types.ts';
import type { AccountBookOrder, AccountOrder } from './account-order.ts';
import type { AccountReports } from './account-reports.ts';
import { feeReservePerLot, lockedAsset, lockFor, paysFromFree, type Need } from './holds.ts';
import type { Ledger } from './ledger.ts';
import { marketNotionalFails } from './market-notional.ts';
import type { OpenOrders } from './open-orders.ts';
import type { OrderHistory } from './order-history.ts';
import type { StopBook } from './stops.ts';
import type { TradeLog } from './trade-log.ts';

/** What an order list does when one of its orders trades or ends (list-desk.ts). */
export interface ListHooks {
  /** Before a fill of a list order settles: an OCO leg takes its own hold from the pair's. */
  beforeFill(inst: Instrument, order: AccountBookOrder, qty: number): void;
  /** After it: an OCO's first fill expires the other leg; an OTO's filled working order activates. */
  afterFill(inst: Instrument, order: AccountBookOrder, now: number): void;
  /** A list order expired by itself (IOC, FOK, STP, liquidity, a failed trigger). */
  expired(inst: Instrument, order: AccountBookOrder, now: number): void;
}

export class OrderRunner implements FillSink<AccountOrder> {
  readonly maxFeeCentiBps: bigint;
  lists: ListHooks | null = null;
  /** The prevented matches of the placement running now (its response lists them). */
  private preventedMatches: PreventedMatch[] = [];

  constructor(
    private readonly markets: Markets,
    private readonly matcher: Matcher<AccountOrder>,
    private readonly open: OpenOrders,
    private readonly ledger: Ledger,
    private readonly tradeLog: TradeLog,
    private readonly reports: AccountReports,
    private readonly history: OrderHistory,
    private readonly stops: StopBook,
  ) {
    const { makerCentiBps, takerCentiBps } = markets;
    this.maxFeeCentiBps = makerCentiBps > takerCentiBps ? makerCentiBps : takerCentiBps;
  }

  // ---------------------------------------------------------------- holds

  /** Takes `need` for `acct` if spendable funds cover it; false (nothing changes) otherwise. */
  hold(inst: Instrument, acct: AccountOrder, need: Need): boolean {
    if (!this.ledger.hold(lockedAsset(inst, acct.side), need.lock, need.reserve)) return false;
    acct.locked = need.lock;
    acct.feeReserve = need.reserve;
    acct.feeReservePerLot = need.reserve === 0n ? 0n : feeReservePerLot(inst, acct.lockPrice, this.maxFeeCentiBps);
    return true;
  }

  /** Gives back all an order holds. */
  releaseHold(inst: Instrument, order: AccountBookOrder): void {
    const acct = order.account!;
    this.ledger.release(lockedAsset(inst, order.side), acct.locked);
    acct.locked = 0n;
    this.ledger.unreserve(inst.quote, acct.feeReserve);
    acct.feeReserve = 0n;
  }

  /** Gives back what `lots` of an order held (amended away). */
  releaseLots(inst: Instrument, order: AccountBookOrder, lots: number): void {
    const acct = order.account!;
    if (acct.phase === 'pending') return; // it holds nothing yet
    const release = lockFor(inst, order.side, acct.lockPrice, lots);
    acct.locked -= release;
    this.ledger.release(lockedAsset(inst, order.side), release);
    this.unreserveLots(inst, order, lots);
  }

  /** Frees the fee reserve of `lots` of a BUY (filled, cancelled or amended away). */
  private unreserveLots(inst: Instrument, order: AccountBookOrder, lots: number): void {
    const acct = order.account!;
    if (acct.feeReserve === 0n) return;
    const freed = BigInt(lots) * acct.feeReservePerLot;
    acct.feeReserve -= freed;
    this.ledger.unreserve(inst.quote, freed);
  }

  /**
   * A MARKET order needs its whole fillable part covered by free balance (binance-facts §9),
   * less the fee reserve of open BUYs: the notional plus each fill's commission (one per maker,
   * each rounded up on its own, as settleFill charges it).
   */
  coversMarketOrder(inst: Instrument, side: Side, lots: number): boolean {
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
   * Whether a market form that starts working now (a triggered STOP_LOSS / TAKE_PROFIT, an
   * activated MARKET) fails its checks: NOTIONAL against the best opposite price, as a MARKET
   * order's placement (market-notional.ts), or the funds.
   */
  marketRefusal(inst: Instrument, side: Side, lots: number): boolean {
    return marketNotionalFails(inst, this.matcher.books[inst.index]!, side, lots) || !this.coversMarketOrder(inst, side, lots);
  }

  // ---------------------------------------------------------------- running and ending

  /**
   * Runs an accepted order that holds what it must, as a taker: FOK first, then matching up to
   * its price (a market form: any), then it rests or expires. `isOpen`: it is already one of
   * the open orders (a triggered or activated one), so resting only moves it onto the book.
   * The prevented matches it met are returned for its response.
   */
  work(inst: Instrument, order: AccountBookOrder, now: number, fills: Fill[] | null, isOpen: boolean): PreventedMatch[] {
    const acct = order.account!;
    const preventedMatches: PreventedMatch[] = (this.preventedMatches = []);
    const atMarket = acct.price === 0;
    if (acct.timeInForce === 'FOK' && this.matcher.fillable(inst, order.side, order.price, true, order.remaining) < order.remaining) {
      this.expire(inst, order, 'UNFILLED_FOK_ORDER_EXPIRED', now);
    } else {
      this.matcher.match(inst, order, atMarket ? null : order.price, now, fills);
      if (order.remaining > 0 && acct.status !== 'EXPIRED') {
        if (atMarket) this.expire(inst, order, 'INSUFFICIENT_LIQUIDITY', now);
        else if (acct.timeInForce === 'IOC') this.expire(inst, order, 'UNFILLED_IOC_QUANTITY_EXPIRED', now);
        else {
          if (isOpen) this.open.onBook(order.id);
          else this.open.add(inst, order);
          this.matcher.rest(inst, order);
        }
      }
    }
    this.preventedMatches = [];
    return preventedMatches;
  }

  /** Takes an open order out of wherever it is: the stop book, the book, the open orders. */
  private takeOut(inst: Instrument, order: AccountBookOrder): void {
    const acct = order.account!;
    if (acct.phase === 'waiting') this.stops.remove(inst, order.id);
    else if (order.slot !== NONE) this.matcher.unrest(inst, order);
    this.open.forget(inst, acct);
  }

  /** Cancels an open order (its list's other orders are the list desk's). */
  cancelOpen(inst: Instrument, order: AccountBookOrder, cancelId: string, now: number): CancelResult {
    const acct = order.account!;
    this.end(inst, order, 'CANCELED', now, { cancelClientOrderId: cancelId, origClientOrderId: acct.clientOrderId });
    return { order: acct.view(), origClientOrderId: acct.clientOrderId, clientOrderId: cancelId, transactTime: now };
  }

  /** Ends an order as EXPIRED with `reason`, nothing more: what its list does is the caller's. */
  expireOnly(inst: Instrument, order: AccountBookOrder, reason: ExpiryReason, now: number): void {
    order.account!.expiryReason = reason;
    this.end(inst, order, 'EXPIRED', now);
  }

  /** An open or running order ends: out of the book and the open orders, its hold back, its report. */
  private end(inst: Instrument, order: AccountBookOrder, status: 'CANCELED' | 'EXPIRED', now: number, extra?: Partial<ExecutionReport>): void {
    const acct = order.account!;
    this.takeOut(inst, order);
    this.releaseHold(inst, order);
    acct.status = status;
    acct.updateTime = now;
    this.reports.report(acct, status, now, extra);
    this.history.ended(inst.index, acct);
  }

  /** An order expires by itself (IOC / FOK / MARKET remainder, spec 3.1; a failed trigger). */
  expire(inst: Instrument, order: AccountBookOrder, reason: ExpiryReason, now: number): void {
    this.expireOnly(inst, order, reason, now);
    if (order.account!.orderListId !== -1) this.lists!.expired(inst, order, now);
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
    if (acct.orderListId !== -1) this.lists!.beforeFill(inst, order, qty);
    const notional = inst.notional(price, qty);
    const baseAmount = BigInt(qty) * inst.basePerLot;
    let release: bigint | null = null;
    if (!paysFromFree(acct)) {
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
      orderListId: acct.orderListId,
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
    this.reports.report(acct, 'TRADE', now, { lastQty: qty, lastPrice: price, lastQuote: notional, commission, commissionAsset: inst.quote, tradeId, isMaker });
    if (order.remaining === 0) {
      // A filled maker has left the book (the matcher frees its slot next); a taker that was
      // open (triggered, activated) leaves the open orders; any other taker never was one.
      this.open.forget(inst, acct);
      this.history.ended(inst.index, acct);
    }
    if (acct.orderListId !== -1) this.lists!.afterFill(inst, order, now);
  }

  makerPrevented(inst: Instrument, maker: AccountBookOrder, qty: number, taker: AccountBookOrder, now: number): void {
    const acct = maker.account!;
    this.releaseHold(inst, maker);
    acct.preventedQty += qty;
    acct.status = 'EXPIRED_IN_MATCH';
    acct.updateTime = now;
    const preventedMatchId = this.reports.nextPreventedMatchId++;
    this.preventedMatches.push({ preventedMatchId, makerOrderId: acct.orderId, price: maker.price, makerPreventedQty: qty });
    this.reports.report(acct, 'TRADE_PREVENTION', now, { lastPreventedQty: qty, counterOrderId: taker.id, preventedMatchId } satisfies Partial<ExecutionReport>);
    this.open.forget(inst, acct);
    this.history.ended(inst.index, acct);
    if (acct.orderListId !== -1) this.lists!.expired(inst, maker, now);
  }

  /**
   * Fault `fill_open_order` (spec 4.5): a counterparty order crosses the named resting order,
   * sweeping every order ahead of it in price-time first. Returns the lots filled on it.
   */
  fillResting(inst: Instrument, order: AccountBookOrder, lots: number, now: number): number {
    const wanted = Math.min(lots, order.remaining);
    const ahead = this.matcher.lotsAhead(inst, order);
    const before = order.account!.executedQty;
    const taker = new Order<AccountOrder>(0, inst.index, order.side === 'BUY' ? 'SELL' : 'BUY', order.price, ahead + wanted, null);
    this.matcher.match(inst, taker, order.price, now, null);
    return order.account!.executedQty - before;
  }
}
