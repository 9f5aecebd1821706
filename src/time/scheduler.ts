// One scheduler for everything that happens later on the simulated clock (ARCHITECTURE "Time":
// a generator step, a depth batch with changes pending, a listen-key expiry, a timed fault, and
// whatever else registers: kline and ticker pushes with subscribers). Each task knows the next
// instant it has something to do; the scheduler stops only at those instants. A manual clock
// jumps from one to the next (`advance`), so a day with nothing due costs one look at the tasks,
// not 43 million ticks; the wall clock arms one timer for the earliest (./wall-driver.ts), so an
// idle simulator sleeps. Deciding what is due is here and pure; arming timers is the driver's.
//
// Jumping publishes exactly what ticking every millisecond would (scheduler.property.test.ts):
// at an instant where no task is due, a tick does nothing, so skipping it changes nothing.

/**
 * Something that happens at instants of the simulated clock (server time, integer ms).
 *
 * A push on a fixed period while someone listens is `periodicTask` (below):
 * ```ts
 * const unregister = scheduler.register(periodicTask({
 *   name: 'ticker push', periodMs: 1000, origin: () => 0,
 *   active: () => subscribers.size > 0,
 *   run: (now) => pushTickers(now),
 * }));
 * // A subscriber arrived: an instant may now be due that was not (the wall clock re-arms).
 * scheduler.changed();
 * ```
 */
export interface TimedTask {
  /** What it is (shown by `Scheduler.describe()`). */
  readonly name: string;
  /**
   * The earliest instant after `after` at which `run` has something to do, given the state now;
   * `Infinity` when nothing is planned. Asked between stops (and again whenever `changed()` is
   * called); a task may remember its answer. Work already overdue may answer `after` itself.
   */
  nextDue(after: number): number;
  /**
   * Does what is due at or before `now`, and nothing when nothing is. Called at every instant
   * the scheduler stops at, for every task, in the order they were registered (a stop at an
   * instant where this task has nothing due must leave it unchanged).
   */
  run(now: number): void;
}

/** The manual clock as the scheduler moves it. */
export interface SteppedClock {
  now(): number;
  advance(ms: number): void;
}

export class Scheduler {
  private readonly tasks: TimedTask[] = [];
  private readonly listeners = new Set<() => void>();
  /** How many instants the scheduler has stopped at (for benchmarks and tests). */
  stops = 0;
  /** The clock an `advance` is moving and the span it has left (null: no advance runs). */
  private advancing: { readonly clock: SteppedClock; left: number } | null = null;

  /**
   * The instant the clock reaches before any client can observe it: inside `advance`, where that
   * call ends (one synchronous call: nothing is read, written or answered until it returns);
   * otherwise -Infinity (on the wall clock every instant can be observed). A push of state that
   * another push of the same stream will replace at or before this instant can be left out:
   * what a client sees after the call is the same (docs/time.md, "Streams during a jump").
   */
  horizon(): number {
    const a = this.advancing;
    return a === null ? -Infinity : a.clock.now() + a.left;
  }

  /** Adds a task after those already registered (it runs after them at a shared instant); returns its removal. */
  register(task: TimedTask): () => void {
    this.tasks.push(task);
    this.changed();
    return () => {
      const i = this.tasks.indexOf(task);
      if (i >= 0) this.tasks.splice(i, 1);
    };
  }

  /**
   * Something outside a stop may have made an instant due earlier (an order changed the book, a
   * listen key was made, a stream got a subscriber): whoever drives the clock looks again.
   */
  changed(): void {
    if (this.listeners.size === 0) return; // a manual clock: nobody arms timers
    for (const listener of this.listeners) listener();
  }

  /** Told on every `changed()` (the wall-clock driver re-arms its timer); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The earliest instant any task has something to do after `after` (Infinity: none). */
  nextDue(after: number): number {
    let due = Infinity;
    const tasks = this.tasks;
    for (let i = 0; i < tasks.length; i++) {
      const at = tasks[i]!.nextDue(after);
      if (at < due) due = at;
    }
    return due;
  }

  /** One stop: every task does what is due at or before `now`, in registration order. */
  runAt(now: number): void {
    this.stops++;
    const tasks = this.tasks;
    for (let i = 0; i < tasks.length; i++) tasks[i]!.run(now);
  }

  /**
   * Moves a manual clock on by `ms`, stopping at each instant something is due, in order, so
   * what happens is what ticking through every millisecond would do. Work the clock has already
   * passed (an offset jump) runs first, at the current time. A task's run may move the clock's
   * offset (a timed `set_clock_offset_ms`): the remaining span is elapsed time, not a target.
   */
  advance(clock: SteppedClock, ms: number): void {
    const state = { clock, left: ms };
    this.advancing = state;
    try {
      let now = clock.now();
      if (this.nextDue(now) <= now) {
        this.runAt(now);
        now = clock.now();
      }
      for (;;) {
        const step = Math.max(this.nextDue(now) - now, 1);
        if (step > state.left) break;
        clock.advance(step);
        state.left -= step;
        this.runAt(clock.now());
        // read again: a task may have moved the clock's offset
        now = clock.now();
      }
      if (state.left > 0) clock.advance(state.left);
    } finally {
      this.advancing = null;
    }
  }

  /** The registered tasks and their next instants after `after` (diagnostics). */
  describe(after: number): { name: string; nextDue: number }[] {
    return this.tasks.map((t) => ({ name: t.name, nextDue: t.nextDue(after) }));
  }
}

export interface PeriodicOptions {
  readonly name: string;
  /** The period in ms: pushes fall on `origin() + k * periodMs`. */
  readonly periodMs: number;
  /** Where the grid starts (server ms); read each time, so it may follow a clock offset or a reset. */
  readonly origin: () => number;
  /** Whether there is anything to do at all (subscribers); false = no instant is due. */
  readonly active: () => boolean;
  readonly run: (now: number) => void;
}

/** The first instant of the grid `origin + k * period` strictly after `after`. */
export function gridAfter(after: number, origin: number, period: number): number {
  return origin + (Math.floor((after - origin) / period) + 1) * period;
}

/**
 * A task that runs on every instant of a fixed grid while `active()` (API.md 9: kline, ticker
 * and avgPrice pushes every 1000-2000 ms with subscribers; nothing is due without them). On the
 * wall clock a late timer runs it once, at the late instant, and the grid goes on from there.
 */
export function periodicTask(options: PeriodicOptions): TimedTask {
  // The instant last answered by nextDue and not yet run (Infinity: none).
  let due = Infinity;
  return {
    name: options.name,
    nextDue(after) {
      if (!options.active()) return (due = Infinity);
      // An answer already overdue stays due (a wall timer late behind a change); else the next instant.
      if (!(due <= after)) due = gridAfter(after, options.origin(), options.periodMs);
      return due;
    },
    run(now) {
      if (now < due || !options.active()) return;
      due = Infinity;
      options.run(now);
    },
  };
}
