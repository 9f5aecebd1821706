// An example bot: a local order book kept from `<symbol>@depth` plus REST snapshots, by the
// reference algorithm ("How to manage a local order book correctly"):
//   1. connect to `<symbol>@depth` and buffer the events, noting `U` of the first one;
//   2. GET /api/v3/depth?limit=5000;
//   3. if the snapshot's lastUpdateId < that first `U`, fetch it again;
//   4. drop buffered events with u <= lastUpdateId;
//   5. the book is the snapshot, its id lastUpdateId;
//   6. per event: u <= id -> ignore; U > id + 1 -> a gap, start over from 1 (keeping the
//      connection); otherwise apply each level (qty 0 removes it) and id = u.
//
// It knows nothing of spot-sim: plain `ws` and `fetch` against the exchange's base URLs.
// Events for whoever drives it: 'synced' (book id) after every (re)sync, 'applied' (book id)
// after every applied diff, 'gap' (the gap) when one is found, 'failed' (error) when a snapshot
// could not be fetched, 'closed' when the stream connection ended.

import { EventEmitter } from 'node:events';
import { WebSocket } from 'ws';

export interface DepthUpdate {
  e: 'depthUpdate';
  E: number;
  s: string;
  U: number;
  u: number;
  b: [string, string][];
  a: [string, string][];
}

export interface DepthSnapshot {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}

export interface Gap {
  /** The book's id when the gap was seen (the previous event's `u`). */
  readonly bookId: number;
  readonly U: number;
  readonly u: number;
}

export interface LocalOrderBookOptions {
  /** e.g. ws://127.0.0.1:9080 */
  readonly wsBaseUrl: string;
  /** e.g. http://127.0.0.1:9080 */
  readonly restBaseUrl: string;
  readonly symbol: string;
  readonly snapshotLimit?: number;
}

type State = 'idle' | 'syncing' | 'live' | 'closed';

export class LocalOrderBook extends EventEmitter {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  /** The book's update id (the last applied `u`, or the snapshot's lastUpdateId). */
  updateId = 0;
  readonly gaps: Gap[] = [];
  /** lastUpdateId of every snapshot the book was (re)built from, oldest first. */
  readonly snapshotsUsed: number[] = [];
  /** How many snapshots were fetched (including those refetched at step 3). */
  snapshotsFetched = 0;
  private state: State = 'idle';
  private buffer: DepthUpdate[] = [];
  private ws: WebSocket | null = null;
  /** Wakes the sync loop when a buffered event arrives. */
  private onBuffered: (() => void) | null = null;

  constructor(private readonly options: LocalOrderBookOptions) {
    super();
  }

  /** Connects and resolves once the book is first in sync. */
  async start(): Promise<void> {
    const url = `${this.options.wsBaseUrl}/ws/${this.options.symbol.toLowerCase()}@depth`;
    this.state = 'syncing'; // buffer from the first event on
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.on('message', (data) => this.onEvent(JSON.parse(String(data)) as DepthUpdate));
    ws.on('close', () => {
      this.state = 'closed';
      this.onBuffered?.();
      this.emit('closed');
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const synced = new Promise<void>((resolve, reject) => {
      this.once('synced', () => resolve());
      this.once('failed', reject);
      this.once('closed', () => reject(new Error('depth stream closed before the book was in sync')));
    });
    this.startResync();
    await synced;
  }

  async stop(): Promise<void> {
    const ws = this.ws;
    if (ws === null || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
    });
  }

  get live(): boolean {
    return this.state === 'live';
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** The book, best first, as the REST snapshot lists it. */
  levels(depth = Infinity): { bids: [string, string][]; asks: [string, string][] } {
    const sorted = (side: Map<string, string>, desc: boolean) =>
      [...side]
        .sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])))
        .slice(0, depth);
    return { bids: sorted(this.bids, true), asks: sorted(this.asks, false) };
  }

  private onEvent(event: DepthUpdate): void {
    if (event.e !== 'depthUpdate') return;
    if (this.state === 'live') {
      if (this.apply(event)) return;
      // A gap: start over from step 1, this event being the first one buffered.
      this.buffer = [event];
      this.startResync();
      return;
    }
    if (this.state === 'syncing') {
      this.buffer.push(event);
      this.onBuffered?.();
    }
  }

  private startResync(): void {
    this.resync().catch((error: unknown) => {
      // A failed snapshot: the bot gives up this connection (its owner sees 'failed').
      this.state = 'closed';
      this.emit('failed', error);
      this.ws?.close();
    });
  }

  /** Steps 1-5, then the buffered events through step 6. */
  private async resync(): Promise<void> {
    this.state = 'syncing';
    for (;;) {
      // 1. the first buffered event's U
      while (this.buffer.length === 0) {
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.onBuffered = resolve));
        this.onBuffered = null;
      }
      const firstU = this.buffer[0]!.U;
      // 2-3. a snapshot no older than that event
      let snapshot: DepthSnapshot;
      do {
        snapshot = await this.fetchSnapshot();
      } while (snapshot.lastUpdateId < firstU);
      if (this.closed) return;
      // 4-5.
      this.bids.clear();
      this.asks.clear();
      for (const [p, q] of snapshot.bids) this.bids.set(p, q);
      for (const [p, q] of snapshot.asks) this.asks.set(p, q);
      this.updateId = snapshot.lastUpdateId;
      this.snapshotsUsed.push(snapshot.lastUpdateId);
      // 6. the buffered events (those with u <= lastUpdateId are ignored by apply); a gap
      // among them means starting over with the events from that one on.
      const buffered = this.buffer;
      this.buffer = [];
      const gapAt = buffered.findIndex((event) => !this.apply(event));
      if (gapAt === -1) {
        this.state = 'live';
        this.emit('synced', this.updateId);
        return;
      }
      this.buffer = buffered.slice(gapAt);
    }
  }

  /** Step 6 for one event: false (and the gap recorded) when it does not follow the book. */
  private apply(event: DepthUpdate): boolean {
    if (event.u <= this.updateId) return true;
    if (event.U > this.updateId + 1) {
      const gap: Gap = { bookId: this.updateId, U: event.U, u: event.u };
      this.gaps.push(gap);
      this.emit('gap', gap);
      return false;
    }
    for (const [p, q] of event.b) setLevel(this.bids, p, q);
    for (const [p, q] of event.a) setLevel(this.asks, p, q);
    this.updateId = event.u;
    this.emit('applied', this.updateId);
    return true;
  }

  private async fetchSnapshot(): Promise<DepthSnapshot> {
    const limit = this.options.snapshotLimit ?? 5000;
    const res = await fetch(`${this.options.restBaseUrl}/api/v3/depth?symbol=${this.options.symbol}&limit=${limit}`);
    if (res.status !== 200) throw new Error(`depth snapshot: HTTP ${res.status} ${await res.text()}`);
    this.snapshotsFetched++;
    return (await res.json()) as DepthSnapshot;
  }
}

function setLevel(side: Map<string, string>, price: string, qty: string): void {
  if (Number(qty) === 0) side.delete(price);
  else side.set(price, qty);
}
