// The slow-consumer cap counts frames the moment they are queued (issue 34): inside one
// synchronous burst (a manual-clock advanceTime) no tick ends, so a cap that looked only at the
// socket's buffer never saw a day of queued frames. A socket here holds what it is given and
// sends nothing, as one whose reader has stopped.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { WebSocket } from 'ws';
import { EARLY_WRITE_BYTES, MAX_BUFFERED_BYTES, Peer } from './ws-peer.ts';
import { textFrame } from './frames.ts';
import { ManualClock } from '../core/clock.ts';
import { periodicTask, Scheduler } from '../time/scheduler.ts';

interface Stalled {
  readonly peer: Peer;
  /** Bytes handed to the socket so far. */
  written(): number;
  cut(): number;
  terminated(): boolean;
}

/** A peer over a socket that keeps every byte it is given (a reader that has stopped). */
function stalledPeer(): Stalled {
  let held = 0;
  let cuts = 0;
  let terminated = false;
  const socket = { destroyed: false, write: (b: Buffer) => ((held += b.length), true) };
  const ws = Object.assign(new EventEmitter(), {
    readyState: 1,
    OPEN: 1,
    terminate() {
      terminated = true;
      ws.readyState = 3;
    },
  });
  // ws's bufferedAmount: what its socket has not sent yet.
  Object.defineProperty(ws, 'bufferedAmount', { get: () => held });
  const peer = new Peer(ws as unknown as WebSocket, socket, 'market', 0, 0, () => void cuts++);
  return { peer, written: () => held, cut: () => cuts, terminated: () => terminated };
}

test('frames queued in one synchronous burst count against the cap before the tick ends', () => {
  const s = stalledPeer();
  const frame = textFrame('x'.repeat(1000));
  // Twice the cap, without yielding: the cut happens inside the loop.
  for (let i = 0; i < (2 * MAX_BUFFERED_BYTES) / frame.length; i++) s.peer.sendFrame(frame);
  assert.equal(s.cut(), 1, 'cut once');
  assert.ok(s.terminated(), 'terminated');
  assert.ok(s.written() <= MAX_BUFFERED_BYTES, `no more than the cap was written (${s.written()})`);
});

test('inside one advanceTime, a reader that stopped is cut before the call returns', () => {
  const s = stalledPeer();
  const scheduler = new Scheduler();
  const clock = new ManualClock(0);
  // 100 KB of events every 100 ms: 10 MB in ten simulated seconds.
  const events = textFrame('e'.repeat(100 * 1024));
  let sentAfterCut = 0;
  scheduler.register(
    periodicTask({
      name: 'events',
      periodMs: 100,
      origin: () => 0,
      active: () => true,
      run: () => {
        if (s.cut() > 0) sentAfterCut++;
        s.peer.sendFrame(events);
      },
    }),
  );
  scheduler.advance(clock, 10_000);
  // Synchronous so far: no tick has ended, yet the cap saw the queued frames.
  assert.equal(s.cut(), 1);
  assert.ok(sentAfterCut > 0, 'the cut came during the advance');
  assert.ok(s.written() <= MAX_BUFFERED_BYTES);
});

test('text payloads count too', () => {
  const s = stalledPeer();
  const text = 'y'.repeat(10_000);
  for (let i = 0; i < (2 * MAX_BUFFERED_BYTES) / text.length; i++) s.peer.send(text);
  assert.equal(s.cut(), 1);
});

test('a long burst is written as it goes, not held to the end of the tick', () => {
  const s = stalledPeer();
  const frame = textFrame('z'.repeat(1000));
  for (let i = 0; i < (3 * EARLY_WRITE_BYTES) / frame.length; i++) s.peer.sendFrame(frame);
  assert.ok(s.written() >= 2 * EARLY_WRITE_BYTES, `written during the burst (${s.written()})`);
  assert.equal(s.cut(), 0);
});

test('one frame larger than the cap goes out on a connection with nothing waiting', () => {
  const s = stalledPeer();
  s.peer.send('b'.repeat(MAX_BUFFERED_BYTES + 1));
  assert.equal(s.cut(), 0);
  assert.ok(s.written() > MAX_BUFFERED_BYTES);
  s.peer.send('{}');
  assert.equal(s.cut(), 1, 'the next one waits behind it: cut');
});

test('a small send still waits for the end of the tick and leaves in one write', async () => {
  const s = stalledPeer();
  s.peer.send('{"a":1}');
  s.peer.send('{"b":2}');
  assert.equal(s.written(), 0);
  await new Promise((resolve) => process.nextTick(resolve));
  assert.equal(s.written(), 2 * (2 + 7));
});
