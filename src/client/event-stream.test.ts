// The client's awaitable event stream: next() returns the first matching event after the cursor
// (by `e` name, type guard or predicate), waiting for it up to its timeout; last() peeks at the
// newest match; a close ends every wait; kept events are bounded; async iteration ends on close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventStream } from './event-stream.ts';

type Ev = { readonly e: 'executionReport'; readonly X: string; readonly i: number } | { readonly e: 'outboundAccountPosition'; readonly u: number };

const report = (i: number, X = 'NEW'): Ev => ({ e: 'executionReport', X, i });
const position = (u: number): Ev => ({ e: 'outboundAccountPosition', u });

test('next(name) skips other events and narrows by e; later next() starts after the one returned', async () => {
  const s = new EventStream<Ev>('test');
  s.push(position(1));
  s.push(report(7));
  s.push(position(2));
  const r = await s.next('executionReport');
  assert.equal(r.X, 'NEW'); // narrowed: X exists on the type
  assert.equal(r.i, 7);
  assert.deepEqual(await s.next('outboundAccountPosition'), position(2));
  // position(1) was passed over by the first next(): it is not returned again.
  await assert.rejects(s.next('outboundAccountPosition', { timeout: 20 }), /test: no matching event within 20 ms/);
});

test('next() waits for an event pushed later; a predicate matches too', async () => {
  const s = new EventStream<Ev>('test');
  const waiting = s.next((e) => e.e === 'executionReport' && e.X === 'FILLED', { timeout: 1000 });
  s.push(report(1));
  setImmediate(() => s.push(report(2, 'FILLED')));
  assert.deepEqual(await waiting, report(2, 'FILLED'));
});

test('last() returns the newest match without moving the cursor', async () => {
  const s = new EventStream<Ev>('test');
  assert.equal(s.last('executionReport'), undefined);
  s.push(report(1));
  s.push(report(2, 'FILLED'));
  s.push(position(3));
  assert.equal(s.last('executionReport')?.i, 2);
  assert.deepEqual(s.last(), position(3));
  assert.equal(s.last((e) => e.e === 'executionReport' && e.X === 'NEW')?.e, 'executionReport');
  assert.deepEqual(await s.next(), report(1));
  assert.equal(s.all().length, 3);
});

test('a close ends pending and later waits with the reason; events already kept are still returned', async () => {
  const s = new EventStream<Ev>('user data');
  const waiting = s.next('executionReport', { timeout: 5000 });
  s.push(position(1));
  s.end(new Error('connection closed (1006)'));
  assert.equal(s.closed, true);
  await assert.rejects(waiting, /user data: closed before a matching event arrived \(connection closed \(1006\)\)/);
  const t = new EventStream<Ev>('t');
  t.push(report(1));
  t.end(new Error('gone'));
  assert.deepEqual(await t.next('executionReport'), report(1));
  await assert.rejects(t.next('executionReport'), /closed before a matching event/);
});

test('at most 10 000 events are kept: the oldest go, the cursor stays on the next unread one', async () => {
  const s = new EventStream<Ev>('test');
  for (let i = 0; i < 10; i++) s.push(report(i));
  assert.equal((await s.next()).e, 'executionReport'); // cursor after event 0
  for (let i = 10; i < 10_005; i++) s.push(report(i));
  assert.equal(s.all().length, 10_000);
  assert.equal((s.all()[0] as { i: number }).i, 5);
  // Events 1..4 were dropped unread; the next unread kept one is 5.
  assert.equal(((await s.next()) as { i: number }).i, 5);
});

test('async iteration yields every event and ends when the stream closes', async () => {
  const s = new EventStream<Ev>('test');
  s.push(report(1));
  s.push(position(2));
  setImmediate(() => {
    s.push(report(3));
    s.end(new Error('done'));
  });
  const seen: Ev[] = [];
  for await (const e of s) seen.push(e);
  assert.deepEqual(seen, [report(1), position(2), report(3)]);
});

test('a timed-out next() leaves no waiter behind', async () => {
  const s = new EventStream<Ev>('test');
  await Promise.all(Array.from({ length: 2000 }, () => s.next('executionReport', { timeout: 1 }).catch(() => undefined)));
  assert.equal(s.waiting, 0);
});

test('all() is a copy: changing it changes nothing kept', () => {
  const s = new EventStream<Ev>('test');
  s.push(report(1));
  (s.all() as Ev[]).length = 0;
  assert.equal(s.all().length, 1);
});

test('events dropped unread are counted and named in the timeout message', async () => {
  const s = new EventStream<Ev>('test');
  for (let i = 0; i < 10_003; i++) s.push(position(i));
  assert.equal(s.dropped, 3);
  await assert.rejects(s.next('executionReport', { timeout: 5 }), /3 events were dropped unread/);
});

test('close() ends the stream and its waits with StreamClosedError', async () => {
  const s = new EventStream<Ev>('test');
  const waiting = s.next();
  await s.close();
  await assert.rejects(waiting, (e: Error) => e.name === 'StreamClosedError');
  await assert.rejects(s.next(), (e: Error) => e.name === 'StreamClosedError');
});
