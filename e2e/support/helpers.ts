// Small helpers of the fault, stats and control-API specs: order parameters on BTCUSDT, the
// refusal a typed-client call must end in, "no WebSocket left from an earlier test", and a
// worker configuration per describe block.
import { test, expect, SpotSimError, type SimConfigInput, type Simulator } from 'spot-sim/fixture';
import type { NewOrderParams } from 'spot-sim';

export const SYMBOL = 'BTCUSDT';

/** A resting BTCUSDT limit buy (far below the default 60000 mid unless told). */
/** A LIMIT order's parameters (its reply type is known: FULL unless `newOrderRespType` says otherwise). */
export type LimitOrderParams = NewOrderParams & { type: 'LIMIT' };

export function buy(price: string, quantity = '0.001', extra: Partial<Omit<NewOrderParams, 'type'>> = {}): LimitOrderParams {
  return { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity, price, ...extra };
}

/** A resting BTCUSDT limit sell. */
export function sell(price: string, quantity = '0.001', extra: Partial<Omit<NewOrderParams, 'type'>> = {}): LimitOrderParams {
  return { symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity, price, ...extra };
}

/** The SpotSimError a call must be refused with (fails the test when it succeeds). */
export async function refusal(call: Promise<unknown>): Promise<SpotSimError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`expected a refusal, got ${JSON.stringify(outcome.value)}`);
  expect(outcome.error).toBeInstanceOf(SpotSimError);
  return outcome.error as SpotSimError;
}

/**
 * Waits until the simulator holds no connection of an earlier test (so returned counts are
 * exact): `stats().connections` counts every open TCP connection, WebSockets and keep-alive
 * HTTP alike, so zero also means no WebSocket is left. Call it before the test opens any.
 */
export async function noConnections(sim: Simulator): Promise<void> {
  await expect.poll(() => sim.stats().connections, { message: 'connections of an earlier test still open' }).toBe(0);
}

/**
 * The fixture's `test` with a worker configuration of its own. Several configurations can share
 * a file this way (`test.use({ simConfig })` is file-wide for a worker option); do not combine it
 * with a top-level `test.use({ simConfig })`, which would override it.
 */
export function withSimConfig(simConfig: SimConfigInput) {
  return test.extend<object, { simConfig: SimConfigInput }>({ simConfig: [simConfig, { scope: 'worker' }] });
}
