// The core's state as its readers see it: the queries (queries.ts) and the invariant checks
// (invariants.ts) read this view, never the command side's fields. The containers are the live
// ones (no copies), typed read-only.

import type { BookStore, DepthAggregator, PickList, SymbolBook } from './book/index.ts';
import type { AccountBookOrder, AccountOrder, Ledger, OpenOrders, OrderHistory, OrderLists, StopBook, TradeLog } from './account/index.ts';
import type { Markets } from './markets.ts';

/**
 * Running totals of the trade log already folded in by the invariant checks (invariants.ts), so
 * they stay O(new trades). Part of the state, declared here so state and checks import one way.
 */
export class ConservationCursor {
  readonly processed = new Map<string, number>();
  readonly expected = new Map<string, bigint>();
}

export interface CoreState {
  readonly markets: Markets;
  readonly books: readonly SymbolBook[];
  readonly depth: readonly DepthAggregator[];
  /** Every resting order: slot records, counterparty keys, the account's orders by id. */
  readonly orders: Pick<BookStore<AccountOrder>, 'account' | 'slotOf' | 'keyAt' | 'remaining' | 'next' | 'prev' | 'levelOf' | 'pick' | 'isAccount' | 'accountAt' | 'size' | 'accountCount'>;
  /** The account's open orders per symbol by client order id. */
  readonly clientIds: readonly ReadonlyMap<string, AccountBookOrder>[];
  /** The account's open orders by orderId, on the book or off it (issue 33: waiting, pending). */
  readonly openOrders: Pick<OpenOrders, 'account' | 'offBook' | 'icebergs'>;
  /** The conditional orders waiting for their trigger. */
  readonly stops: Pick<StopBook, 'has' | 'waiting' | 'size'>;
  /** The account's order lists, open and kept. */
  readonly orderLists: Pick<OrderLists, 'open' | 'byId' | 'byClientId' | 'all' | 'openPerSymbol'>;
  /** The account's ended orders, when `ended_orders = "keep"` (API.md section 10). */
  readonly history: Pick<OrderHistory, 'keeps' | 'size' | 'byId' | 'byClientOrderId' | 'view' | 'updateTime' | 'forward' | 'backward'>;
  /** The counterparty's resting orders per symbol (their slots). */
  readonly counterpartyResting: readonly Pick<PickList, 'length' | 'at'>[];
  /** The scripted market's resting orders per symbol (their slots), which the generator never picks. */
  readonly scriptedResting: readonly Pick<PickList, 'length' | 'at'>[];
  readonly ledger: Pick<Ledger, 'assets' | 'get' | 'snapshot'>;
  readonly tradeLog: Pick<TradeLog, 'all' | 'query' | 'size'>;
  /** State of the incremental conservation check (invariants.ts), kept with the core it checks. */
  readonly conservation: ConservationCursor;
  /** Time of the last balance change (account `updateTime`). */
  readonly lastBalanceUpdate: number;
  /** The generator's latent mid of a symbol, in ticks. */
  latentMid(symbolIndex: number): number;
  /** Whether a symbol replays a recording (API.md section 12): its counterparty is the recording. */
  isReplayed(symbolIndex: number): boolean;
}
