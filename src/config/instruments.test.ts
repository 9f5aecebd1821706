import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from './resolve.ts';
import { assertOnlyProblem, instrument } from './test-helpers.ts';

const btc = instrument({ symbol: 'BTCUSDT', base: 'BTC', venue: 'binance' });
const sol = instrument({ symbol: 'SOLUSDT', base: 'SOL', venue: 'other' });
const xrp = instrument({ symbol: 'XRPEUR', base: 'XRP', quote: 'EUR', venue: 'other' });

test('venue "all" keeps every instrument', () => {
  const config = resolveConfig({ instruments: [btc, sol, xrp] });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['BTCUSDT', 'SOLUSDT', 'XRPEUR']);
  assert.deepEqual(config.instruments.map((item) => item.venue), ['binance', 'other', 'other']);
});

test('a named venue keeps only that venue\'s instruments, their balances and overrides', () => {
  const config = resolveConfig({
    sim: {
      venue: 'other',
      symbols: { BTCUSDT: { start_mid: '50000' }, SOLUSDT: { start_mid: '150' } },
      account: { balances: { BTC: 5, SOL: 7 } },
    },
    instruments: [btc, sol, xrp],
  });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['SOLUSDT', 'XRPEUR']);
  assert.deepEqual(config.sim.account.balances, { EUR: '10000000', SOL: '7', USDT: '10000000', XRP: '100' });
  assert.deepEqual(config.sim.symbols, { SOLUSDT: { start_mid: '150' } });
});

test('an instrument without a venue belongs to "binance"', () => {
  const { venue: _venue, ...plain } = btc;
  const config = resolveConfig({ sim: { venue: 'binance' }, instruments: [plain, sol] });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['BTCUSDT']);
});

test('enabled = false skips an instrument', () => {
  const config = resolveConfig({ instruments: [btc, { ...sol, enabled: false }] });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['BTCUSDT']);
  assert.deepEqual(config.sim.account.balances, { BTC: '100', USDT: '10000000' });
});

test('disabling a default instrument through a replaced list works', () => {
  const config = resolveConfig({ instruments: [btc, { ...instrument({ symbol: 'ETHUSDT', base: 'ETH' }), enabled: false }] });
  assert.deepEqual(config.instruments.map((item) => item.symbol), ['BTCUSDT']);
  // The default ETHUSDT override is still valid (ETHUSDT is configured) but goes with it.
  assert.deepEqual(config.sim.symbols, { BTCUSDT: { start_mid: '60000' } });
});

test('no active instrument left is an error at `instruments`', () => {
  assertOnlyProblem({ sim: { venue: 'kraken' } }, 'instruments', /enabled instrument of venue "kraken"/);
  assertOnlyProblem({ instruments: [{ ...btc, enabled: false }] }, 'instruments', /at least an enabled instrument/);
  assertOnlyProblem({ instruments: [] }, 'instruments', /at least an enabled instrument/);
});

test('instrument settings are validated even when the instrument is inactive', () => {
  assertOnlyProblem({ instruments: [btc, { ...sol, enabled: false, tick: '0.3' }] }, 'instruments[1].tick', /power of ten/);
  assertOnlyProblem({ instruments: [btc, { ...sol, enabled: 'no' }] }, 'instruments[1].enabled', /true or false/);
  assertOnlyProblem({ instruments: [btc, { ...sol, venue: '' }] }, 'instruments[1].venue', /non-empty string/);
});
