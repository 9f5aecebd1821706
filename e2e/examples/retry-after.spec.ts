// Example: a bot that honours rate-limit refusals (bots/patient-caller.ts). The simulator
// answers the next requests with 429; the bot must wait exactly what each refusal advertised
// (REST `Retry-After` seconds, WS API `error.data.retryAfter` epoch ms) and then succeed. Its
// `sleep` is a fake that records the waits, so the test takes no time.
import { test, expect, SpotSimError } from 'spot-sim/fixture';
import { PatientCaller } from './bots/patient-caller.ts';

test.use({ simConfig: { sim: { generator: { enabled: false } } } });

const BUY = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' } as const;

/** A bot with a recording fake sleep. */
function patientBot() {
  const sleeps: number[] = [];
  const bot = new PatientCaller({ sleep: async (ms) => void sleeps.push(ms) });
  return { bot, sleeps };
}

/** Wraps an exchange call so the test sees every refusal the exchange sent (as sent). */
function observed<T>(op: () => Promise<T>, refusals: SpotSimError[]): () => Promise<T> {
  return async () => {
    try {
      return await op();
    } catch (error) {
      if (error instanceof SpotSimError) refusals.push(error);
      throw error;
    }
  };
}

test('REST: two 429s, the bot waits Retry-After seconds each time, then its order goes through once', async ({ sim, client, faults }) => {
  const { bot, sleeps } = patientBot();
  const refusals: SpotSimError[] = [];
  faults.rateLimitNextRequests(2);
  const order = await bot.call(observed(() => client.rest.newOrder(BUY), refusals));

  expect(refusals.map((e) => [e.status, e.code])).toEqual([
    [429, -1003],
    [429, -1003],
  ]);
  const advertised = refusals.map((e) => e.headers['retry-after']);
  for (const seconds of advertised) expect(seconds).toMatch(/^([1-9]|[1-5][0-9]|60)$/);
  expect(sleeps).toEqual(advertised.map((s) => Number(s) * 1000));
  expect(bot.waits).toEqual(sleeps);
  expect(order).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW' });
  expect(sim.stats().sinceMark.orders).toBe(1);
});

test('WS API: two 429s, the bot waits until error.data.retryAfter each time, then its order goes through once', async ({ sim, client, faults }) => {
  const api = await client.wsApi();
  const { bot, sleeps } = patientBot();
  const refusals: SpotSimError[] = [];
  faults.rateLimitNextRequests(2);
  const order = await bot.call(observed(() => api.placeOrder(BUY), refusals));

  expect(refusals.map((e) => [e.status, e.code])).toEqual([
    [429, -1003],
    [429, -1003],
  ]);
  const advertised = refusals.map((e) => e.data as { serverTime: number; retryAfter: number });
  for (const { serverTime, retryAfter } of advertised) {
    expect(retryAfter).toBeGreaterThan(serverTime);
    expect(retryAfter - serverTime).toBeLessThanOrEqual(60_000);
  }
  expect(sleeps).toEqual(advertised.map((d) => d.retryAfter - d.serverTime));
  expect(order).toMatchObject({ symbol: 'BTCUSDT', status: 'NEW' });
  expect(sim.stats().sinceMark.orders).toBe(1);
});

test('a refusal that is not a rate limit is not retried', async ({ sim, client, faults }) => {
  const { bot, sleeps } = patientBot();
  faults.rejectNextOrders(1);
  const refused = await bot.call(() => client.rest.newOrder(BUY)).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(SpotSimError);
  expect((refused as SpotSimError).code).toBe(-2010);
  expect(sleeps).toEqual([]);
  expect(sim.stats().sinceMark.orders).toBe(0);
});

test('the bot gives up after its last attempt, having waited between attempts only', async ({ client, faults }) => {
  const sleeps: number[] = [];
  const bot = new PatientCaller({ sleep: async (ms) => void sleeps.push(ms), maxAttempts: 3 });
  faults.rateLimitNextRequests(5);
  const refused = await bot.call(() => client.rest.ping()).catch((e: unknown) => e);
  expect(refused).toMatchObject({ status: 429, code: -1003 });
  expect(sleeps).toHaveLength(2);
});
