// A client that keeps the account's state from its user-data events alone (issue 24 item 1):
// open orders from `executionReport`, balances from `outboundAccountPosition`. One per user
// stream (a legacy `/ws/<listenKey>` and a WS API subscription). Besides applying the events it
// checks their causal order as they arrive (event times never go back, an order's cumulative
// quantity never shrinks, nothing of an order follows its end but a duplicate of that end, an
// unknown order starts with NEW, trade ids of a symbol only grow) and that no event names an
// order of a world that a reset ended. The runner compares it with GET account + openOrders.

import WebSocket from 'ws';

export interface ViewOrder {
  readonly clientOrderId: string;
  readonly price: string;
  readonly origQty: string;
  readonly executedQty: string;
  readonly status: string;
  readonly side: string;
}

export interface Snapshot {
  readonly balances: ReadonlyMap<string, string>;
  readonly orders: ReadonlyMap<number, ViewOrder>;
}

const ENDED = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED', 'EXPIRED_IN_MATCH']);

export class AccountView {
  ws: WebSocket | null = null;
  closed = true;
  /** Events received since the last sync, in arrival order (raw text, for duplicate detection). */
  received = 0;
  readonly violations: string[] = [];
  private orders = new Map<number, ViewOrder>();
  private balances = new Map<string, string>();
  private ended = new Map<number, string>();
  private lastText = '';
  private lastEventTime = 0;
  private lastTradeId = new Map<string, number>();
  /** Events may be missing (muted, dropped): an order's first event need not be NEW. */
  lossy = false;
  /** Client order ids of worlds a reset ended: none may appear in an event again. */
  private readonly forbidden = new Set<string>();

  constructor(readonly name: string) {}

  /** Takes a connection: its events are applied as they arrive. */
  attach(ws: WebSocket, unwrap: (frame: any) => any): void {
    this.ws = ws;
    this.closed = false;
    ws.on('message', (data) => {
      if (this.ws !== ws) return; // a connection this view has left (frames still in flight)
      const text = String(data);
      let frame: any;
      try {
        frame = JSON.parse(text);
      } catch {
        return; // a malformed frame (fault); not an event
      }
      const event = unwrap(frame);
      if (event !== undefined) this.apply(event, text);
    });
    ws.once('close', () => {
      if (this.ws === ws) this.closed = true;
    });
  }

  /** Starts over from the account as REST shows it (the view resynced). */
  sync(snapshot: Snapshot): void {
    this.orders = new Map(snapshot.orders);
    this.balances = new Map(snapshot.balances);
    this.ended = new Map();
    this.received = 0;
    this.lastText = '';
    this.lastTradeId = new Map();
    this.lossy = false;
  }

  /** A reset: the world's orders may never be named again; times start over. */
  forbid(clientOrderIds: Iterable<string>): void {
    for (const id of clientOrderIds) this.forbidden.add(id);
    this.lastEventTime = 0;
  }

  /** Differences between this view and the account (empty when equal). */
  diff(truth: Snapshot): string[] {
    const out: string[] = [];
    for (const [asset, figures] of truth.balances) {
      if (this.balances.get(asset) !== figures) out.push(`${this.name}: balance ${asset} view ${this.balances.get(asset)} account ${figures}`);
    }
    for (const [id, order] of truth.orders) {
      const mine = this.orders.get(id);
      if (mine === undefined) out.push(`${this.name}: open order ${id} (${order.clientOrderId}) missing from the view`);
      else if (JSON.stringify(mine) !== JSON.stringify(order)) out.push(`${this.name}: order ${id} view ${JSON.stringify(mine)} account ${JSON.stringify(order)}`);
    }
    for (const [id, order] of this.orders) {
      if (!truth.orders.has(id)) out.push(`${this.name}: the view holds order ${id} (${order.clientOrderId}, ${order.status}) the account has not open`);
    }
    return out;
  }

  private apply(e: any, text: string): void {
    const duplicate = text === this.lastText;
    this.lastText = text;
    if (e.e !== 'executionReport' && e.e !== 'outboundAccountPosition') return;
    this.received++;
    if (duplicate) return; // duplicateNextUserEvents: the same frame again, applied once
    if (typeof e.E === 'number') {
      if (e.E < this.lastEventTime) this.violate(`event time went back: ${e.E} after ${this.lastEventTime} (${text.slice(0, 160)})`);
      this.lastEventTime = e.E;
    }
    if (e.e === 'outboundAccountPosition') {
      for (const b of e.B as { a: string; f: string; l: string }[]) this.balances.set(b.a, `${b.f}/${b.l}`);
      return;
    }
    this.applyReport(e, text);
  }

  private applyReport(e: any, text: string): void {
    const id = e.i as number;
    for (const cid of [e.c, e.C]) {
      if (typeof cid === 'string' && cid !== '' && this.forbidden.has(cid)) this.violate(`an event of a world before a reset: ${text.slice(0, 200)}`);
    }
    const end = this.ended.get(id);
    if (end !== undefined) {
      this.violate(`order ${id}: ${e.x}/${e.X} after it ended with ${end}`);
      return;
    }
    const known = this.orders.get(id);
    if (known === undefined && !this.lossy && e.x !== 'NEW' && !ENDED.has(e.X)) this.violate(`order ${id}: first event ${e.x}/${e.X}, not NEW`);
    if (known !== undefined && Number(e.z) < Number(known.executedQty)) this.violate(`order ${id}: executed quantity went back ${known.executedQty} -> ${e.z}`);
    if (e.x === 'TRADE') {
      const last = this.lastTradeId.get(e.s) ?? -1;
      if (e.t <= last) this.violate(`${e.s}: trade id ${e.t} after ${last}`);
      this.lastTradeId.set(e.s, e.t);
    }
    if (ENDED.has(e.X)) {
      this.orders.delete(id);
      this.ended.set(id, `${e.x}/${e.X}`);
      return;
    }
    this.orders.set(id, { clientOrderId: e.c, price: e.p, origQty: e.q, executedQty: e.z, status: e.X, side: e.S });
  }

  private violate(what: string): void {
    if (this.violations.length < 20) this.violations.push(`${this.name}: ${what}`);
  }

  /** A round trip on the connection (ping/pong): every event sent before it has arrived. False if it closed. */
  async barrier(timeoutMs = 5_000): Promise<boolean> {
    const ws = this.ws;
    if (ws === null || this.closed || ws.readyState !== WebSocket.OPEN) return false;
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        ws.off('pong', onPong);
        ws.off('close', onClose);
        resolve(ok);
      };
      const onPong = () => done(true);
      const onClose = () => done(false);
      const timer = setTimeout(() => done(false), timeoutMs);
      ws.on('pong', onPong);
      ws.once('close', onClose);
      ws.ping('model-barrier');
    });
  }

  close(): void {
    this.ws?.terminate();
    this.ws = null;
    this.closed = true;
  }
}
