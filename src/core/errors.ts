// The one error table (ARCHITECTURE rule 4): every error the service can answer is one row of
// code, HTTP status and message. Messages are the reference exchange's (binance-facts.md §2);
// `%s` placeholders are filled in order by `apiError`. The core returns these as values (no
// throwing on the matching path); the transports serialize them.

export interface ErrorRow {
  readonly code: number;
  readonly http: number;
  readonly msg: string;
}

export const ERRORS = {
  UNKNOWN: { code: -1000, http: 500, msg: 'An unknown error occurred while processing the request.' },
  // WS API userDataStream.subscribe without a logged-on session (binance-facts §6: USER_STREAM).
  UNAUTHORIZED: { code: -1002, http: 401, msg: 'You are not authorized to execute this request.' },
  TOO_MUCH_WEIGHT: {
    code: -1003,
    http: 429,
    msg: 'Too much request weight used; current limit is %s request weight per %s. Please use WebSocket Streams for live updates to avoid polling the API.',
  },
  IP_BANNED: {
    code: -1003,
    http: 418,
    msg: 'Way too much request weight used; IP banned until %s. Please use WebSocket Streams for live updates to avoid bans.',
  },
  TIMEOUT: {
    code: -1007,
    http: 408,
    msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
  },
  FILTER_FAILURE: { code: -1013, http: 400, msg: 'Filter failure: %s' },
  STP_MODE_NOT_ALLOWED: {
    code: -1013,
    http: 400,
    msg: 'This symbol does not allow the specified self-trade prevention mode.',
  },
  // Spec 4.1 rule 4: an amend to a quantity at or below what already filled is refused with -1013.
  AMEND_QTY_NOT_ABOVE_FILLED: {
    code: -1013,
    http: 400,
    msg: 'Order amend quantity must be greater than the executed quantity.',
  },
  UNSUPPORTED_ORDER: { code: -1014, http: 400, msg: 'Unsupported order combination.' },
  TOO_MANY_ORDERS: { code: -1015, http: 429, msg: 'Too many new orders; current limit is %s orders per %s.' },
  TIMESTAMP_AHEAD: {
    code: -1021,
    http: 400,
    msg: "Timestamp for this request was 1000ms ahead of the server's time.",
  },
  TIMESTAMP_OUTSIDE_RECV_WINDOW: {
    code: -1021,
    http: 400,
    msg: 'Timestamp for this request is outside of the recvWindow.',
  },
  INVALID_SIGNATURE: { code: -1022, http: 400, msg: 'Signature for this request is not valid.' },
  ILLEGAL_CHARS: {
    code: -1100,
    http: 400,
    msg: "Illegal characters found in parameter '%s'; legal range is '%s'.",
  },
  ILLEGAL_CHARS_ANY: { code: -1100, http: 400, msg: "Illegal characters found in parameter '%s'." },
  DUPLICATE_PARAM: { code: -1101, http: 400, msg: 'Duplicate values for a parameter detected.' },
  TOO_MANY_PARAMETERS: { code: -1101, http: 400, msg: 'Too many parameters sent for this endpoint.' },
  TOO_MANY_SYMBOLS: { code: -1101, http: 400, msg: "Too many values sent for parameter 'symbols', maximum allowed up to %s." },
  MANDATORY_PARAM: {
    code: -1102,
    http: 400,
    msg: "Mandatory parameter '%s' was not sent, was empty/null, or malformed.",
  },
  EITHER_PARAM: { code: -1102, http: 400, msg: "Param '%s' or '%s' must be sent, but both were empty/null!" },
  PARAM_NOT_REQUIRED: { code: -1106, http: 400, msg: "Parameter '%s' sent when not required." },
  BAD_PRECISION: { code: -1111, http: 400, msg: "Parameter '%s' has too much precision." },
  INVALID_TIF: { code: -1115, http: 400, msg: 'Invalid timeInForce.' },
  INVALID_ORDER_TYPE: { code: -1116, http: 400, msg: 'Invalid orderType.' },
  INVALID_SIDE: { code: -1117, http: 400, msg: 'Invalid side.' },
  // Market data (API.md section 9; errors.md): an interval klines do not know, a ticker type
  // other than FULL or MINI.
  BAD_INTERVAL: { code: -1120, http: 400, msg: 'Invalid interval.' },
  BAD_SYMBOL: { code: -1121, http: 400, msg: 'Invalid symbol.' },
  INVALID_LISTEN_KEY: { code: -1125, http: 400, msg: 'This listenKey does not exist.' },
  LOOKUP_INTERVAL_TOO_BIG: { code: -1127, http: 400, msg: 'More than %s hours between startTime and endTime.' },
  BAD_PARAM_COMBINATION: { code: -1128, http: 400, msg: 'Combination of optional parameters invalid.' },
  INVALID_PARAMETER: { code: -1130, http: 400, msg: "Data sent for parameter '%s' is not valid." },
  BAD_STRATEGY_TYPE: { code: -1134, http: 400, msg: 'strategyType was less than 1000000.' },
  BAD_RECV_WINDOW: { code: -1131, http: 400, msg: 'recvWindow must be less than %s' },
  INVALID_JSON: { code: -1135, http: 400, msg: 'Invalid JSON Request' },
  INVALID_TICKER_TYPE: { code: -1139, http: 400, msg: 'Invalid ticker type.' },
  // rest-api.md "Regarding cancelRestrictions": the documented body.
  INVALID_CANCEL_RESTRICTIONS: { code: -1145, http: 400, msg: 'Invalid cancelRestrictions' },
  // Order lists (issue 33; errors.md -1158..-1199): the legs' types, sides and prices.
  OCO_ORDER_TYPE_REJECTED: { code: -1158, http: 400, msg: 'Order type not supported in OCO.' },
  OCO_ICEBERGQTY_TIMEINFORCE: { code: -1160, http: 400, msg: "Parameter '%s' is not supported if `aboveTimeInForce`/`belowTimeInForce` is not GTC." },
  BUY_OCO_LIMIT_MUST_BE_BELOW: { code: -1165, http: 400, msg: 'A limit order in a buy OCO must be below.' },
  SELL_OCO_LIMIT_MUST_BE_ABOVE: { code: -1166, http: 400, msg: 'A limit order in a sell OCO must be above.' },
  BOTH_OCO_ORDERS_CANNOT_BE_LIMIT: { code: -1168, http: 400, msg: 'At least one OCO order must be contingent.' },
  BUY_OCO_STOP_LOSS_MUST_BE_ABOVE: { code: -1196, http: 400, msg: 'A stop loss order in a buy OCO must be above.' },
  SELL_OCO_STOP_LOSS_MUST_BE_BELOW: { code: -1197, http: 400, msg: 'A stop loss order in a sell OCO must be below.' },
  BUY_OCO_TAKE_PROFIT_MUST_BE_BELOW: { code: -1198, http: 400, msg: 'A take profit order in a buy OCO must be below.' },
  SELL_OCO_TAKE_PROFIT_MUST_BE_ABOVE: { code: -1199, http: 400, msg: 'A take profit order in a sell OCO must be above.' },
  NOT_FOUND: { code: -1000, http: 404, msg: 'Not found: %s' },
  PAYLOAD_TOO_LARGE: { code: -1000, http: 413, msg: 'Request body larger than %s bytes.' },
  URL_TOO_LONG: { code: -1000, http: 414, msg: 'Request URL longer than %s bytes.' },
  // sim.market.setMid on a replayed symbol (API.md section 12; a simulator refusal, the reference has none).
  REPLAYED_SYMBOL: { code: -1000, http: 400, msg: '%s replays a recording: its prices come from the recorded trades, so setMid does not apply.' },
  // -2010 NEW_ORDER_REJECTED: the matching engine's messages (binance-facts §2.3).
  DUPLICATE_ORDER: { code: -2010, http: 400, msg: 'Duplicate order sent.' },
  MAX_NUM_ORDERS: { code: -2010, http: 400, msg: 'Filter failure: MAX_NUM_ORDERS' },
  INSUFFICIENT_BALANCE: { code: -2010, http: 400, msg: 'Account has insufficient balance for requested action.' },
  WOULD_TAKE: { code: -2010, http: 400, msg: 'Order would immediately match and take.' },
  ORDER_REJECTED: { code: -2010, http: 400, msg: '%s' },
  // Issue 33 (order_types = "reference"): the matching engine's messages for conditional orders,
  // quote-amount MARKET orders, icebergs and order lists (errors.md "Messages for -1010 ... -2010").
  WOULD_TRIGGER: { code: -2010, http: 400, msg: 'Order would trigger immediately.' },
  OCO_BAD_PRICES: { code: -2010, http: 400, msg: 'The relationship of the prices for the orders is not correct.' },
  NO_BOOK_LIQUIDITY: { code: -2010, http: 400, msg: 'Order book liquidity is less than symbol minimum quantity.' },
  LOT_SIZE_LIQUIDITY: { code: -2010, http: 400, msg: 'Order book liquidity is less than `LOT_SIZE` filter minimum quantity.' },
  ICEBERG_EXCEEDS_QTY: { code: -2010, http: 400, msg: 'IcebergQty exceeds QTY.' },
  MAX_NUM_ALGO_ORDERS: { code: -2010, http: 400, msg: 'Filter failure: MAX_NUM_ALGO_ORDERS' },
  MAX_NUM_ICEBERG_ORDERS: { code: -2010, http: 400, msg: 'Filter failure: MAX_NUM_ICEBERG_ORDERS' },
  MAX_NUM_ORDER_LISTS: { code: -2010, http: 400, msg: 'Filter failure: MAX_NUM_ORDER_LISTS' },
  MARKET_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Market orders are not supported for this symbol.' },
  ICEBERG_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Iceberg orders are not supported for this symbol.' },
  STOP_LOSS_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Stop loss orders are not supported for this symbol.' },
  STOP_LOSS_LIMIT_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Stop loss limit orders are not supported for this symbol.' },
  TAKE_PROFIT_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Take profit orders are not supported for this symbol.' },
  TAKE_PROFIT_LIMIT_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Take profit limit orders are not supported for this symbol.' },
  // The reference's texts, word for word (no final period; "not support").
  OCO_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'OCO orders are not supported for this symbol' },
  QUOTE_ORDER_QTY_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Quote order qty market orders are not support for this symbol.' },
  TRAILING_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Trailing stop orders are not supported for this symbol.' },
  // A symbol whose configuration turns cancelReplaceAllowed, otoAllowed or amendAllowed off
  // (errors.md; no OTO text is documented: it follows the OCO one).
  CANCEL_REPLACE_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'Order cancel-replace is not supported for this symbol.' },
  OTO_NOT_SUPPORTED: { code: -2010, http: 400, msg: 'OTO orders are not supported for this symbol' },
  AMEND_NOT_SUPPORTED: { code: -2038, http: 400, msg: 'Order amend is not supported for this symbol.' },
  UNKNOWN_ORDER: { code: -2011, http: 400, msg: 'Unknown order sent.' },
  CANCEL_RESTRICTED: { code: -2011, http: 400, msg: 'Order was not canceled due to cancel restrictions.' },
  NO_SUCH_ORDER: { code: -2013, http: 400, msg: 'Order does not exist.' },
  BAD_API_KEY_FORMAT: { code: -2014, http: 401, msg: 'API-key format invalid.' },
  REJECTED_API_KEY: { code: -2015, http: 401, msg: 'Invalid API-key, IP, or permissions for action.' },
  CANCEL_REPLACE_PARTIAL: { code: -2021, http: 409, msg: 'Order cancel-replace partially failed.' },
  CANCEL_REPLACE_FAILED: { code: -2022, http: 400, msg: 'Order cancel-replace failed.' },
  SUBSCRIPTION_ACTIVE: { code: -2035, http: 400, msg: 'User Data Stream subscription already active.' },
  MAX_SUBSCRIPTION_ID: { code: -2042, http: 400, msg: 'Maximum subscription ID reached for this connection.' },
  SUBSCRIPTION_INACTIVE: { code: -2036, http: 400, msg: 'User Data Stream subscription not active.' },
  AMEND_QTY_INCREASE: { code: -2038, http: 400, msg: 'Order amend (quantity increase) is not supported.' },
  AMEND_NO_CHANGE: { code: -2038, http: 400, msg: 'The requested action would change no state; rejecting' },
  CLIENT_ORDER_ID_MISMATCH: { code: -2039, http: 400, msg: 'Client order ID is not correct for this order ID.' },
  // Spec 5.3: session.logon on an HMAC account (a simulator code; the reference has none).
  LOGON_NOT_SUPPORTED: { code: -4056, http: 400, msg: 'HMAC_SHA256 API key is not supported.' },
} as const satisfies Record<string, ErrorRow>;

export type ErrorName = keyof typeof ERRORS;

/**
 * A refusal: one row of the table, its message filled in, and optional `data` (cancelReplace).
 * An Error, so a handler may throw it and anything that catches errors sees one; `message` is
 * the reference message, as `msg` is.
 */
export class ApiError extends Error {
  readonly code: number;
  readonly http: number;
  readonly msg: string;

  constructor(
    override readonly name: ErrorName,
    msg: string,
    readonly data?: unknown,
    http?: number,
  ) {
    super(msg);
    const row: ErrorRow = ERRORS[name];
    this.code = row.code;
    this.http = http ?? row.http;
    this.msg = msg;
  }
}

/** Builds the error of row `name`, filling its `%s` placeholders with `args` in order. */
export function apiError(name: ErrorName, ...args: (string | number)[]): ApiError {
  let i = 0;
  const msg = ERRORS[name].msg.replace(/%s/g, () => String(args[i++] ?? ''));
  return new ApiError(name, msg);
}

/**
 * Whether `value` is a refusal. Many results are a number, a boolean or null (the counterparty's
 * commands answer so), and `instanceof` on those cost the engine bench's shallow book 12 % of its
 * time (bench:ab, bench/REPORT.md: 1.13x ops/s without it): the `typeof` test settles them first.
 */
export function isApiError(value: unknown): value is ApiError {
  return typeof value === 'object' && value !== null && value instanceof ApiError;
}
