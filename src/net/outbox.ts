// The one outbox (ARCHITECTURE rule 9): made at the composition root (simulator.ts) and handed
// down to every transport and handle that causes events (REST, WS API, faults, sim.market, the
// driver). A command's events are values; whoever ran the command publishes them here once its
// response is written (spec 4.4). Observers (stats, journal, `onEvents`) see them at once;
// delivery sends public trades to their streams and the account's events to its user streams.
// A WS API reply held back by an ack delay keeps its account events and delivers them itself
// when it is sent (`publishHeld` now, `deliverAccount` later): nothing is captured or swapped.

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

export class Outbox {
  private readonly observers = new Set<EventListener>();
  private readonly batchObservers = new Set<BatchListener>();
  private delivery: EventDelivery | null = null;

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

  /** A command's events, after its response: observed, then delivered, in order. */
  publish(events: readonly CoreEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.observers) listener(events);
    this.delivery?.publishEvents(events);
  }

  /**
   * The events of a reply that is held back (ack delay): observed and public trades delivered
   * now; the caller keeps `events` and hands them to `deliverAccount` when the reply goes out.
   */
  publishHeld(events: readonly CoreEvent[]): void {
    if (events.length === 0) return;
    for (const listener of this.observers) listener(events);
    this.delivery?.publishTrades(events);
  }

  /** The account part of events published earlier with `publishHeld`. */
  deliverAccount(events: readonly CoreEvent[]): void {
    if (events.length > 0) this.delivery?.publishAccount(events);
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
}
