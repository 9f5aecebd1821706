import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, WallClock, type TimeSource } from './clock.ts';

function fakeSource(wall: number, monotonic: number): TimeSource & { tick(ms: number): void } {
  return {
    wallMs: () => wall,
    monotonicMs: () => monotonic,
    tick(ms: number) {
      wall += ms;
      monotonic += ms;
    },
  };
}

test('wall clock: host time plus the configured offset, which can be changed', () => {
  const source = fakeSource(1_700_000_000_000, 5);
  const clock = new WallClock(source, 250);
  assert.equal(clock.now(), 1_700_000_000_250);
  source.tick(10);
  assert.equal(clock.now(), 1_700_000_000_260);
  clock.setOffsetMs(-1000);
  assert.equal(clock.now(), 1_699_999_999_010);
});

test('wall clock with start_time_ms: start + elapsed, whatever the host wall clock says', () => {
  const source = fakeSource(1_800_000_000_000, 100.4);
  const clock = new WallClock(source, 0, 1_600_000_000_000);
  assert.equal(clock.now(), 1_600_000_000_000);
  source.tick(1500.7);
  assert.equal(clock.now(), 1_600_000_001_500);
});

test('manual clock moves only when advanced, and never backwards', () => {
  const clock = new ManualClock(1_600_000_000_000);
  assert.equal(clock.now(), 1_600_000_000_000);
  clock.advance(250);
  assert.equal(clock.now(), 1_600_000_000_250);
  clock.setOffsetMs(5);
  assert.equal(clock.now(), 1_600_000_000_255);
  assert.throws(() => clock.advance(-1));
});
