// The waiting matchers watch the account without changing it (docs/fixture.md "Matchers"):
// given the fixture's `client`, `toHaveOpenOrder` and `toHaveBalance` read the fixture's
// exchange in process (`sim.openOrders()`, `sim.balances()`), so however often they probe, they
// spend none of the account's request weight and move no counter of `stats()`. A client the
// fixture did not hand out is asked over REST, as any client would be.
import { test, expect, SpotSimClient } from 'spot-sim/fixture';

// A manual clock: the request-weight window cannot roll over between two readings.
test.use({ simConfig: { sim: { generator: { enabled: false }, clock: 'manual' } } });

const SYMBOL = 'BTCUSDT';
const buy = (price: string) => ({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' }) as const;

/** The account's used request weight, read with a ping (weight 1). */
async function usedWeight(url: string): Promise<number> {
  const res = await fetch(`${url}/api/v3/ping`);
  await res.arrayBuffer();
  return Number(res.headers.get('x-mbx-used-weight-1m'));
}

/** Runs an assertion that must fail (it probes until its timeout). */
async function failing(assertion: Promise<unknown>): Promise<void> {
  const failed = await assertion.then(() => false, () => true);
  expect(failed, 'the assertion failed').toBe(true);
}

test("toHaveOpenOrder and toHaveBalance on the fixture's client: no request weight spent, stats() unchanged", async ({ sim, client }) => {
  const order = await client.rest.newOrder(buy('59000'));
  const weight = await usedWeight(sim.urls.http);
  const { connections: _before, ...before } = sim.stats();
  await expect(client).toHaveOpenOrder({ symbol: SYMBOL, orderId: order.orderId });
  await expect(client).not.toHaveOpenOrder({ orderId: order.orderId + 1 });
  await expect(client).toHaveBalance('USDT', { locked: '59' });
  await failing(expect(client).toHaveOpenOrder({ price: '1' }, { timeout: 300 }));
  await failing(expect(client).toHaveBalance('USDT', { locked: '1' }, { timeout: 300 }));
  const { connections: _after, ...after } = sim.stats();
  expect(after).toEqual(before);
  expect(await usedWeight(sim.urls.http)).toBe(weight + 1);
});

test('a client the fixture did not hand out is asked over REST, and sees the same', async ({ sim }) => {
  // Signed on the manual clock, as the fixture's client is.
  const own = new SpotSimClient(sim, { now: () => sim.now() });
  const order = await own.rest.newOrder(buy('59000'));
  const { restRequests } = sim.stats();
  await expect(own).toHaveOpenOrder({ symbol: SYMBOL, orderId: order.orderId, price: '59000' });
  await expect(own).toHaveBalance('USDT', { locked: '59' });
  expect(sim.stats().restRequests).toBe(restRequests + 2);
  await own.close();
});
