// Exact units (ARCHITECTURE rule 2): prices are integer ticks, quantities integer lots,
// balances integer atoms (bigint). Strings are converted here and nowhere else; nothing is
// rounded: a value off the grid is reported, never snapped.

/** The reference exchange's legal form of a decimal parameter (binance-facts §2.2, -1100). */
export const DECIMAL_PATTERN = '^([0-9]{1,20})(\\.[0-9]{1,20})?$';
const DECIMAL_RE = /^([0-9]{1,20})(?:\.([0-9]{1,20}))?$/;

export const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);

/** Powers of ten as bigints, computed once: formatting balances asks for them on every event. */
const POW10N: readonly bigint[] = Array.from({ length: 48 }, (_, i) => 10n ** BigInt(i));

export function pow10n(exp: number): bigint {
  return exp >= 0 && exp < POW10N.length ? POW10N[exp]! : 10n ** BigInt(exp);
}

/** Decimal places of a power-of-ten step: "0.01" -> 2, "1" -> 0. */
export function stepDecimals(step: string): number {
  const m = /^(?:1|0\.(0*)1)$/.exec(step);
  if (!m) throw new RangeError(`not a power-of-ten step of at most 1: ${step}`);
  return step === '1' ? 0 : (m[1]?.length ?? 0) + 1;
}

/** Number of decimal places written in a plain decimal string ("1.250" -> 3). */
export function writtenDecimals(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

export const ScaledParse = {
  /** Not a plain decimal (the -1100 case). */
  Malformed: -1,
  /** A valid decimal with digits below the grid (off tick / off lot). */
  OffGrid: -2,
} as const;

/**
 * Parses a plain decimal string into an integer count of 10^-decimals units. Returns
 * `ScaledParse.Malformed`, `ScaledParse.OffGrid`, or the integer (Infinity when beyond 2^53, so
 * that maximum filters refuse it).
 */
export function parseScaled(text: string, decimals: number): number {
  const m = DECIMAL_RE.exec(text);
  if (!m) return ScaledParse.Malformed;
  const intPart = m[1]!;
  let frac = m[2] ?? '';
  if (frac.length > decimals) {
    for (let i = decimals; i < frac.length; i++) if (frac.charCodeAt(i) !== 48) return ScaledParse.OffGrid;
    frac = frac.slice(0, decimals);
  }
  const digits = intPart + frac.padEnd(decimals, '0');
  const value = Number(digits);
  return value > Number.MAX_SAFE_INTEGER ? Infinity : value;
}

/** Like `parseScaled` but exact for any size, into a bigint; null when malformed or off grid. */
export function parseScaledBig(text: string, decimals: number): bigint | null {
  const m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!m) return null;
  let frac = m[2] ?? '';
  if (frac.length > decimals) {
    if (!/^0*$/.test(frac.slice(decimals))) return null;
    frac = frac.slice(0, decimals);
  }
  return BigInt(m[1]! + frac.padEnd(decimals, '0'));
}

/**
 * Formats an integer count of 10^-decimals units the reference way: at least 8 decimals
 * ("60000.00000000"); more only when the value needs them to stay exact.
 */
export function formatScaled(value: number | bigint, decimals: number, minDecimals = 8): string {
  if (typeof value === 'bigint') {
    // Balances and quote amounts are bigints but nearly always small: number arithmetic is exact
    // below 2^52 and several times faster than bigint division.
    if (value <= FAST_BIG && value >= -FAST_BIG && decimals < POW10.length) return formatScaled(Number(value), decimals, minDecimals);
    return formatBig(value, decimals, minDecimals);
  }
  if (value < 0) return '-' + formatScaled(-value, decimals, minDecimals);
  if (decimals <= 0) return String(value * POW10[-decimals]!) + (minDecimals > 0 ? '.' + '0'.repeat(minDecimals) : '');
  if (value === 0 && minDecimals === 8) return ZERO_8;
  const unit = POW10[decimals]!;
  let intPart = Math.floor(value / unit);
  let rest = value - intPart * unit;
  // The float quotient can round up to the next integer just below a multiple of `unit`.
  if (rest < 0) {
    intPart -= 1;
    rest += unit;
  }
  if (minDecimals === 8) {
    // The usual case, exactly 8 decimals: one number-to-text conversion of 1xxxxxxxx (the
    // leading 1 keeps the zeros) instead of padding and trimming text.
    if (decimals <= 8) return `${intPart}.${String(rest * POW10[8 - decimals]! + 1e8).slice(1)}`;
    const drop = POW10[decimals - 8]!;
    if (rest % drop === 0) return `${intPart}.${String(rest / drop + 1e8).slice(1)}`;
  }
  return `${intPart}.${fitDecimals(String(rest).padStart(decimals, '0'), minDecimals)}`;
}

const ZERO_8 = '0.00000000';

const FAST_BIG = 2n ** 52n;

function formatBig(value: bigint, decimals: number, minDecimals: number): string {
  if (value < 0n) return '-' + formatBig(-value, decimals, minDecimals);
  if (decimals <= 0) return String(value * pow10n(-decimals)) + (minDecimals > 0 ? '.' + '0'.repeat(minDecimals) : '');
  // One bigint-to-text conversion, then the decimal point placed by slicing (bigint division
  // is the slow part of formatting a balance).
  const digits = value.toString().padStart(decimals + 1, '0');
  const cut = digits.length - decimals;
  return `${digits.slice(0, cut)}.${fitDecimals(digits.slice(cut), minDecimals)}`;
}

/** Pads to `min` decimals, or trims trailing zeros beyond `min` (exact either way). */
function fitDecimals(frac: string, min: number): string {
  if (frac.length < min) return frac.padEnd(min, '0');
  let end = frac.length;
  while (end > min && frac.charCodeAt(end - 1) === 48) end--;
  return frac.slice(0, end);
}

/** Canonical short form of a scaled value ("0.01", "60000"), as config and tests write it. */
export function formatPlain(value: number | bigint, decimals: number): string {
  const s = formatScaled(value, decimals, 0);
  return s.endsWith('.') ? s.slice(0, -1) : s;
}
