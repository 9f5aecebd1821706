// Compiled with the consumer's tsc (strict): the fixture's names, options, client and fault
// methods are typed from the package's declarations.
import { test, expect } from 'spot-sim/fixture';
import { startSimulator, type Simulator, type SimConfigInput, type ExecutionReportEvent } from 'spot-sim';
import { spotSimWebServer } from 'spot-sim/playwright';

const config: SimConfigInput = { sim: { seed: 3, generator: { enabled: false } } };
test.use({ simConfig: config });

test('typed', async ({ sim, client, faults }) => {
  const s: Simulator = sim;
  const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '59000' });
  const filled: string = await faults.fillOpenOrder(order.orderId, '0.001');
  const user = await client.userData();
  const report: ExecutionReportEvent = await user.next('executionReport');
  const status: string | undefined = user.last('executionReport')?.X;
  const dropped: number = await faults.dropMarketDataConnections();
  expect([s.urls.http, filled, report.X, status, dropped]).toBeTruthy();
});

export async function standalone(): Promise<void> {
  await using sim = await startSimulator({ config });
  sim.faults.setAckDelayMs(10);
}

export const server = spotSimWebServer({ port: 9080, tlsPort: 9443, configFile: 'sim.toml' });
