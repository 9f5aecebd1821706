// A loaded configuration with [[sim.replay]] entries can be given again as the input of another
// start (the fixture's `simConfig: loadConfig({ configFile })`): the nulls of its defaults
// (`format`, `from`) read as left out. Seen failing before: "sim.replay[0].format: expected
// "aggTrades" or "trades", got null".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from './index.ts';
import type { SimConfigInput } from './types.ts';

test('a loaded configuration with replay entries loads again unchanged', () => {
  const loaded = loadConfig({ config: { sim: { replay: [{ symbol: 'BTCUSDT', file: '/data/BTCUSDT-aggTrades-2025-01-01.zip' }] } } });
  assert.equal(loaded.sim.replay[0]!.format, null);
  assert.equal(loaded.sim.replay[0]!.from, null);
  assert.deepEqual(loadConfig({ config: loaded as unknown as SimConfigInput }).sim.replay, loaded.sim.replay);
});
