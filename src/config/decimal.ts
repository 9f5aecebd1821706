// Exact decimals at the configuration boundary (ARCHITECTURE.md rule 2: no floating-point
// money). Config decimals are written as plain decimal strings (exact) or as numbers, which are
// taken through their shortest string form (`String(0.1)` = "0.1"), then kept as canonical
// strings: no exponent, no trailing zeros ("0.010" -> "0.01", "9000.0" -> "9000").
import { Decimal } from 'decimal.js';

/** A decimal string as users write it: digits, an optional fraction; no sign, no exponent. */
export const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

export type DecimalParse =
  | { readonly ok: true; readonly value: Decimal }
  | { readonly ok: false; readonly reason: 'type' | 'format' | 'negative' };

/** Parses a config decimal. Construction in decimal.js is exact (no precision rounding). */
export function parseDecimal(raw: unknown): DecimalParse {
  if (typeof raw === 'string') {
    if (!PLAIN_DECIMAL.test(raw)) return { ok: false, reason: 'format' };
    return { ok: true, value: new Decimal(raw) };
  }
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return { ok: false, reason: 'format' };
    if (raw < 0) return { ok: false, reason: 'negative' };
    // String() gives the shortest round-trip form, which may use an exponent ("1e-7").
    return { ok: true, value: new Decimal(String(raw)) };
  }
  // TOML integers beyond 2^53 arrive as bigint (smol-toml `integersAsBigInt: 'asNeeded'`):
  // exact, so a huge balance written as a bare integer keeps every digit.
  if (typeof raw === 'bigint') {
    if (raw < 0n) return { ok: false, reason: 'negative' };
    return { ok: true, value: new Decimal(raw.toString()) };
  }
  return { ok: false, reason: 'type' };
}

export function canonicalDecimal(value: Decimal): string {
  // toFixed() without arguments never uses exponent notation and drops trailing zeros.
  return value.toFixed();
}

/** Smallest and largest step of spec 2.1 tick/lot: 1e-8 (Binance's 8 decimals) up to 1. */
const POWER_OF_TEN_STEP = /^(1|0\.0{0,7}1)$/;

export function isPowerOfTenStep(value: Decimal): boolean {
  return POWER_OF_TEN_STEP.test(canonicalDecimal(value));
}

/**
 * Whether `value` is a whole multiple of `step`, for a step that is a power of ten <= 1:
 * then it is exactly "has no more decimals than the step", with no division to round.
 */
export function isOnPowerOfTenGrid(value: Decimal, step: Decimal): boolean {
  return value.decimalPlaces() <= step.decimalPlaces();
}
