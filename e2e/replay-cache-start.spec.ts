// A later start of a replayed day comes from the cache, which it reads as the replay goes (the
// rows through a little past `from` at start, the rows each move of the clock prints just before
// it, the rest in the background): what it serves is byte for byte what a start that parsed the
// file serves. The file is a synthetic day of 200k aggregate trades, a few of the cache's pieces.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { startSimulator, type Simulator } from 'spot-sim';
import { aggregates, aggTradesCsv } from '../scripts/replay/synthetic-trades.ts';
import { recordSession, type Transcript } from './support/transcript.ts';

const START_US = Date.UTC(2025, 0, 3) * 1000;
const ROWS = 200_000;

function dayFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'spot-sim-cache-start-')), 'BTCUSDT-aggTrades-2025-01-03.csv');
  const tape = aggregates({ seed: 11, startUs: START_US, aggregates: ROWS, meanGapUs: 400_000, resolutionUs: 1, startPriceTicks: 9_650_000, volatilityTicks: 150 });
  writeFileSync(file, [...aggTradesCsv(tape, { unit: 'us', header: false, crlf: false })].join(''));
  return file;
}

async function run(sim: Simulator): Promise<Transcript> {
  return recordSession(sim, 'btcusdt@kline_1m', async ({ rest }) => {
    // 200k rows 0.4 s apart are about 22 recorded hours: at speed 60, 22 minutes of the clock.
    for (let step = 0; step < 12; step++) {
      sim.advanceTime(2 * 60_000);
      const { price } = (await (await fetch(`${sim.urls.http}/api/v3/ticker/price?symbol=BTCUSDT`)).json()) as { price: string };
      await rest('POST', '/api/v3/order', { symbol: 'BTCUSDT', side: step % 2 ? 'SELL' : 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: (Number(price) + (step % 2 ? 5 : -5)).toFixed(2) });
      await rest('GET', '/api/v3/klines', { symbol: 'BTCUSDT', interval: '1m', limit: 5 });
      await rest('GET', '/api/v3/aggTrades', { symbol: 'BTCUSDT', limit: 20 });
      await rest('GET', '/api/v3/depth', { symbol: 'BTCUSDT', limit: 5 });
    }
    await rest('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' });
    await rest('GET', '/api/v3/account', {});
  });
}

test('a start from the cache serves byte for byte what a start that parsed the file serves', async () => {
  test.setTimeout(120_000);
  const file = dayFile();
  const cacheDir = mkdtempSync(join(tmpdir(), 'spot-sim-cache-start-cache-'));
  const sim = { clock: 'manual', start_time_ms: Date.UTC(2026, 0, 3), seed: 3, generator: { enabled: false }, replay: [{ symbol: 'BTCUSDT', file, speed: 60 }], replay_cache_dir: cacheDir, port: 0, tls_port: 0 } as const;

  let parsed: Transcript;
  {
    await using first = await startSimulator({ config: { sim } });
    parsed = await run(first);
  }
  expect(readdirSync(cacheDir).filter((name) => name.endsWith('.bin'))).toHaveLength(1);
  await using later = await startSimulator({ config: { sim } });
  const cached = await run(later);
  expect(parsed.rest.every((r) => r.startsWith('200 '))).toBe(true);
  expect(parsed.market.length).toBeGreaterThan(20);
  expect(JSON.parse(parsed.rest.at(-2)!.slice(4)).length, 'the orders were filled by prints').toBeGreaterThan(4);
  expect(cached.rest).toEqual(parsed.rest);
  expect(cached.market).toEqual(parsed.market);
  expect(cached.wsApi).toEqual(parsed.wsApi);
});
