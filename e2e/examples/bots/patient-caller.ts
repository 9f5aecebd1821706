// An example bot helper: every exchange call goes through `call()`, which retries a call the
// exchange refused for rate limits (HTTP/WS status 429, or 418 for a ban) after waiting as long
// as the exchange asked:
//   - REST: the `Retry-After` header, in seconds;
//   - WS API: `error.data.retryAfter`, the epoch ms when the limit lifts (measured against the
//     reply's `serverTime`, so the bot's own clock skew does not matter).
// Any other refusal is the caller's business and is thrown at once. The bot takes its `sleep`
// as a dependency, so a test can record the waits instead of spending them.

/** The parts of a refusal the bot looks at (SpotSimError has them; so would any client's error). */
export interface Refusal {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly data?: unknown;
}

export interface PatientCallerOptions {
  readonly sleep: (ms: number) => Promise<void>;
  /** Calls in all, the first one included (default 5). */
  readonly maxAttempts?: number;
  readonly now?: () => number;
}

export class PatientCaller {
  /** Every wait, in ms, in order. */
  readonly waits: number[] = [];

  constructor(private readonly options: PatientCallerOptions) {}

  async call<T>(op: () => Promise<T>): Promise<T> {
    const maxAttempts = this.options.maxAttempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return await op();
      } catch (error) {
        const wait = retryDelayMs(error, this.options.now ?? Date.now);
        if (wait === null || attempt >= maxAttempts) throw error;
        this.waits.push(wait);
        await this.options.sleep(wait);
      }
    }
  }
}

/** How long a rate-limit refusal asks to wait (ms), or null when it is not one. */
export function retryDelayMs(error: unknown, now: () => number = Date.now): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const refusal = error as Refusal;
  if (refusal.status !== 429 && refusal.status !== 418) return null;
  const header = refusal.headers?.['retry-after'];
  if (header !== undefined && /^\d+$/.test(header)) return Number(header) * 1000;
  const data = refusal.data as { retryAfter?: unknown; serverTime?: unknown } | undefined;
  if (typeof data?.retryAfter === 'number') {
    const serverNow = typeof data.serverTime === 'number' ? data.serverTime : now();
    return Math.max(0, data.retryAfter - serverNow);
  }
  return null;
}
