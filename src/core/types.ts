// Domain vocabulary of the core. Amounts are integers: prices in ticks, quantities in lots,
// balances and quote amounts in atoms of their asset (bigint). The transports format them.

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'LIMIT_MAKER' | 'MARKET';
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderStatus =
  | 'NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'REJECTED'
  | 'EXPIRED'
  | 'EXPIRED_IN_MATCH';
export type ExecutionType = 'NEW' | 'CANCELED' | 'REPLACED' | 'REJECTED' | 'TRADE' | 'EXPIRED' | 'TRADE_PREVENTION';
export type RejectReason = 'NONE' | 'INSUFFICIENT_BALANCES' | 'WOULD_MATCH_IMMEDIATELY';
export type ExpiryReason =
  | 'NONE'
  | 'UNFILLED_IOC_QUANTITY_EXPIRED'
  | 'UNFILLED_FOK_ORDER_EXPIRED'
  | 'INSUFFICIENT_LIQUIDITY';

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

export type CoreEvent = ExecutionReport | BalanceEvent | PublicTrade;

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
