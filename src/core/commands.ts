// The core's one entry (ARCHITECTURE rule 9): `Exchange.submit(command)` over this typed union.
// Numbers are already exact: prices in ticks, quantities in lots, symbols as instrument
// indexes; time comes in with every command. Parsing wire strings, the -1100/-1102 answers and
// the symbol checks happen at the edge (src/api/order-params.ts). The account's commands, the
// generator's and the scripted market's (counterparty*), the faults' (fillOpenOrder,
// skipDepthUpdate) and the driver's (advance, flushDepth) all come through here.

import type { ApiError } from './errors.ts';
import type { ContingencyType, CoreEvent, DepthDiff, Fill, OrderListView, OrderType, OrderView, PreventedMatch, Side, TimeInForce, Touch } from './types.ts';

// ---------------------------------------------------------------- the account's commands

export interface PlaceOrder {
  readonly type: 'place';
  readonly now: number;
  readonly symbolIndex: number;
  readonly side: Side;
  readonly orderType: OrderType;
  readonly timeInForce: TimeInForce;
  /** Ticks; 0 for MARKET. */
  readonly price: number;
  /** Lots; 0 for a `quoteOrderQty` MARKET order (the core picks the quantity). */
  readonly quantity: number;
  /** null: the core generates one. */
  readonly clientOrderId: string | null;
  // ---- issue 33, only with order_types = "reference" (the edge never sets them otherwise).
  /** Ticks of the trigger price of a conditional type; absent or 0: none (a trailing stop may omit it). */
  readonly stopPrice?: number;
  /** BIPS of a trailing stop (within TRAILING_DELTA, checked at the edge); absent or 0: none. */
  readonly trailingDelta?: number;
  /** Lots of an iceberg's visible part (GTC only; ICEBERG_PARTS checked at the edge); absent or 0: none. */
  readonly icebergQty?: number;
  /** Quote atoms to spend (BUY) or receive (SELL) of a MARKET order given as `quoteOrderQty`. */
  readonly quoteOrderQty?: bigint;
}

/** One order of a list as placed (PlaceOrder without the command's own fields). */
export type ListLeg = Omit<PlaceOrder, 'type' | 'now' | 'symbolIndex' | 'quoteOrderQty'>;

/**
 * An order list (rest-api.md "Order lists"; the deprecated `order/oco` maps onto OCO). Its legs
 * come parsed and named by role; the core gives them consecutive orderIds in the reference's
 * order: OCO the STOP_LOSS / STOP_LOSS_LIMIT leg first (API.md 11: every reference example
 * shows it so), then the other; OTO the working order, then the pending one; OTOCO the working
 * order, then the pending pair as for OCO.
 */
export type PlaceOrderList =
  | (OrderListBase & { readonly contingency: 'OCO'; readonly above: ListLeg; readonly below: ListLeg })
  | (OrderListBase & { readonly contingency: 'OTO'; readonly working: ListLeg; readonly pending: ListLeg })
  | (OrderListBase & { readonly contingency: 'OTOCO'; readonly working: ListLeg; readonly pendingAbove: ListLeg; readonly pendingBelow: ListLeg });

interface OrderListBase {
  readonly type: 'placeOrderList';
  readonly now: number;
  readonly symbolIndex: number;
  /** null: generated. */
  readonly listClientOrderId: string | null;
}

/** Which order list: by id or by its client id (the id decides when both are sent). */
export interface OrderListRef {
  readonly symbolIndex: number;
  readonly orderListId: number | undefined;
  readonly listClientOrderId: string | undefined;
}

/** Cancels every order of a list (DELETE orderList, orderList.cancel). */
export interface CancelOrderList extends OrderListRef {
  readonly type: 'cancelOrderList';
  readonly now: number;
  /** The cancel's own list client id (`newClientOrderId`); null: generated. */
  readonly cancelClientOrderId: string | null;
}

/** Which open order: by id, by client id, or both (the id decides; the client id must match). */
export interface OrderRef {
  readonly symbolIndex: number;
  readonly orderId: number | undefined;
  readonly origClientOrderId: string | undefined;
}

export interface CancelOrder extends OrderRef {
  readonly type: 'cancel';
  readonly now: number;
  /** The cancel's own id (`c` of the CANCELED report); null: generated. */
  readonly cancelClientOrderId: string | null;
  /** `cancelRestrictions`: cancel only an order in that status, else -2011 (rest-api.md). */
  readonly restriction?: CancelRestriction | null;
}

export type CancelRestriction = 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED';

export interface CancelAllOrders {
  readonly type: 'cancelAll';
  readonly now: number;
  readonly symbolIndex: number;
}

export interface AmendOrder extends OrderRef {
  readonly type: 'amend';
  readonly now: number;
  /** null: generated (binance-facts §3.11). */
  readonly newClientOrderId: string | null;
  /** Lots, already on the lot grid and within LOT_SIZE. */
  readonly newQty: number;
}

export type CancelReplaceMode = 'STOP_ON_FAILURE' | 'ALLOW_FAILURE';

export interface CancelReplace {
  readonly type: 'cancelReplace';
  readonly now: number;
  readonly mode: CancelReplaceMode;
  readonly cancel: CancelOrder;
  readonly place: PlaceOrder;
}

/** Fault `fill_open_order` (spec 4.5): a counterparty order crosses the named resting order. */
export interface FillOpenOrder {
  readonly type: 'fillOpenOrder';
  readonly now: number;
  readonly orderId: number;
  readonly lots: number;
}

// ---------------------------------------------------------------- the counterparty's commands

/** A limit order that rests what it does not fill; the result is its book key (0: none rests). */
export interface CounterpartyLimit {
  readonly type: 'counterpartyLimit';
  readonly now: number;
  readonly symbolIndex: number;
  readonly side: Side;
  readonly price: number;
  readonly lots: number;
  /**
   * A test's scripted order (API.md section 8): what rests of it is never a pick of the
   * generator's random cancels, so it stays until it trades or the test cancels it.
   */
  readonly scripted?: boolean;
}

/** A taker that never rests: up to `price` (IOC/FOK of the scripted market) or any (MARKET: null). */
export interface CounterpartyTake {
  readonly type: 'counterpartyTake';
  readonly now: number;
  readonly symbolIndex: number;
  readonly side: Side;
  readonly price: number | null;
  readonly lots: number;
}

/** Cancels a resting counterparty order by book key; the result says whether it was resting. */
export interface CounterpartyCancel {
  readonly type: 'counterpartyCancel';
  readonly now: number;
  readonly key: number;
}

/** Cancels the i-th resting counterparty order of a symbol (the generator's random pick; `scripted`: of the scripted orders). */
export interface CounterpartyCancelAt {
  readonly type: 'counterpartyCancelAt';
  readonly now: number;
  readonly symbolIndex: number;
  readonly slot: number;
  readonly scripted?: boolean;
}

/** Moves a symbol's latent mid (ticks): the generator's next orders come around it. */
export interface SetLatentMid {
  readonly type: 'setLatentMid';
  readonly now: number;
  readonly symbolIndex: number;
  readonly mid: number;
}

/**
 * One recorded print of a replayed symbol (API.md section 12; counterparty/replay.ts). Before it
 * is published, every resting account order it trades through (a BUY above `price`, a SELL
 * below) fills completely, as maker, at its own price; with `fillAtTouch`, orders at exactly
 * `price` on the side the print's taker hit (the bids when `buyerIsMaker`) also fill, best price
 * then oldest first, sharing `lots`. Each account fill is a public trade of its own; then the
 * print is one, whole. It meets no other order: the recorded market never reacts to the book.
 * The result is the print's trade id.
 */
export interface CounterpartyPrint {
  readonly type: 'counterpartyPrint';
  readonly now: number;
  readonly symbolIndex: number;
  readonly price: number;
  readonly lots: number;
  readonly buyerIsMaker: boolean;
  /** The trade id of the print whose aggregate this one continues (a trades file's row); 0: a new one. */
  readonly joins: number;
  readonly fillAtTouch: boolean;
}

/**
 * The replay's synthetic book around `center` (ticks): bids at center - k and asks at center + k
 * ticks for k = 1..`levels`, `lots` each, restoring what the account took or a cancel removed.
 * One book update id for all its level changes (none when nothing changes).
 */
export interface CounterpartyRebuild {
  readonly type: 'counterpartyRebuild';
  readonly now: number;
  readonly symbolIndex: number;
  readonly center: number;
  readonly levels: number;
  readonly lots: number;
}

export type CounterpartyCommand = CounterpartyLimit | CounterpartyTake | CounterpartyCancel | CounterpartyCancelAt | CounterpartyPrint | CounterpartyRebuild;

// ---------------------------------------------------------------- time-driven and fault commands

/** Runs the counterparty generator (at most `maxSteps` steps) and the replays' prints up to `now`. */
export interface Advance {
  readonly type: 'advance';
  readonly now: number;
  readonly maxSteps: number;
}

/** Publishes the pending depth batch of every symbol (spec 6.1: one diff per symbol). */
export interface FlushDepth {
  readonly type: 'flushDepth';
  readonly now: number;
}

/** Fault `skip_next_depth_update` (skip: true) and its cancel (false); every symbol when null. */
export interface SkipDepthUpdate {
  readonly type: 'skipDepthUpdate';
  readonly now: number;
  readonly symbolIndex: number | null;
  readonly skip: boolean;
}

/** The server clock's offset changed by `deltaMs`: the generator's step grid follows it. */
export interface ShiftTime {
  readonly type: 'shiftTime';
  readonly now: number;
  readonly deltaMs: number;
}

export type Command =
  | PlaceOrder
  | CancelOrder
  | CancelAllOrders
  | AmendOrder
  | CancelReplace
  | FillOpenOrder
  | PlaceOrderList
  | CancelOrderList
  | CounterpartyCommand
  | SetLatentMid
  | Advance
  | FlushDepth
  | SkipDepthUpdate
  | ShiftTime;

// ---------------------------------------------------------------- results

export type Outcome<T> =
  | { readonly ok: true; readonly value: T; readonly events: CoreEvent[] }
  | { readonly ok: false; readonly error: ApiError; readonly events: CoreEvent[] };

export interface PlaceResult {
  readonly order: OrderView;
  readonly fills: readonly Fill[];
  /** The matches self-trade prevention stopped, in match order (binance-facts §8). */
  readonly preventedMatches: readonly PreventedMatch[];
  readonly transactTime: number;
}

export interface CancelResult {
  readonly order: OrderView;
  readonly origClientOrderId: string;
  /** The cancel request's id. */
  readonly clientOrderId: string;
  readonly transactTime: number;
}

export interface AmendResult {
  readonly order: OrderView;
  readonly origClientOrderId: string;
  readonly executionId: number;
  readonly transactTime: number;
  /** The order's list after the amend (rest-api.md: `listStatus` of a list order's amend); absent otherwise. */
  readonly listStatus?: OrderListView;
}

/** A placed order list: its state and each order's report (FULL by default, rest-api.md). */
export interface OrderListResult {
  readonly list: OrderListView;
  /** In orderId order; each with the fills it made at placement. */
  readonly orderReports: readonly PlaceResult[];
}

/** A cancelled order list: its final state and each order's cancel (or expiry) report. */
export interface CancelOrderListResult {
  readonly list: OrderListView;
  readonly orderReports: readonly CancelResult[];
}

/** binance-facts §2.5: the two legs' results; on failure this is the error's `data`. */
export interface CancelReplaceResult {
  readonly cancelResult: 'SUCCESS' | 'FAILURE';
  readonly newOrderResult: 'SUCCESS' | 'FAILURE' | 'NOT_ATTEMPTED';
  /** A list order's cancel cancels its whole list (API.md 11): then the list's result. */
  readonly cancelResponse: CancelResult | CancelOrderListResult | ApiError;
  readonly newOrderResponse: PlaceResult | ApiError | null;
}

export interface FlushResult {
  readonly diffs: DepthDiff[];
  /** bookTicker updates: symbols whose touch changed during the batch. */
  readonly touches: Touch[];
}

/** What each command answers. */
export interface CommandResults {
  place: PlaceResult;
  cancel: CancelResult;
  /**
   * DELETE openOrders cancels lists too (rest-api.md's example): the orders of no list first,
   * then each list whole, each group oldest first. With no list open, only CancelResults.
   */
  cancelAll: (CancelResult | CancelOrderListResult)[];
  amend: AmendResult;
  cancelReplace: CancelReplaceResult;
  placeOrderList: OrderListResult;
  cancelOrderList: CancelOrderListResult;
  fillOpenOrder: { readonly symbol: string; readonly filled: number };
  counterpartyLimit: number;
  counterpartyTake: null;
  counterpartyCancel: boolean;
  counterpartyCancelAt: boolean;
  counterpartyPrint: number;
  counterpartyRebuild: null;
  setLatentMid: null;
  advance: null;
  flushDepth: FlushResult;
  skipDepthUpdate: null;
  shiftTime: null;
}

export type ResultOf<C extends Command> = CommandResults[C['type']];
