// The embedded default configuration (API.md sections 1 and 2, spec 2.8): what `npm start` and
// `startSimulator({})` run with. `fixtures/config/default.toml` holds the same content as the
// commented example users copy; a unit test keeps the two equal.
import { deepFreeze } from './freeze.ts';
import type { Config } from './types.ts';

/**
 * Spec 1.8: "fixed placeholder strings <DEFAULT_SIM_KEY> and <DEFAULT_SIM_SECRET>". 64
 * alphanumeric characters, the shape of a real Binance key, so clients that check the
 * format accept them. Override with SVC_SIM_API_KEY / SVC_SIM_API_SECRET or sim.account.
 */
export const DEFAULT_API_KEY = 'SpotSimDefaultApiKey01234567890123456789012345678901234567890123';
export const DEFAULT_API_SECRET = 'SpotSimDefaultApiSecret98765432109876543210987654321098765432109';

export const DEFAULT_CONFIG: Config = deepFreeze<Config>({
  engine: { net_backend: 'epoll' },
  sim: {
    seed: 7,
    venue: 'all',
    start_mid: '60000',
    bind: '127.0.0.1',
    port: 9080,
    tls_port: 9443,
    tls_cert: 'fixtures/tls/cert.pem',
    tls_key: 'fixtures/tls/key.pem',
    depth_update_ms: 100,
    depth_snapshot: 'live',
    driver_tick_ms: 2,
    clock_offset_ms: 0,
    start_time_ms: 0,
    ping_interval_ms: 20000,
    pong_timeout_ms: 60000,
    listen_key_validity_ms: 3600000,
    stats_interval_ms: 10000,
    control_api: true,
    clock: 'wall',
    // 30 days: one advanceTime costs what happens in it, and a month of a busy generator is
    // already minutes of work; longer jumps are refused instead of stalling the worker.
    max_advance_ms: 2_592_000_000,
    // Spec 1.10: LIMIT, LIMIT_MAKER and MARKET only; "reference" opts into the rest (API.md 11).
    order_types: 'spec',
    account: {
      api_key: DEFAULT_API_KEY,
      api_secret: DEFAULT_API_SECRET,
      ended_orders: 'forget',
      max_ended_orders: 100000,
      // Spec 2.3: 100 of each base asset, 10,000,000 of the quote asset.
      balances: { BTC: '100', ETH: '100', USDT: '10000000' },
    },
    fees: { maker_bps: '1', taker_bps: '4' },
    limits: {
      weight_per_minute: 6000,
      orders_per_10s: 1000,
      orders_per_day: 1000000,
      max_recv_window_ms: 60000,
    },
    generator: {
      enabled: true,
      seed_levels: 20,
      // Spec 1.5: the generator's touch rests 2990 ticks from the latent mid.
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
    },
    faults: {
      drop_md_after_s: 0,
      drop_ws_api_after_s: 0,
      skip_depth_update_after_s: 0,
      timestamp_error_after_s: 0,
      rest_unresponsive_after_s: 0,
      rest_unresponsive_for_s: 0,
      delay_ack_ms: 0,
      reject_next_orders: 0,
      rate_limit_next: 0,
    },
    // API.md section 9: a day of synthetic history; at most a million public trades per symbol.
    history: { minutes: 1440, max_trades_per_symbol: 1000000, klines: [] },
    // API.md section 12: no symbol replays a recorded day.
    replay: [],
    // API.md section 1: BTCUSDT starts at 60000, ETHUSDT at 3000.
    symbols: {
      BTCUSDT: { start_mid: '60000' },
      ETHUSDT: { start_mid: '3000' },
    },
  },
  instruments: [
    {
      symbol: 'BTCUSDT',
      base: 'BTC',
      quote: 'USDT',
      tick: '0.01',
      lot: '0.00001',
      min_qty: '0.00001',
      max_qty: '9000',
      min_notional: '5',
      enabled: true,
      venue: 'binance',
    },
    {
      symbol: 'ETHUSDT',
      base: 'ETH',
      quote: 'USDT',
      tick: '0.01',
      lot: '0.0001',
      min_qty: '0.0001',
      max_qty: '100000',
      min_notional: '5',
      enabled: true,
      venue: 'binance',
    },
  ],
});
