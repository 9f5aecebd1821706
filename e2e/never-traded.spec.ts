// A symbol that has never traded (no history, no trade yet: a quiet book with the generator off)
// still has a last price, as on the reference exchange: `ticker/price` and `avgPrice` (REST, WS
// API, the `@avgPrice` stream and the typed client) answer the symbol's `start_mid` with
// `closeTime` 0, so a UI that prices a MARKET order from them gets a number, not zero. Windowed
// tickers keep their no-trade values, and after the first trade both follow the trades.
import { test as base, expect, SpotSimClient } from 'spot-sim/fixture';
import type { AvgPriceEvent } from 'spot-sim';
import { SYMBOL } from './support/helpers.ts';

const START = Date.UTC(2026, 0, 15, 12, 0, 30);
const test = base.extend<object, { simConfig: object }>({
  simConfig: [
    { sim: { clock: 'manual', start_time_ms: START, generator: { enabled: false }, history: { minutes: 0 }, symbols: { ETHUSDT: { start_mid: '3141.59' } } } },
    { scope: 'worker' },
  ],
});

const NEVER_TRADED = [
  { symbol: SYMBOL, price: '60000.00000000' },
  { symbol: 'ETHUSDT', price: '3141.59000000' },
];

for (const tls of [false, true]) {
  test(`ticker/price and avgPrice answer start_mid with closeTime 0 over REST and the WS API (${tls ? 'https, wss' : 'http, ws'})`, async ({ sim }) => {
    const client = new SpotSimClient(sim, { tls });
    const api = await client.wsApi();
    for (const { symbol, price } of NEVER_TRADED) {
      expect(await client.rest.tickerPrice({ symbol })).toEqual({ symbol, price });
      expect(await api.tickerPrice({ symbol })).toEqual({ symbol, price });
      expect(await client.rest.avgPrice({ symbol })).toEqual({ mins: 5, price, closeTime: 0 });
      expect(await api.avgPrice({ symbol })).toEqual({ mins: 5, price, closeTime: 0 });
    }
    expect(await client.rest.tickerPrice({ symbols: [SYMBOL, 'ETHUSDT'] })).toEqual(NEVER_TRADED);
    expect(await client.rest.tickerPrice()).toEqual(expect.arrayContaining(NEVER_TRADED));
    await client.close();
  });
}

test('windowed tickers keep the no-trade values; the @avgPrice stream pushes start_mid', async ({ sim, client }) => {
  const day = await client.rest.ticker24hr({ symbol: SYMBOL });
  expect(day).toMatchObject({ lastPrice: '0.00000000', openPrice: '0.00000000', count: 0, firstId: -1, lastId: -1 });
  expect(await client.rest.ticker({ symbol: SYMBOL, windowSize: '1h' })).toMatchObject({ lastPrice: '0.00000000', count: 0 });
  const streams = await client.streams('btcusdt@avgPrice');
  sim.advanceTime(1_000);
  expect(await streams.nextOf<AvgPriceEvent>('btcusdt@avgPrice')).toMatchObject({ e: 'avgPrice', s: SYMBOL, w: '60000.00000000', T: 0 });
  await streams.close();
});

test('after the first trade both answer the trades, and a reset makes the symbol never-traded again', async ({ sim, client, market }) => {
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60100', quantity: '0.5' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.1' });
  sim.advanceTime(1_000);
  expect(await client.rest.tickerPrice({ symbol: SYMBOL })).toEqual({ symbol: SYMBOL, price: '60100.00000000' });
  expect(await client.rest.avgPrice({ symbol: SYMBOL })).toEqual({ mins: 5, price: '60100.00000000', closeTime: START });
  sim.reset();
  expect(await client.rest.tickerPrice({ symbol: SYMBOL })).toEqual({ symbol: SYMBOL, price: '60000.00000000' });
  expect(await client.rest.avgPrice({ symbol: SYMBOL })).toEqual({ mins: 5, price: '60000.00000000', closeTime: 0 });
});
