// Legacy listen keys (spec 2.6, 3.2; binance-facts §3.15): one account, so at most one valid
// key; a second POST while it is valid returns the same key and extends it. A key is a bearer
// secret (it alone opens the account's executionReports on `/ws/<key>`), so it is 64 characters
// from a cryptographic random source like the reference's, never derived from the seed the server
// prints; determinism (spec 1.9) covers order ids, trade ids and the generator, not keys.

import { randomBytes } from 'node:crypto';

const KEY_LENGTH = 64;
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Bytes at or above this are redrawn, so every character is equally likely (256 % 62 != 0). */
const UNBIASED_BELOW = 256 - (256 % KEY_ALPHABET.length);

function randomKey(): string {
  let key = '';
  while (key.length < KEY_LENGTH) {
    for (const byte of randomBytes(KEY_LENGTH)) {
      if (byte < UNBIASED_BELOW && key.length < KEY_LENGTH) key += KEY_ALPHABET[byte % KEY_ALPHABET.length];
    }
  }
  return key;
}

export class ListenKeys {
  private readonly keys = new Map<string, number>(); // key -> expiry (ms)
  /** Told when a key is made or extended: its expiry is a new instant for the scheduler. */
  onExpiryChanged: () => void = () => undefined;

  constructor(
    private readonly validityMs: number,
    /** Told when a key is deleted (its streams end): handed in where the listen keys are made. */
    private readonly onRemove: (key: string) => void = () => undefined,
  ) {}

  create(now: number): string {
    for (const [key, expiry] of this.keys) {
      if (expiry > now) {
        this.keys.set(key, now + this.validityMs);
        this.onExpiryChanged();
        return key;
      }
    }
    const key = randomKey();
    this.keys.set(key, now + this.validityMs);
    this.onExpiryChanged();
    return key;
  }

  isValid(key: string, now: number): boolean {
    const expiry = this.keys.get(key);
    return expiry !== undefined && expiry > now;
  }

  extend(key: string, now: number): boolean {
    if (!this.isValid(key, now)) return false;
    this.keys.set(key, now + this.validityMs);
    this.onExpiryChanged();
    return true;
  }

  remove(key: string): boolean {
    const removed = this.keys.delete(key);
    if (removed) this.onRemove(key);
    return removed;
  }

  /** The earliest expiry of a key still held (Infinity: none). */
  nextExpiry(): number {
    if (this.keys.size === 0) return Infinity;
    let next = Infinity;
    for (const expiry of this.keys.values()) if (expiry < next) next = expiry;
    return next;
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
  }
}
