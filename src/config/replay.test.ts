// `[[sim.replay]]` keys (API.md section 12): defaults, each key's rule named by its path, the
// rules across keys, paths relative to the TOML file, and `from` in each form a user writes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { loadConfigFile } from './load.ts';
import { formatOfFileName, parseRfc3339 } from './replay.ts';
import { resolveConfig } from './resolve.ts';
import { assertOnlyProblem, problemsOf, writeTempFile } from './test-helpers.ts';

const AGG = '/data/BTCUSDT-aggTrades-2025-01-01.zip';
const replay = (...entries: Record<string, unknown>[]) => ({ sim: { replay: entries } });
const entry = (overrides: Record<string, unknown> = {}) => ({ symbol: 'BTCUSDT', file: AGG, ...overrides });

test('an entry with only symbol and file gets every default', () => {
  const config = resolveConfig(replay(entry()));
  assert.deepStrictEqual(config.sim.replay, [
    { symbol: 'BTCUSDT', file: AGG, format: null, speed: 1, from: null, fill_at_touch: false, depth_levels: 20, level_qty: '1' },
  ]);
  assert.deepStrictEqual(resolveConfig({}).sim.replay, []);
});

test('every key is read: format, speed, from, fill_at_touch, depth_levels, level_qty (canonical)', () => {
  const config = resolveConfig(replay(entry({ format: 'trades', speed: 0.5, from: 1735718400000, fill_at_touch: true, depth_levels: 5000, level_qty: '0.50000' })));
  assert.deepStrictEqual(config.sim.replay[0], {
    symbol: 'BTCUSDT', file: AGG, format: 'trades', speed: 0.5, from: 1735718400000, fill_at_touch: true, depth_levels: 5000, level_qty: '0.5',
  });
});

test('each key refuses what it cannot hold, named by its path', () => {
  const path = (key: string) => `sim.replay[0].${key}`;
  for (const speed of [0, -1, 0.0009, 1_000_001, '1', Number.NaN]) assertOnlyProblem(replay(entry({ speed })), path('speed'), /a number from 0\.001 to 1000000/);
  for (const depth_levels of [0, 5001, 1.5, '20']) assertOnlyProblem(replay(entry({ depth_levels })), path('depth_levels'), /integer from 1 to 5000/);
  for (const level_qty of ['0', '-1', 'abc', 0]) assertOnlyProblem(replay(entry({ level_qty })), path('level_qty'), /positive decimal/);
  assertOnlyProblem(replay(entry({ fill_at_touch: 'yes' })), path('fill_at_touch'), /true or false/);
  assertOnlyProblem(replay(entry({ format: 'klines' })), path('format'), /"aggTrades" or "trades"/);
  assertOnlyProblem(replay(entry({ format: 'aggtrades' })), path('format'), /"aggTrades" or "trades"/);
  assertOnlyProblem(replay(entry({ colour: 'red' })), path('colour'), /^unknown key/);
  assertOnlyProblem(replay(entry({ fill_at_tuch: true })), path('fill_at_tuch'), /did you mean "fill_at_touch"/);
  assertOnlyProblem(replay({ symbol: 'BTCUSDT' }), path('file'), /required/);
  assertOnlyProblem(replay({ file: AGG }), path('symbol'), /required/);
  assertOnlyProblem(replay(entry({ file: '' })), path('file'), /non-empty string/);
  assertOnlyProblem({ sim: { replay: entry() } }, 'sim.replay', /array of tables/);
  assertOnlyProblem({ sim: { replay: ['x'] } }, 'sim.replay[0]', /a table/);
});

test('from: an RFC 3339 date-time with a zone or whole ms below 10^14; nothing else', () => {
  const fromOf = (from: unknown) => resolveConfig(replay(entry({ from }))).sim.replay[0]!.from;
  assert.equal(fromOf('2025-01-01T08:00:00Z'), 1735718400000);
  assert.equal(fromOf('2025-01-01T10:00:00+02:00'), 1735718400000);
  assert.equal(fromOf('2025-01-01 08:00:00.250z'), 1735718400250);
  assert.equal(fromOf(new Date(1735718400000)), 1735718400000);
  assert.equal(fromOf(1735718400000), 1735718400000);
  for (const bad of ['2025-01-01T08:00:00', '2025-01-01', '2025-02-30T00:00:00Z', '2025-01-01T24:00:00Z', '2025-01-01T08:00:00.1234Z', '2025-01-01T08:00:00+24:00', 'yesterday', 1735718400000000, -1, 1.5, true]) {
    assertOnlyProblem(replay(entry({ from: bad })), 'sim.replay[0].from', /RFC 3339 date-time with a time zone .* or whole milliseconds/);
  }
});

test('from in a TOML file: an offset date-time or a string; a local date-time names no instant', () => {
  const file = (from: string) => writeTempFile('replay.toml', `[[sim.replay]]\nsymbol = "BTCUSDT"\nfile = "${AGG}"\nfrom = ${from}\n`);
  assert.equal(loadConfigFile(file('2025-01-01T08:00:00Z')).sim.replay[0]!.from, 1735718400000);
  assert.equal(loadConfigFile(file('"2025-01-01T08:00:00Z"')).sim.replay[0]!.from, 1735718400000);
  assert.throws(() => loadConfigFile(file('2025-01-01T08:00:00')), /sim\.replay\[0\]\.from: expected an RFC 3339 date-time with a time zone/);
});

test('a relative file and cache directory are relative to the TOML file\'s directory; the cache directory is absent by default', () => {
  const toml = writeTempFile('replay.toml', '[sim]\nreplay_cache_dir = "cache"\n[[sim.replay]]\nsymbol = "BTCUSDT"\nfile = "data/BTCUSDT-aggTrades-2025-01-01.csv"\n');
  const config = loadConfigFile(toml);
  assert.equal(config.sim.replay[0]!.file, join(dirname(toml), 'data/BTCUSDT-aggTrades-2025-01-01.csv'));
  assert.equal(config.sim.replay_cache_dir, join(dirname(toml), 'cache'));
  assert.equal('replay_cache_dir' in resolveConfig({}).sim, false);
  assertOnlyProblem({ sim: { replay_cache_dir: '' } }, 'sim.replay_cache_dir', /non-empty string/);
});

test('across keys: an active instrument, once, not with a kline history, level_qty on its lot, a known kind of file', () => {
  assertOnlyProblem(replay(entry({ symbol: 'SOLUSDT' })), 'sim.replay[0].symbol', /the symbol of an active instrument/);
  assertOnlyProblem(replay(entry(), entry()), 'sim.replay[1].symbol', /one \[\[sim\.replay\]\] entry per symbol/);
  const withKlines = { sim: { replay: [entry()], history: { klines: [{ symbol: 'BTCUSDT', file: '/data/BTCUSDT-1m-2025-01-01.csv' }] } } };
  assertOnlyProblem(withKlines, 'sim.replay[0].symbol', /without \[\[sim\.history\.klines\]\]/);
  assertOnlyProblem(replay(entry({ level_qty: '0.000001' })), 'sim.replay[0].level_qty', /a multiple of the lot 0\.00001 of BTCUSDT/);
  assertOnlyProblem(replay(entry({ symbol: 'ETHUSDT', level_qty: '0.00001' })), 'sim.replay[0].level_qty', /the lot 0\.0001 of ETHUSDT/);
  assertOnlyProblem(replay(entry({ file: '/data/BTCUSDT-aggTrades-2025-01-01.csv.gz' })), 'sim.replay[0].file', /a \.zip or \.csv file/);
  assertOnlyProblem(replay(entry({ file: '/data/btc.csv' })), 'sim.replay[0].format', /the file name says neither/);
  // With format, any name will do.
  assert.equal(resolveConfig(replay(entry({ file: '/data/btc.csv', format: 'aggTrades' }))).sim.replay[0]!.format, 'aggTrades');
  // A disabled instrument is not active.
  const disabled = { sim: { replay: [entry({ symbol: 'ETHUSDT' })] }, instruments: [{ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5' }, { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', tick: '0.01', lot: '0.0001', min_qty: '0.0001', max_qty: '100', min_notional: '5', enabled: false }] };
  assertOnlyProblem(disabled, 'sim.replay[0].symbol', /active instrument/);
});

test('every problem of every entry at once', () => {
  const problems = problemsOf(replay(entry({ speed: 0 }), entry({ symbol: 'XUSDT', depth_levels: 0 })));
  assert.deepEqual(problems.map((p) => p.path), ['sim.replay[0].speed', 'sim.replay[1].depth_levels']);
});

test('the kind from the reference\'s file names', () => {
  assert.equal(formatOfFileName('/x/BTCUSDT-aggTrades-2025-01-01.zip'), 'aggTrades');
  assert.equal(formatOfFileName('BTCUSDT-aggTrades-2025-01.csv'), 'aggTrades');
  assert.equal(formatOfFileName('BTCUSDT-trades-2025-01-01.zip'), 'trades');
  assert.equal(formatOfFileName('btcusdt-TRADES-2025-01-01.csv'), 'trades');
  assert.equal(formatOfFileName('/data-trades-dir/BTCUSDT.csv'), undefined); // the name, not the directory
  assert.equal(formatOfFileName('BTCUSDT-1m-2025-01-01.zip'), undefined);
  assert.equal(formatOfFileName('BTCUSDT-trades-aggTrades-x.zip'), undefined);
});

test('parseRfc3339: zones, fractions to the ms, impossible dates refused', () => {
  assert.equal(parseRfc3339('1970-01-01T00:00:00Z'), 0);
  assert.equal(parseRfc3339('2024-02-29T23:59:59.999-00:30'), Date.UTC(2024, 1, 29, 23, 59, 59, 999) + 30 * 60_000);
  for (const bad of ['2023-02-29T00:00:00Z', '2025-13-01T00:00:00Z', '2025-01-01T00:60:00Z', '2025-01-01T00:00:60Z', '2025-01-01T00:00:00+00:60', ' 2025-01-01T00:00:00Z']) {
    assert.equal(parseRfc3339(bad), undefined, bad);
  }
});
