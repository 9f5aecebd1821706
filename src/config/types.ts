// The resolved configuration: the TOML tree of API.md section 2, validated, with every default
// filled in and decimals normalised to canonical strings (exact; never floats). Key names are the
// TOML names, so the file, `SimConfigInput` and the resolved object share one vocabulary.

export type NetBackend = 'epoll' | 'io_uring';
export type DepthSnapshotMode = 'live' | 'flushed';
export type ClockMode = 'wall' | 'manual';
/** "spec": LIMIT, LIMIT_MAKER and MARKET only (spec 1.10); "reference": the reference's order types and lists (API.md 11). */
export type OrderTypesMode = 'spec' | 'reference';
/** The order types an instrument may list (exchangeInfo `orderTypes`). */
export type OrderTypeName = 'LIMIT' | 'LIMIT_MAKER' | 'MARKET' | 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';

export interface InstrumentConfig {
  readonly symbol: string;
  readonly base: string;
  readonly quote: string;
  /** Decimal strings, canonical (e.g. "0.01", "9000"). tick and lot are powers of ten. */
  readonly tick: string;
  readonly lot: string;
  readonly min_qty: string;
  readonly max_qty: string;
  readonly min_notional: string;
  readonly enabled: boolean;
  readonly venue: string;
  // With [sim] order_types = "reference" (instrument-orders.ts): the symbol's order types, flags
  // and order filters as exchangeInfo shows them. Absent: the reference exchange's value.
  readonly order_types?: readonly OrderTypeName[];
  readonly iceberg_allowed?: boolean;
  readonly oco_allowed?: boolean;
  readonly oto_allowed?: boolean;
  readonly quote_order_qty_market_allowed?: boolean;
  readonly allow_trailing_stop?: boolean;
  readonly cancel_replace_allowed?: boolean;
  readonly amend_allowed?: boolean;
  /** ICEBERG_PARTS.limit. */
  readonly iceberg_parts?: number;
  readonly max_num_algo_orders?: number;
  readonly max_num_iceberg_orders?: number;
  readonly max_num_order_lists?: number;
  /** TRAILING_DELTA bounds in BIPS. */
  readonly min_trailing_above_delta?: number;
  readonly max_trailing_above_delta?: number;
  readonly min_trailing_below_delta?: number;
  readonly max_trailing_below_delta?: number;
}

export interface SymbolOverrides {
  readonly start_mid?: string;
  readonly max_notional?: string;
}

/** "forget": ended orders are gone (a query answers -2013); "keep": they stay queryable (docs/order-history.md). */
export type EndedOrdersMode = 'forget' | 'keep';

export interface AccountConfig {
  readonly api_key: string;
  readonly api_secret: string;
  /** What happens to an order that ended (FILLED, CANCELED, EXPIRED...): see EndedOrdersMode. */
  readonly ended_orders: EndedOrdersMode;
  /** With "keep": how many ended orders stay queryable; the oldest beyond it are forgotten. */
  readonly max_ended_orders: number;
  readonly ed25519_public_key_file?: string;
  /** Every asset of the active instruments, with its starting balance as a decimal string. */
  readonly balances: Readonly<Record<string, string>>;
}

export interface FeesConfig {
  /** Basis points as decimal strings with at most two decimals (e.g. "1", "7.5"). */
  readonly maker_bps: string;
  readonly taker_bps: string;
}

export interface LimitsConfig {
  readonly weight_per_minute: number;
  readonly orders_per_10s: number;
  readonly orders_per_day: number;
  readonly max_recv_window_ms: number;
}

/** The counterparty flow: random limit orders, market orders and cancels around a random-walk mid. Rates are per symbol. */
export interface GeneratorConfig {
  readonly enabled: boolean;
  /** Price levels per side placed at start. */
  readonly seed_levels: number;
  /** Distance in ticks between the latent mid and the generator's own touch (default 2990). */
  readonly touch_offset_ticks: number;
  /** Mean extra distance (ticks) beyond the touch offset of a new generator limit order. */
  readonly depth_spread_ticks: number;
  /** Spacing in ticks between the seeded levels. */
  readonly level_spacing_ticks: number;
  /** Poisson arrival rates, per second per symbol. */
  readonly limit_rate_per_s: number;
  readonly market_rate_per_s: number;
  /** Mean life of a resting generator order before it is cancelled (per-order cancel rate = 1/x). */
  readonly mean_order_lifetime_s: number;
  /** Order sizes, as quote notionals (decimal strings), uniformly drawn between min and max. */
  readonly limit_notional_min: string;
  readonly limit_notional_max: string;
  readonly market_notional_min: string;
  readonly market_notional_max: string;
  /** The latent mid moves by a uniform integer in [-x, x] ticks each generator step. */
  readonly mid_step_max_ticks: number;
}

export interface FaultsConfig {
  readonly drop_md_after_s: number;
  readonly drop_ws_api_after_s: number;
  readonly skip_depth_update_after_s: number;
  readonly timestamp_error_after_s: number;
  readonly rest_unresponsive_after_s: number;
  readonly rest_unresponsive_for_s: number;
  readonly delay_ack_ms: number;
  readonly reject_next_orders: number;
  readonly rate_limit_next: number;
}

/** `[sim.history]` (docs/market-data.md): public market data before the start. */
export interface HistoryConfig {
  /** Minutes of synthetic history when the generator is on; 0 = none. */
  readonly minutes: number;
  /** Public trades kept per symbol (historicalTrades, aggTrades); candles stay. */
  readonly max_trades_per_symbol: number;
  /** Symbols whose history is a kline CSV of the reference's public data (paths absolute once loaded). */
  readonly klines: readonly { readonly symbol: string; readonly file: string }[];
}

/**
 * One `[[sim.replay]]` entry (API.md section 12): a recorded day of the reference's spot public
 * trades as a symbol's counterparty.
 */
export interface ReplayConfig {
  readonly symbol: string;
  /** Absolute once loaded (relative to the TOML file's directory, or the working directory). */
  readonly file: string;
  readonly format: 'aggTrades' | 'trades' | null;   // null: from the file name
  readonly speed: number;                            // > 0, default 1
  readonly from: number | null;                      // ms since epoch (RFC 3339 or ms in the file); null: the first print
  readonly fill_at_touch: boolean;                   // default false
  readonly depth_levels: number;                     // default 20, 1..5000
  readonly level_qty: string;                        // default "1", a decimal on the lot grid
}

export interface SimSection {
  readonly seed: number;
  readonly venue: string;
  readonly start_mid: string;
  readonly bind: string;
  readonly port: number;
  readonly tls_port: number;
  readonly tls_cert: string;
  readonly tls_key: string;
  readonly depth_update_ms: number;
  readonly depth_snapshot: DepthSnapshotMode;
  readonly driver_tick_ms: number;
  readonly clock_offset_ms: number;
  readonly start_time_ms: number;
  readonly ping_interval_ms: number;
  readonly pong_timeout_ms: number;
  readonly listen_key_validity_ms: number;
  readonly stats_interval_ms: number;
  readonly control_api: boolean;
  readonly control_token?: string;
  readonly clock: ClockMode;
  /** The longest single `advanceTime` in ms (manual clock); longer ones are refused. */
  readonly max_advance_ms: number;
  /** Which order types the exchange serves (API.md 11). */
  readonly order_types: OrderTypesMode;
  readonly account: AccountConfig;
  readonly fees: FeesConfig;
  readonly limits: LimitsConfig;
  readonly generator: GeneratorConfig;
  readonly faults: FaultsConfig;
  readonly history: HistoryConfig;
  readonly replay: readonly ReplayConfig[];
  /** Where parsed `[[sim.replay]]` files are cached; absent: the platform's per-user cache directory. */
  readonly replay_cache_dir?: string;
  readonly symbols: Readonly<Record<string, SymbolOverrides>>;
}

/**
 * A resolved, frozen configuration (`sim.config`, `loadConfig()`): every key of the TOML file with
 * its value or default, and the active instruments.
 * @example
 * const { seed, port, limits } = sim.config.sim;
 * console.log(seed, port, limits.weight_per_minute, sim.config.instruments.length);
 */
export interface Config {
  readonly engine: { readonly net_backend: NetBackend };
  readonly sim: SimSection;
  /** The active instruments: enabled, and of the configured venue unless venue = "all". */
  readonly instruments: readonly InstrumentConfig[];
}

type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly U[] | U[]
  : T extends object
    ? { -readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** Decimal inputs may be written as numbers or strings (strings are exact). */
type Loose<T> = T extends string ? string | number : T;
type LooseTree<T> = T extends readonly (infer U)[]
  ? readonly LooseTree<U>[]
  : T extends object
    ? { [K in keyof T]?: LooseTree<T[K]> }
    : Loose<T>;

/**
 * The programmatic input of `startSimulator` and the fixture: the same tree as the TOML,
 * deep-merged over the defaults (arrays such as `instruments` replace). Instruments may omit
 * `enabled` and `venue`.
 * @example
 * const input: SimConfigInput = { sim: { seed: 42, generator: { enabled: false }, account: { balances: { USDT: '1000' } } } };
 * const sim = await startSimulator({ config: input });
 */
export type SimConfigInput = LooseTree<DeepPartial<Config>>;
