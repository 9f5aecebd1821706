// Generates the committed replay samples under fixtures/replay/ (API.md section 12: "its tests
// use small samples in the reference's formats committed under fixtures/"): synthetic
// BTCUSDT-like tapes (scripts/replay/synthetic-trades.ts) in each form a downloaded file takes.
// Deterministic: running it again writes the same bytes (a test checks the committed files).
//
// Usage: npx tsx scripts/replay/generate-samples.ts [directory]   (default: fixtures/replay)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aggregates, aggTradesCsv, tradesCsv, type TapeOptions } from './synthetic-trades.ts';
import { writeZip } from './zip-writer.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const JAN_1 = Date.UTC(2025, 0, 1) * 1000;
const DEC_31 = Date.UTC(2024, 11, 31) * 1000;
const JAN_2 = Date.UTC(2025, 0, 2) * 1000;

/** A few hundred aggregates over about ten minutes, in µs (2025) or ms (2024). */
const small = (seed: number, startUs: number, resolutionUs: number): TapeOptions => ({ seed, startUs, aggregates: 300, meanGapUs: 2_000_000, resolutionUs, startPriceTicks: 9_350_000, volatilityTicks: 500 });
/** About an hour: the kline test's sample. */
const HOUR: TapeOptions = { seed: 35, startUs: JAN_2, aggregates: 3300, meanGapUs: 1_200_000, resolutionUs: 1, startPriceTicks: 9_420_000, volatilityTicks: 550 };

/** Each sample: its file name and its bytes. */
export function samples(): Map<string, Buffer> {
  const text = (pieces: Iterable<string>) => Buffer.from([...pieces].join(''), 'utf8');
  const micro = small(1, JAN_1, 1);
  const milli = small(2, DEC_31, 1000);
  const aggUs = text(aggTradesCsv(aggregates(micro), { unit: 'us', header: false, crlf: false }));
  const tradesUs = text(tradesCsv(aggregates(micro), { unit: 'us', header: false, crlf: false }));
  return new Map([
    // As downloaded from the public data (spot files are in µs from 2025, without a header).
    ['BTCUSDT-aggTrades-2025-01-01.zip', writeZip([{ name: 'BTCUSDT-aggTrades-2025-01-01.csv', data: aggUs }])],
    ['BTCUSDT-aggTrades-2025-01-01.csv', aggUs],
    ['BTCUSDT-trades-2025-01-01.zip', writeZip([{ name: 'BTCUSDT-trades-2025-01-01.csv', data: tradesUs }])],
    ['BTCUSDT-trades-2025-01-01.csv', tradesUs],
    // Milliseconds (files before 2025), with a header line and CRLF line ends.
    ['BTCUSDT-aggTrades-2024-12-31.csv', text(aggTradesCsv(aggregates(milli), { unit: 'ms', header: true, crlf: true }))],
    ['BTCUSDT-trades-2024-12-31.csv', text(tradesCsv(aggregates(milli), { unit: 'ms', header: true, crlf: true }))],
    // About an hour from 2025-01-02T00:00:00Z.
    ['BTCUSDT-aggTrades-2025-01-02.csv', text(aggTradesCsv(aggregates(HOUR), { unit: 'us', header: false, crlf: false }))],
  ]);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(REPO_ROOT, 'fixtures/replay'));
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of samples()) {
    writeFileSync(join(dir, name), bytes);
    console.log(`wrote ${join(dir, name)} (${bytes.length} bytes)`);
  }
}
