// The rules of one `advanceTime(ms)` (docs/time.md), in one place for the in-process call and
// the control API: a whole number of milliseconds (server times are integers: a fraction would
// reach `/api/v3/time`), not negative (time does not run back), and at most
// `sim.max_advance_ms` (default 30 days), so one call cannot occupy the worker for hours.

/** A RangeError naming the broken rule, or nothing when `ms` may be advanced. */
export function checkAdvance(ms: unknown, maxAdvanceMs: number): asserts ms is number {
  if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0) {
    const shown = typeof ms === 'number' ? String(ms) : typeof ms;
    throw new RangeError(`advanceTime: ms must be a non-negative integer number of milliseconds (got ${shown})`);
  }
  if (ms > maxAdvanceMs) {
    throw new RangeError(`advanceTime: ms must be at most sim.max_advance_ms = ${maxAdvanceMs} (got ${ms}); advance in several calls or raise sim.max_advance_ms`);
  }
}
