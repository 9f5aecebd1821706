// Shared support of the compatibility specs: waiting on what a client library hands to its
// callbacks or returns from its watch calls (always with a deadline, never a sleep), and a
// local order book kept the way the reference documents it (binance-facts §5 "Local order
// book"), fed by a library's own depth stream and REST snapshot.
import { expect } from '@playwright/test';
import type { Simulator } from '../../src/index.ts';

/** Generous: two cores, other suites running concurrently. */
export const EVENT_TIMEOUT_MS = 20_000;

/** `promise`, or a rejection naming `what` once `ms` passed. */
export async function within<T>(promise: Promise<T>, what: string, ms = EVENT_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Calls a library's watch function (each call resolves with the next update) until `done`
 * accepts a result; returns that result. Fails naming `what` when the deadline passes.
 */
export async function watchUntil<T>(watch: () => Promise<T>, done: (value: T) => boolean, what: string, ms = EVENT_TIMEOUT_MS): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    const value = await within(watch(), what, left);
    if (done(value)) return value;
  }
}

/** Everything a library passed to one callback, in arrival order, awaitable by predicate. */
export class Inbox<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<() => void>();

  /** Bound, so it can be handed to a library as the callback itself. */
  readonly push = (item: T): void => {
    this.items.push(item);
    for (const wake of [...this.waiters]) wake();
  };

  /** The first item (earlier arrivals included) that matches, or a timeout naming `what`. */
  waitFor(match: (item: T) => boolean, what: string, ms = EVENT_TIMEOUT_MS): Promise<T> {
    const found = this.items.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const wake = () => {
        const item = this.items.find(match);
        if (item === undefined) return;
        finish();
        resolve(item);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${ms} ms waiting for ${what} (${this.items.length} received)`));
      }, ms);
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
      };
      this.waiters.add(wake);
    });
  }
}

/**
 * Resolves once the simulator has accepted a WS API user-data subscription made at or after
 * `since` (its journal records every WS API reply). Used for ccxt only: its watch functions
 * subscribe inside the call and expose no promise for the subscription itself, and an event
 * that arrives before a watch call is pending only updates ccxt's cache.
 */
export async function userDataSubscribed(sim: Simulator, since: number): Promise<void> {
  await expect
    .poll(
      () =>
        sim
          .recentJournal()
          .some((e) => e.kind === 'ws-api' && e.what.startsWith('userDataStream.subscribe') && e.status === 200 && e.time >= since),
      { message: 'the simulator accepted the user-data subscription', timeout: EVENT_TIMEOUT_MS },
    )
    .toBe(true);
}

/** A price level as the libraries hand them out: [price, qty] as strings or numbers. */
export type Level = readonly [string | number, string | number];

export interface DepthEvent {
  /** First and last update id of the event (`U`, `u`). */
  readonly first: number;
  readonly last: number;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

export interface DepthSnapshot {
  readonly lastUpdateId: number;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/**
 * The reference's local order book procedure (binance-facts §5): buffer depth events, take a
 * REST snapshot, drop events with u <= lastUpdateId, require the first applied event to
 * straddle lastUpdateId + 1, then every event's U to be the previous u + 1. A gap is recorded
 * (a library user doing this by the book would have to resync) and fails every later `until`.
 */
export class LocalBook {
  private buffered: DepthEvent[] = [];
  private id: number | null = null;
  readonly bids = new Map<number, number>();
  readonly asks = new Map<number, number>();
  /** Events applied after the snapshot. */
  applied = 0;
  failure: Error | null = null;
  private readonly listeners = new Set<() => void>();

  /** Bound, so it can sit inside a library's callback. */
  readonly onEvent = (event: DepthEvent): void => {
    if (this.failure !== null) return;
    if (this.id === null) {
      this.buffered.push(event);
      return;
    }
    this.apply(event);
  };

  /** Seeds the book from a snapshot and replays what was buffered before it. */
  seed(snapshot: DepthSnapshot): void {
    const firstBuffered = this.buffered[0];
    if (firstBuffered !== undefined && snapshot.lastUpdateId < firstBuffered.first) {
      throw new Error(`snapshot ${snapshot.lastUpdateId} is older than the first buffered event ${firstBuffered.first}: refetch`);
    }
    this.bids.clear();
    this.asks.clear();
    for (const [p, q] of snapshot.bids) this.bids.set(Number(p), Number(q));
    for (const [p, q] of snapshot.asks) this.asks.set(Number(p), Number(q));
    this.id = snapshot.lastUpdateId;
    const buffered = this.buffered;
    this.buffered = [];
    for (const event of buffered) this.apply(event);
    this.notify();
  }

  private apply(event: DepthEvent): void {
    if (this.failure !== null) return;
    const id = this.id!;
    if (event.last <= id) return;
    if (this.applied === 0 ? !(event.first <= id + 1 && event.last >= id + 1) : event.first !== id + 1) {
      this.failure = new Error(`depth event [${event.first};${event.last}] does not continue the book at ${id} (${this.applied} applied)`);
    } else {
      for (const [p, q] of event.bids) setLevel(this.bids, Number(p), Number(q));
      for (const [p, q] of event.asks) setLevel(this.asks, Number(p), Number(q));
      this.id = event.last;
      this.applied++;
    }
    this.notify();
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  get lastUpdateId(): number | null {
    return this.id;
  }

  bestBid(): number {
    return Math.max(...this.bids.keys());
  }

  bestAsk(): number {
    return Math.min(...this.asks.keys());
  }

  /** Resolves once the book is seeded and `check` holds (now or after a later event). */
  until(check: (book: LocalBook) => boolean, what: string, ms = EVENT_TIMEOUT_MS): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const listener = () => {
        if (this.failure !== null) {
          finish();
          reject(this.failure);
        } else if (this.id !== null && check(this)) {
          finish();
          resolve();
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out after ${ms} ms waiting for ${what} (book at ${this.id}, ${this.applied} events applied)`));
      }, ms);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      this.listeners.add(listener);
      listener();
    });
  }
}

function setLevel(side: Map<number, number>, price: number, qty: number): void {
  if (qty === 0) side.delete(price);
  else side.set(price, qty);
}

/**
 * A bid price `offset` (whole units) below `below`, ending in .37: far outside the generator's
 * levels (they stay within a few hundred ticks of its touch), so the level is ours alone.
 */
export function quietBidPrice(below: number, offset: number): number {
  return Math.round((Math.floor(below) - offset) * 100 + 37) / 100;
}
