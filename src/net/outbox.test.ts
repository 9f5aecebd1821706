// The account's event stream is first in, first out (docs/events.md): a held place blocks every
// later account event until it is released; public trades and observers never wait; a reset
// drops whatever of the old world is still held or queued.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoreEvent } from '../core/types.ts';
import { Outbox, type EventDelivery } from './outbox.ts';

const account = (tag: string) => ({ type: 'balances', tag }) as unknown as CoreEvent;
const trade = (tag: string) => ({ type: 'trade', tag }) as unknown as CoreEvent;
const tags = (events: readonly CoreEvent[]) => events.map((e) => (e as unknown as { tag: string }).tag);

function recorder() {
  const seen: string[] = [];
  const delivery: EventDelivery = {
    publishEvents(events) {
      this.publishTrades(events);
      this.publishAccount(events);
    },
    publishTrades: (events) => seen.push(...tags(events.filter((e) => e.type === 'trade')).map((t) => `trade ${t}`)),
    publishAccount: (events) => seen.push(...tags(events.filter((e) => e.type !== 'trade')).map((t) => `account ${t}`)),
    publishBatch: () => undefined,
    closeListenKey: () => undefined,
  };
  const outbox = new Outbox();
  outbox.connect(delivery);
  const observed: string[] = [];
  outbox.observe((events) => observed.push(...tags(events)));
  return { outbox, seen, observed };
}

test('later account events wait behind a held one; trades and observers do not', () => {
  const { outbox, seen, observed } = recorder();
  const held = outbox.hold([account('placed'), trade('t1')]);
  outbox.publish([account('cancelled'), trade('t2')]);
  assert.deepEqual(seen, ['trade t1', 'trade t2']);
  assert.deepEqual(observed, ['placed', 't1', 'cancelled', 't2']);
  assert.equal(outbox.pendingAccountEvents, 2);
  held.release();
  assert.deepEqual(seen, ['trade t1', 'trade t2', 'account placed', 'account cancelled']);
  assert.equal(outbox.pendingAccountEvents, 0);
  held.release();
  assert.equal(seen.length, 4);
});

test('two held places release in stream order whatever order they are released in', () => {
  const { outbox, seen } = recorder();
  const first = outbox.hold([account('a')]);
  const second = outbox.hold([account('b')]);
  second.release();
  assert.deepEqual(seen, []);
  first.release();
  assert.deepEqual(seen, ['account a', 'account b']);
});

test('a reset drops what is held and queued; a release after it delivers nothing', () => {
  const { outbox, seen } = recorder();
  const stamp = outbox.stamp();
  const held = outbox.hold([account('old')]);
  outbox.publish([account('queued')]);
  outbox.reset();
  assert.equal(outbox.isCurrent(stamp), false);
  outbox.publish([account('new')]);
  held.release();
  assert.deepEqual(seen, ['account new']);
});
