import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { DEFAULT_CONFIG } from './defaults.ts';
import { printConfigToml, treeGives, type ValueSource } from './print-config.ts';
import { resolveConfig } from './resolve.ts';

const fromDefault = (): ValueSource => ({ kind: 'default' });

test('the printed default loads back to the default', () => {
  const text = printConfigToml(DEFAULT_CONFIG, fromDefault);
  assert.deepStrictEqual(resolveConfig(parse(text)), DEFAULT_CONFIG);
  // The shipped TLS files and the published secret stay defaults: shown commented.
  assert.match(text, /^# tls_cert = "fixtures\/tls\/cert\.pem"  # default: the file shipped in the package$/m);
  assert.match(text, /^# api_secret is set \(not shown\)  # default$/m);
});

test('strings that need escapes survive the round trip; a configured file path is printed as a value', () => {
  const config = resolveConfig({ sim: { bind: 'host"with\\quote\u007f', tls_cert: '/etc/ssl/my cert.pem', control_token: 'secret-token' } });
  const text = printConfigToml(config, (path) => (path.join('.') === 'sim.tls_cert' ? { kind: 'file', file: 'x.toml' } : fromDefault()));
  const tree = parse(text) as { sim: Record<string, unknown> };
  assert.equal(tree.sim['bind'], 'host"with\\quote\u007f');
  assert.equal(tree.sim['tls_cert'], '/etc/ssl/my cert.pem');
  assert.match(text, /^tls_cert = "\/etc\/ssl\/my cert\.pem"  # file x\.toml$/m);
  assert.ok(!text.includes('secret-token'));
  assert.match(text, /^# control_token is set \(not shown\)/m);
});

test('treeGives: a key the tree sets, and everything under an array it sets (arrays replace)', () => {
  const tree = { sim: { port: 1, account: { balances: { BTC: 5 } } }, instruments: [{ symbol: 'X' }] };
  assert.ok(treeGives(tree, ['sim', 'port']));
  assert.ok(treeGives(tree, ['sim', 'account', 'balances', 'BTC']));
  assert.ok(!treeGives(tree, ['sim', 'account', 'balances', 'USDT']));
  assert.ok(treeGives(tree, ['instruments', 3, 'tick']));
  assert.ok(!treeGives(tree, ['sim', 'seed']));
  assert.ok(!treeGives({}, ['instruments']));
});

test('a [[sim.replay]] entry prints as a table array that loads back, keys left at null (format, from) left out', () => {
  const replay = [
    { symbol: 'BTCUSDT', file: '/data/BTCUSDT-aggTrades-2025-01-01.zip' },
    { symbol: 'ETHUSDT', file: '/data/ETHUSDT-trades-2025-01-01.csv', format: 'trades', from: 1735718400000, speed: 60, fill_at_touch: true, depth_levels: 5, level_qty: '0.5' },
  ];
  const config = resolveConfig({ sim: { replay } });
  const text = printConfigToml(config, fromDefault);
  assert.deepStrictEqual(resolveConfig(parse(text)), config);
  assert.match(text, /^\[\[sim\.replay\]\]  # default$/m);
  assert.doesNotMatch(text, /null/);
});
