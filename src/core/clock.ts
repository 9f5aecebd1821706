// Server time (spec 1.9, 5.5): host wall clock + clock_offset_ms; with start_time_ms non-zero,
// start_time_ms + elapsed time (reproducible published times); or a manual clock that moves only
// when told (tests, `sim.clock = "manual"`). The core never reads a clock itself: the host's
// readings are handed in as a `TimeSource`, and the edge stamps each command with `now()`.

export interface TimeSource {
  /** Milliseconds since the epoch (Date.now). */
  wallMs(): number;
  /** A monotonic reading in milliseconds (performance.now). */
  monotonicMs(): number;
}

export interface Clock {
  now(): number;
  readonly offsetMs: number;
  setOffsetMs(ms: number): void;
}

export class WallClock implements Clock {
  private readonly monotonicStart: number;

  constructor(
    private readonly source: TimeSource,
    public offsetMs = 0,
    private readonly startTimeMs = 0,
  ) {
    this.monotonicStart = source.monotonicMs();
  }

  now(): number {
    const base =
      this.startTimeMs !== 0
        ? this.startTimeMs + Math.floor(this.source.monotonicMs() - this.monotonicStart)
        : this.source.wallMs();
    return base + this.offsetMs;
  }

  setOffsetMs(ms: number): void {
    this.offsetMs = ms;
  }
}

export class ManualClock implements Clock {
  private elapsed = 0;

  constructor(
    private readonly epochMs: number,
    public offsetMs = 0,
  ) {}

  now(): number {
    return this.epochMs + this.elapsed + this.offsetMs;
  }

  /** Back to the starting time (sim.reset()): the time earlier tests moved on is forgotten. */
  rewind(): void {
    this.elapsed = 0;
  }

  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`cannot move a clock backwards (${ms} ms)`);
    this.elapsed += ms;
  }

  setOffsetMs(ms: number): void {
    this.offsetMs = ms;
  }
}
