// Candle bucketing (API.md section 9): interval edges, weeks opening on Monday, calendar
// months (leap February included), the reference's timeZone forms and their range.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { civilFromDays, daysFromCivil, DAY_MS, klineInterval, nextOpenTime, openTimeOf, parseTimeZone, previousOpenTime } from './kline-time.ts';

const utc = (y: number, m: number, d: number, h = 0, min = 0, s = 0, ms = 0) => daysFromCivil(y, m, d) * DAY_MS + ((h * 60 + min) * 60 + s) * 1000 + ms;
const iv = (name: string) => klineInterval(name)!;

test('day numbers round-trip through civil dates, leap years included', () => {
  assert.equal(daysFromCivil(1970, 1, 1), 0);
  assert.equal(daysFromCivil(2000, 3, 1) - daysFromCivil(2000, 2, 28), 2); // 2000 is a leap year
  assert.equal(daysFromCivil(1900, 3, 1) - daysFromCivil(1900, 2, 28), 1); // 1900 is not
  for (let d = -1000; d < 40000; d += 17) {
    const { year, month } = civilFromDays(d);
    assert.ok(daysFromCivil(year, month, 1) <= d && d < daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1));
  }
});

test('fixed intervals: an open time is the interval start; the last millisecond stays in it', () => {
  const t = utc(2024, 5, 17, 13, 47, 12, 345);
  assert.equal(openTimeOf(iv('1s'), 0, t), utc(2024, 5, 17, 13, 47, 12));
  assert.equal(openTimeOf(iv('1m'), 0, t), utc(2024, 5, 17, 13, 47));
  assert.equal(openTimeOf(iv('15m'), 0, t), utc(2024, 5, 17, 13, 45));
  assert.equal(openTimeOf(iv('4h'), 0, t), utc(2024, 5, 17, 12));
  assert.equal(openTimeOf(iv('1d'), 0, t), utc(2024, 5, 17));
  const open = utc(2024, 5, 17, 13, 45);
  assert.equal(openTimeOf(iv('15m'), 0, open), open);
  assert.equal(openTimeOf(iv('15m'), 0, open - 1), utc(2024, 5, 17, 13, 30));
  assert.equal(openTimeOf(iv('15m'), 0, nextOpenTime(iv('15m'), 0, open) - 1), open);
});

test('weeks open on Monday 00:00 of the time zone', () => {
  // 2024-05-17 is a Friday; its week opened on Monday 2024-05-13.
  assert.equal(openTimeOf(iv('1w'), 0, utc(2024, 5, 17, 9)), utc(2024, 5, 13));
  assert.equal(openTimeOf(iv('1w'), 0, utc(2024, 5, 13)), utc(2024, 5, 13));
  assert.equal(openTimeOf(iv('1w'), 0, utc(2024, 5, 13) - 1), utc(2024, 5, 6));
  // In UTC+8 Monday 00:00 is Sunday 16:00 UTC.
  assert.equal(openTimeOf(iv('1w'), 8 * 3600_000, utc(2024, 5, 12, 17)), utc(2024, 5, 12, 16));
});

test('months are calendar months, February of a leap year included, also in a time zone', () => {
  const M = iv('1M');
  assert.equal(openTimeOf(M, 0, utc(2024, 2, 29, 23, 59)), utc(2024, 2, 1));
  assert.equal(nextOpenTime(M, 0, utc(2024, 2, 1)), utc(2024, 3, 1));
  assert.equal(nextOpenTime(M, 0, utc(2024, 12, 1)), utc(2025, 1, 1));
  assert.equal(previousOpenTime(M, 0, utc(2024, 1, 1)), utc(2023, 12, 1));
  const tz = -5 * 3600_000;
  // 2024-03-01 02:00 UTC is still February in UTC-5.
  assert.equal(openTimeOf(M, tz, utc(2024, 3, 1, 2)), utc(2024, 2, 1, 5));
  assert.equal(nextOpenTime(M, tz, utc(2024, 2, 1, 5)), utc(2024, 3, 1, 5));
});

test('timeZone: the reference forms in [-12:00, +14:00]; anything else is refused', () => {
  assert.equal(parseTimeZone('0'), 0);
  assert.equal(parseTimeZone('8'), 8 * 3600_000);
  assert.equal(parseTimeZone('-1:00'), -3600_000);
  assert.equal(parseTimeZone('05:45'), (5 * 60 + 45) * 60_000);
  assert.equal(parseTimeZone('+08:00'), 8 * 3600_000);
  assert.equal(parseTimeZone('14:00'), 14 * 3600_000);
  assert.equal(parseTimeZone('-12:00'), -12 * 3600_000);
  for (const bad of ['14:01', '-12:30', '15', '8:60', 'UTC', '', '8.5', '1:2', '+']) assert.equal(parseTimeZone(bad), undefined, bad);
});

test('unknown interval names are not intervals (case-sensitive)', () => {
  for (const bad of ['1x', '1H', '2m', '1y', '', '1mo']) assert.equal(klineInterval(bad), undefined, bad);
  assert.equal(klineInterval('1M')!.months, 1);
  assert.equal(klineInterval('1m')!.ms, 60_000);
});
