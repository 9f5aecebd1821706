// Microseconds (rest-api.md and web-socket-api.md "General API Information"), both ways:
// - In: every time parameter (`timestamp`, `startTime`, `endTime`) "can be passed in milliseconds
//   or microseconds"; a value is classed by its magnitude, here and nowhere else.
// - Out: the time unit (header `X-MBX-TIME-UNIT: MICROSECOND` or `microsecond`; web-socket-api.md
//   and web-socket-streams.md: `timeUnit=MICROSECOND` on the connection URL) puts every time and
//   timestamp field of a reply, a user-data event or a market-data stream event in µs. The
//   simulator keeps whole ms, so µs is the same instant times 1000. Applied to the JSON text at
//   the transport edge, from one list of the fields that hold times; a millisecond request (the
//   default) costs one comparison.

/**
 * A time parameter above this is in microseconds (10^14 ms is the year 5138, 10^14 µs is 1973).
 * The reference does not document how it tells the units apart (binance-facts §1.1): the
 * magnitude is the only sign a value carries.
 */
const MICROSECONDS_ABOVE = 100_000_000_000_000;

/** Whether a time as sent (a parameter, or a time in a history file) is in microseconds. */
export function isMicroseconds(sent: number): boolean {
  return sent > MICROSECONDS_ABOVE;
}

/** A time parameter as sent (milliseconds or microseconds), in microseconds. */
export function sentTimeUs(sent: number): number {
  return isMicroseconds(sent) ? sent : sent * 1000;
}

/** `startTime` / `endTime` of a request, as the handlers compare them to whole-ms times. */
export interface TimeWindow {
  /** The first whole millisecond at or after `startTime` (a µs bound inside a ms rounds up). */
  readonly startTime?: number;
  /** The last whole millisecond at or before `endTime` (a µs bound inside a ms rounds down). */
  readonly endTime?: number;
  /** `endTime` - `startTime` as sent, in µs, when both were: negative when the end is first. */
  readonly spanUs?: number;
}

/**
 * The window of `startTime` and `endTime` as sent (Params.time), each in ms or µs on its own.
 * Rounding inward keeps both bounds inclusive: a trade at a whole ms is in the window exactly
 * when its µs time is.
 */
export function timeWindow(startTime: number | undefined, endTime: number | undefined): TimeWindow {
  const startUs = startTime === undefined ? undefined : sentTimeUs(startTime);
  const endUs = endTime === undefined ? undefined : sentTimeUs(endTime);
  return {
    startTime: startUs === undefined ? undefined : Math.ceil(startUs / 1000),
    endTime: endUs === undefined ? undefined : Math.floor(endUs / 1000),
    spanUs: startUs === undefined || endUs === undefined ? undefined : endUs - startUs,
  };
}

/** Reply fields that hold an epoch time (orders, trades, account, time, exchangeInfo, session, 429 data). */
const REPLY_TIME_FIELDS = ['serverTime', 'transactTime', 'time', 'updateTime', 'workingTime', 'authorizedSince', 'connectedSince', 'retryAfter'];
const REPLY_TIMES = new RegExp(`("(?:${REPLY_TIME_FIELDS.join('|')})":)(-?[0-9]+)`, 'g');

/** User-data event fields that hold an epoch time, by event (binance-facts §7.2). */
const EVENT_TIMES: Readonly<Record<string, RegExp>> = {
  executionReport: /("(?:E|T|O|W)":)(-?[0-9]+)/g,
  outboundAccountPosition: /("(?:E|u)":)(-?[0-9]+)/g,
};
const EVENT_TIME = /("E":)(-?[0-9]+)/g;
const EVENT_NAME = /^\{"e":"([A-Za-z]+)"/;

/**
 * Market-data stream event fields that hold an epoch time, by event (web-socket-streams.md):
 * a trade's `T` (its `t` is the trade id), a kline's `t`/`T` (open and close, inside `k`), a
 * ticker's `O`/`C` (its window), avgPrice's `T`. Others (depthUpdate, miniTicker) only `E`;
 * bookTicker and partial depth have none.
 */
const TICKER_TIMES = /("(?:E|O|C)":)(-?[0-9]+)/g;
const EVENT_AND_TRADE_TIME = /("(?:E|T)":)(-?[0-9]+)/g;
const STREAM_TIMES: Readonly<Record<string, RegExp>> = {
  trade: EVENT_AND_TRADE_TIME,
  aggTrade: EVENT_AND_TRADE_TIME,
  avgPrice: EVENT_AND_TRADE_TIME,
  kline: /("(?:E|t|T)":)(-?[0-9]+)/g,
  '24hrTicker': TICKER_TIMES,
  '1hTicker': TICKER_TIMES,
  '4hTicker': TICKER_TIMES,
  '1dTicker': TICKER_TIMES,
};
/** The event name of a stream payload: one event, or the first of an array (`!ticker@arr`). */
const STREAM_EVENT_NAME = /^\[?\{"e":"([A-Za-z0-9]+)"/;

export type TimeUnit = 'MILLISECOND' | 'MICROSECOND';

/** The unit a header or URL parameter asks for: MICROSECOND in either case, else milliseconds. */
export function timeUnitOf(value: string | null | undefined): TimeUnit {
  return value === 'MICROSECOND' || value === 'microsecond' ? 'MICROSECOND' : 'MILLISECOND';
}

function toMicroseconds(_match: string, key: string, ms: string): string {
  // A negative or zero value is a sentinel (-1), not a time.
  return Number(ms) > 0 ? `${key}${ms}000` : `${key}${ms}`;
}

/** A reply's JSON text in the unit asked for. */
export function replyInUnit(text: string, unit: TimeUnit): string {
  return unit === 'MILLISECOND' ? text : text.replace(REPLY_TIMES, toMicroseconds);
}

/** A user-data event's JSON text (`{"e":...}`) in the unit asked for. */
export function eventInUnit(payload: string, unit: TimeUnit): string {
  if (unit === 'MILLISECOND') return payload;
  const name = EVENT_NAME.exec(payload)?.[1] ?? '';
  return payload.replace(EVENT_TIMES[name] ?? EVENT_TIME, toMicroseconds);
}

/** A market-data stream payload's JSON text in the unit asked for (arrays: every element). */
export function streamEventInUnit(payload: string, unit: TimeUnit): string {
  if (unit === 'MILLISECOND') return payload;
  const name = STREAM_EVENT_NAME.exec(payload)?.[1] ?? '';
  return payload.replace(STREAM_TIMES[name] ?? EVENT_TIME, toMicroseconds);
}
