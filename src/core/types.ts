// Domain vocabulary of the core. Amounts are integers: prices in ticks, quantities in lots,
// balances and quote amounts in atoms of their asset (bigint). The transports format them.

export type Side = 'BUY' | 'SELL';
/**
 * The order types. The spec's three answer everywhere; the four conditional types exist only
 * with `[sim] order_types = "reference"` (the edge refuses them with -1014 otherwise).
 */
export type OrderType = 'LIMIT' | 'LIMIT_MAKER' | 'MARKET' | ConditionalOrderType;
/** Orders that wait off the book until their stop price (or trailing delta) triggers them. */
export type ConditionalOrderType = 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderStatus =
  | 'NEW'
  /** An order list's pending order until its working order has filled (OTO, OTOCO). */
  | 'PENDING_NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'REJECTED'
  | 'EXPIRED'
  | 'EXPIRED_IN_MATCH';
export type ExecutionType = 'NEW' | 'CANCELED' | 'REPLACED' | 'REJECTED' | 'TRADE' | 'EXPIRED' | 'TRADE_PREVENTION';
/** `r` of executionReport (user-data-stream.md "Order Reject Reason"). */
export type RejectReason = 'NONE' | 'INSUFFICIENT_BALANCES' | 'WOULD_MATCH_IMMEDIATELY' | 'STOP_PRICE_WOULD_TRIGGER_IMMEDIATELY' | 'OCO_BAD_PRICES';
/** `eR` / `expiryReason` (enums.md "Expiry Reasons"). */
export type ExpiryReason =
  | 'NONE'
  | 'UNFILLED_IOC_QUANTITY_EXPIRED'
  | 'UNFILLED_FOK_ORDER_EXPIRED'
  | 'INSUFFICIENT_LIQUIDITY'
  /** A conditional or pending order that failed when it triggered or was activated. */
  | 'REJECTED'
  /** The other order of an OCO pair started working or filled. */
  | 'OCO_TRIGGER'
  /** The working order of an OTO/OTOCO expired, so the pending order(s) did too. */
  | 'OTO_PHASE_ONE_EXPIRED';

/** An order list's kind (enums.md ContingencyType): OTO also for OTOCO, as the reference shows. */
export type ContingencyType = 'OCO' | 'OTO';
/** `listStatusType` / `l`. */
export type ListStatusType = 'RESPONSE' | 'EXEC_STARTED' | 'UPDATED' | 'ALL_DONE';
/** `listOrderStatus` / `L`. */
export type ListOrderStatus = 'EXECUTING' | 'ALL_DONE' | 'REJECT';

/** The only self-trade prevention mode the simulator supports (spec 1.4). */
export const STP_MODE = 'EXPIRE_MAKER';

/** A snapshot of one of the account's orders, as responses and reports show it. */
export interface OrderView {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
  /** Ticks; 0 for MARKET. */
  readonly price: number;
  readonly origQty: number;
  readonly executedQty: number;
  /** Lots removed by self-trade prevention. */
  readonly preventedQty: number;
  /** Quote atoms. */
  readonly cumQuote: bigint;
  readonly status: OrderStatus;
  readonly timeInForce: TimeInForce;
  readonly type: OrderType;
  readonly side: Side;
  readonly time: number;
  readonly updateTime: number;
  /** When the order started working on the book; -1 if it never did. */
  readonly workingTime: number;
  readonly isWorking: boolean;
  readonly expiryReason: ExpiryReason;
  // ---- issue 33 (order_types = "reference"); with "spec" they keep their "none" values.
  /** Ticks; 0: none (`stopPrice` "0.00000000"). For a trailing stop without one, stays 0. */
  readonly stopPrice: number;
  /** Lots of the visible part of an iceberg; 0: not an iceberg. */
  readonly icebergQty: number;
  /** BIPS; 0: not a trailing stop. */
  readonly trailingDelta: number;
  /** When the trailing stop started tracking (`trailingTime`, `D`); -1 until then. */
  readonly trailingTime: number;
  /** The order list it belongs to; -1: none. */
  readonly orderListId: number;
  /** Quote atoms of a `quoteOrderQty` MARKET order (`origQuoteOrderQty`, `Q`); 0n: none. */
  readonly quoteOrderQty: bigint;
}

/** An order of a list as list responses and `listStatus` events name it. */
export interface ListOrderRef {
  readonly symbol: string;
  readonly orderId: number;
  readonly clientOrderId: string;
}

/** An order list's state (rest-api.md "Query Order list"; the `listStatus` event's fields). */
export interface OrderListView {
  readonly orderListId: number;
  readonly contingencyType: ContingencyType;
  readonly listStatusType: ListStatusType;
  readonly listOrderStatus: ListOrderStatus;
  readonly listClientOrderId: string;
  readonly transactionTime: number;
  readonly symbol: string;
  /** Its orders in orderId order (the stop leg of an OCO first). */
  readonly orders: readonly ListOrderRef[];
}

/** A fill of the account's order, as FULL responses and myTrades show it. */
export interface Fill {
  readonly tradeId: number;
  readonly price: number;
  readonly qty: number;
  /** Quote atoms. */
  readonly quoteQty: bigint;
  /** Quote atoms (commission is always in the quote asset, spec 2.3). */
  readonly commission: bigint;
  readonly commissionAsset: string;
}

/** One of the account's executions in the run-long trade log (myTrades row). */
export interface AccountTrade extends Fill {
  readonly symbol: string;
  readonly orderId: number;
  /** The order's list (myTrades `orderListId`); -1 for an order of no list. */
  readonly orderListId: number;
  readonly time: number;
  readonly isBuyer: boolean;
  readonly isMaker: boolean;
}

/** The base of a user-data `executionReport` (spec 3.1, 6.2). */
export interface ExecutionReport {
  readonly type: 'execution';
  readonly executionType: ExecutionType;
  readonly order: OrderView;
  readonly eventTime: number;
  readonly executionId: number;
  readonly rejectReason: RejectReason;
  /** Fill details: 0 / -1 / null when this report is not a TRADE. */
  readonly lastQty: number;
  readonly lastPrice: number;
  readonly lastQuote: bigint;
  readonly commission: bigint;
  readonly commissionAsset: string | null;
  readonly tradeId: number;
  readonly isMaker: boolean;
  /** For CANCELED: the cancel request's id (`c`) and the cancelled order's id (`C`). */
  readonly cancelClientOrderId: string | null;
  readonly origClientOrderId: string | null;
  /** For TRADE_PREVENTION: quantity expired by this prevention. */
  readonly lastPreventedQty: number;
  readonly counterOrderId: number;
  /** For TRADE_PREVENTION: the prevented match's id (`v`); -1 otherwise. */
  readonly preventedMatchId: number;
  /**
   * Issue 33: on the NEW report of a conditional order whose stop triggered ('trigger') or of an
   * order list's pending order that became active ('activation'); absent otherwise. Not on the
   * wire: the edge counts them (stats) and the fixture can wait for them.
   */
  readonly cause?: 'trigger' | 'activation';
}

/** A match self-trade prevention stopped (binance-facts §8): one item of `preventedMatches`. */
export interface PreventedMatch {
  readonly preventedMatchId: number;
  readonly makerOrderId: number;
  /** Ticks: the maker's price. */
  readonly price: number;
  /** Lots of the maker expired (EXPIRE_MAKER: its whole open quantity). */
  readonly makerPreventedQty: number;
}

/** One asset's balance at a moment, in atoms (`decimals` places). */
export interface AssetBalance {
  readonly asset: string;
  readonly free: bigint;
  readonly locked: bigint;
  readonly decimals: number;
}

/**
 * The account's balances changed (spec 6.2 `outboundAccountPosition`): the changed assets'
 * figures as the command left them, so writing the event never reads live state.
 */
export interface BalanceEvent {
  readonly type: 'balances';
  readonly eventTime: number;
  /** `u`: the time of the last balance change (this command's). */
  readonly updateTime: number;
  /** The changed assets, in first-change order. */
  readonly balances: readonly AssetBalance[];
}

/** A public trade (spec 6.1 `trade`). */
export interface PublicTrade {
  readonly type: 'trade';
  readonly symbol: string;
  readonly tradeId: number;
  readonly price: number;
  readonly qty: number;
  readonly time: number;
  /** `m`: the buyer was the maker. */
  readonly buyerIsMaker: boolean;
}

/**
 * An order list changed (user-data-stream.md `listStatus`): sent after the executionReports of
 * the orders whose change caused it, in the same command's events.
 */
export interface ListStatusEvent {
  readonly type: 'listStatus';
  readonly eventTime: number;
  readonly list: OrderListView;
  /** `r`: NONE, or the reject reason of a refused list (RESPONSE events are not sent here). */
  readonly listRejectReason: 'NONE';
}

export type CoreEvent = ExecutionReport | BalanceEvent | PublicTrade | ListStatusEvent;

/** One symbol's `depthUpdate` of a batch (spec 6.1). Levels are [ticks, lots]. */
export interface DepthDiff {
  readonly symbol: string;
  readonly eventTime: number;
  readonly firstUpdateId: number;
  readonly lastUpdateId: number;
  readonly bids: readonly (readonly [number, number])[];
  readonly asks: readonly (readonly [number, number])[];
}

/** A symbol's touch (spec 6.1 `bookTicker`); prices and quantities 0 for an empty side. */
export interface Touch {
  readonly symbol: string;
  readonly updateId: number;
  readonly bidPrice: number;
  readonly bidQty: number;
  readonly askPrice: number;
  readonly askQty: number;
}

export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly (readonly [number, number])[];
  readonly asks: readonly (readonly [number, number])[];
}
