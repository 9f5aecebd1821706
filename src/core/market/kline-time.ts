// Candle time arithmetic (API.md section 9; reference rest-api.md "Kline/Candlestick data"):
// the reference's intervals `1s` .. `1M`, the `timeZone` forms (`-1:00`, `05:45`, `8`) in
// [-12:00, +14:00], and the open time of the candle holding a moment. Weeks open on Monday,
// months are calendar months; both in the time zone, while open times stay UTC milliseconds.
// No Date here (the core reads no clock): civil dates come from day numbers (H. Hinnant's
// days_from_civil / civil_from_days).

export const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** An interval: a fixed length in ms, or `months` calendar months (1M). */
export interface KlineInterval {
  readonly name: string;
  readonly ms: number;
  readonly months: number;
}

const FIXED: readonly (readonly [string, number])[] = [
  ['1s', SECOND_MS],
  ['1m', MINUTE_MS],
  ['3m', 3 * MINUTE_MS],
  ['5m', 5 * MINUTE_MS],
  ['15m', 15 * MINUTE_MS],
  ['30m', 30 * MINUTE_MS],
  ['1h', HOUR_MS],
  ['2h', 2 * HOUR_MS],
  ['4h', 4 * HOUR_MS],
  ['6h', 6 * HOUR_MS],
  ['8h', 8 * HOUR_MS],
  ['12h', 12 * HOUR_MS],
  ['1d', DAY_MS],
  ['3d', 3 * DAY_MS],
  ['1w', WEEK_MS],
];

export const KLINE_INTERVALS: ReadonlyMap<string, KlineInterval> = new Map([
  ...FIXED.map(([name, ms]) => [name, { name, ms, months: 0 }] as const),
  ['1M', { name: '1M', ms: 0, months: 1 }],
]);

/** The interval named `name` (case-sensitive, as the reference), or undefined. */
export function klineInterval(name: string): KlineInterval | undefined {
  return KLINE_INTERVALS.get(name);
}

const TZ_RE = /^([+-]?)(\d{1,2})(?::(\d{2}))?$/;

/**
 * A `timeZone` value as an offset in ms east of UTC, or undefined when it is not one of the
 * reference's forms or lies outside [-12:00, +14:00].
 */
export function parseTimeZone(text: string): number | undefined {
  const m = TZ_RE.exec(text);
  if (m === null) return undefined;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (minutes > 59) return undefined;
  const total = (hours * 60 + minutes) * (m[1] === '-' ? -1 : 1);
  if (total < -12 * 60 || total > 14 * 60) return undefined;
  return total * MINUTE_MS;
}

/** Days since 1970-01-01 of a civil date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil year and month (1..12) of a day number. */
export function civilFromDays(days: number): { year: number; month: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month };
}

/** 1970-01-01 was a Thursday; weeks open on Monday, 4 days later in the cycle. */
const WEEK_SHIFT = 4 * DAY_MS;

/** Open time (UTC ms) of the candle of `interval` in time zone `tz` (ms) holding `time`. */
export function openTimeOf(interval: KlineInterval, tz: number, time: number): number {
  const local = time + tz;
  if (interval.months > 0) {
    const { year, month } = civilFromDays(Math.floor(local / DAY_MS));
    return daysFromCivil(year, month, 1) * DAY_MS - tz;
  }
  if (interval.ms === WEEK_MS) return Math.floor((local - WEEK_SHIFT) / WEEK_MS) * WEEK_MS + WEEK_SHIFT - tz;
  return Math.floor(local / interval.ms) * interval.ms - tz;
}

/** The open time of the candle after the one opening at `open`. */
export function nextOpenTime(interval: KlineInterval, tz: number, open: number): number {
  if (interval.months === 0) return open + interval.ms;
  const { year, month } = civilFromDays(Math.floor((open + tz) / DAY_MS));
  const next = month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1);
  return next * DAY_MS - tz;
}

/** The open time of the candle before the one opening at `open`. */
export function previousOpenTime(interval: KlineInterval, tz: number, open: number): number {
  if (interval.months === 0) return open - interval.ms;
  return openTimeOf(interval, tz, open - 1);
}
