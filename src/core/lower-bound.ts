// The one binary search of the core's queries: the first position whose key is >= a value in
// keys sorted ascending. (The book's level search stays its own, inline: it is on the order
// path.)

/** First i in [0, count) with keyAt(i) >= value, or count when none; keyAt must not decrease. */
export function lowerBound(count: number, keyAt: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyAt(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
