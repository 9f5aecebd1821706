// A bounded journal of the simulator's recent replies and events, attached to the report of a
// failed test (API.md section 4): what the client asked, what it got, what the streams said.
// Fixed capacity, entries truncated: it never grows with the length of a run.

import { RawJson } from './api/raw-json.ts';
import type { CoreEvent } from './core/types.ts';

/**
 * One entry of the simulator's recent journal (`sim.recentJournal()`; the fixture attaches it to a
 * failed test): a reply or an event, with its server time.
 * @example
 * for (const entry of sim.recentJournal().slice(-5)) console.log(entry.time, entry.kind, entry.what, entry.status ?? '', entry.detail);
 */
export interface JournalEntry {
  /** Server time (ms). */
  readonly time: number;
  readonly kind: 'rest' | 'ws-api' | 'event';
  /** Endpoint id (replies) or event type. */
  readonly what: string;
  readonly status?: number;
  readonly detail: string;
}

/** An entry as recorded: the detail may be a reply body, serialized only when the journal is read. */
export interface JournalRecord extends Omit<JournalEntry, 'detail'> {
  readonly detail: string | { readonly body: unknown };
}

const CAPACITY = 500;
const MAX_DETAIL = 1000;

export class Journal {
  private readonly entries: (JournalRecord | undefined)[] = new Array(CAPACITY);
  private next = 0;
  private count = 0;

  /** A reply of an endpoint (or of no route), its body kept as `journalDetail` says. */
  addReply(time: number, kind: 'rest' | 'ws-api', endpointId: string | undefined, status: number, body: unknown): void {
    this.add({ time, kind, what: endpointId ?? 'unknown route', status, detail: journalDetail(body) });
  }

  /** The account's executionReports among a command's events. */
  addEvents(events: readonly CoreEvent[]): void {
    for (const e of events) {
      if (e.type !== 'execution') continue;
      const o = e.order;
      this.add({
        time: e.eventTime,
        kind: 'event',
        what: 'executionReport',
        detail: `${e.executionType} ${o.symbol} ${o.side} ${o.type} orderId=${o.orderId} clientOrderId=${o.clientOrderId} status=${o.status}`,
      });
    }
  }

  /** Records an entry; a `{body}` detail is kept by reference (replies are not changed later). */
  add(entry: JournalRecord): void {
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % CAPACITY;
    if (this.count < CAPACITY) this.count++;
  }

  /** Oldest first. */
  recent(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 0; i < this.count; i++) {
      const record = this.entries[(this.next - this.count + i + CAPACITY) % CAPACITY]!;
      const text = typeof record.detail === 'string' ? record.detail : (JSON.stringify(record.detail.body) ?? '');
      out.push({ ...record, detail: text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}...` : text });
    }
    return out;
  }

  clear(): void {
    this.entries.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}

/**
 * What the journal keeps of a reply body. Small bodies by reference (serialized only if the
 * journal is read); large ones (depth text, long lists) as a short text at once, so 500 entries
 * never pin megabytes of old replies.
 */
function journalDetail(body: unknown): JournalRecord['detail'] {
  if (body instanceof RawJson) return body.text.length > 1000 ? `${body.text.slice(0, 1000)}...` : body.text;
  if (Array.isArray(body) && body.length > 20) return `[${body.length} items] ${JSON.stringify(body.slice(0, 3))}...`;
  return { body };
}
