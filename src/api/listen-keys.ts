// Legacy listen keys (spec 2.6, 3.2; binance-facts §3.15): one account, so at most one valid
// key; a second POST while it is valid returns the same key and extends it. Keys are derived
// from the seed and a counter, so runs are reproducible.

import { createHash } from 'node:crypto';

export class ListenKeys {
  private readonly keys = new Map<string, number>(); // key -> expiry (ms)
  private counter = 0;
  /** Told when a key is deleted (its streams end). */
  onRemove: ((key: string) => void) | null = null;

  constructor(
    private readonly validityMs: number,
    private readonly seed: number,
  ) {}

  create(now: number): string {
    for (const [key, expiry] of this.keys) {
      if (expiry > now) {
        this.keys.set(key, now + this.validityMs);
        return key;
      }
    }
    const key = createHash('sha256').update(`spot-sim listen key ${this.seed} ${++this.counter}`).digest('hex');
    this.keys.set(key, now + this.validityMs);
    return key;
  }

  isValid(key: string, now: number): boolean {
    const expiry = this.keys.get(key);
    return expiry !== undefined && expiry > now;
  }

  extend(key: string, now: number): boolean {
    if (!this.isValid(key, now)) return false;
    this.keys.set(key, now + this.validityMs);
    return true;
  }

  remove(key: string): boolean {
    const removed = this.keys.delete(key);
    if (removed) this.onRemove?.(key);
    return removed;
  }

  /** Removes and returns the keys whose validity has passed (or all of them, when forced). */
  expire(now: number, all = false): string[] {
    const gone: string[] = [];
    for (const [key, expiry] of this.keys) {
      if (all || expiry <= now) {
        this.keys.delete(key);
        gone.push(key);
      }
    }
    return gone;
  }

  clear(): void {
    this.keys.clear();
    this.counter = 0;
  }
}
