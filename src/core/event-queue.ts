// The events of the command under way, in the order they happened. They are appended to one
// array kept across commands, and each command hands over an exact-size copy: a new array per
// command, grown to 17 slots by its first push, was a fifth of the core's allocation on the
// engine bench's deep book.

import type { CoreEvent } from './types.ts';

export class EventQueue {
  private readonly buffer: (CoreEvent | null)[] = [];
  private count = 0;

  push(event: CoreEvent): void {
    this.buffer[this.count++] = event;
  }

  /**
   * The events so far, oldest first, in a new array; the buffer lets go of them. No events (a
   * cancel or a passive order of the counterparty flow: most commands) share one frozen array.
   */
  take(): CoreEvent[] {
    const n = this.count;
    if (n === 0) return NO_EVENTS;
    const buffer = this.buffer;
    const events = new Array<CoreEvent>(n);
    for (let i = 0; i < n; i++) {
      events[i] = buffer[i]!;
      buffer[i] = null;
    }
    this.count = 0;
    return events;
  }
}

export const NO_EVENTS = Object.freeze([]) as unknown as CoreEvent[];
