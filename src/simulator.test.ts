// sim.reset() (API.md sections 3 and 8): back to the configured starting state, which
// `simIsolation: 'test'` relies on before every test. The listeners stay; everything a test can
// change starts over: the book, balances, ids, limits, listen keys, the scripted market's ids,
// the configured faults (armed again, timers counted from the reset) and a manual clock's time.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator, type SimConfigInput } from './index.ts';

const T0 = 1_700_000_000_000;

async function simulator(sim: NonNullable<SimConfigInput['sim']> = {}) {
  return startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: T0, ...sim } } });
}

test('reset arms the configured faults again: one-shot counts, and timers counted from the reset', async () => {
  await using sim = await simulator({ faults: { reject_next_orders: 2, skip_depth_update_after_s: 1 } });
  assert.equal(sim.service.faults.armed('rejectOrder'), 2);
  sim.faults.clear();
  assert.equal(sim.service.faults.armed('rejectOrder'), 0);
  sim.advanceTime(5_000);
  assert.equal(sim.stats().faults.skippedDepthUpdates, 0, 'clear() cancelled the timer');

  sim.reset();
  assert.equal(sim.service.faults.armed('rejectOrder'), 2);
  sim.advanceTime(999);
  assert.equal(sim.stats().faults.skippedDepthUpdates, 0);
  sim.advanceTime(1);
  assert.equal(sim.stats().faults.skippedDepthUpdates, 1);
});

test('reset puts a manual clock back to its starting time, so a test never sees the time earlier tests moved on', async () => {
  await using sim = await simulator({ clock_offset_ms: 250 });
  assert.equal(sim.now(), T0 + 250);
  sim.advanceTime(12_345);
  sim.faults.setClockOffsetMs(-1_000);
  sim.reset();
  assert.equal(sim.now(), T0 + 250);
});

test('reset numbers the scripted market from 1 again and removes its orders', async () => {
  await using sim = await simulator({ generator: { enabled: false } });
  const order = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.5' } as const;
  assert.equal(sim.market.place(order), 1);
  assert.equal(sim.market.place(order), 2);
  sim.reset();
  assert.equal(sim.stats().touch.BTCUSDT?.ask, null);
  assert.equal(sim.market.cancel('BTCUSDT', 2), false);
  assert.equal(sim.market.place(order), 1);
  assert.equal(sim.stats().touch.BTCUSDT?.ask, '60010.00000000');
});

test('a start that fails after listening closes its listeners, so the process can end and the port is free again', async () => {
  const { createServer } = await import('node:net');
  const { DEFAULT_CONFIG } = await import('./config/index.ts');
  const { Simulator } = await import('./index.ts');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  // A resolved configuration no validation produced (the command line's path skips none): the
  // fault it arms refuses the value only once the listeners are open.
  const broken = { ...DEFAULT_CONFIG, sim: { ...DEFAULT_CONFIG.sim, port, tls_port: 0, faults: { ...DEFAULT_CONFIG.sim.faults, delay_ack_ms: 1.5 } } };
  await assert.rejects(Simulator.startResolved(broken), RangeError);
  const again = createServer();
  await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => again.close(() => resolve()));
});
