// Shared support of the compatibility specs: waiting on what a client library hands to its
// callbacks or returns from its watch calls (always with a deadline, never a sleep). The local
// order book the specs feed from a library's depth stream is the shared one (../support/local-book.ts).
import { expect } from '@playwright/test';
import type { Simulator } from 'spot-sim';

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

/**
 * A bid price `offset` (whole units) below `below`, ending in .37: far outside the generator's
 * levels (they stay within a few hundred ticks of its touch), so the level is ours alone.
 */
export function quietBidPrice(below: number, offset: number): number {
  return Math.round((Math.floor(below) - offset) * 100 + 37) / 100;
}
