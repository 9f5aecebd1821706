// The switches and one-shot counters of fault injection (spec 4.5) that the request pipeline
// and the transports consult. One-shot counters are consumed at one defined point each
// (ARCHITECTURE: resettable, one-shot controls); `clear()` turns everything off.

export type OneShot = 'rateLimit' | 'ban' | 'failAuth' | 'failTimestamp' | 'rejectOrder' | 'swallowWsApi' | 'duplicateUserEvent';

export class FaultState {
  private readonly pending: Record<OneShot, number> = {
    rateLimit: 0,
    ban: 0,
    failAuth: 0,
    failTimestamp: 0,
    rejectOrder: 0,
    swallowWsApi: 0,
    duplicateUserEvent: 0,
  };
  /** How often each one-shot fault took effect (stats). */
  readonly fired: Record<OneShot, number> = { ...this.pending };
  restUnresponsive = false;
  ackDelayMs = 0;
  userStreamMuted = false;

  arm(kind: OneShot, k: number): void {
    this.pending[kind] = k;
  }

  armed(kind: OneShot): number {
    return this.pending[kind];
  }

  /** Consumes one pending fault of this kind; true when there was one. */
  take(kind: OneShot): boolean {
    if (this.pending[kind] === 0) return false;
    this.pending[kind]--;
    this.fired[kind]++;
    return true;
  }

  clear(): void {
    for (const kind of Object.keys(this.pending) as OneShot[]) this.pending[kind] = 0;
    this.restUnresponsive = false;
    this.ackDelayMs = 0;
    this.userStreamMuted = false;
  }
}
