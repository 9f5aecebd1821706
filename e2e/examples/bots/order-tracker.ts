// An example bot: follows its orders from the user-data stream and tolerates an at-least-once
// stream. Every event has an identity — an executionReport its execution id `I`, any other
// event its whole content — and an event seen before is dropped, so a duplicate never counts
// twice. Its view of each order (filled quantity summed from each execution's `l`, status) is
// built from the deduplicated events only.

/** A user-data event: its type `e` and the rest of its fields. */
export interface UserEventLike {
  readonly e: string;
}

type Fields = Readonly<Record<string, unknown>>;

export interface OrderView {
  readonly orderId: number;
  clientOrderId: string;
  status: string;
  /** Sum of `l` over the order's TRADE executions (decimal string, 8 places). */
  filledQty: string;
  trades: number;
}

const SCALE = 8;

export class OrderTracker {
  /** The events the bot acted on, oldest first (no duplicates). */
  readonly processed: UserEventLike[] = [];
  readonly orders = new Map<number, OrderView>();
  duplicatesDropped = 0;
  private readonly seen = new Set<string>();
  private readonly filledUnits = new Map<number, bigint>();
  private cursor = 0;
  private wake: (() => void) | null = null;
  private ended: Error | null = null;
  readonly done: Promise<void>;

  constructor(events: AsyncIterable<UserEventLike>) {
    this.done = this.consume(events);
  }

  /** The next processed event (after those already returned) matching `match`. */
  async nextProcessed(match: (e: UserEventLike) => boolean, timeoutMs = 5_000): Promise<UserEventLike> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.processed.length) {
        const e = this.processed[this.cursor++]!;
        if (match(e)) return e;
      }
      if (this.ended !== null) throw this.ended;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`order tracker: no matching event within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async consume(events: AsyncIterable<UserEventLike>): Promise<void> {
    try {
      for await (const event of events) this.handle(event);
      this.ended = new Error('order tracker: the user-data stream ended');
    } catch (error) {
      this.ended = error instanceof Error ? error : new Error(String(error));
    }
    this.wake?.();
  }

  private handle(event: UserEventLike): void {
    const identity = eventIdentity(event);
    if (this.seen.has(identity)) {
      this.duplicatesDropped++;
      return;
    }
    this.seen.add(identity);
    if (event.e === 'executionReport') this.onExecution(event);
    this.processed.push(event);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private onExecution(event: UserEventLike): void {
    const report = event as unknown as Fields;
    const orderId = report.i as number;
    let view = this.orders.get(orderId);
    if (view === undefined) {
      view = { orderId, clientOrderId: report.c as string, status: '', filledQty: '', trades: 0 };
      this.orders.set(orderId, view);
    }
    view.status = report.X as string;
    if (report.x === 'TRADE') {
      const units = (this.filledUnits.get(orderId) ?? 0n) + toUnits(report.l as string);
      this.filledUnits.set(orderId, units);
      view.trades++;
    }
    view.filledQty = fromUnits(this.filledUnits.get(orderId) ?? 0n);
  }
}

/** One field of an event (executionReport: i order id, x execution type, X status, l last qty, ...). */
export function fieldOf(event: UserEventLike, name: string): unknown {
  return (event as unknown as Fields)[name];
}

/** What makes an event the same event: an execution's id `I`, otherwise all of its content. */
export function eventIdentity(event: UserEventLike): string {
  return event.e === 'executionReport' ? `execution ${String(fieldOf(event, 'I'))}` : JSON.stringify(event);
}

/** "0.00100000" -> 100000n (fixed point, SCALE places). */
export function toUnits(decimal: string): bigint {
  const [int, frac = ''] = decimal.split('.');
  return BigInt(int! + frac.padEnd(SCALE, '0').slice(0, SCALE));
}

export function fromUnits(units: bigint): string {
  const s = units.toString().padStart(SCALE + 1, '0');
  return `${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`;
}
