// The account's commands (place, cancel, cancelAll, amend, cancelReplace, fault fillOpenOrder,
// and issue 33's order lists) in ticks and lots: the matching engine's checks (MAX_NUM_ORDERS,
// duplicate client ids, balances, LIMIT_MAKER, a stop that would trigger at once), then the
// order's life through the runner (order-runner.ts: holds, matching, settlement, reports). The
// conditional orders a command's trades trigger and the list orders its fills activate run
// after it, in orderId order (`runDue`, which Exchange.submit calls when `hasDue`).

import { NONE, type FillSink, type Matcher } from '../book/index.ts';
import type {
  AmendOrder,
  AmendResult,
  CancelAllOrders,
  CancelOrder,
  CancelOrderList,
  CancelOrderListResult,
  CancelReplace,
  CancelReplaceResult,
  CancelResult,
  FillOpenOrder,
  OrderListResult,
  PlaceOrder,
  PlaceOrderList,
  PlaceResult,
} from '../commands.ts';
import { apiError, ApiError } from '../errors.ts';
import type { EventQueue } from '../event-queue.ts';
import type { Markets } from '../markets.ts';
import type { Rng } from '../rng.ts';
import type { Fill, RejectReason } from '../types.ts';
import { isConditional, type AccountBookOrder, type AccountOrder } from './account-order.ts';
import { AccountReports } from './account-reports.ts';
import { DueQueue } from './due-queue.ts';
import { needOf } from './holds.ts';
import type { Ledger } from './ledger.ts';
import { ListDesk } from './list-desk.ts';
import { marketNotionalError } from './market-notional.ts';
import type { OpenOrders } from './open-orders.ts';
import { entryError, markStart, newOrder, rejectionError, rejectReasonOf, startOrder, stateFilterError, type EntryRoom } from './order-entry.ts';
import type { OrderHistory } from './order-history.ts';
import { OrderList, OrderLists } from './order-lists.ts';
import { OrderRunner } from './order-runner.ts';
import { quoteMarketLots } from './quote-market.ts';
import { StopBook } from './stops.ts';
import type { TradeLog } from './trade-log.ts';

export class AccountDesk {
  readonly reports: AccountReports;
  readonly runner: OrderRunner;
  readonly stops: StopBook;
  readonly lists: OrderLists;
  private readonly listDesk: ListDesk;
  private readonly room: EntryRoom;
  /** Triggered orders and list activations due after the command under way. */
  private readonly due = new DueQueue<AccountBookOrder | OrderList>();
  private readonly bookView: { readonly markets: Markets; readonly books: Matcher['books'] };

  constructor(
    private readonly markets: Markets,
    private readonly matcher: Matcher<AccountOrder>,
    private readonly open: OpenOrders,
    private readonly ledger: Ledger,
    tradeLog: TradeLog,
    events: EventQueue,
    idRng: Rng,
    /** Where ended orders go (API.md section 10); keeps nothing with `ended_orders = "forget"`. */
    history: OrderHistory,
    /** Ended order lists kept (max_ended_orders with "keep"; 0 with "forget"). */
    keptLists: number,
  ) {
    this.reports = new AccountReports(events, ledger, idRng);
    this.stops = new StopBook(markets.instruments.length, (order) => this.due.push(order.id, order));
    this.runner = new OrderRunner(markets, matcher, open, ledger, tradeLog, this.reports, history, this.stops);
    this.lists = new OrderLists(markets.instruments.length, keptLists);
    this.room = { matcher, open, stops: this.stops, runner: this.runner, reports: this.reports };
    this.listDesk = new ListDesk(markets, this.room, ledger, this.lists, (list) => this.due.push(list.pending[0]!.id, list));
    this.runner.lists = this.listDesk;
    this.bookView = { markets, books: matcher.books };
  }

  /** The account's side of matching (the book's FillSink). */
  get fillSink(): FillSink<AccountOrder> {
    return this.runner;
  }

  get lastBalanceUpdate(): number {
    return this.reports.lastBalanceUpdate;
  }

  takeBalanceEvent(now: number): void {
    this.reports.takeBalanceEvent(now);
  }

  // ---------------------------------------------------------------- commands

  place(cmd: PlaceOrder): PlaceResult | ApiError {
    return marketNotionalError(this.bookView, cmd) ?? this.execute(cmd);
  }

  cancel(cmd: CancelOrder): CancelResult | ApiError {
    const order = this.open.find(cmd, 'UNKNOWN_ORDER');
    if (order instanceof ApiError) return order;
    const acct = order.account!;
    if (cmd.restriction != null) {
      const partiallyFilled = acct.executedQty > 0;
      if (partiallyFilled !== (cmd.restriction === 'ONLY_PARTIALLY_FILLED')) return apiError('CANCEL_RESTRICTED');
    }
    const inst = this.markets.instruments[order.symbolIndex]!;
    const cancelId = cmd.cancelClientOrderId ?? this.reports.generateClientId();
    const list = this.openListOf(acct);
    if (list === undefined) return this.runner.cancelOpen(inst, order, cancelId, cmd.now);
    // Cancelling one order of a list cancels the list (rest-api.md "Cancel Order list").
    const cancelled = this.listDesk.cancelList(inst, list, cancelId, cmd.now);
    return cancelled.orderReports.find((r) => r.order.orderId === order.id)!;
  }

  /**
   * DELETE openOrders: every open order of the symbol, -2011 if none: the orders of no open list
   * first, oldest first, then each open list whole (rest-api.md's example answers so).
   */
  cancelAll(cmd: CancelAllOrders): (CancelResult | CancelOrderListResult)[] | ApiError {
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const open = [...this.open.clientIds[inst.index]!.values()].sort((a, b) => a.id - b.id);
    if (open.length === 0) return apiError('UNKNOWN_ORDER');
    const results: (CancelResult | CancelOrderListResult)[] = [];
    for (const order of open) if (this.openListOf(order.account!) === undefined) results.push(this.runner.cancelOpen(inst, order, this.reports.generateClientId(), cmd.now));
    for (const list of [...this.lists.open.values()]) {
      if (list.symbolIndex === inst.index) results.push(this.listDesk.cancelList(inst, list, this.reports.generateClientId(), cmd.now));
    }
    return results;
  }

  /**
   * PUT order/amend/keepPriority: a quantity decrease that keeps the order's place (spec 3.1);
   * also of an untriggered stop or a PENDING_NEW order. A list order's amend answers its list,
   * and sends its `listStatus` (UPDATED when the client id changed).
   */
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
    const newClientOrderId = cmd.newClientOrderId ?? this.reports.generateClientId();
    const clientIds = this.open.clientIds[inst.index]!;
    if (newClientOrderId !== acct.clientOrderId && clientIds.has(newClientOrderId)) return apiError('DUPLICATE_ORDER');

    const decrease = acct.origQty - newQty;
    if (order.slot !== NONE) this.matcher.reduce(inst, order, decrease);
    else order.remaining -= decrease;
    const list = this.openListOf(acct);
    if (list?.pair?.includes(order)) this.listDesk.rehold(inst, list);
    else this.runner.releaseLots(inst, order, decrease);
    const origClientOrderId = acct.clientOrderId;
    clientIds.delete(origClientOrderId);
    clientIds.set(newClientOrderId, order);
    acct.clientOrderId = newClientOrderId;
    acct.origQty = newQty;
    acct.updateTime = cmd.now;
    const executionId = this.reports.nextExecutionId;
    this.reports.report(acct, 'REPLACED', cmd.now, { origClientOrderId });
    const result = { order: acct.view(), origClientOrderId, executionId, transactTime: cmd.now };
    if (list === undefined) return result;
    if (newClientOrderId !== origClientOrderId) list.listStatusType = 'UPDATED';
    list.transactionTime = cmd.now;
    this.reports.listStatus(list, cmd.now);
    return { ...result, listStatus: list.view() };
  }

  /**
   * cancelReplace (spec 4.1 rule 3, binance-facts §2.5): the new order's filters are checked
   * before anything is cancelled; then the cancel (of a list order: the whole list), then the
   * placement.
   */
  cancelReplace(cmd: CancelReplace): CancelReplaceResult | ApiError {
    const refused = marketNotionalError(this.bookView, cmd.place);
    if (refused !== null) return refused;
    const cancel = this.cancelForReplace(cmd);
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

  private cancelForReplace(cmd: CancelReplace): CancelResult | CancelOrderListResult | ApiError {
    const order = this.open.find(cmd.cancel, 'UNKNOWN_ORDER');
    const list = order instanceof ApiError ? undefined : this.openListOf(order.account!);
    if (list === undefined) return this.cancel(cmd.cancel);
    const inst = this.markets.instruments[list.symbolIndex]!;
    return this.listDesk.cancelList(inst, list, cmd.cancel.cancelClientOrderId ?? this.reports.generateClientId(), cmd.now);
  }

  /**
   * Fault `fill_open_order` (spec 4.5): a counterparty order crosses the named resting order,
   * sweeping every order ahead of it in price-time first. Returns the lots filled on it. An
   * order not on the book (an untriggered stop, a PENDING_NEW order) is not found.
   */
  fillOpenOrder(cmd: FillOpenOrder): { symbol: string; filled: number } | ApiError {
    const order = this.open.byOrderId(cmd.orderId);
    if (order === undefined || order.account === null) return apiError('NO_SUCH_ORDER');
    if (cmd.lots <= 0) return apiError('FILTER_FAILURE', 'LOT_SIZE');
    const inst = this.markets.instruments[order.symbolIndex]!;
    return { symbol: inst.symbol, filled: this.runner.fillResting(inst, order, cmd.lots, cmd.now) };
  }

  placeOrderList(cmd: PlaceOrderList): OrderListResult | ApiError {
    return this.listDesk.place(cmd);
  }

  cancelOrderList(cmd: CancelOrderList): CancelOrderListResult | ApiError {
    return this.listDesk.cancelByRef(cmd, cmd.cancelClientOrderId, cmd.now);
  }

  // ---------------------------------------------------------------- placement

  /** Runs a validated placement through the matching engine checks, then the book. */
  private execute(p: PlaceOrder): PlaceResult | ApiError {
    const inst = this.markets.instruments[p.symbolIndex]!;
    const now = p.now;
    if (inst.accountOpenOrders >= inst.maxNumOrders) return apiError('MAX_NUM_ORDERS');
    if (p.clientOrderId !== null && this.open.clientIds[inst.index]!.has(p.clientOrderId)) return apiError('DUPLICATE_ORDER');
    let placed = p;
    const quoteOrderQty = p.quoteOrderQty ?? 0n;
    if (isConditional(p.orderType) || (p.icebergQty ?? 0) !== 0 || quoteOrderQty !== 0n) {
      const refused = stateFilterError(this.room, inst, [p]);
      if (refused !== null) return refused;
      if (quoteOrderQty !== 0n) {
        const lots = quoteMarketLots(this.matcher, inst, p.side, quoteOrderQty, this.ledger.spendable(inst.base));
        if (lots instanceof ApiError) return lots;
        placed = { ...p, quantity: lots };
      }
    }

    let reject: RejectReason = rejectReasonOf(this.room, inst, placed);
    const order = newOrder(this.room, inst, placed, now, -1);
    const acct = order.account!;
    acct.quoteOrderQty = quoteOrderQty;
    if (reject === 'NONE') {
      if (p.orderType === 'MARKET') {
        if (!this.runner.coversMarketOrder(inst, p.side, placed.quantity)) reject = 'INSUFFICIENT_BALANCES';
      } else if (!this.runner.hold(inst, acct, needOf(inst, acct, placed.quantity, this.runner.maxFeeCentiBps))) reject = 'INSUFFICIENT_BALANCES';
    }
    if (reject !== 'NONE') {
      // An order the matching engine refuses: -2010 to the caller, REJECTED on the user stream.
      acct.status = 'REJECTED';
      this.reports.report(acct, 'REJECTED', now, { rejectReason: reject });
      return rejectionError(reject);
    }
    markStart(inst, acct, now);
    this.reports.report(acct, 'NEW', now);
    const fills: Fill[] = [];
    const preventedMatches = startOrder(this.room, inst, order, now, fills, false);
    return { order: acct.view(), fills, preventedMatches, transactTime: now };
  }

  // ---------------------------------------------------------------- what is due after a command

  get hasDue(): boolean {
    return this.due.size !== 0;
  }

  /** Runs the triggered orders and list activations the command left, in orderId order, until none is left. */
  runDue(now: number): void {
    while (this.due.size !== 0) {
      const item = this.due.pop();
      if (item instanceof OrderList) this.listDesk.activate(item, now);
      else this.runTriggered(item, now);
    }
  }

  /**
   * A conditional order whose condition a trade met: NEW (`cause` trigger, working from now),
   * its OCO partner expires, then it trades: a limit form at its price with its time in force
   * (as placed, holding what it held), a market form as a MARKET against free funds. A market
   * form its checks refuse now (NOTIONAL, funds) ends EXPIRED, REJECTED (API.md 11).
   */
  private runTriggered(order: AccountBookOrder, now: number): void {
    const acct = order.account!;
    if (acct.phase !== 'triggered' || acct.status !== 'NEW') return; // its OCO partner ended it meanwhile
    const inst = this.markets.instruments[order.symbolIndex]!;
    acct.workingTime = now;
    acct.updateTime = now;
    this.reports.report(acct, 'NEW', now, { cause: 'trigger' });
    if (acct.orderListId !== -1) this.listDesk.triggered(inst, order, now);
    acct.phase = 'working';
    if (acct.price === 0) {
      this.runner.releaseHold(inst, order);
      if (this.runner.marketRefusal(inst, order.side, order.remaining)) return this.runner.expire(inst, order, 'REJECTED', now);
    }
    this.runner.work(inst, order, now, null, true);
  }

  /** The open list an order belongs to, if its list is still open. */
  private openListOf(acct: AccountOrder): OrderList | undefined {
    return acct.orderListId === -1 ? undefined : this.lists.openById(acct.orderListId);
  }

}
