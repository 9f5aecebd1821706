// Stream payloads (binance-facts §5, §7): market data (`depthUpdate`, `bookTicker`, `trade`)
// and user data (`executionReport`, `listStatus`, `outboundAccountPosition`, `listenKeyExpired`,
// `eventStreamTerminated`), serialized to JSON text once; the transports wrap that text per
// connection (`{stream,data}`, `{subscriptionId,event}` or raw) without re-serializing.

import type { BalanceEvent, DepthDiff, ExecutionReport, ListStatusEvent, PublicTrade, Touch } from '../core/types.ts';
import { STP_MODE } from '../core/types.ts';
import { formatScaled } from '../core/units.ts';
import { isConditional } from './order-shapes.ts';
import { ZERO, type InstrumentSource, type Wire } from './wire.ts';

export class EventWire {
  constructor(
    private readonly markets: InstrumentSource,
    private readonly wire: Wire,
  ) {}

  depthUpdate(d: DepthDiff): string {
    const inst = this.markets.instrument(d.symbol)!;
    return JSON.stringify({
      e: 'depthUpdate',
      E: d.eventTime,
      s: d.symbol,
      U: d.firstUpdateId,
      u: d.lastUpdateId,
      b: this.wire.levels(inst, d.bids),
      a: this.wire.levels(inst, d.asks),
    });
  }

  /** `<sym>@bookTicker`: no `e`/`E` (binance-facts §5). */
  bookTicker(t: Touch): string {
    const inst = this.markets.instrument(t.symbol)!;
    return JSON.stringify({
      u: t.updateId,
      s: t.symbol,
      b: this.wire.price(inst, t.bidPrice),
      B: this.wire.qty(inst, t.bidQty),
      a: this.wire.price(inst, t.askPrice),
      A: this.wire.qty(inst, t.askQty),
    });
  }

  /** `<sym>@trade`: `m` = the buyer is the maker; `M` is always true (spec 6.1, "ignore"). */
  trade(t: PublicTrade): string {
    const inst = this.markets.instrument(t.symbol)!;
    return JSON.stringify({
      e: 'trade',
      E: t.time,
      s: t.symbol,
      t: t.tradeId,
      p: this.wire.price(inst, t.price),
      q: this.wire.qty(inst, t.qty),
      T: t.time,
      m: t.buyerIsMaker,
      M: true,
    });
  }

  /**
   * `executionReport` with the base fields in the reference's order (binance-facts §7.1), and its
   * conditional fields (user-data-stream.md): `d`/`D` for a trailing stop, `W` once the order
   * works, the STP fields, `eR`. Written as text in field order (the hottest payload of a trading
   * client); identical to JSON.stringify of the same fields (event-wire.test.ts checks it).
   */
  executionReport(r: ExecutionReport): string {
    const o = r.order;
    const inst = this.markets.instrument(o.symbol)!;
    const w = this.wire;
    const isCancel = r.executionType === 'CANCELED' && r.cancelClientOrderId !== null;
    // `w` = on the book now (the NEW report says true, even for a MARKET order, binance-facts
    // §7.1's documented sequence, and for a stop on its trigger); a stop waiting for its trigger
    // and a list's pending order are not on the book. `W` only once the order worked: a limit
    // form that rests or rested on the book, a stop from its trigger on (API.md 11).
    const conditional = isConditional(o.type);
    const rests = o.timeInForce === 'GTC' && o.type !== 'MARKET' && o.type !== 'STOP_LOSS' && o.type !== 'TAKE_PROFIT';
    const open = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';
    const waiting = o.status === 'PENDING_NEW' || (conditional && !o.isWorking);
    const onBook = !waiting && (r.executionType === 'NEW' || (rests && open));
    const c = JSON.stringify(isCancel ? r.cancelClientOrderId : o.clientOrderId);
    const C = JSON.stringify(isCancel ? (r.origClientOrderId ?? o.clientOrderId) : '');
    const n = r.commissionAsset === null ? '0' : w.quote(inst, r.commission);
    const N = r.commissionAsset === null ? 'null' : `"${r.commissionAsset}"`;
    let text =
      `{"e":"executionReport","E":${r.eventTime},"s":"${o.symbol}","c":${c},"S":"${o.side}","o":"${o.type}","f":"${o.timeInForce}",` +
      `"q":"${w.qty(inst, o.origQty)}","p":"${w.price(inst, o.price)}","P":"${o.stopPrice === 0 ? ZERO : w.price(inst, o.stopPrice)}","F":"${o.icebergQty === 0 ? ZERO : w.qty(inst, o.icebergQty)}","g":${o.orderListId},"C":${C},` +
      `"x":"${r.executionType}","X":"${o.status}","r":"${r.rejectReason}","i":${o.orderId},"l":"${w.qty(inst, r.lastQty)}",` +
      `"z":"${w.qty(inst, o.executedQty)}","L":"${w.price(inst, r.lastPrice)}","n":"${n}","N":${N},"T":${r.eventTime},` +
      `"t":${r.tradeId},"I":${r.executionId},"w":${onBook},"m":${r.isMaker},"M":${r.executionType === 'TRADE'},"O":${o.time},` +
      `"Z":"${w.quote(inst, o.cumQuote)}","Y":"${w.quote(inst, r.lastQuote)}","Q":"${o.quoteOrderQty === 0n ? ZERO : w.quote(inst, o.quoteOrderQty)}"`;
    if (o.trailingDelta > 0) text += `,"d":${o.trailingDelta},"D":${o.trailingTime}`;
    if ((rests || conditional) && o.workingTime >= 0) text += `,"W":${o.workingTime}`;
    text += `,"V":"${STP_MODE}"`;
    if (r.executionType === 'TRADE_PREVENTION') {
      // STP expiry fields (binance-facts §8): the prevented match's id, the maker's cumulative
      // and last prevented quantity (equal under EXPIRE_MAKER), the order it would have traded with.
      text += `,"v":${r.preventedMatchId},"u":-1,"U":${r.counterOrderId},"A":"${w.qty(inst, o.preventedQty)}","B":"${w.qty(inst, r.lastPreventedQty)}","Cs":"${o.symbol}"`;
    }
    if (o.expiryReason !== 'NONE') text += `,"eR":"${o.expiryReason}"`;
    return `${text}}`;
  }

  /**
   * `listStatus` (user-data-stream.md): an order list changed; sent after its orders'
   * executionReports. Client ids are escaped as JSON (a client chose them).
   */
  listStatus(e: ListStatusEvent): string {
    const l = e.list;
    let orders = '';
    for (const o of l.orders) orders += `${orders === '' ? '' : ','}{"s":"${o.symbol}","i":${o.orderId},"c":${JSON.stringify(o.clientOrderId)}}`;
    return (
      `{"e":"listStatus","E":${e.eventTime},"s":"${l.symbol}","g":${l.orderListId},"c":"${l.contingencyType}","l":"${l.listStatusType}",` +
      `"L":"${l.listOrderStatus}","r":"${e.listRejectReason}","C":${JSON.stringify(l.listClientOrderId)},"T":${l.transactionTime},"O":[${orders}]}`
    );
  }

  /**
   * `outboundAccountPosition`: the assets the command changed, with the figures it left them at
   * (the event's own, never the live balances). Sent after every order change, so written as
   * text like `executionReport` (event-wire.test.ts).
   */
  accountPosition(b: BalanceEvent): string {
    let balances = '';
    for (const bal of b.balances) {
      balances += `${balances === '' ? '' : ','}{"a":"${bal.asset}","f":"${formatScaled(bal.free, bal.decimals)}","l":"${formatScaled(bal.locked, bal.decimals)}"}`;
    }
    return `{"e":"outboundAccountPosition","E":${b.eventTime},"u":${b.updateTime},"B":[${balances}]}`;
  }

  listenKeyExpired(listenKey: string, now: number): string {
    return JSON.stringify({ e: 'listenKeyExpired', E: now, listenKey });
  }

  eventStreamTerminated(now: number): string {
    return JSON.stringify({ e: 'eventStreamTerminated', E: now });
  }
}
