// The scheduler on the wall clock: one timer for the earliest due instant, none when nothing is
// due (an idle simulator sleeps), and a change between stops (an order, a new listen key) makes
// it look again within the same turn of the event loop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator } from '../index.ts';
import { periodicTask, Scheduler } from './scheduler.ts';
import { WallDriver } from './wall-driver.ts';

test('nothing due: no timer at all; a task made due by a change runs at its instant, once', async () => {
  const scheduler = new Scheduler();
  let active = false;
  const runs: number[] = [];
  let ran: () => void = () => undefined;
  const firstRun = new Promise<void>((resolve) => (ran = resolve));
  scheduler.register(
    periodicTask({
      name: 'push',
      periodMs: 20,
      origin: () => 0,
      active: () => active,
      run: (now) => {
        runs.push(now);
        active = false; // one push, then nothing is due
        ran();
      },
    }),
  );
  const driver = new WallDriver(scheduler, () => Date.now());
  try {
    const armed = () => (driver as unknown as { timer: unknown }).timer !== null;
    assert.equal(armed(), false, 'no timer while nothing is due');
    active = true;
    scheduler.changed();
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    assert.equal(armed(), true, 'a timer armed for the next instant');
    const due = scheduler.nextDue(Date.now());
    // The driver's timers never hold the process open (a simulator's listeners do): this does.
    const keepAlive = setTimeout(() => undefined, 30_000);
    await firstRun;
    clearTimeout(keepAlive);
    assert.equal(runs.length, 1);
    assert.ok(runs[0]! >= due, `ran at ${runs[0]}, due ${due}`);
    assert.equal(armed(), false, 'no timer once nothing is due');
  } finally {
    driver.stop();
  }
});

test('a wall-clock simulator with the generator off has nothing due; a resting order brings one depth batch', async () => {
  await using sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, generator: { enabled: false } } } });
  assert.equal(sim.scheduler.nextDue(sim.now()), Infinity);
  const batch = new Promise<unknown>((resolve) => sim.onDepthBatch(resolve));
  sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' });
  const published = (await batch) as { diffs: { symbol: string; asks: [number, number][] }[] };
  assert.equal(published.diffs[0]!.symbol, 'BTCUSDT');
  assert.equal(sim.scheduler.nextDue(sim.now()), Infinity, 'nothing due after the batch');
});
