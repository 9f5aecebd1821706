// A recorded market is deterministic (API.md section 12): the same file, configuration and
// requests under the manual clock give byte-identical REST replies, WS API frames and market
// streams, once on the fixture's simulator (reset before the test: the replay restarts at
// `from`) and once on a simulator started fresh with the same configuration. The account's
// orders rest, take from the synthetic book and are filled by prints on the way.
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { startSimulator } from 'spot-sim';
import { HOUR, HOUR_FILE } from './support/replay.ts';
import { frameWhere, recordSession, type Transcript } from './support/transcript.ts';

const FROM = HOUR + 20 * 60_000;
const SIM = { clock: 'manual', start_time_ms: FROM, seed: 42, replay: [{ symbol: 'BTCUSDT', file: HOUR_FILE, from: FROM, fill_at_touch: true }] } as const;

test.use({ simConfig: { sim: SIM } });

async function run(sim: Simulator): Promise<Transcript> {
  return recordSession(sim, 'btcusdt@depth/btcusdt@trade/btcusdt@aggTrade/btcusdt@bookTicker/btcusdt@kline_1m', async ({ client, api, sign, rest }) => {
    for (let step = 0; step < 8; step++) {
      sim.advanceTime(7_000);
      const [last] = await client.rest.trades({ symbol: 'BTCUSDT', limit: 1 });
      const price = Number(last!.price);
      // Resting orders a tick or two from the last print (the prints fill them), and a taker.
      await rest('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: step % 2 ? 'SELL' : 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: (price + (step % 2 ? 0.02 : -0.02)).toFixed(2) });
      api.send(JSON.stringify({ id: step, method: 'order.place', params: sign({ symbol: 'BTCUSDT', side: step % 2 ? 'BUY' : 'SELL', type: 'MARKET', quantity: '0.01' }) }));
      await frameWhere(api, (t) => t.startsWith(`{"id":${step},`));
      sim.advanceTime(13_000);
      await rest('GET', '/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
      await rest('GET', '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 3 });
    }
    await rest('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    await rest('GET', '/api/v3/account', {});
  });
}

test('same file, configuration and requests, manual clock: byte-identical responses and streams on a replayed symbol', async ({ sim }) => {
  const first = await run(sim);
  await using fresh = await startSimulator({ config: { sim: { ...SIM, port: 0, tls_port: 0 } } });
  const second = await run(fresh);
  // The run did something worth comparing: prints, account fills by prints and by takers, depth.
  expect(first.market.filter((f) => f.includes('"e":"depthUpdate"')).length).toBeGreaterThan(5);
  expect(first.market.filter((f) => f.includes('"e":"trade"')).length).toBeGreaterThan(100);
  expect(first.wsApi.filter((f) => f.includes('"x":"TRADE"') && f.includes('"m":true')).length).toBeGreaterThan(0);
  expect(first.wsApi.filter((f) => f.includes('"x":"TRADE"') && f.includes('"m":false')).length).toBeGreaterThan(0);
  expect(first.rest.every((r) => r.startsWith('200 '))).toBe(true);
  expect(second.rest).toEqual(first.rest);
  expect(second.wsApi).toEqual(first.wsApi);
  expect(second.market).toEqual(first.market);
});
