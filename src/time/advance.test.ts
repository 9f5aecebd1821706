// sim.advanceTime and POST /sim/v1/advance-time (docs/time.md): a whole, non-negative number of
// ms up to sim.max_advance_ms, refused otherwise with the rule named and the clock unmoved; one
// long advance costs what happens in it (a month with nothing due returns at once) and still
// does everything due on the way, at its own instant.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type SimConfigInput } from '../index.ts';

const T0 = 1_700_000_000_000;
const DAY = 24 * 3600 * 1000;

async function simulator(sim: NonNullable<SimConfigInput['sim']> = {}) {
  return startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: T0, generator: { enabled: false }, ...sim } } });
}

async function serverTime(url: string): Promise<unknown> {
  return ((await (await fetch(`${url}/api/v3/time`)).json()) as { serverTime: unknown }).serverTime;
}

test('fractional, negative and non-finite advances are refused with a RangeError naming the rule; the clock stays', async () => {
  await using sim = await simulator();
  for (const bad of [0.25, 1.5, -1, -0.5, Number.NaN, Infinity]) {
    assert.throws(() => sim.advanceTime(bad), (e: unknown) => e instanceof RangeError && /ms must be a non-negative integer/.test(e.message), String(bad));
  }
  assert.equal(sim.now(), T0);
  assert.equal(await serverTime(sim.urls.http), T0);
  sim.advanceTime(0);
  sim.advanceTime(1);
  assert.equal(await serverTime(sim.urls.http), T0 + 1);
});

test('an advance over sim.max_advance_ms (default 30 days) is refused naming the key; up to it is fine', async () => {
  await using sim = await simulator();
  assert.throws(() => sim.advanceTime(30 * DAY + 1), (e: unknown) => e instanceof RangeError && /sim\.max_advance_ms = 2592000000/.test(e.message));
  assert.equal(sim.now(), T0);
  sim.advanceTime(30 * DAY);
  assert.equal(sim.now(), T0 + 30 * DAY);
  await using small = await simulator({ max_advance_ms: 1_000 });
  assert.throws(() => small.advanceTime(1_001), /sim\.max_advance_ms = 1000/);
  small.advanceTime(1_000);
  assert.equal(small.now(), T0 + 1_000);
});

test('the control API answers 400 naming the rule, and the clock stays', async () => {
  await using sim = await simulator({ max_advance_ms: 60_000 });
  const post = async (body: unknown) => {
    const res = await fetch(`${sim.urls.http}/sim/v1/advance-time`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: res.status, body: (await res.json()) as { error?: { message?: string } } };
  };
  const fraction = await post({ ms: 0.25 });
  assert.equal(fraction.status, 400);
  assert.match(fraction.body.error?.message ?? '', /ms must be a non-negative integer/);
  const tooLong = await post({ ms: 60_001 });
  assert.equal(tooLong.status, 400);
  assert.match(tooLong.body.error?.message ?? '', /at most sim\.max_advance_ms = 60000/);
  assert.equal((await post({ ms: 'soon' })).status, 400);
  assert.equal(await serverTime(sim.urls.http), T0);
  assert.deepEqual(await post({ ms: 60_000 }), { status: 200, body: { result: null } });
  assert.equal(await serverTime(sim.urls.http), T0 + 60_000);
});

// Before the scheduler this ran one driver step per driver_tick_ms: 30 days were 1.3 billion
// steps (several minutes); the deadline below only keeps a regression from hanging the suite.
test('30 days with nothing due return at once; a listen key made on the way expires at its own instant', { timeout: 60_000 }, async () => {
  await using sim = await simulator({ listen_key_validity_ms: 3_600_000 });
  const expired: number[] = [];
  const key = sim.service.listenKeys.create(sim.now());
  const { users } = sim.gateway;
  const original = users.expireListenKey.bind(users);
  users.expireListenKey = (k: string, now: number) => {
    if (k === key) expired.push(now);
    original(k, now);
  };
  sim.advanceTime(30 * DAY);
  assert.deepEqual(expired, [T0 + 3_600_000]);
  assert.equal(sim.service.listenKeys.isValid(key, sim.now()), false);
  assert.ok(sim.scheduler.stops < 10, `stops: ${sim.scheduler.stops}`);
});
