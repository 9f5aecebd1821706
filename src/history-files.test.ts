// History files are strict (`[[sim.history.klines]]`, the reference's 12-column kline CSV of
// its public data): prices and volumes exact whether written with a decimal point or not, trade
// counts whole and below 2^53, candles that make sense (high and low around open and close,
// prices in the instrument's PRICE_FILTER range, closed before the start, one interval apart),
// no empty file. Every problem is named by file, line and column (the first 20, then how many
// more) in a ConfigError: startSimulator rejects with it and the command line exits 2.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, resolveConfig } from './config/index.ts';
import { Exchange } from './core/exchange.ts';
import { KLINE_INTERVALS } from './core/market/index.ts';
import { loadMarketHistory } from './history-files.ts';
import { startSimulator } from './index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** 2025-01-01T00:00:00Z, a minute boundary. */
const T = 1_735_689_600_000;
const MINUTE = 60_000;
/** The simulator starts after the sample rows close. */
const START = T + 10 * MINUTE;

/** One row of a 1m file: open time, OHLC, volume, close time, quote volume, count, taker buys, ignore. */
function row(openTime: number, fields: Partial<Record<'open' | 'high' | 'low' | 'close' | 'volume' | 'closeTime' | 'quote' | 'count' | 'takerBase' | 'takerQuote', string>> = {}): string {
  const f = { open: '60000.00', high: '60010.00', low: '59990.00', close: '60005.00', volume: '1.00000', closeTime: String(openTime + MINUTE - 1), quote: '60000.0000000', count: '10', takerBase: '0.50000', takerQuote: '30000.0000000', ...fields };
  return [openTime, f.open, f.high, f.low, f.close, f.volume, f.closeTime, f.quote, f.count, f.takerBase, f.takerQuote, '0'].join(',');
}

function writeCsv(text: string, name = 'BTCUSDT-1m-2025-01-01.csv'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'spot-sim-history-')), name);
  writeFileSync(path, text);
  return path;
}

function configFor(file: string) {
  return resolveConfig({ sim: { generator: { enabled: false }, history: { minutes: 0, klines: [{ symbol: 'BTCUSDT', file }] } } });
}

/** The ConfigError loading `text` (as a file named `name`) throws; fails when it loads. */
function refusal(text: string, name?: string, start = START): ConfigError {
  const file = writeCsv(text, name);
  try {
    loadMarketHistory(configFor(file), start);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `a ConfigError, not ${String(error)}`);
    assert.ok(error.message.includes(file), `the message names the file: ${error.message}`);
    return error;
  }
  assert.fail(`loaded: ${text.slice(0, 200)}`);
}

/** `line:column` of each problem the message lists. */
function places(error: ConfigError): string[] {
  return [...error.message.matchAll(/\.csv:(\d+:\d+)/g)].map((m) => m[1]!);
}

test('integers and decimals are both exact: 60000 is the price 60000.00, not 0', () => {
  const file = writeCsv([row(T, { open: '60000', high: '60010', low: '59990', close: '60005', volume: '1', quote: '60000', takerBase: '0.5', takerQuote: '30000' }), row(T + MINUTE)].join('\n'));
  const config = configFor(file);
  const history = loadMarketHistory(config, START);
  assert.equal(history.lastClose[0], 6_000_500);
  const md = new Exchange(config, START, history).marketData.of(0);
  const [first, second] = md.klines({ interval: KLINE_INTERVALS.get('1m')!, tz: 0, limit: 2, startTime: T, now: START });
  const figures = (c: typeof first) => [c!.fold.open, c!.fold.high, c!.fold.low, c!.fold.close, c!.fold.volume, c!.fold.quote, c!.fold.takerVolume, c!.fold.takerQuote];
  // The same candle written with decimals (the second row) holds the same figures.
  assert.deepEqual(figures(first), [6_000_000, 6_001_000, 5_999_000, 6_000_500, 100_000, 600_000_000_000, 50_000, 300_000_000_000]);
  assert.deepEqual(figures(second), figures(first));
});

test('trade counts are whole numbers below 2^53: 1.5 and 99999999999999999999 are refused at their column', () => {
  const error = refusal([row(T, { count: '1.5' }), row(T + MINUTE, { count: '99999999999999999999' }), row(T + 2 * MINUTE, { count: '-3' })].join('\n'));
  assert.deepEqual(places(error), ['1:9', '2:9', '3:9']);
  assert.match(error.message, /number of trades\): expected a whole number below 2\^53/);
  // The ids the counts use up stay below 2^53 too.
  const big = String(2 ** 52);
  assert.deepEqual(places(refusal([row(T, { count: big }), row(T + MINUTE, { count: big })].join('\n'))), ['2:9']);
});

test('a row that has not closed before the start is refused (it would become "now")', () => {
  const error = refusal([row(T), row(T + MINUTE), row(T + 2 * MINUTE)].join('\n'), undefined, T + 2 * MINUTE);
  assert.deepEqual(places(error), ['3:7']);
  assert.match(error.message, /before the simulator's start/);
});

test('high is at least open, close and low; low at most open and close', () => {
  const error = refusal([row(T, { high: '59000.00' }), row(T + MINUTE, { low: '60006.00' }), row(T + 2 * MINUTE, { high: '60001.00' })].join('\n'));
  assert.deepEqual(places(error), ['1:3', '2:4', '3:3']);
});

test("prices lie in the instrument's PRICE_FILTER range, on its tick: 1e20, 0 and 60000.001 are refused", () => {
  const error = refusal([row(T, { high: '100000000000000000000' }), row(T + MINUTE, { low: '0' }), row(T + 2 * MINUTE, { open: '60000.001' }), row(T + 3 * MINUTE, { close: '1e5' })].join('\n'));
  assert.deepEqual(places(error), ['1:3', '2:4', '3:2', '4:5']);
  assert.match(error.message, /tick 0\.01/);
});

test('volumes are exact on the lot grid, taker volumes within the totals', () => {
  const error = refusal([row(T, { volume: '1.000001' }), row(T + MINUTE, { takerBase: '2' }), row(T + 2 * MINUTE, { takerQuote: '70000' }), row(T + 3 * MINUTE, { quote: 'x' })].join('\n'));
  assert.deepEqual(places(error), ['1:6', '2:10', '3:11', '4:8']);
});

test("rows are one interval apart: hourly rows in a 1m file, a gap, a repeat and a 1h candle's close time are refused", () => {
  const hourly = refusal([row(T), row(T + 60 * MINUTE), row(T + 120 * MINUTE)].join('\n'), undefined, T + 200 * MINUTE);
  assert.deepEqual(places(hourly), ['2:1', '3:1']);
  assert.match(hourly.message, /1m/);
  // A repeated row is refused; the row after it is one minute after it, so fine.
  assert.deepEqual(places(refusal([row(T), row(T), row(T + MINUTE)].join('\n'))), ['2:1']);
  // The file name says 1m: a row whose close time makes it an hour's candle is not one.
  assert.deepEqual(places(refusal([row(T), row(T + MINUTE, { closeTime: String(T + 61 * MINUTE - 1) })].join('\n'), undefined, T + 200 * MINUTE)), ['2:7']);
  // Without an interval in the name, the first row's close time gives it.
  const file = writeCsv([row(T, { closeTime: String(T + 60 * MINUTE - 1) }), row(T + 60 * MINUTE, { closeTime: String(T + 120 * MINUTE - 1) })].join('\n'), 'candles.csv');
  assert.equal(loadMarketHistory(configFor(file), T + 200 * MINUTE).lastClose[0], 6_000_500);
});

test('a 1s file is refused once, at its first row: history is kept by the minute', () => {
  const seconds = [0, 1, 2].map((i) => row(T + i * 1000, { closeTime: String(T + i * 1000 + 999), count: String(i) }));
  const error = refusal(seconds.join('\n'), 'BTCUSDT-1s-2025-01-01.csv');
  assert.deepEqual(places(error), ['1:7']);
  assert.match(error.message, /1m or longer/);
});

test('an empty file, or one of blank lines, is an error; CRLF, a final newline and microsecond times are fine', () => {
  assert.deepEqual(places(refusal('')), ['1:1']);
  assert.match(refusal('\n\r\n').message, /no candles/);
  const file = writeCsv(`${row(T)}\r\n${row((T + MINUTE) * 1000, { closeTime: String((T + 2 * MINUTE) * 1000 - 1) })}\r\n`);
  assert.equal(loadMarketHistory(configFor(file), START).lastClose[0], 6_000_500);
});

test('every problem is named by file, line and column: the first 20 listed, then how many more', () => {
  const lines = Array.from({ length: 30 }, (_, i) => row(T + i * MINUTE, { count: 'x' }));
  lines.splice(5, 0, '1,2,3');
  const error = refusal(lines.join('\n'), undefined, T + 100 * MINUTE);
  const listed = places(error);
  assert.equal(listed.length, 20);
  assert.deepEqual(listed.slice(0, 6), ['1:9', '2:9', '3:9', '4:9', '5:9', '6:1']);
  assert.match(error.message, /31 problems/);
  assert.match(error.message, /\n {2}and 11 more$/);
});

test('an unreadable file is a ConfigError naming its key', () => {
  const config = configFor(join(tmpdir(), 'spot-sim-no-such-dir', 'BTCUSDT-1m.csv'));
  assert.throws(() => loadMarketHistory(config, START), (error: unknown) => error instanceof ConfigError && /sim\.history\.klines\[0\]\.file/.test(error.message));
});

test('startSimulator rejects with the ConfigError', async () => {
  const file = writeCsv(row(T, { high: '1' }));
  await assert.rejects(
    startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: START, generator: { enabled: false }, history: { klines: [{ symbol: 'BTCUSDT', file }] } } } }),
    (error: unknown) => error instanceof ConfigError && error.message.includes(`${file}:1:3`),
  );
});

test('the command line exits 2 naming the file, line and column', () => {
  const file = writeCsv([row(T), row(T + MINUTE, { count: '1.5' })].join('\n'));
  const toml = join(mkdtempSync(join(tmpdir(), 'spot-sim-history-')), 'sim.toml');
  writeFileSync(toml, `[sim]\nport = 0\ntls_port = 0\nclock = "manual"\nstart_time_ms = ${START}\n\n[[sim.history.klines]]\nsymbol = "BTCUSDT"\nfile = ${JSON.stringify(file)}\n`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('SVC_SIM_') && !key.startsWith('NODE_TEST')) env[key] = value;
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', '--config', toml], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(result.status, 2, result.stderr);
  assert.ok(result.stderr.includes(`${file}:2:9`), result.stderr);
});
