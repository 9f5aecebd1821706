import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from './errors.ts';
import { resolveConfig } from './resolve.ts';
import { assertOnlyProblem, instrument, problemsOf } from './test-helpers.ts';

/** `{ sim: { [key]: value } }` */
const sim = (values: Record<string, unknown>) => ({ sim: values });
const instruments = (...items: Record<string, unknown>[]) => ({ instruments: items });

test('unknown keys are reported at every level', () => {
  assertOnlyProblem({ colour: 'red' }, 'colour', /^unknown key/);
  assertOnlyProblem({ engine: { backend: 'epoll' } }, 'engine.backend', /^unknown key/);
  assertOnlyProblem(sim({ prot: 1 }), 'sim.prot', /^unknown key; did you mean "port"\?/);
  assertOnlyProblem(sim({ account: { apikey: 'x' } }), 'sim.account.apikey', /^unknown key; did you mean "api_key"/);
  assertOnlyProblem(sim({ fees: { maker: 1 } }), 'sim.fees.maker', /^unknown key/);
  assertOnlyProblem(sim({ limits: { weight: 1 } }), 'sim.limits.weight', /^unknown key/);
  assertOnlyProblem(sim({ generator: { seed_level: 1 } }), 'sim.generator.seed_level', /did you mean "seed_levels"/);
  assertOnlyProblem(sim({ faults: { drop_md: 1 } }), 'sim.faults.drop_md', /^unknown key/);
  assertOnlyProblem(sim({ symbols: { BTCUSDT: { start: 1 } } }), 'sim.symbols.BTCUSDT.start', /^unknown key/);
  assertOnlyProblem(instruments(instrument(), instrument({ symbol: 'XUSDT', colour: 1 })), 'instruments[1].colour', /^unknown key/);
});

test('a key that is not a bare TOML key is quoted in the path', () => {
  assertOnlyProblem(sim({ 'bad key': 1 }), 'sim."bad key"', /^unknown key/);
});

test('wrong types are reported with the key path', () => {
  assertOnlyProblem(sim({ port: '9080' }), 'sim.port', /port number from 0 to 65535/);
  assertOnlyProblem(sim({ control_api: 'yes' }), 'sim.control_api', /true or false/);
  assertOnlyProblem(sim({ bind: 127 }), 'sim.bind', /non-empty string/);
  assertOnlyProblem({ engine: 'epoll' }, 'engine', /a table/);
  assertOnlyProblem(sim({ generator: [] }), 'sim.generator', /a table/);
  assertOnlyProblem(sim({ generator: { enabled: 1 } }), 'sim.generator.enabled', /true or false/);
  assertOnlyProblem({ instruments: { symbol: 'BTCUSDT' } }, 'instruments', /array/);
  assertOnlyProblem(instruments('BTCUSDT' as never), 'instruments[0]', /a table/);
  const problem = assertOnlyProblem(sim({ seed: 'seven' }), 'sim.seed');
  assert.equal(problem.got, '"seven"');
});

test('a missing required instrument key is reported', () => {
  const { tick: _tick, ...withoutTick } = instrument();
  assertOnlyProblem(instruments(withoutTick), 'instruments[0].tick', /required/);
});

test('decimal strings must be plain decimals; numbers go through their shortest form', () => {
  for (const bad of ['1e3', '-1', '+1', ' 1', '1.', '.5', '0x10', 'Infinity', '1,5', '']) {
    assertOnlyProblem(sim({ start_mid: bad }), 'sim.start_mid', /positive decimal.*no sign, no exponent/);
  }
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, true, null]) {
    assertOnlyProblem(sim({ start_mid: bad }), 'sim.start_mid', /positive decimal/);
  }
  const config = resolveConfig({
    sim: { generator: { limit_notional_min: 0.1, limit_notional_max: '2000.50' } },
    instruments: [instrument({ lot: 1e-7, min_qty: 1e-7, max_qty: 123.4, tick: '0.10' })],
  });
  assert.equal(config.sim.generator.limit_notional_min, '0.1');
  assert.equal(config.sim.generator.limit_notional_max, '2000.5');
  assert.equal(config.instruments[0]!.lot, '0.0000001');
  assert.equal(config.instruments[0]!.min_qty, '0.0000001');
  assert.equal(config.instruments[0]!.max_qty, '123.4');
  assert.equal(config.instruments[0]!.tick, '0.1');
});

test('tick and lot must be powers of ten from 1e-8 to 1', () => {
  for (const bad of ['0.03', '10', '0.000000001', '0', '0.5', '2']) {
    assertOnlyProblem(instruments(instrument({ tick: bad, min_qty: '1', max_qty: '1' })), 'instruments[0].tick', /power of ten/);
    assertOnlyProblem(instruments(instrument({ lot: bad, min_qty: '1', max_qty: '1' })), 'instruments[0].lot', /power of ten/);
  }
  for (const good of ['1', '0.1', '0.00000001', '1.000']) {
    const config = resolveConfig(instruments(instrument({ tick: good, lot: '1', min_qty: '1', max_qty: '1' })));
    assert.equal(config.instruments[0]!.tick, good === '1.000' ? '1' : good);
    assert.equal(resolveConfig(instruments(instrument({ tick: '1', lot: good, min_qty: '1', max_qty: '1' }))).instruments[0]!.lot, good === '1.000' ? '1' : good);
  }
});

test('min_qty and max_qty must be positive, on the lot grid, and ordered', () => {
  assertOnlyProblem(instruments(instrument({ min_qty: '0' })), 'instruments[0].min_qty', /positive decimal/);
  assertOnlyProblem(instruments(instrument({ max_qty: 0 })), 'instruments[0].max_qty', /positive decimal/);
  assertOnlyProblem(instruments(instrument({ min_qty: '0.0015' })), 'instruments[0].min_qty', /multiple of lot 0.001/);
  assertOnlyProblem(instruments(instrument({ max_qty: '10.0001' })), 'instruments[0].max_qty', /multiple of lot 0.001/);
  assertOnlyProblem(instruments(instrument({ min_qty: '5', max_qty: '4' })), 'instruments[0].min_qty', /at most max_qty \(4\)/);
  assert.equal(resolveConfig(instruments(instrument({ min_qty: '4', max_qty: '4' }))).instruments[0]!.min_qty, '4');
});

test('min_notional must be a non-negative decimal', () => {
  assertOnlyProblem(instruments(instrument({ min_notional: -1 })), 'instruments[0].min_notional', /non-negative decimal/);
  assertOnlyProblem(instruments(instrument({ min_notional: '-1' })), 'instruments[0].min_notional', /non-negative decimal/);
  assert.equal(resolveConfig(instruments(instrument({ min_notional: 0 }))).instruments[0]!.min_notional, '0');
});

test('instrument names: non-empty uppercase A-Z0-9, base differs from quote, no duplicates', () => {
  for (const bad of ['btcusdt', '', 'BTC-USDT', 'BTC USDT', 1]) {
    assertOnlyProblem(instruments(instrument({ symbol: bad })), 'instruments[0].symbol', /uppercase/);
  }
  assertOnlyProblem(instruments(instrument({ base: 'usdt' })), 'instruments[0].base', /uppercase/);
  assertOnlyProblem(instruments(instrument({ base: 'USDT' })), 'instruments[0].quote', /other than the base asset USDT/);
  assertOnlyProblem(
    instruments(instrument(), instrument({ symbol: 'XRPUSDT', base: 'XRP' }), instrument()),
    'instruments[2].symbol',
    /not already used by instruments\[0\]/,
  );
  assert.equal(problemsOf(instruments(instrument(), instrument(), instrument())).length, 2);
});

test('sim.start_mid must be on the tick grid of every active instrument without its own start_mid', () => {
  const coarse = instrument({ symbol: 'XUSDT', base: 'X', tick: '1' });
  assertOnlyProblem({ sim: { start_mid: '100.5' }, ...instruments(instrument(), coarse) }, 'sim.start_mid', /XUSDT tick 1/);
  // Its own start_mid exempts an instrument from sim.start_mid.
  const config = resolveConfig({
    sim: { start_mid: '100.5', symbols: { XUSDT: { start_mid: '100' } } },
    ...instruments(instrument(), coarse),
  });
  assert.equal(config.sim.start_mid, '100.5');
  // A disabled instrument does not constrain it either.
  assert.doesNotThrow(() => resolveConfig({ sim: { start_mid: '100.5' }, ...instruments(instrument(), { ...coarse, enabled: false }) }));
  assertOnlyProblem(sim({ start_mid: 0 }), 'sim.start_mid', /positive decimal/);
});

test('a per-symbol start_mid must be positive and on its instrument tick grid', () => {
  assertOnlyProblem(sim({ symbols: { BTCUSDT: { start_mid: '60000.001' } } }), 'sim.symbols.BTCUSDT.start_mid', /multiple of the tick 0.01 of BTCUSDT/);
  assertOnlyProblem(sim({ symbols: { ETHUSDT: { start_mid: '0' } } }), 'sim.symbols.ETHUSDT.start_mid', /positive decimal/);
  assert.equal(resolveConfig(sim({ symbols: { ETHUSDT: { start_mid: '2500.50' } } })).sim.symbols.ETHUSDT!.start_mid, '2500.5');
});

test('per-symbol overrides must name a configured instrument', () => {
  assertOnlyProblem(sim({ symbols: { SOLUSDT: { start_mid: '150' } } }), 'sim.symbols.SOLUSDT', /^unknown key: not the symbol of a configured instrument \(configured: BTCUSDT, ETHUSDT\)/);
  assertOnlyProblem(sim({ symbols: { btcusdt: {} } }), 'sim.symbols.btcusdt', /^unknown key/);
  assertOnlyProblem(sim({ symbols: { BTCUSDT: 5 } }), 'sim.symbols.BTCUSDT', /a table/);
  assertOnlyProblem(sim({ symbols: [] }), 'sim.symbols', /a table/);
});

test('max_notional must be positive and at least min_notional', () => {
  assertOnlyProblem(sim({ symbols: { BTCUSDT: { max_notional: 0 } } }), 'sim.symbols.BTCUSDT.max_notional', /positive decimal/);
  assertOnlyProblem(sim({ symbols: { BTCUSDT: { max_notional: '4.99' } } }), 'sim.symbols.BTCUSDT.max_notional', /at least the min_notional 5/);
  assert.equal(resolveConfig(sim({ symbols: { BTCUSDT: { max_notional: 5 } } })).sim.symbols.BTCUSDT!.max_notional, '5');
});

test('an instrument whose tick and lot decimals sum to more than 8 is refused, naming its lot (issue 18)', () => {
  // 0.001 x 0.000001 = 9 decimals: notionals and balances would need more than the 8 the reference sends.
  const problem = assertOnlyProblem(instruments(instrument({ tick: '0.001', lot: '0.000001', min_qty: '0.000001' })), 'instruments[0].lot', /tick and lot decimals at most 8 together/);
  assert.equal(problem.got, '"0.000001"');
  assert.doesNotThrow(() => resolveConfig(instruments(instrument({ tick: '0.001', lot: '0.00001', min_qty: '0.00001' }))));
});

test('balances: non-negative decimals with at most 8 decimals (what the reference sends), for assets of configured instruments', () => {
  const balances = (values: Record<string, unknown>) => sim({ account: { balances: values } });
  assertOnlyProblem(balances({ BTC: -5 }), 'sim.account.balances.BTC', /non-negative decimal/);
  assertOnlyProblem(balances({ BTC: '-5' }), 'sim.account.balances.BTC', /non-negative decimal/);
  assertOnlyProblem(balances({ BTC: '0.123456789' }), 'sim.account.balances.BTC', /at most 8 decimals/);
  assertOnlyProblem(balances({ BTC: 'lots' }), 'sim.account.balances.BTC', /non-negative decimal/);
  assertOnlyProblem(balances({ XRP: 1 }), 'sim.account.balances.XRP', /^unknown key: not an asset of any configured instrument \(assets: BTC, ETH, USDT\)/);
  assertOnlyProblem(balances({ btc: 1 }), 'sim.account.balances.btc', /^unknown key/);
  const config = resolveConfig(balances({ BTC: '0.12345678', USDT: 0 }));
  assert.deepEqual(config.sim.account.balances, { BTC: '0.12345678', ETH: '100', USDT: '0' });
});

test('the default balance is 100 for a base asset and 10000000 for a quote-only asset', () => {
  const ethbtc = instrument({ symbol: 'ETHBTC', base: 'ETH', quote: 'BTC' });
  const btcusdt = instrument({ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT' });
  assert.deepEqual(resolveConfig(instruments(ethbtc)).sim.account.balances, { BTC: '10000000', ETH: '100' });
  // BTC is the quote of ETHBTC but the base of BTCUSDT: base wins.
  assert.deepEqual(resolveConfig(instruments(ethbtc, btcusdt)).sim.account.balances, { BTC: '100', ETH: '100', USDT: '10000000' });
});

test('ports are whole numbers from 0 to 65535', () => {
  for (const key of ['port', 'tls_port']) {
    for (const bad of [-1, 65536, 80.5, '80']) assertOnlyProblem(sim({ [key]: bad }), `sim.${key}`, /^a port number from 0 to 65535 \(0: any free port\)$/);
  }
  const config = resolveConfig(sim({ port: 0, tls_port: 65535 }));
  assert.equal(config.sim.port, 0);
  assert.equal(config.sim.tls_port, 65535);
});

test('seed is a non-negative safe integer', () => {
  for (const bad of [-1, 1.5, 2 ** 53, 9007199254740993n]) assertOnlyProblem(sim({ seed: bad }), 'sim.seed', /non-negative integer/);
  assert.equal(resolveConfig(sim({ seed: 0 })).sim.seed, 0);
  assert.equal(resolveConfig(sim({ seed: Number.MAX_SAFE_INTEGER })).sim.seed, Number.MAX_SAFE_INTEGER);
});

test('millisecond values: integers with their lower bounds', () => {
  for (const key of ['depth_update_ms', 'driver_tick_ms', 'ping_interval_ms', 'pong_timeout_ms', 'listen_key_validity_ms']) {
    assertOnlyProblem(sim({ [key]: 0 }), `sim.${key}`, /whole number of milliseconds from 1 to 2147483647/);
    assertOnlyProblem(sim({ [key]: 1.5 }), `sim.${key}`, /whole number/);
    assertOnlyProblem(sim({ [key]: 2 ** 31 }), `sim.${key}`, /whole number of milliseconds from 1 to 2147483647/);
    assert.equal(resolveConfig(sim({ [key]: 1 })).sim[key as 'driver_tick_ms'], 1);
  }
  assertOnlyProblem(sim({ stats_interval_ms: -1 }), 'sim.stats_interval_ms', /milliseconds from 0/);
  assert.equal(resolveConfig(sim({ stats_interval_ms: 0 })).sim.stats_interval_ms, 0);
  assertOnlyProblem(sim({ start_time_ms: -1 }), 'sim.start_time_ms', /non-negative integer/);
  assert.equal(resolveConfig(sim({ start_time_ms: 1700000000000 })).sim.start_time_ms, 1700000000000);
  // The clock offset may be negative (spec 2.8: server clock = wall clock + offset).
  assert.equal(resolveConfig(sim({ clock_offset_ms: -500 })).sim.clock_offset_ms, -500);
  assertOnlyProblem(sim({ clock_offset_ms: 0.5 }), 'sim.clock_offset_ms', /integer/);
});

test('max_advance_ms: the longest single advanceTime, a positive safe integer of ms (default 30 days)', () => {
  assert.equal(resolveConfig(sim({})).sim.max_advance_ms, 30 * 24 * 3600 * 1000);
  for (const bad of [0, -1, 1.5, '1000', 2 ** 53]) assertOnlyProblem(sim({ max_advance_ms: bad }), 'sim.max_advance_ms', /integer/);
  assert.equal(resolveConfig(sim({ max_advance_ms: 1 })).sim.max_advance_ms, 1);
  assert.equal(resolveConfig(sim({ max_advance_ms: Number.MAX_SAFE_INTEGER })).sim.max_advance_ms, Number.MAX_SAFE_INTEGER);
});

test('enumerations: depth_snapshot, clock, net_backend', () => {
  assertOnlyProblem(sim({ depth_snapshot: 'stale' }), 'sim.depth_snapshot', /"live" or "flushed"/);
  assertOnlyProblem(sim({ clock: 'fake' }), 'sim.clock', /"wall" or "manual"/);
  assertOnlyProblem({ engine: { net_backend: 'kqueue' } }, 'engine.net_backend', /"epoll" or "io_uring"/);
  assertOnlyProblem({ engine: { net_backend: 'EPOLL' } }, 'engine.net_backend');
  const config = resolveConfig({ engine: { net_backend: 'io_uring' }, sim: { depth_snapshot: 'flushed', clock: 'manual' } });
  assert.equal(config.engine.net_backend, 'io_uring');
  assert.equal(config.sim.depth_snapshot, 'flushed');
  assert.equal(config.sim.clock, 'manual');
});

test('strings: venue, bind, TLS paths non-empty; credentials and token printable without spaces', () => {
  assertOnlyProblem(sim({ venue: '' }), 'sim.venue', /non-empty string/);
  assertOnlyProblem(sim({ bind: '' }), 'sim.bind', /non-empty string/);
  assertOnlyProblem(sim({ tls_cert: '' }), 'sim.tls_cert', /non-empty string/);
  assertOnlyProblem(sim({ account: { api_key: 'has space' } }), 'sim.account.api_key', /printable ASCII/);
  assertOnlyProblem(sim({ account: { api_secret: '' } }), 'sim.account.api_secret', /printable ASCII/);
  assertOnlyProblem(sim({ control_token: 'a\nb' }), 'sim.control_token', /printable ASCII/);
  assertOnlyProblem(sim({ account: { ed25519_public_key_file: '' } }), 'sim.account.ed25519_public_key_file', /non-empty/);
  const config = resolveConfig(sim({ control_token: 't0k3n', account: { ed25519_public_key_file: 'k.pem' } }));
  assert.equal(config.sim.control_token, 't0k3n');
  assert.equal(config.sim.account.ed25519_public_key_file, 'k.pem');
});

test('fees: basis points >= 0, below 10000, at most 2 decimals', () => {
  const fees = (values: Record<string, unknown>) => sim({ fees: values });
  assertOnlyProblem(fees({ maker_bps: '1.234' }), 'sim.fees.maker_bps', /at most 2 decimals/);
  assertOnlyProblem(fees({ taker_bps: 10000 }), 'sim.fees.taker_bps', /below 10000/);
  assertOnlyProblem(fees({ taker_bps: -1 }), 'sim.fees.taker_bps', /basis points/);
  assert.deepEqual(resolveConfig(fees({ maker_bps: 0, taker_bps: '9999.99' })).sim.fees, { maker_bps: '0', taker_bps: '9999.99' });
});

test('limits are positive integers', () => {
  for (const key of ['weight_per_minute', 'orders_per_10s', 'orders_per_day', 'max_recv_window_ms']) {
    assertOnlyProblem(sim({ limits: { [key]: 0 } }), `sim.limits.${key}`, /positive integer/);
    assertOnlyProblem(sim({ limits: { [key]: 2.5 } }), `sim.limits.${key}`, /positive integer/);
  }
});

test('generator: rates non-negative, counts non-negative integers, notionals ordered', () => {
  const generator = (values: Record<string, unknown>) => sim({ generator: values });
  assertOnlyProblem(generator({ limit_rate_per_s: -1 }), 'sim.generator.limit_rate_per_s', /non-negative number/);
  assertOnlyProblem(generator({ market_rate_per_s: '1' }), 'sim.generator.market_rate_per_s', /non-negative number/);
  for (const key of ['seed_levels', 'touch_offset_ticks', 'depth_spread_ticks', 'mid_step_max_ticks']) {
    assertOnlyProblem(generator({ [key]: 1.5 }), `sim.generator.${key}`, /non-negative integer/);
    assertOnlyProblem(generator({ [key]: -1 }), `sim.generator.${key}`, /non-negative integer/);
  }
  assertOnlyProblem(generator({ level_spacing_ticks: 0 }), 'sim.generator.level_spacing_ticks', /positive integer/);
  assertOnlyProblem(generator({ mean_order_lifetime_s: 0 }), 'sim.generator.mean_order_lifetime_s', /positive number/);
  assertOnlyProblem(generator({ limit_notional_min: 0 }), 'sim.generator.limit_notional_min', /positive decimal/);
  assertOnlyProblem(generator({ limit_notional_min: '2001' }), 'sim.generator.limit_notional_min', /at most limit_notional_max \(2000\)/);
  assertOnlyProblem(generator({ market_notional_max: '499.99' }), 'sim.generator.market_notional_min', /at most market_notional_max \(499.99\)/);
  const config = resolveConfig(generator({ limit_rate_per_s: 0, market_rate_per_s: 2.5, seed_levels: 0, mean_order_lifetime_s: 0.5 }));
  assert.equal(config.sim.generator.market_rate_per_s, 2.5);
  assert.equal(config.sim.generator.seed_levels, 0);
});

test('faults: non-negative numbers of seconds; the ack delay and request counts are whole numbers', () => {
  const faults = (values: Record<string, unknown>) => sim({ faults: values });
  for (const key of ['drop_md_after_s', 'drop_ws_api_after_s', 'skip_depth_update_after_s', 'timestamp_error_after_s',
    'rest_unresponsive_after_s', 'rest_unresponsive_for_s']) {
    assertOnlyProblem(faults({ [key]: -1 }), `sim.faults.${key}`, /non-negative number/);
  }
  // The fault call it arms takes whole milliseconds: a fraction is refused here, with the rest of
  // the file, and not later by the fault when the server already listens.
  for (const bad of [-1, 1.5, 2 ** 31]) {
    assertOnlyProblem(faults({ delay_ack_ms: bad }), 'sim.faults.delay_ack_ms', /^a whole number of milliseconds from 0 to 2147483647$/);
  }
  assertOnlyProblem(faults({ reject_next_orders: 1.5 }), 'sim.faults.reject_next_orders', /non-negative integer/);
  assertOnlyProblem(faults({ rate_limit_next: -2 }), 'sim.faults.rate_limit_next', /non-negative integer/);
  const config = resolveConfig(faults({ drop_md_after_s: 0.5, delay_ack_ms: 250, reject_next_orders: 3 }));
  assert.equal(config.sim.faults.drop_md_after_s, 0.5);
  assert.equal(config.sim.faults.reject_next_orders, 3);
});

test('several bad keys are reported together in one ConfigError, one per line', () => {
  const input = {
    engine: { net_backend: 'kqueue' },
    sim: { port: 70000, seed: -1, account: { balances: { BTC: -1 } }, unknown_thing: 1 },
    instruments: [
      { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.03', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5' },
      { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', tick: '0.01', lot: '0.0001', min_qty: '0.00001', max_qty: '100000', min_notional: '5' },
    ],
  };
  let caught: unknown;
  try {
    resolveConfig(input);
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError);
  const paths = caught.problems.map((problem) => problem.path).sort();
  assert.deepEqual(paths, [
    'engine.net_backend',
    'instruments[0].tick',
    'instruments[1].min_qty',
    'sim.account.balances.BTC',
    'sim.port',
    'sim.seed',
    'sim.unknown_thing',
  ]);
  const lines = caught.message.split('\n');
  assert.equal(lines[0], 'invalid configuration: 7 problems');
  assert.equal(lines.length, 8);
  for (const path of paths) assert.equal(lines.filter((line) => line.startsWith(`  ${path}: `)).length, 1, path);
  assert.ok(lines.includes('  sim.port: expected a port number from 0 to 65535 (0: any free port), got 70000'));
});

test('order history: ended_orders is "forget" or "keep"; max_ended_orders a whole number from 1 to 10,000,000', () => {
  const account = (values: Record<string, unknown>) => sim({ account: values });
  assertOnlyProblem(account({ ended_orders: 'remember' }), 'sim.account.ended_orders', /"forget" or "keep"/);
  assertOnlyProblem(account({ ended_orders: true }), 'sim.account.ended_orders', /"forget" or "keep"/);
  assertOnlyProblem(account({ max_ended_orders: 0 }), 'sim.account.max_ended_orders', /integer/);
  assertOnlyProblem(account({ max_ended_orders: 1.5 }), 'sim.account.max_ended_orders', /integer/);
  assertOnlyProblem(account({ max_ended_orders: 10_000_001 }), 'sim.account.max_ended_orders', /integer/);
  assertOnlyProblem(account({ max_ended_orders: '100' }), 'sim.account.max_ended_orders', /integer/);
  const config = resolveConfig(account({ ended_orders: 'keep', max_ended_orders: 10 }));
  assert.equal(config.sim.account.ended_orders, 'keep');
  assert.equal(config.sim.account.max_ended_orders, 10);
});
