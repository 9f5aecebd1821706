import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_API_KEY, DEFAULT_API_SECRET, DEFAULT_CONFIG } from './defaults.ts';
import { resolveConfig } from './resolve.ts';
import { startMidOf, maxNotionalOf } from './lookup.ts';

test('the embedded default matches API.md section 2', () => {
  const { engine, sim, instruments } = DEFAULT_CONFIG;
  assert.equal(engine.net_backend, 'epoll');
  assert.equal(sim.seed, 7);
  assert.equal(sim.venue, 'all');
  assert.equal(sim.start_mid, '60000');
  assert.equal(sim.bind, '127.0.0.1');
  assert.equal(sim.port, 9080);
  assert.equal(sim.tls_port, 9443);
  assert.equal(sim.tls_cert, 'fixtures/tls/cert.pem');
  assert.equal(sim.tls_key, 'fixtures/tls/key.pem');
  assert.equal(sim.depth_update_ms, 100);
  assert.equal(sim.depth_snapshot, 'live');
  assert.equal(sim.driver_tick_ms, 2);
  assert.equal(sim.clock_offset_ms, 0);
  assert.equal(sim.start_time_ms, 0);
  assert.equal(sim.ping_interval_ms, 20000);
  assert.equal(sim.pong_timeout_ms, 60000);
  assert.equal(sim.listen_key_validity_ms, 3600000);
  assert.equal(sim.stats_interval_ms, 10000);
  assert.equal(sim.control_api, true);
  assert.equal('control_token' in sim, false);
  assert.equal(sim.clock, 'wall');
  assert.equal(sim.max_advance_ms, 2_592_000_000);
  assert.deepEqual(sim.account, {
    api_key: DEFAULT_API_KEY,
    api_secret: DEFAULT_API_SECRET,
    ended_orders: 'forget',
    max_ended_orders: 100000,
    balances: { BTC: '100', ETH: '100', USDT: '10000000' },
  });
  assert.deepEqual(sim.fees, { maker_bps: '1', taker_bps: '4' });
  assert.deepEqual(sim.limits, {
    weight_per_minute: 6000,
    orders_per_10s: 1000,
    orders_per_day: 1000000,
    max_recv_window_ms: 60000,
  });
  assert.deepEqual(sim.generator, {
    enabled: true,
    seed_levels: 20,
    touch_offset_ticks: 2990,
    depth_spread_ticks: 400,
    level_spacing_ticks: 10,
    limit_rate_per_s: 20,
    market_rate_per_s: 1,
    mean_order_lifetime_s: 20,
    limit_notional_min: '50',
    limit_notional_max: '2000',
    market_notional_min: '500',
    market_notional_max: '10000',
    mid_step_max_ticks: 3,
  });
  assert.ok(Object.values(sim.faults).every((value) => value === 0));
  assert.equal(Object.keys(sim.faults).length, 9);
  assert.deepEqual(sim.symbols, { BTCUSDT: { start_mid: '60000' }, ETHUSDT: { start_mid: '3000' } });
  assert.deepEqual(instruments, [
    { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001',
      max_qty: '9000', min_notional: '5', enabled: true, venue: 'binance' },
    { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', tick: '0.01', lot: '0.0001', min_qty: '0.0001',
      max_qty: '100000', min_notional: '5', enabled: true, venue: 'binance' },
  ]);
});

test('the placeholder credentials are fixed 64-character alphanumeric strings', () => {
  assert.match(DEFAULT_API_KEY, /^[A-Za-z0-9]{64}$/);
  assert.match(DEFAULT_API_SECRET, /^[A-Za-z0-9]{64}$/);
  assert.notEqual(DEFAULT_API_KEY, DEFAULT_API_SECRET);
});

test('resolving no input gives exactly the embedded default', () => {
  assert.deepStrictEqual(resolveConfig(), DEFAULT_CONFIG);
  assert.deepStrictEqual(resolveConfig({}), DEFAULT_CONFIG);
});

test('the embedded default and resolved configs are deeply frozen', () => {
  for (const config of [DEFAULT_CONFIG, resolveConfig({ sim: { seed: 1 } })]) {
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.sim.account.balances));
    assert.ok(Object.isFrozen(config.instruments));
    assert.ok(Object.isFrozen(config.instruments[0]));
    assert.ok(Object.isFrozen(config.sim.symbols.ETHUSDT));
    assert.throws(() => {
      (config.sim as { seed: number }).seed = 99;
    }, TypeError);
  }
});

test('ETHUSDT starts at 3000 and BTCUSDT at 60000; no max_notional by default', () => {
  assert.equal(startMidOf(DEFAULT_CONFIG, 'ETHUSDT'), '3000');
  assert.equal(startMidOf(DEFAULT_CONFIG, 'BTCUSDT'), '60000');
  assert.equal(maxNotionalOf(DEFAULT_CONFIG, 'BTCUSDT'), undefined);
});

test('startMidOf falls back to sim.start_mid for a symbol without its own', () => {
  const config = resolveConfig({
    sim: { start_mid: '150' },
    instruments: [{ symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', tick: '0.01', lot: '0.01', min_qty: '0.01', max_qty: '100', min_notional: '1' }],
  });
  assert.equal(startMidOf(config, 'SOLUSDT'), '150');
});
