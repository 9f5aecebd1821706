// The scheduler on the wall clock: one timer, armed for the earliest instant any task has
// something to do, and none at all when nothing is due (an idle simulator with the generator off
// wakes only when a request arrives). When the timer fires, one stop runs at the current time
// (`run(now)` does everything due at or before it) and the timer is armed again. A change made
// between stops (an order, a new listen key, a subscriber) calls `scheduler.changed()`; the
// driver looks again once per turn of the event loop, however many changes there were.

import type { Scheduler } from './scheduler.ts';

/** What a Node timer can hold (a longer wait is cut into several). */
const MAX_TIMER_MS = 2_147_483_647;
/**
 * The shortest wait: the old driver's 2 ms tick. A busy generator (a step every 2 ms) then
 * re-arms one timer with one delay (`refresh()`, no new timer), and a stop runs whatever came
 * due meanwhile, as the tick did; on the wall clock nothing needs finer timing.
 */
const MIN_WAIT_MS = 2;

export class WallDriver {
  private timer: NodeJS.Timeout | null = null;
  /** The instant the timer is armed for (Infinity: not armed). */
  private armedFor = Infinity;
  /** The last timer made and its delay: re-armed with `refresh()` when the delay repeats (the generator's period), which costs less than a new timer. */
  private spent: NodeJS.Timeout | null = null;
  private spentDelay = -1;
  private lookQueued = false;
  private inStop = false;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly scheduler: Scheduler,
    /** Server time (the simulator's clock). */
    private readonly now: () => number,
  ) {
    this.unsubscribe = scheduler.onChange(() => this.lookAgain());
    this.arm();
  }

  /** Looks again at the end of this turn (several changes in one turn cost one look). */
  lookAgain(): void {
    // During a stop every command the tasks submit says so; the stop arms the timer itself after.
    if (this.lookQueued || this.stopped || this.inStop) return;
    this.lookQueued = true;
    queueMicrotask(() => {
      this.lookQueued = false;
      this.arm();
    });
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    this.disarm();
  }

  private arm(): void {
    if (this.stopped) return;
    const now = this.now();
    const due = this.scheduler.nextDue(now);
    // A timer already armed for that instant or earlier stays (it will look again when it fires).
    if (this.timer !== null && this.armedFor <= due) return;
    this.disarm();
    if (due === Infinity) return;
    this.armedFor = due;
    const delay = Math.min(MAX_TIMER_MS, Math.max(MIN_WAIT_MS, due - now));
    if (this.spent !== null && delay === this.spentDelay) {
      this.timer = this.spent.refresh();
      return;
    }
    this.timer = setTimeout(() => this.fire(), delay);
    // The timer never keeps the process alive on its own (the listeners do).
    this.timer.unref();
    this.spent = this.timer;
    this.spentDelay = delay;
  }

  private disarm(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      // A cleared timer is not refreshed again (a fired one is).
      this.spent = null;
    }
    this.timer = null;
    this.armedFor = Infinity;
  }

  private fire(): void {
    this.timer = null;
    this.armedFor = Infinity;
    if (this.stopped) return;
    const now = this.now();
    if (this.scheduler.nextDue(now) <= now) {
      this.inStop = true;
      try {
        this.scheduler.runAt(now);
      } finally {
        this.inStop = false;
      }
    }
    this.arm();
  }
}
