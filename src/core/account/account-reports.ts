// The account's user-data events and the ids they carry: execution reports (spec 3.1, 6.2),
// `listStatus` events (issue 33), the balance event that ends a command, and the numbering of
// orders, executions, prevented matches, order lists and generated client ids.

import type { EventQueue } from '../event-queue.ts';
import type { Rng } from '../rng.ts';
import type { ExecutionReport, ExecutionType } from '../types.ts';
import type { AccountOrder } from './account-order.ts';
import type { Ledger } from './ledger.ts';
import type { OrderList } from './order-lists.ts';

const CLIENT_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class AccountReports {
  /** Time of the last balance change (account `updateTime`, `outboundAccountPosition.u`). */
  lastBalanceUpdate = 0;
  nextOrderId = 1;
  nextExecutionId = 1;
  /** binance-facts §8: the account's prevented matches are numbered from 0. */
  nextPreventedMatchId = 0;
  private readonly clientIdCodes: number[] = new Array<number>(22).fill(0);

  constructor(
    private readonly events: EventQueue,
    private readonly ledger: Ledger,
    /** Client order ids are drawn from their own stream, so they never perturb the generator's. */
    private readonly idRng: Rng,
  ) {}

  report(acct: AccountOrder, executionType: ExecutionType, now: number, extra?: Partial<ExecutionReport>): void {
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

  /** A list changed: its `listStatus` event, after its orders' reports (user-data-stream.md). */
  listStatus(list: OrderList, now: number): void {
    this.events.push({ type: 'listStatus', eventTime: now, list: list.view(), listRejectReason: 'NONE' });
  }

  /** Ends a command: one balance event, with the figures, if the account's balances moved. */
  takeBalanceEvent(now: number): void {
    if (!this.ledger.hasChanges) return;
    this.lastBalanceUpdate = now;
    this.events.push({ type: 'balances', eventTime: now, updateTime: now, balances: this.ledger.takeChanged() });
  }

  /**
   * A 22-character id like the reference exchange's generated ones, from its own seeded stream.
   * Built flat in one step: `+=` made a rope of 21 concatenations that every later read of its
   * characters (a kept order's row, a hash, JSON) had to flatten first.
   */
  generateClientId(): string {
    const codes = this.clientIdCodes;
    for (let i = 0; i < 22; i++) codes[i] = CLIENT_ID_ALPHABET.charCodeAt(this.idRng.int(0, CLIENT_ID_ALPHABET.length - 1));
    return String.fromCharCode.apply(null, codes);
  }
}
