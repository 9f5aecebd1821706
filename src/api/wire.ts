// Domain -> reference JSON (binance-facts §3). The order replies' field lists live in
// order-shapes.ts; here each reply picks its shape (and its instrument's scales) and writes it,
// as text for the hot ones. Depth and bookTicker are written here (binance-facts §3.3, §3.4).

import type { AmendResult, CancelOrderListResult, CancelReplaceResult, CancelResult, OrderListResult, PlaceResult } from '../core/commands.ts';
import { ApiError } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import type { AccountTrade, DepthSnapshot, OrderListView, OrderView, Touch } from '../core/types.ts';
import { AMENDED_ORDER, BOOK_TICKER, CANCELLED, MY_TRADE, ORDER, ORDER_ACK, ORDER_FULL, ORDER_RESULT, price, qty, quote } from './order-shapes.ts';
import { AMENDED_LIST_STATUS, ORDER_LIST, ORDER_LIST_ACK, ORDER_LIST_CANCELLED, ORDER_LIST_FULL, ORDER_LIST_RESULT } from './order-list-shapes.ts';
import { RawJson } from './raw-json.ts';

export { ZERO } from './order-shapes.ts';

export interface InstrumentSource {
  instrument(symbol: string): Instrument | undefined;
}

export class Wire {
  /** The last depth text per symbol and level counts, with the update id it shows. */
  private readonly depthCache = new Map<string, { updateId: number; json: RawJson }>();

  /** `markets`: the instruments by symbol (their scales); the exchange core fits. */
  constructor(private readonly markets: InstrumentSource) {}

  private inst(symbol: string): Instrument {
    return this.markets.instrument(symbol)!;
  }

  price(inst: Instrument, ticks: number): string {
    return price(inst, ticks);
  }

  qty(inst: Instrument, lots: number): string {
    return qty(inst, lots);
  }

  quote(inst: Instrument, atoms: bigint): string {
    return quote(inst, atoms);
  }

  levels(inst: Instrument, levels: readonly (readonly [number, number])[]): [string, string][] {
    return levels.map(([p, q]) => [this.price(inst, p), this.qty(inst, q)]);
  }

  /**
   * GET depth (binance-facts §3.3), written as JSON text: up to 10,000 levels per reply. The
   * text is kept per symbol and limit until the book changes (a new update id): pollers asking
   * again between two changes get the same bytes without formatting them again.
   */
  depth(symbol: string, snap: DepthSnapshot): RawJson {
    const key = `${symbol} ${snap.bids.length} ${snap.asks.length}`;
    const cached = this.depthCache.get(key);
    if (cached !== undefined && cached.updateId === snap.lastUpdateId) return cached.json;
    const json = this.formatDepth(symbol, snap);
    this.depthCache.set(key, { updateId: snap.lastUpdateId, json });
    return json;
  }

  /** After a reset update ids start over, so texts kept for earlier books must go. */
  clearCaches(): void {
    this.depthCache.clear();
  }

  private formatDepth(symbol: string, snap: DepthSnapshot): RawJson {
    const inst = this.inst(symbol);
    const side = (levels: readonly (readonly [number, number])[]) => {
      let text = '';
      for (const [p, q] of levels) text += `${text === '' ? '' : ','}["${this.price(inst, p)}","${this.qty(inst, q)}"]`;
      return text;
    };
    return new RawJson(`{"lastUpdateId":${snap.lastUpdateId},"bids":[${side(snap.bids)}],"asks":[${side(snap.asks)}]}`);
  }

  /** GET ticker/bookTicker (binance-facts §3.4). */
  bookTicker(t: Touch) {
    return BOOK_TICKER.object(t, this.inst(t.symbol));
  }

  /**
   * POST order response of the given kind (binance-facts §3.6), written as text by the shape's
   * compiled writer: the reply every trading client waits on (wire.test.ts checks it against
   * JSON.stringify of the reference field list).
   */
  placed(result: PlaceResult, respType: 'ACK' | 'RESULT' | 'FULL'): RawJson {
    const shape = respType === 'ACK' ? ORDER_ACK : respType === 'FULL' ? ORDER_FULL : ORDER_RESULT;
    return new RawJson(shape.text(result, this.inst(result.order.symbol)));
  }

  /** GET order (binance-facts §3.8). */
  order(o: OrderView) {
    return ORDER.object(o, this.inst(o.symbol));
  }

  /** DELETE order (binance-facts §3.9), as text (a hot reply, like `placed`). */
  cancelled(c: CancelResult): RawJson {
    return new RawJson(CANCELLED.text(c, this.inst(c.order.symbol)));
  }

  /** A list of cancellations (DELETE openOrders: orders, then whole order lists), one text. */
  cancelledList(list: readonly (CancelResult | CancelOrderListResult)[]): RawJson {
    let text = '';
    for (const c of list) text += `${text === '' ? '' : ','}${'list' in c ? this.orderListCancelled(c).text : CANCELLED.text(c, this.inst(c.order.symbol))}`;
    return new RawJson(`[${text}]`);
  }

  /** An order list placed (POST orderList/*, orderList.place*), its reports of the given kind. */
  orderListPlaced(result: OrderListResult, respType: 'ACK' | 'RESULT' | 'FULL'): RawJson {
    const shape = respType === 'ACK' ? ORDER_LIST_ACK : respType === 'RESULT' ? ORDER_LIST_RESULT : ORDER_LIST_FULL;
    return new RawJson(shape.text(result, this.inst(result.list.symbol)));
  }

  /** An order list cancelled (DELETE orderList, orderList.cancel): the list's fields, then each order's cancel. */
  orderListCancelled(result: CancelOrderListResult): RawJson {
    return new RawJson(ORDER_LIST_CANCELLED.text(result, this.inst(result.list.symbol)));
  }

  /** An order list's state (GET orderList, openOrderList, allOrderList). */
  orderList(view: OrderListView) {
    return ORDER_LIST.object(view, this.inst(view.symbol));
  }

  /** PUT order/amend/keepPriority (binance-facts §3.11). */
  amended(a: AmendResult) {
    const inst = this.inst(a.order.symbol);
    const reply = { transactTime: a.transactTime, executionId: a.executionId, amendedOrder: AMENDED_ORDER.object(a, inst) };
    // A list order's amend also shows its list (rest-api.md "Order Amend Keep Priority").
    return a.listStatus === undefined ? reply : { ...reply, listStatus: AMENDED_LIST_STATUS.object(a.listStatus, inst) };
  }

  /** cancelReplace body, or its failure `data` (binance-facts §2.5). */
  cancelReplace(r: CancelReplaceResult, respType: 'ACK' | 'RESULT' | 'FULL') {
    const leg = <T>(v: T | ApiError, format: (v: T) => unknown) =>
      v instanceof ApiError ? { code: v.code, msg: v.msg } : format(v);
    return {
      cancelResult: r.cancelResult,
      newOrderResult: r.newOrderResult,
      cancelResponse: leg(r.cancelResponse, (c) => ('list' in c ? this.orderListCancelled(c) : this.cancelled(c))),
      newOrderResponse: r.newOrderResponse === null ? null : leg(r.newOrderResponse, (p) => this.placed(p, respType)),
    };
  }

  myTrade(t: AccountTrade) {
    return MY_TRADE.object(t, this.inst(t.symbol));
  }
}

