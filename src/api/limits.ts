// Rate limits (spec 8, binance-facts §4): REQUEST_WEIGHT per minute for the whole server and
// ORDERS per 10 s and per day for the account, in fixed windows aligned to the clock (a minute
// window starts every minute, 10 SECOND at :00/:10/..., 1 DAY at 00:00 UTC).

import type { LimitsConfig } from '../config/types.ts';
import { apiError, type ApiError } from '../core/errors.ts';

const MINUTE_MS = 60_000;
const TEN_SECONDS_MS = 10_000;
const DAY_MS = 86_400_000;

class FixedWindow {
  private windowStart = -1;
  private used = 0;

  constructor(private readonly lengthMs: number) {}

  count(now: number): number {
    this.roll(now);
    return this.used;
  }

  add(amount: number, now: number): number {
    this.roll(now);
    this.used += amount;
    return this.used;
  }

  /** Whole seconds until the window resets (Retry-After). */
  secondsToReset(now: number): number {
    this.roll(now);
    return Math.max(1, Math.ceil((this.windowStart + this.lengthMs - now) / 1000));
  }

  /** Epoch ms when the window resets (WS API `retryAfter`). */
  resetsAt(now: number): number {
    this.roll(now);
    return this.windowStart + this.lengthMs;
  }

  reset(): void {
    this.windowStart = -1;
    this.used = 0;
  }

  private roll(now: number): void {
    const start = now - (((now % this.lengthMs) + this.lengthMs) % this.lengthMs);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = 0;
    }
  }
}

export interface LimitRefusal {
  readonly error: ApiError;
  readonly retryAfterSeconds: number;
  readonly retryAtMs: number;
}

export class RateLimits {
  private readonly weight = new FixedWindow(MINUTE_MS);
  private readonly orders10s = new FixedWindow(TEN_SECONDS_MS);
  private readonly ordersDay = new FixedWindow(DAY_MS);

  constructor(readonly config: LimitsConfig) {}

  /** Adds a request's weight; refuses it (-1003) when the minute's limit would be passed. */
  chargeWeight(weight: number, now: number): LimitRefusal | null {
    const used = this.weight.add(weight, now);
    if (used <= this.config.weight_per_minute) return null;
    return {
      error: apiError('TOO_MUCH_WEIGHT', this.config.weight_per_minute, '1 MINUTE'),
      retryAfterSeconds: this.weight.secondsToReset(now),
      retryAtMs: this.weight.resetsAt(now),
    };
  }

  /** An injected refusal (faults): 429 -1003, or 418 "IP banned" until the minute window resets. */
  injectedRefusal(kind: 'rateLimit' | 'ban', now: number): LimitRefusal {
    const retryAtMs = this.weight.resetsAt(now);
    const error =
      kind === 'ban' ? apiError('IP_BANNED', retryAtMs) : apiError('TOO_MUCH_WEIGHT', this.config.weight_per_minute, '1 MINUTE');
    return { error, retryAfterSeconds: this.weight.secondsToReset(now), retryAtMs };
  }

  /** Gives weight back (successful order requests weigh 0, binance-facts 2026-04-02). */
  refundWeight(weight: number, now: number): void {
    this.weight.add(-weight, now);
  }

  usedWeight(now: number): number {
    return this.weight.count(now);
  }

  /** Counts `orders` new orders (an order list: each of its orders); refuses them all (-1015) when a window would overflow. */
  chargeOrder(now: number, orders = 1): LimitRefusal | null {
    if (this.orders10s.count(now) + orders > this.config.orders_per_10s) {
      return this.orderRefusal(this.orders10s, this.config.orders_per_10s, '10 SECOND', now);
    }
    if (this.ordersDay.count(now) + orders > this.config.orders_per_day) {
      return this.orderRefusal(this.ordersDay, this.config.orders_per_day, '1 DAY', now);
    }
    this.orders10s.add(orders, now);
    this.ordersDay.add(orders, now);
    return null;
  }

  orderCounts(now: number): { tenSeconds: number; day: number } {
    return { tenSeconds: this.orders10s.count(now), day: this.ordersDay.count(now) };
  }

  reset(): void {
    this.weight.reset();
    this.orders10s.reset();
    this.ordersDay.reset();
  }

  private orderRefusal(window: FixedWindow, limit: number, interval: string, now: number): LimitRefusal {
    return {
      error: apiError('TOO_MANY_ORDERS', limit, interval),
      retryAfterSeconds: window.secondsToReset(now),
      retryAtMs: window.resetsAt(now),
    };
  }
}
