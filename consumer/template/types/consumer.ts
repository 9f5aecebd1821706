// Compiled with the consumer's tsc (strict): the fixture's names, options, client and fault
// methods are typed from the package's declarations.
import { test as base } from '@playwright/test';
import { test, expect, spotSimFixtures, type SpotSimFixtures, type SpotSimOptions } from 'spot-sim/fixture';
import { startSimulator, SpotSimClient, type Simulator, type SimConfigInput, type ExecutionReportEvent } from 'spot-sim';
import { spotSimWebServer } from 'spot-sim/playwright';

const config: SimConfigInput = { sim: { seed: 3, generator: { enabled: false } } };
test.use({ simConfig: config, simClientSteps: false });

test('typed', async ({ sim, client, faults, market }) => {
  const s: Simulator = sim;
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  // faults and market calls return their results directly, like sim.faults and sim.market.
  const filled: string = faults.fillOpenOrder(order.orderId, '0.001');
  const id: number = market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: 60010, quantity: 0.5 });
  const user = await client.userData();
  const report: ExecutionReportEvent = await user.next('executionReport');
  const status: string | undefined = user.last('executionReport')?.X;
  const dropped: number = await faults.dropMarketDataConnections();
  await expect(user).toReceive('executionReport', { i: order.orderId, X: 'FILLED' }, { timeout: 1000 });
  await expect(client).toHaveOpenOrder({ symbol: 'BTCUSDT', orderId: order.orderId });
  await expect(client).toHaveBalance('BTC', { free: '100.001' });
  await expect(faults.use({ on: 'time', action: { delayMs: 1 } })).not.toHaveBeenHit();
  expect([s.urls.http, filled, id, report.X, status, dropped]).toBeTruthy();
});

// Internal fixtures are not part of the types.
// @ts-expect-error: '_spotSimWorker' is not a fixture users see
test('internal', async ({ _spotSimWorker }) => expect(_spotSimWorker).toBeTruthy());

// The fixtures compose into the user's own test.
export const myTest = base.extend<SpotSimFixtures, SpotSimOptions>(spotSimFixtures);
myTest.use({ simIsolation: 'worker' });

export async function standalone(): Promise<void> {
  await using sim = await startSimulator({ config });
  sim.faults.setAckDelayMs(10);
  await using client = new SpotSimClient(sim);
  await using user = await client.userData();
  await using trades = await client.streams('btcusdt@trade');
  expect([user.all(), trades.all()]).toBeTruthy();
}

export const server = spotSimWebServer({ port: 9080, tlsPort: 9443, configFile: 'sim.toml' });
