// What the exchange keeps about one of the account's open orders beyond its book entry.
// Cancelled and filled orders are forgotten (spec 2.4); their executions live in the trade log.

import type { Order } from '../book/index.ts';
import type { ExpiryReason, OrderStatus, OrderType, OrderView, Side, TimeInForce } from '../types.ts';

/** An account order's book entry: the book's Order carrying this room's record. */
export type AccountBookOrder = Order<AccountOrder>;

/**
 * Where an open order is (issue 33): `working` on the book or matching (every order of the
 * spec's types); `waiting` for its stop price or trailing delta off the book; `triggered`, its
 * condition met by a trade of the command under way, to run when that command has finished;
 * `pending`, an order list's PENDING_NEW order until its working order fills.
 */
export type OrderPhase = 'working' | 'waiting' | 'triggered' | 'pending';

/** The four types that wait for a stop price or a trailing delta. */
export function isConditional(type: OrderType): boolean {
  return type === 'STOP_LOSS' || type === 'STOP_LOSS_LIMIT' || type === 'TAKE_PROFIT' || type === 'TAKE_PROFIT_LIMIT';
}

export class AccountOrder {
  status: OrderStatus = 'NEW';
  executedQty = 0;
  preventedQty = 0;
  /** Quote atoms filled so far (cummulativeQuoteQty). */
  cumQuote = 0n;
  /** Atoms of the locked asset still held for this order's open quantity. */
  locked = 0n;
  /** Quote atoms of free kept for the worst-case commission of its open quantity (BUY only). */
  feeReserve = 0n;
  /** Of that, per open lot (fixed at placement: the order's price and the higher fee rate). */
  feeReservePerLot = 0n;
  updateTime: number;
  workingTime = -1;
  expiryReason: ExpiryReason = 'NONE';
  // Issue 33 (order_types = "reference"): 0 / -1 / 0n when unused.
  stopPrice = 0;
  icebergQty = 0;
  trailingDelta = 0;
  trailingTime = -1;
  orderListId = -1;
  quoteOrderQty = 0n;
  phase: OrderPhase = 'working';
  /**
   * Ticks at which a BUY's lock and fee reserve are figured: its price, or for a waiting
   * STOP_LOSS / TAKE_PROFIT its stop price (a trailing one without: the last price at placement).
   */
  lockPrice: number;

  constructor(
    readonly orderId: number,
    readonly symbol: string,
    public clientOrderId: string,
    readonly side: Side,
    readonly type: OrderType,
    readonly timeInForce: TimeInForce,
    /** Ticks; 0 for MARKET. */
    readonly price: number,
    public origQty: number,
    readonly time: number,
  ) {
    this.updateTime = time;
    this.lockPrice = price;
  }

  view(): OrderView {
    return {
      symbol: this.symbol,
      orderId: this.orderId,
      clientOrderId: this.clientOrderId,
      price: this.price,
      origQty: this.origQty,
      executedQty: this.executedQty,
      preventedQty: this.preventedQty,
      cumQuote: this.cumQuote,
      status: this.status,
      timeInForce: this.timeInForce,
      type: this.type,
      side: this.side,
      time: this.time,
      updateTime: this.updateTime,
      workingTime: this.workingTime,
      isWorking: this.workingTime >= 0,
      expiryReason: this.expiryReason,
      stopPrice: this.stopPrice,
      icebergQty: this.icebergQty,
      trailingDelta: this.trailingDelta,
      trailingTime: this.trailingTime,
      orderListId: this.orderListId,
      quoteOrderQty: this.quoteOrderQty,
    };
  }
}
