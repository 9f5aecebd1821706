// The counters of the stats line (spec 1.7, API.md section 6), fed by the events the exchange
// publishes, the depth batches and every reply the service gives.

import type { Reply } from './api/service.ts';
import type { Exchange } from './core/exchange.ts';
import { balances, bookTicker, openOrderCount } from './core/queries.ts';
import type { CoreEvent, DepthDiff, Touch } from './core/types.ts';
import { formatPlain, formatScaled } from './core/units.ts';

/** How many of the latest client order ids `duplicateClientOrderIds` compares with. */
export const MAX_REMEMBERED_IDS = 1_000_000;

const AUTH_ERROR_CODES = new Set([-2014, -2015, -1022, -1021]);
const ORDER_ENDPOINTS = new Set(['order.place', 'order.cancelReplace']);

export class Stats {
  connections = 0;
  orders = 0;
  rejects = 0;
  cancels = 0;
  replaces = 0;
  fills = 0;
  /** Conditional orders whose stop triggered (their NEW report with `cause: 'trigger'`, API.md 11). */
  triggers = 0;
  publicTrades = 0;
  depthDiffs = 0;
  tickers = 0;
  snapshots = 0;
  restRequests = 0;
  wsApiRequests = 0;
  rateLimited = 0;
  authErrors = 0;
  cancelAlls = 0;
  openOrderQueries = 0;
  myTradesQueries = 0;
  sessionsOpened = 0;
  /** Client order ids accepted again after the first order with that id ended (spec 4.5). */
  duplicateClientOrderIds = 0;
  /**
   * The ids of the last `maxRememberedIds` orders, oldest first in `rememberedOrder`: a run
   * longer than that (a bot placing a thousand orders a second for a quarter of an hour) would
   * otherwise grow this without bound; an id reused further apart than that is not counted.
   */
  private readonly seenClientOrderIds = new Set<string>();
  private readonly rememberedOrder: string[] = [];
  private oldestRemembered = 0;
  private markBase = this.markable();
  private minOpenOrders: number;

  constructor(
    /** The current core (a reset replaces it). */
    private readonly core: () => Exchange,
    private readonly maxRememberedIds = MAX_REMEMBERED_IDS,
  ) {
    this.minOpenOrders = this.openOrderCount();
  }

  /** After a reset ids start over: earlier ids no longer count as duplicates. */
  forgetClientOrderIds(): void {
    this.seenClientOrderIds.clear();
    this.rememberedOrder.length = 0;
    this.oldestRemembered = 0;
  }

  private rememberClientOrderId(id: string): void {
    this.seenClientOrderIds.add(id);
    if (this.rememberedOrder.length < this.maxRememberedIds) {
      this.rememberedOrder.push(id);
      return;
    }
    // Full: the slot of the oldest id takes the newest (a ring over the array).
    this.seenClientOrderIds.delete(this.rememberedOrder[this.oldestRemembered]!);
    this.rememberedOrder[this.oldestRemembered] = id;
    this.oldestRemembered = (this.oldestRemembered + 1) % this.maxRememberedIds;
  }

  /** Starts the "since mark" counters (spec 4.5). */
  mark(): void {
    this.markBase = this.markable();
    this.minOpenOrders = this.openOrderCount();
  }

  sinceMark() {
    const now = this.markable();
    const base = this.markBase;
    return {
      minOpenOrders: Math.min(this.minOpenOrders, this.openOrderCount()),
      orders: now.orders - base.orders,
      cancels: now.cancels - base.cancels,
      fills: now.fills - base.fills,
      triggers: now.triggers - base.triggers,
      cancelAlls: now.cancelAlls - base.cancelAlls,
      openOrderQueries: now.openOrderQueries - base.openOrderQueries,
      myTradesQueries: now.myTradesQueries - base.myTradesQueries,
      sessionsOpened: now.sessionsOpened - base.sessionsOpened,
    };
  }

  private markable() {
    return {
      orders: this.orders,
      cancels: this.cancels,
      fills: this.fills,
      triggers: this.triggers,
      cancelAlls: this.cancelAlls,
      openOrderQueries: this.openOrderQueries,
      myTradesQueries: this.myTradesQueries,
      sessionsOpened: this.sessionsOpened,
    };
  }

  recordEvents(events: readonly CoreEvent[]): void {
    this.noteOpenOrders();
    for (const e of events) {
      if (e.type === 'trade') this.publicTrades++;
      else if (e.type === 'execution') {
        switch (e.executionType) {
          case 'NEW': {
            // A stop's trigger and a pending order's activation report NEW again: not a new order.
            if (e.cause === 'trigger') this.triggers++;
            if (e.cause !== undefined) break;
            this.orders++;
            const id = e.order.clientOrderId;
            if (this.seenClientOrderIds.has(id)) this.duplicateClientOrderIds++;
            else this.rememberClientOrderId(id);
            break;
          }
          case 'TRADE':
            this.fills++;
            break;
          case 'CANCELED':
            this.cancels++;
            break;
          case 'REPLACED':
            this.replaces++;
            break;
          case 'REJECTED':
            this.rejects++;
            break;
        }
      }
    }
  }

  private noteOpenOrders(): void {
    const open = this.openOrderCount();
    if (open < this.minOpenOrders) this.minOpenOrders = open;
  }

  recordBatch(batch: { diffs: readonly DepthDiff[]; touches: readonly Touch[] }): void {
    this.depthDiffs += batch.diffs.length;
    this.tickers += batch.touches.length;
  }

  recordReply(endpointId: string | undefined, reply: Reply, transport: 'rest' | 'ws'): void {
    if (transport === 'rest') this.restRequests++;
    else this.wsApiRequests++;
    if (reply.status === 429 || reply.status === 418) this.rateLimited++;
    const code = (reply.body as { code?: number } | null)?.code;
    if (code !== undefined && AUTH_ERROR_CODES.has(code)) this.authErrors++;
    if (reply.status === 200) {
      if (endpointId === 'depth') this.snapshots++;
      else if (endpointId === 'openOrders.cancelAll') this.cancelAlls++;
      else if (endpointId === 'openOrders.status') this.openOrderQueries++;
      else if (endpointId === 'myTrades') this.myTradesQueries++;
      else if (endpointId === 'session.logon') this.sessionsOpened++;
    }
    // Refusals before the matching engine (filters, parameters, limits); ME rejections are
    // counted from their REJECTED reports.
    if (endpointId !== undefined && ORDER_ENDPOINTS.has(endpointId) && reply.status !== 200 && !reply.events.some((e) => e.type === 'execution' && e.executionType === 'REJECTED')) {
      this.rejects++;
    }
  }

  /** `position` per asset as decimal strings (API.md section 6). */
  /**
   * `sim.stats()`: these counters, and what the other parts count (`live`), in the order the
   * stats object has always listed them.
   */
  snapshot<L extends { openOrders: number; slowConsumersDisconnected: number; internalErrors: number; faults: unknown }>(live: L) {
    return {
      connections: this.connections,
      orders: this.orders,
      rejects: this.rejects,
      cancels: this.cancels,
      replaces: this.replaces,
      fills: this.fills,
      triggers: this.triggers,
      openOrders: live.openOrders,
      publicTrades: this.publicTrades,
      depthDiffs: this.depthDiffs,
      tickers: this.tickers,
      snapshots: this.snapshots,
      restRequests: this.restRequests,
      wsApiRequests: this.wsApiRequests,
      rateLimited: this.rateLimited,
      authErrors: this.authErrors,
      position: this.position(),
      touch: this.touch(),
      duplicateClientOrderIds: this.duplicateClientOrderIds,
      slowConsumersDisconnected: live.slowConsumersDisconnected,
      internalErrors: live.internalErrors,
      faults: live.faults as L['faults'],
      sinceMark: this.sinceMark(),
    };
  }

  position(): Record<string, { free: string; locked: string }> {
    const out: Record<string, { free: string; locked: string }> = {};
    for (const b of this.sortedBalances()) out[b.asset] = { free: formatScaled(b.free, b.decimals), locked: formatScaled(b.locked, b.decimals) };
    return out;
  }

  /** `touch` per symbol (null for an empty side). */
  touch(): Record<string, { bid: string | null; ask: string | null }> {
    const out: Record<string, { bid: string | null; ask: string | null }> = {};
    for (const { symbol, bid, ask } of this.touches(formatScaled)) out[symbol] = { bid, ask };
    return out;
  }

  /** The one stats line (API.md section 6): `key=value` pairs, position and touch compact. */
  line(): string {
    const position = this.sortedBalances()
      .map((b) => `${b.asset}:${formatPlain(b.free, b.decimals)}/${formatPlain(b.locked, b.decimals)}`)
      .join(',');
    const touch = this.touches(formatPlain)
      .map(({ symbol, bid, ask }) => `${symbol}:${bid ?? '-'}/${ask ?? '-'}`)
      .join(',');
    const pairs: [string, string | number][] = [
      ['connections', this.connections],
      ['orders', this.orders],
      ['rejects', this.rejects],
      ['cancels', this.cancels],
      ['replaces', this.replaces],
      ['fills', this.fills],
      ['open_orders', this.openOrderCount()],
      ['public_trades', this.publicTrades],
      ['depth_diffs', this.depthDiffs],
      ['tickers', this.tickers],
      ['snapshots', this.snapshots],
      ['rest_requests', this.restRequests],
      ['ws_api_requests', this.wsApiRequests],
      ['rate_limited', this.rateLimited],
      ['auth_errors', this.authErrors],
      ['position', position],
      ['touch', touch],
    ];
    return pairs.map(([k, v]) => `${k}=${v}`).join(' ');
  }

  private openOrderCount(): number {
    return openOrderCount(this.core().state);
  }

  private sortedBalances() {
    return balances(this.core().state).sort((x, y) => x.asset.localeCompare(y.asset));
  }

  private touches(format: (ticks: number, decimals: number) => string) {
    const core = this.core();
    return core.instruments.map((inst) => {
      const t = bookTicker(core.state, inst.symbol) as Touch;
      const side = (ticks: number, qty: number) => (qty === 0 ? null : format(ticks, inst.tickDecimals));
      return { symbol: inst.symbol, bid: side(t.bidPrice, t.bidQty), ask: side(t.askPrice, t.askQty) };
    });
  }
}
