// Domain -> reference JSON (binance-facts §3): field names, order and spelling as the
// reference exchange writes them (`cummulativeQuoteQty` in order responses, `cumulativeQuoteQty`
// in the amend response). Decimals are strings with 8 decimals (more only when exactness needs
// them); ids and times are numbers.

import type { AmendResult, CancelReplaceResult, CancelResult, PlaceResult } from '../core/commands.ts';
import { ApiError } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import { STP_MODE, type AccountTrade, type DepthSnapshot, type Fill, type OrderView, type Touch } from '../core/types.ts';
import { formatScaled } from '../core/units.ts';
import { RawJson } from './raw-json.ts';

export const ZERO = '0.00000000';

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
    return formatScaled(ticks, inst.tickDecimals);
  }

  qty(inst: Instrument, lots: number): string {
    return formatScaled(lots, inst.lotDecimals);
  }

  quote(inst: Instrument, atoms: bigint): string {
    return formatScaled(atoms, inst.quoteDecimals);
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

  bookTicker(t: Touch) {
    const inst = this.inst(t.symbol);
    return {
      symbol: t.symbol,
      bidPrice: this.price(inst, t.bidPrice),
      bidQty: this.qty(inst, t.bidQty),
      askPrice: this.price(inst, t.askPrice),
      askQty: this.qty(inst, t.askQty),
    };
  }

  /**
   * POST order response of the given kind (binance-facts §3.6), written as text in field order:
   * the reply every trading client waits on (identical to JSON.stringify of the field list;
   * wire.test.ts checks it).
   */
  placed(result: PlaceResult, respType: 'ACK' | 'RESULT' | 'FULL'): RawJson {
    const o = result.order;
    const ack = `{"symbol":"${o.symbol}","orderId":${o.orderId},"orderListId":-1,"clientOrderId":${JSON.stringify(o.clientOrderId)},"transactTime":${result.transactTime}`;
    if (respType === 'ACK') return new RawJson(`${ack}}`);
    const inst = this.inst(o.symbol);
    let text =
      `${ack},"price":"${this.price(inst, o.price)}","origQty":"${this.qty(inst, o.origQty)}","executedQty":"${this.qty(inst, o.executedQty)}",` +
      `"origQuoteOrderQty":"${ZERO}","cummulativeQuoteQty":"${this.quote(inst, o.cumQuote)}","status":"${o.status}","timeInForce":"${o.timeInForce}",` +
      `"type":"${o.type}","side":"${o.side}","workingTime":${o.workingTime},"selfTradePreventionMode":"${STP_MODE}"`;
    text += this.conditional(inst, o);
    if (respType === 'FULL') {
      let fills = '';
      for (const f of result.fills) fills += `${fills === '' ? '' : ','}${this.fillText(inst, f)}`;
      text += `,"fills":[${fills}]`;
    }
    return new RawJson(`${text}}`);
  }

  private fillText(inst: Instrument, f: Fill): string {
    return (
      `{"price":"${this.price(inst, f.price)}","qty":"${this.qty(inst, f.qty)}","commission":"${this.quote(inst, f.commission)}",` +
      `"commissionAsset":"${f.commissionAsset}","tradeId":${f.tradeId}}`
    );
  }

  /** GET order (binance-facts §3.8). */
  order(o: OrderView) {
    const inst = this.inst(o.symbol);
    const body: Record<string, unknown> = {
      symbol: o.symbol,
      orderId: o.orderId,
      orderListId: -1,
      clientOrderId: o.clientOrderId,
      price: this.price(inst, o.price),
      origQty: this.qty(inst, o.origQty),
      executedQty: this.qty(inst, o.executedQty),
      cummulativeQuoteQty: this.quote(inst, o.cumQuote),
      status: o.status,
      timeInForce: o.timeInForce,
      type: o.type,
      side: o.side,
      stopPrice: ZERO,
      icebergQty: ZERO,
      time: o.time,
      updateTime: o.updateTime,
      isWorking: o.isWorking,
      workingTime: o.workingTime,
      origQuoteOrderQty: ZERO,
      selfTradePreventionMode: STP_MODE,
    };
    if (o.preventedQty > 0) body.preventedQuantity = this.qty(inst, o.preventedQty);
    return body;
  }

  /** DELETE order (binance-facts §3.9), as text in field order (a hot reply, like `placed`). */
  cancelled(c: CancelResult): RawJson {
    return new RawJson(this.cancelledText(c));
  }

  /** A list of cancellations (DELETE openOrders), one text. */
  cancelledList(list: readonly CancelResult[]): RawJson {
    let text = '';
    for (const c of list) text += `${text === '' ? '' : ','}${this.cancelledText(c)}`;
    return new RawJson(`[${text}]`);
  }

  private cancelledText(c: CancelResult): string {
    const o = c.order;
    const inst = this.inst(o.symbol);
    return (
      `{"symbol":"${o.symbol}","origClientOrderId":${JSON.stringify(c.origClientOrderId)},"orderId":${o.orderId},"orderListId":-1,` +
      `"clientOrderId":${JSON.stringify(c.clientOrderId)},"transactTime":${c.transactTime},"price":"${this.price(inst, o.price)}",` +
      `"origQty":"${this.qty(inst, o.origQty)}","executedQty":"${this.qty(inst, o.executedQty)}","origQuoteOrderQty":"${ZERO}",` +
      `"cummulativeQuoteQty":"${this.quote(inst, o.cumQuote)}","status":"${o.status}","timeInForce":"${o.timeInForce}","type":"${o.type}",` +
      `"side":"${o.side}","selfTradePreventionMode":"${STP_MODE}"}`
    );
  }

  /** PUT order/amend/keepPriority (binance-facts §3.11). */
  amended(a: AmendResult) {
    const o = a.order;
    const inst = this.inst(o.symbol);
    return {
      transactTime: a.transactTime,
      executionId: a.executionId,
      amendedOrder: {
        symbol: o.symbol,
        orderId: o.orderId,
        orderListId: -1,
        origClientOrderId: a.origClientOrderId,
        clientOrderId: o.clientOrderId,
        price: this.price(inst, o.price),
        qty: this.qty(inst, o.origQty),
        executedQty: this.qty(inst, o.executedQty),
        preventedQty: this.qty(inst, o.preventedQty),
        quoteOrderQty: ZERO,
        cumulativeQuoteQty: this.quote(inst, o.cumQuote),
        status: o.status,
        timeInForce: o.timeInForce,
        type: o.type,
        side: o.side,
        workingTime: o.workingTime,
        selfTradePreventionMode: STP_MODE,
      },
    };
  }

  /** cancelReplace body, or its failure `data` (binance-facts §2.5). */
  cancelReplace(r: CancelReplaceResult, respType: 'ACK' | 'RESULT' | 'FULL') {
    const leg = <T>(v: T | ApiError, format: (v: T) => unknown) =>
      v instanceof ApiError ? { code: v.code, msg: v.msg } : format(v);
    return {
      cancelResult: r.cancelResult,
      newOrderResult: r.newOrderResult,
      cancelResponse: leg(r.cancelResponse, (c) => this.cancelled(c)),
      newOrderResponse: r.newOrderResponse === null ? null : leg(r.newOrderResponse, (p) => this.placed(p, respType)),
    };
  }

  myTrade(t: AccountTrade) {
    const inst = this.inst(t.symbol);
    return {
      symbol: t.symbol,
      id: t.tradeId,
      orderId: t.orderId,
      orderListId: -1,
      price: this.price(inst, t.price),
      qty: this.qty(inst, t.qty),
      quoteQty: this.quote(inst, t.quoteQty),
      commission: this.quote(inst, t.commission),
      commissionAsset: t.commissionAsset,
      time: t.time,
      isBuyer: t.isBuyer,
      isMaker: t.isMaker,
      isBestMatch: true,
    };
  }

  /** Conditional fields of RESULT/FULL, as text (they appear only when they apply). */
  private conditional(inst: Instrument, o: OrderView): string {
    let text = '';
    if (o.expiryReason !== 'NONE') text += `,"expiryReason":"${o.expiryReason}"`;
    if (o.preventedQty > 0) text += `,"preventedQuantity":"${this.qty(inst, o.preventedQty)}"`;
    return text;
  }
}
