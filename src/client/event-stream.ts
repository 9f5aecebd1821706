// Events a test can await (API.md section 4): everything received is kept (bounded), `next()`
// waits for the first event after the cursor that matches, `last()` peeks at the newest of a
// type, and the stream is async-iterable.

export interface WaitOptions {
  readonly timeout?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;
const MAX_KEPT = 10_000;

export class EventStream<T> implements AsyncIterable<T> {
  private readonly events: T[] = [];
  /** Index (in `events`) of the next event `next()` looks at. */
  private cursor = 0;
  private waiters: (() => void)[] = [];
  private closedWith: Error | null = null;

  constructor(private readonly describe: string) {}

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

  /** The newest event matching the predicate (or of the given `e` type), if any. */
  last(match?: string | ((e: T) => boolean)): T | undefined {
    const test = toPredicate(match);
    for (let i = this.events.length - 1; i >= 0; i--) if (test(this.events[i]!)) return this.events[i];
    return undefined;
  }

  /** Waits for the next event (after those already returned by next()) that matches. */
  async next(match?: string | ((e: T) => boolean), options: WaitOptions = {}): Promise<T> {
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

function toPredicate<T>(match?: string | ((e: T) => boolean)): (e: T) => boolean {
  if (match === undefined) return () => true;
  if (typeof match === 'function') return match;
  return (e) => (e as { e?: unknown }).e === match;
}
