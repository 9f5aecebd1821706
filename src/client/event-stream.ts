// Events a test can await (API.md section 4): everything received is kept (bounded), `next()`
// waits for the first event after the cursor that matches, `last()` peeks at the newest of a
// type, and the stream is async-iterable. Failures are the client's error classes (API.md 5.1):
// a wait that ends with the connection is a StreamClosedError, one that runs out of time a
// SpotSimTimeoutError. Events dropped unread from the bounded buffer are counted and named in
// the timeout message, so a missed event is never silent.

import { SpotSimTimeoutError, StreamClosedError } from './errors.ts';

/**
 * How long a wait of a stream (`next()`, `nextOf()`) waits.
 * @example
 * const user = await client.userData();
 * const report = await user.next('executionReport', { timeout: 10_000 });
 */
export interface WaitOptions {
  /** How long `next()` waits, in ms (default 5000). Its own deadline: a test timeout of 0 (debug mode) never makes it hang. */
  readonly timeout?: number;
}

type EventNameOf<T> = T extends { readonly e: infer K extends string } ? K : never;
/**
 * The `e` values of an event union (`'executionReport' | 'outboundAccountPosition' | ...`); any
 * string for untagged streams.
 * @example
 * const name: EventName<UserEvent> = 'outboundAccountPosition';
 */
export type EventName<T> = [EventNameOf<T>] extends [never] ? string : EventNameOf<T>;
/**
 * The member of an event union whose `e` is `K` (so `last('executionReport')?.X` type-checks).
 * @example
 * const report: EventOfName<UserEvent, 'executionReport'> | undefined = (await client.userData()).last('executionReport');
 */
export type EventOfName<T, K extends string> = [EventNameOf<T>] extends [never] ? T : Extract<T, { readonly e: K }>;
/**
 * What `next()` and `last()` accept: an event name, a type guard, or any predicate.
 * @example
 * const filled: EventMatch<UserEvent> = (e) => e.e === 'executionReport' && e.X === 'FILLED';
 * await (await client.userData()).next(filled);
 */
export type EventMatch<T> = EventName<T> | ((e: T) => boolean);

/** A predicate compared like a method (bivariantly), so a stream of a narrower event type is usable where a wider one is expected. */
type Predicate<T> = { check(e: T): boolean }['check'];

const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_KEPT = 10_000;

/**
 * Events a test can await: every event received is kept (the newest 10,000), `next()` waits for the
 * next one that matches, `last()` reads the newest, and the stream is async-iterable. A wait
 * rejects with SpotSimTimeoutError after its timeout or StreamClosedError when the connection
 * closes.
 * @example
 * const user = await client.userData();
 * await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' });
 * const fill = await user.next((e) => e.e === 'executionReport' && e.x === 'TRADE');
 * console.log(user.last('outboundAccountPosition')?.B);
 */
export class EventStream<T> implements AsyncIterable<T> {
  private readonly events: T[] = [];
  /** Index (in `events`) of the next event `next()` looks at. */
  private cursor = 0;
  private readonly waiters = new Set<() => void>();
  private closedWith: StreamClosedError | null = null;
  private droppedUnread = 0;
  private onEnd!: (reason: StreamClosedError) => void;
  /** Resolves when the stream ends (its connection closed), with the reason its waits get. */
  readonly ended: Promise<StreamClosedError> = new Promise((resolve) => (this.onEnd = resolve));

  /**
   * @internal Made by the client (`client.userData()`, `client.streams()`).
   * @param describe names the stream in error messages
   * @param closer closes what feeds the stream (its connection or subscription); `close()` calls it
   */
  constructor(
    protected readonly describe: string,
    private readonly closer?: () => Promise<void> | void,
  ) {}

  /** @internal Called by the transport for each event. */
  push(event: T): void {
    this.events.push(event);
    if (this.events.length > MAX_KEPT) {
      const drop = this.events.length - MAX_KEPT;
      this.events.splice(0, drop);
      this.droppedUnread += Math.max(0, Math.min(drop, drop - this.cursor));
      this.cursor = Math.max(0, this.cursor - drop);
    }
    this.wake();
  }

  /** @internal Called by the transport when the connection ends. */
  end(reason: StreamClosedError): void {
    if (this.closedWith !== null) return;
    this.closedWith = reason;
    this.onEnd(reason);
    this.wake();
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  /** How many events left the bounded buffer (the newest 10,000 are kept) before `next()` read them. */
  get dropped(): number {
    return this.droppedUnread;
  }

  /** How many `next()` calls are waiting (each leaves when it resolves, rejects or times out). */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Every event kept so far, oldest first (a copy). */
  all(): T[] {
    return this.events.slice();
  }

  /** Closes what feeds the stream (its connection or subscription); waits end with StreamClosedError. */
  async close(): Promise<void> {
    await this.closer?.();
    this.end(new StreamClosedError(`${this.describe}: closed by the caller`));
  }

  /** `await using user = await client.userData()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The newest event of the given `e` type (narrowed to it), or matching the predicate, if any.
   * @example user.last('executionReport')?.X   // 'NEW' | 'FILLED' | ...
   */
  last<K extends EventName<T>>(type: K): EventOfName<T, K> | undefined;
  last<S extends T>(guard: (e: T) => e is S): S | undefined;
  last(match?: (e: T) => boolean): T | undefined;
  last(match?: EventMatch<T>): T | undefined {
    const test = this.predicate(match);
    for (let i = this.events.length - 1; i >= 0; i--) if (test(this.events[i]!)) return this.events[i];
    return undefined;
  }

  /**
   * Waits for the next event (after those already returned by next()) of the given `e` type
   * (narrowed to it) or matching the predicate. Rejects after `options.timeout` ms (default
   * 5000) or when the connection closes first.
   * @example const fill = await user.next('executionReport'); fill.X
   */
  next<K extends EventName<T>>(type: K, options?: WaitOptions): Promise<EventOfName<T, K>>;
  next<S extends T>(guard: (e: T) => e is S, options?: WaitOptions): Promise<S>;
  next(match?: (e: T) => boolean, options?: WaitOptions): Promise<T>;
  async next(match?: EventMatch<T>, options: WaitOptions = {}): Promise<T> {
    const test = this.predicate(match);
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    for (;;) {
      while (this.cursor < this.events.length) {
        const e = this.events[this.cursor++]!;
        if (test(e)) return e;
      }
      if (this.closedWith !== null) {
        throw new StreamClosedError(`${this.describe}: closed before a matching event arrived (${this.closedWith.message})`, this.closedWith.closeCode);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        const lost = this.droppedUnread === 0 ? '' : ` (${this.droppedUnread} events were dropped unread: only the newest ${MAX_KEPT} are kept)`;
        throw new SpotSimTimeoutError(`${this.describe}: no matching event within ${timeout} ms${lost}`, undefined, undefined, timeout);
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      try {
        yield await this.next(undefined, { timeout: 2 ** 31 - 1 });
      } catch (error) {
        if (this.closedWith !== null) return;
        throw error;
      }
    }
  }

  /** What a name given to `next()`/`last()` matches: the event's `e` (a market stream also takes stream names). */
  protected matchesName(event: T, name: string): boolean {
    return (event as { e?: unknown }).e === name;
  }

  private predicate(match?: EventMatch<T>): Predicate<T> {
    if (match === undefined) return () => true;
    if (typeof match === 'function') return match;
    return (e) => this.matchesName(e, match);
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
