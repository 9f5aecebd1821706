// Clients and streams close with `await using` (API.md 5.1 and issue 21): at the end of the
// block their connections are closed, which the streams see.
import { test, expect } from 'spot-sim/fixture';
import { SpotSimClient } from 'spot-sim';

test('await using closes a client, its user-data stream and its market stream at the end of the block', async ({ sim }) => {
  const connections = () => sim.stats().connections;
  const before = connections();
  let user: { readonly closed: boolean };
  let trades: { readonly closed: boolean };
  {
    await using client = new SpotSimClient(sim);
    user = await client.userData();
    trades = await client.streams('btcusdt@trade');
    expect([user.closed, trades.closed]).toEqual([false, false]);
  }
  expect([user.closed, trades.closed]).toEqual([true, true]);
  await expect.poll(connections).toBe(before);

  await using other = new SpotSimClient(sim);
  {
    await using own = await other.userData();
    expect(own.closed).toBe(false);
    user = own;
  }
  expect(user.closed).toBe(true);
});
