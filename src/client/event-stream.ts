// Events a test can await (API.md section 4): everything received is kept (bounded), `next()`
// waits for the first event after the cursor that matches, `last()` peeks at the newest of a
// type, and the stream is async-iterable.

export interface WaitOptions {
  /** How long `next()` waits, in ms (default 5000). Its own deadline: a test timeout of 0 (debug mode) never makes it hang. */
  readonly timeout?: number;
}

type EventNameOf<T> = T extends { readonly e: infer K extends string } ? K : never;
/** The `e` values of an event union (`'executionReport' | 'outboundAccountPosition' | ...`); any string for untagged streams. */
export type EventName<T> = [EventNameOf<T>] extends [never] ? string : EventNameOf<T>;
/** The member of an event union whose `e` is `K` (so `last('executionReport')?.X` type-checks). */
export type EventOfName<T, K extends string> = [EventNameOf<T>] extends [never] ? T : Extract<T, { readonly e: K }>;
/** What `next()` and `last()` accept: an event name, a type guard, or any predicate. */
export type EventMatch<T> = EventName<T> | ((e: T) => boolean);

const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_KEPT = 10_000;

export class EventStream<T> implements AsyncIterable<T> {
  private readonly events: T[] = [];
  /** Index (in `events`) of the next event `next()` looks at. */
  private cursor = 0;
  private waiters: (() => void)[] = [];
  private closedWith: Error | null = null;

  /** @param closer what closes the connection the events come from (see `close()`). */
  constructor(
    private readonly describe: string,
    private readonly closer?: () => Promise<void>,
  ) {}

  /** Closes the connection the events come from (the user-data stream's own WS API connection). */
  close(): Promise<void> {
    return this.closer === undefined ? Promise.resolve() : this.closer();
  }

  /** `await using user = await client.userData()` closes its connection at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Called by the transport for each event. */
  push(event: T): void {
    this.events.push(event);
    if (this.events.length > MAX_KEPT) {
      const drop = this.events.length - MAX_KEPT;
      this.events.splice(0, drop);
      this.cursor = Math.max(0, this.cursor - drop);
    }
    this.wake();
  }

  /** Called by the transport when the connection ends. */
  end(reason: Error): void {
    this.closedWith ??= reason;
    this.wake();
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  /** Every event kept so far, oldest first. */
  all(): readonly T[] {
    return this.events;
  }

  /**
   * The newest event of the given `e` type (narrowed to it), or matching the predicate, if any.
   * @example user.last('executionReport')?.X   // 'NEW' | 'FILLED' | ...
   */
  last<K extends EventName<T>>(type: K): EventOfName<T, K> | undefined;
  last<S extends T>(guard: (e: T) => e is S): S | undefined;
  last(match?: (e: T) => boolean): T | undefined;
  last(match?: EventMatch<T>): T | undefined {
    const test = toPredicate(match);
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
    const test = toPredicate(match);
    const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeout;
    for (;;) {
      while (this.cursor < this.events.length) {
        const e = this.events[this.cursor++]!;
        if (test(e)) return e;
      }
      if (this.closedWith !== null) throw new Error(`${this.describe}: closed before a matching event arrived (${this.closedWith.message})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${this.describe}: no matching event within ${timeout} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.push(done);
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

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

function toPredicate<T>(match?: EventMatch<T>): (e: T) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === 'function') return match;
  return (e) => (e as { e?: unknown }).e === match;
}
