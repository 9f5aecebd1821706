// The known keys of every fixed table of the configuration (API.md section 2, spec 2.8) and the
// rule each value must satisfy. Keys are listed in the order of types.ts, which is also the
// order of the resolved object (and of its JSON dump). Maps whose keys depend on other keys
// (`sim.symbols`, `sim.account.balances`) and `instruments` are read in their own modules.
import { Decimal } from 'decimal.js';
import {
  INVALID,
  MAX_TIMER_MS,
  type Reader,
  readBoolean,
  readDecimal,
  readInteger,
  readNonEmptyString,
  readNumber,
  readOneOf,
  readPort,
  readPositiveDecimal,
  readTimerMs,
  readToken,
} from './fields.ts';
import { readReplayEntries } from './replay.ts';
import { optional, readRawTable, readTable, required, tableReader, type TableResult } from './table.ts';
import type { ClockMode, DepthSnapshotMode, EndedOrdersMode, NetBackend, OrderTypesMode } from './types.ts';

/** Upper bound of `sim.account.max_ended_orders`: ten million kept orders, a few GB at most. */
export const MAX_ENDED_ORDERS = 10_000_000;

const port = readPort();
const timerMs = readTimerMs;
const nonNegativeInteger = readInteger({ min: 0 });
const positiveInteger = readInteger({ min: 1 });
const nonNegativeNumber = readNumber({ expected: 'a non-negative number', minimum: 0 });
const positiveNumber = readNumber({ expected: 'a positive number', exclusiveMinimum: 0 });
/** One-shot fault timers in seconds (0 = off), bounded by what a Node timer can hold. */
const faultSeconds = readNumber({
  expected: `a non-negative number of seconds of at most ${MAX_TIMER_MS / 1000}`,
  minimum: 0,
  maximum: MAX_TIMER_MS / 1000,
});

/** Spec 2.3: commission in basis points; below 10000 bps (100%), cents of a bp at most. */
const basisPoints = readDecimal({
  expected: 'a decimal number of basis points, at least 0 and below 10000, with at most 2 decimals',
  accept: (value) => value.decimalPlaces() <= 2 && value.lt(new Decimal(10000)),
  schema: { exclusiveMaximum: 10000, pattern: '^[0-9]+(\\.[0-9]{1,2})?$' },
});

export const ENGINE_SPEC = {
  // API.md section 2: epoll or io_uring; anything else is a config error.
  net_backend: required(readOneOf<NetBackend>(['epoll', 'io_uring'])),
};

export const ACCOUNT_SPEC = {
  api_key: required(readToken),
  api_secret: required(readToken),
  // API.md section 10: "forget" is spec 2.4 (an ended order answers -2013); "keep" keeps them.
  ended_orders: required(readOneOf<EndedOrdersMode>(['forget', 'keep'])),
  // Bounded so a typo cannot ask for more kept orders than a test machine's memory holds
  // (docs/order-history.md: a few hundred bytes each).
  max_ended_orders: required(readInteger({ min: 1, max: MAX_ENDED_ORDERS })),
  ed25519_public_key_file: optional(readNonEmptyString),
  balances: required(readRawTable),
};

export const FEES_SPEC = {
  maker_bps: required(basisPoints),
  taker_bps: required(basisPoints),
};

export const LIMITS_SPEC = {
  weight_per_minute: required(positiveInteger),
  orders_per_10s: required(positiveInteger),
  orders_per_day: required(positiveInteger),
  max_recv_window_ms: required(positiveInteger),
};

export const GENERATOR_SPEC = {
  enabled: required(readBoolean),
  seed_levels: required(nonNegativeInteger),
  touch_offset_ticks: required(nonNegativeInteger),
  depth_spread_ticks: required(nonNegativeInteger),
  // Zero spacing would stack every seeded level on one price.
  level_spacing_ticks: required(positiveInteger),
  limit_rate_per_s: required(nonNegativeNumber),
  market_rate_per_s: required(nonNegativeNumber),
  mean_order_lifetime_s: required(positiveNumber),
  limit_notional_min: required(readPositiveDecimal),
  limit_notional_max: required(readPositiveDecimal),
  market_notional_min: required(readPositiveDecimal),
  market_notional_max: required(readPositiveDecimal),
  mid_step_max_ticks: required(nonNegativeInteger),
};

export const FAULTS_SPEC = {
  drop_md_after_s: required(faultSeconds),
  drop_ws_api_after_s: required(faultSeconds),
  skip_depth_update_after_s: required(faultSeconds),
  timestamp_error_after_s: required(faultSeconds),
  rest_unresponsive_after_s: required(faultSeconds),
  rest_unresponsive_for_s: required(faultSeconds),
  // The fault call it arms (setAckDelayMs) takes whole milliseconds; so does the file.
  delay_ack_ms: required(timerMs(0)),
  // Counts of requests: whole numbers.
  reject_next_orders: required(nonNegativeInteger),
  rate_limit_next: required(nonNegativeInteger),
};

/** One `[[sim.history.klines]]` entry: a symbol's candles from a kline CSV (API.md section 9). */
export const HISTORY_KLINES_SPEC = {
  symbol: required(readNonEmptyString),
  file: required(readNonEmptyString),
};

const readHistoryKlines: Reader<TableResult<typeof HISTORY_KLINES_SPEC>[]> = (value, path, problems) => {
  if (!Array.isArray(value)) return problems.found(path, 'an array of tables ([[sim.history.klines]])', value);
  const out: TableResult<typeof HISTORY_KLINES_SPEC>[] = [];
  value.forEach((entry, i) => {
    const read = readTable(entry, `${path}[${i}]`, HISTORY_KLINES_SPEC, problems);
    if (read !== INVALID) out.push(read);
  });
  return out;
};

export const HISTORY_SPEC = {
  // API.md section 9: minutes of synthetic history before the start (generator on); 0 = none.
  minutes: required(readInteger({ min: 0, max: 60 * 24 * 31 })),
  // Public trades kept per symbol (memory bound); candles outlive them.
  max_trades_per_symbol: required(readInteger({ min: 1, max: 100_000_000 })),
  klines: required(readHistoryKlines),
};

export const SIM_SPEC = {
  seed: required(nonNegativeInteger),
  venue: required(readNonEmptyString),
  start_mid: required(readPositiveDecimal),
  bind: required(readNonEmptyString),
  port: required(port),
  tls_port: required(port),
  tls_cert: required(readNonEmptyString),
  tls_key: required(readNonEmptyString),
  depth_update_ms: required(timerMs(1)),
  depth_snapshot: required(readOneOf<DepthSnapshotMode>(['live', 'flushed'])),
  driver_tick_ms: required(timerMs(1)),
  clock_offset_ms: required(readInteger()),
  start_time_ms: required(nonNegativeInteger),
  ping_interval_ms: required(timerMs(1)),
  pong_timeout_ms: required(timerMs(1)),
  listen_key_validity_ms: required(timerMs(1)),
  stats_interval_ms: required(timerMs(0)),
  control_api: required(readBoolean),
  control_token: optional(readToken),
  clock: required(readOneOf<ClockMode>(['wall', 'manual'])),
  max_advance_ms: required(positiveInteger),
  // API.md 11: "spec" keeps spec 1.10 (-1014 beyond LIMIT, LIMIT_MAKER, MARKET), "reference" serves the reference's types.
  order_types: required(readOneOf<OrderTypesMode>(['spec', 'reference'])),
  account: required(tableReader(ACCOUNT_SPEC)),
  fees: required(tableReader(FEES_SPEC)),
  limits: required(tableReader(LIMITS_SPEC)),
  generator: required(tableReader(GENERATOR_SPEC)),
  faults: required(tableReader(FAULTS_SPEC)),
  history: required(tableReader(HISTORY_SPEC)),
  // API.md section 12: recorded days as symbols' markets.
  replay: required(readReplayEntries),
  replay_cache_dir: optional(readNonEmptyString),
  symbols: required(readRawTable),
};

export const ROOT_SPEC = {
  engine: required(tableReader(ENGINE_SPEC)),
  sim: required(tableReader(SIM_SPEC)),
  instruments: required((value: unknown) => value),
};
