// A bad call fails the test that made it, at its line, even when it is not awaited; the next
// test is unaffected.
import { test, expect } from 'spot-sim/fixture';

test('an unawaited bad call', async ({ faults }) => {
  faults.rejectNextOrders(-1); // the failing line
  await new Promise((resolve) => setTimeout(resolve, 100));
});

test('the next test is unaffected', async ({ faults, sim }) => {
  faults.rejectNextOrders(1);
  expect(sim.faults.rules()).toHaveLength(1);
});
