// User-data delivery (spec 4.4, 6.2): every sink of the account's events, whichever way it
// subscribed: a WS API subscription (`{subscriptionId, event}`), a legacy `/ws/<listenKey>`
// connection (the raw event) or a listen key on a combined stream (`{stream, data}`). Each event
// is serialized once; only the thin wrapper differs per sink.

import type { EventWire } from '../api/event-wire.ts';
import type { FaultRules } from '../faults/rules.ts';
import { eventInUnit, type TimeUnit } from '../api/time-unit.ts';
import type { CoreEvent } from '../core/types.ts';
import type { Peer } from './ws-peer.ts';

export type UserSink =
  | { readonly form: 'api'; readonly peer: Peer; readonly subscriptionId: number; readonly viaSession: boolean; readonly timeUnit?: TimeUnit }
  | { readonly form: 'raw'; readonly peer: Peer; readonly listenKey: string; readonly timeUnit?: TimeUnit }
  | { readonly form: 'combined'; readonly peer: Peer; readonly listenKey: string; readonly timeUnit?: TimeUnit };

export class UserStreams {
  private readonly sinks = new Set<UserSink>();
  constructor(
    private readonly wire: EventWire,
    private readonly faults: FaultRules,
  ) {}

  add(sink: UserSink): void {
    this.sinks.add(sink);
  }

  remove(sink: UserSink): void {
    this.sinks.delete(sink);
  }

  removePeer(peer: Peer): void {
    for (const sink of this.sinks) if (sink.peer === peer) this.sinks.delete(sink);
  }

  has(sink: UserSink | undefined): boolean {
    return sink !== undefined && this.sinks.has(sink);
  }

  /**
   * A listen key was deleted (DELETE userDataStream): its streams end without an event
   * (binance-facts §7.2: listenKeyExpired is not sent on a normal close); raw `/ws/<key>`
   * connections are closed.
   */
  closeListenKey(listenKey: string): void {
    for (const sink of this.sinks) {
      if (sink.form === 'api' || sink.listenKey !== listenKey) continue;
      this.sinks.delete(sink);
      if (sink.form === 'raw') sink.peer.close(1000, 'listen key deleted');
    }
  }

  get size(): number {
    return this.sinks.size;
  }

  /** The user-data payloads of `events`, serialized once, in order. */
  serialize(events: readonly CoreEvent[]): string[] {
    const out: string[] = [];
    if (this.sinks.size === 0) return out;
    for (const e of events) {
      if (e.type === 'execution') out.push(this.wire.executionReport(e));
      else if (e.type === 'balances') out.push(this.wire.accountPosition(e));
      else if (e.type === 'listStatus') out.push(this.wire.listStatus(e));
    }
    return out;
  }

  /**
   * Sends already serialized events to every sink. A muted stream drops them for good (spec
   * 4.5: nothing replays); `duplicate_next_user_events` sends an event twice.
   */
  deliver(payloads: readonly string[]): void {
    if (payloads.length === 0) return;
    if (this.faults.userStreamMuted) return;
    for (const p of payloads) {
      const times = this.faults.duplicateThisEvent() ? 2 : 1;
      for (const sink of this.sinks) {
        const frame = wrap(sink, p);
        for (let i = 0; i < times; i++) sink.peer.send(frame);
      }
    }
  }

  /** A listen key's validity passed: `listenKeyExpired` to its sinks, which then stop. */
  expireListenKey(listenKey: string, now: number): void {
    const payload = this.wire.listenKeyExpired(listenKey, now);
    for (const sink of this.sinks) {
      if (sink.form === 'api' || sink.listenKey !== listenKey) continue;
      if (!this.faults.userStreamMuted) sink.peer.send(wrap(sink, payload));
      this.sinks.delete(sink);
    }
  }

  eventStreamTerminated(now: number): string {
    return this.wire.eventStreamTerminated(now);
  }

}

export function wrap(sink: UserSink, payload: string): string {
  const event = sink.timeUnit === 'MICROSECOND' ? eventInUnit(payload, 'MICROSECOND') : payload;
  switch (sink.form) {
    case 'api':
      return `{"subscriptionId":${sink.subscriptionId},"event":${event}}`;
    case 'raw':
      return event;
    case 'combined':
      return `{"stream":${JSON.stringify(sink.listenKey)},"data":${event}}`;
  }
}
