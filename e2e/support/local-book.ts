// The one local order book of the e2e specs, kept the way the reference documents it
// (binance-facts §5 "How to manage a local order book correctly"): buffer the depth events,
// take a REST snapshot, drop events with u <= lastUpdateId, require the first applied event to
// straddle lastUpdateId + 1 and every later one to start at the previous u + 1, apply each
// level (quantity 0 deletes it). Fed by the typed client's streams (`apply`, which throws on a
// gap) or by a client library's callback (`onEvent`, which records a gap as `failure` and fails
// every later `until`, as a user of that library would have to resync).

/** A price level as the wire or a library hands it out: [price, qty] as strings or numbers. */
export type Level = readonly [string | number, string | number];

/** A depth diff: first and last update id (`U`, `u`), bid and ask levels; `s` when the wire names the symbol. */
export interface DepthDiff {
  readonly s?: string;
  readonly U: number;
  readonly u: number;
  readonly b: readonly Level[];
  readonly a: readonly Level[];
}

export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/** Generous: two cores, other suites running concurrently. */
const DEFAULT_UNTIL_MS = 20_000;

export class LocalBook {
  /** Price (as a number) -> the level as received. */
  private readonly bidLevels = new Map<number, Level>();
  private readonly askLevels = new Map<number, Level>();
  private buffered: DepthDiff[] = [];
  private readonly listeners = new Set<() => void>();
  /** The book's update id (the snapshot's lastUpdateId, then each applied event's u); -1 before the snapshot. */
  updateId = -1;
  /** Events applied after the snapshot. */
  applied = 0;
  /** The first gap or foreign symbol seen by `onEvent`. */
  failure: Error | null = null;

  /** With a symbol, every event must name it (`s`). */
  constructor(readonly symbol?: string) {}

  /** A book that is the snapshot. */
  static from(snapshot: DepthSnapshot, symbol?: string): LocalBook {
    const book = new LocalBook(symbol);
    book.seed(snapshot);
    return book;
  }

  get synced(): boolean {
    return this.updateId >= 0;
  }

  /** The book becomes the snapshot; events buffered by `onEvent` before it are replayed. */
  seed(snapshot: DepthSnapshot): void {
    const firstBuffered = this.buffered[0];
    if (firstBuffered !== undefined && snapshot.lastUpdateId < firstBuffered.U) {
      throw new Error(`snapshot ${snapshot.lastUpdateId} is older than the first buffered event ${firstBuffered.U}: refetch`);
    }
    this.bidLevels.clear();
    this.askLevels.clear();
    for (const level of snapshot.bids) this.bidLevels.set(Number(level[0]), level);
    for (const level of snapshot.asks) this.askLevels.set(Number(level[0]), level);
    this.updateId = snapshot.lastUpdateId;
    this.applied = 0;
    const buffered = this.buffered;
    this.buffered = [];
    for (const event of buffered) this.onEvent(event);
    this.notify();
  }

  /**
   * Applies an event newer than the book (an older one is ignored: false). Throws when the
   * event does not continue the book or names another symbol.
   */
  apply(e: DepthDiff): boolean {
    if (!this.synced) throw new Error('apply before the snapshot: seed the book first');
    if (this.symbol !== undefined && e.s !== this.symbol) throw new Error(`depth event of ${String(e.s)} in the book of ${this.symbol}`);
    if (e.u <= this.updateId) return false;
    const continues = this.applied === 0 ? e.U <= this.updateId + 1 : e.U === this.updateId + 1;
    if (!continues) throw new Error(`depth event [${e.U};${e.u}] does not continue the book at ${this.updateId} (${this.applied} applied)`);
    for (const level of e.b) setLevel(this.bidLevels, level);
    for (const level of e.a) setLevel(this.askLevels, level);
    this.updateId = e.u;
    this.applied++;
    this.notify();
    return true;
  }

  /** For a library's callback: buffers until the snapshot, then applies; a gap becomes `failure`. */
  readonly onEvent = (e: DepthDiff): void => {
    if (this.failure !== null) return;
    if (!this.synced) {
      this.buffered.push(e);
      return;
    }
    try {
      this.apply(e);
    } catch (error) {
      this.failure = error as Error;
      this.notify();
    }
  };

  /** The quantity resting at `price` on a side (undefined when there is no level). */
  quantityAt(side: 'bids' | 'asks', price: number): number | undefined {
    const level = (side === 'bids' ? this.bidLevels : this.askLevels).get(price);
    return level === undefined ? undefined : Number(level[1]);
  }

  bestBid(): number {
    return Math.max(...this.bidLevels.keys());
  }

  bestAsk(): number {
    return Math.min(...this.askLevels.keys());
  }

  /** The book as a depth snapshot lists it, levels as received: bids high to low, asks low to high. */
  levels(): { bids: Level[]; asks: Level[] } {
    const sorted = (m: Map<number, Level>, dir: 1 | -1): Level[] => [...m.entries()].sort((x, y) => dir * (x[0] - y[0])).map(([, level]) => level);
    return { bids: sorted(this.bidLevels, -1), asks: sorted(this.askLevels, 1) };
  }

  /** Resolves once the book is seeded and `check` holds (now or after a later event); rejects on a recorded gap. */
  until(check: (book: LocalBook) => boolean, what: string, ms = DEFAULT_UNTIL_MS): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const listener = () => {
        if (this.failure !== null) {
          finish();
          reject(this.failure);
        } else if (this.synced && check(this)) {
          finish();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${ms} ms waiting for ${what} (book at ${this.updateId}, ${this.applied} events applied)`));
      }, ms);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
      listener();
    });
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function setLevel(side: Map<number, Level>, level: Level): void {
  const price = Number(level[0]);
  if (Number(level[1]) === 0) side.delete(price);
  else side.set(price, level);
}
