// The one outbox (ARCHITECTURE rule 9): made at the composition root (simulator.ts) and handed
// down to every transport and handle that causes events (REST, WS API, faults, sim.market, the
// driver). A command's events are values; whoever ran the command publishes them here once its
// response is written (spec 4.4). Observers (stats, journal, `onEvents`) see them at once;
// delivery sends public trades to their streams and the account's events to its user streams.
//
// The account's events are one first-in-first-out stream (issue 24, docs/events.md): a reply
// held back by a fault (ack delay, delay rule) holds its place in that stream with `hold()`, and
// every later account event waits behind it until it is released, so a client never sees a
// cancel before the placement it cancels. A reset is a barrier: `reset()` drops every held and
// queued account event of the world before it, and `isCurrent(stamp)` tells a transport that a
// reply it still holds belongs to a world that is gone (it is then answered as a closed
// connection would be).

import type { CoreEvent, DepthDiff, Touch } from '../core/types.ts';

export type EventListener = (events: readonly CoreEvent[]) => void;
export type BatchListener = (batch: { readonly diffs: readonly DepthDiff[]; readonly touches: readonly Touch[] }) => void;

/** Where events go on the wire (the WebSocket gateway). */
export interface EventDelivery {
  /** Both parts below, in one pass. */
  publishEvents(events: readonly CoreEvent[]): void;
  /** Public trades to their `@trade` streams. */
  publishTrades(events: readonly CoreEvent[]): void;
  /** Execution reports and balance updates to the account's user-data streams. */
  publishAccount(events: readonly CoreEvent[]): void;
  /** One depth batch: `depthUpdate` and `bookTicker` streams. */
  publishBatch(diffs: readonly DepthDiff[], touches: readonly Touch[]): void;
  /** A listen key was deleted: its `/ws/<key>` streams end. */
  closeListenKey(key: string): void;
}

/** A place held in the account's event stream; `release()` lets it (and what waits behind it) go. */
export interface HeldEvents {
  release(): void;
}

interface QueuedEvents {
  readonly events: readonly CoreEvent[];
  held: boolean;
}

const NOTHING_HELD: HeldEvents = { release: () => undefined };

export class Outbox {
  private readonly observers = new Set<EventListener>();
  private readonly batchObservers = new Set<BatchListener>();
  private delivery: EventDelivery | null = null;
  /** The account's events not yet delivered, oldest first; empty unless something is held. */
  private queue: QueuedEvents[] = [];
  /** Which world (between resets) the exchange is in. */
  private world = 0;

  /** The transports' fan-out; set once the gateway exists (it is built with this outbox). */
  connect(delivery: EventDelivery): void {
    this.delivery = delivery;
  }

  /** Sees every command's events when they are published; returns the unsubscribe. */
  observe(listener: EventListener): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  observeBatches(listener: BatchListener): () => void {
    this.batchObservers.add(listener);
    return () => this.batchObservers.delete(listener);
  }

  /** A command's events, after its response: observed, then delivered (account events in turn). */
  publish(events: readonly CoreEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.observers) listener(events);
    if (this.queue.length === 0) {
      this.delivery?.publishEvents(events);
      return;
    }
    this.delivery?.publishTrades(events);
    this.queue.push({ events, held: false });
  }

  /**
   * The events of a reply that is held back (ack delay, delay rule): observed and public trades
   * delivered now; the account part keeps its place in the account's stream until `release()`
   * (spec 4.5: the response and its user events arrive late), and later account events queue
   * behind it. A release after a reset delivers nothing.
   */
  hold(events: readonly CoreEvent[]): HeldEvents {
    if (events.length === 0) return NOTHING_HELD;
    for (const listener of this.observers) listener(events);
    this.delivery?.publishTrades(events);
    if (!events.some(isAccountEvent)) return NOTHING_HELD;
    const entry: QueuedEvents = { events, held: true };
    const queue = this.queue;
    queue.push(entry);
    return {
      release: () => {
        if (!entry.held) return;
        entry.held = false;
        if (this.queue === queue) this.drain();
      },
    };
  }

  /** How many account-event batches wait (held or behind a held one); 0 when the stream is live. */
  get pendingAccountEvents(): number {
    return this.queue.length;
  }

  /** The current world, to compare with `isCurrent` later (a reply held across a reset). */
  stamp(): number {
    return this.world;
  }

  isCurrent(stamp: number): boolean {
    return stamp === this.world;
  }

  /** A reset (sim.reset()): nothing held or queued of the old world is ever delivered. */
  reset(): void {
    this.world++;
    this.queue = [];
  }

  /** A deleted listen key (DELETE userDataStream): its streams are closed. */
  listenKeyRemoved(key: string): void {
    this.delivery?.closeListenKey(key);
  }

  /** A depth batch of the driver. */
  publishBatch(diffs: readonly DepthDiff[], touches: readonly Touch[]): void {
    if (diffs.length === 0 && touches.length === 0) return;
    const batch = { diffs, touches };
    for (const listener of this.batchObservers) listener(batch);
    this.delivery?.publishBatch(diffs, touches);
  }

  /** Delivers from the head of the account's stream up to the first entry still held. */
  private drain(): void {
    const queue = this.queue;
    let n = 0;
    while (n < queue.length && !queue[n]!.held) n++;
    if (n === 0) return;
    const ready = queue.splice(0, n);
    for (const entry of ready) this.delivery?.publishAccount(entry.events);
  }
}

function isAccountEvent(e: CoreEvent): boolean {
  return e.type === 'execution' || e.type === 'balances' || e.type === 'listStatus';
}
