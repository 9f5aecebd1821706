// A bounded journal of the simulator's recent replies and events, attached to the report of a
// failed test (API.md section 4): what the client asked, what it got, what the streams said.
// Fixed capacity, entries truncated: it never grows with the length of a run.

export interface JournalEntry {
  /** Server time (ms). */
  readonly time: number;
  readonly kind: 'rest' | 'ws-api' | 'event';
  /** Endpoint id (replies) or event type. */
  readonly what: string;
  readonly status?: number;
  readonly detail: string;
}

const CAPACITY = 500;
const MAX_DETAIL = 1000;

export class Journal {
  private readonly entries: (JournalEntry | undefined)[] = new Array(CAPACITY);
  private next = 0;
  private count = 0;

  add(entry: JournalEntry): void {
    const detail = entry.detail.length > MAX_DETAIL ? `${entry.detail.slice(0, MAX_DETAIL)}...` : entry.detail;
    this.entries[this.next] = { ...entry, detail };
    this.next = (this.next + 1) % CAPACITY;
    if (this.count < CAPACITY) this.count++;
  }

  /** Oldest first. */
  recent(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.entries[(this.next - this.count + i + CAPACITY) % CAPACITY]!);
    return out;
  }

  clear(): void {
    this.entries.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}
