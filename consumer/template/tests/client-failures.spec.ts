// The packed client's failures as a user's suite meets them (API.md 5.1): a drop fault rejects
// a pending WS API call with StreamClosedError and wsApi() reconnects; a reply that comes too
// late is a SpotSimTimeoutError carrying the newClientOrderId to look the order up by; a 429 is
// a SpotSimError with retryAfterMs.
import { test, expect, SpotSimClient } from 'spot-sim/fixture';
import { SpotSimError, SpotSimTimeoutError, StreamClosedError } from 'spot-sim';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' } as const;

test('a drop, a timeout and a 429 through the packed client', async ({ sim, client, faults }) => {
  // A drop: the pending call rejects at once; the next wsApi() is a fresh connection.
  const api = await client.wsApi();
  faults.use({ on: 'time', transport: 'ws-api', action: { close: true } });
  await expect(api.time()).rejects.toBeInstanceOf(StreamClosedError);
  await expect(api.ping()).rejects.toBeInstanceOf(StreamClosedError);
  expect(await (await client.wsApi()).ping()).toEqual({});

  // A timeout: the outcome is unknown, the generated client order id finds the order.
  const impatient = new SpotSimClient(sim, { timeoutMs: 100 });
  faults.setAckDelayMs(300);
  const timedOut = await (await impatient.wsApi()).placeOrder(order).catch((e: unknown) => e);
  expect(timedOut).toBeInstanceOf(SpotSimTimeoutError);
  const { outcome, newClientOrderId } = timedOut as SpotSimTimeoutError;
  expect(outcome).toBe('unknown');
  const found = await client.rest.getOrder({ symbol: 'BTCUSDT', origClientOrderId: newClientOrderId! });
  expect(found.status).toBe('NEW');
  await impatient.close();
  faults.clear();

  // A 429: a SpotSimError with a number code and how long to wait.
  faults.rateLimitNextRequests(1);
  const limited = await client.rest.ping().catch((e: unknown) => e);
  expect(limited).toBeInstanceOf(SpotSimError);
  expect(limited).toMatchObject({ status: 429, code: -1003, retryAfterMs: expect.any(Number) });
});
