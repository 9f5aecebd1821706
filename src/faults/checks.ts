// Argument checks shared by the fault calls, the fault rules and the control API that is
// generated from them (ARCHITECTURE rule 10): one message per kind of mistake, so a call made
// in-process and the same call over `/sim/v1/faults/...` are refused with the same words.

import { MAX_TIMER_MS } from '../config/fields.ts';

/**
 * A usage error of a fault call (bad argument, unknown order): the control API answers 400.
 * @example
 * expect(() => sim.faults.fillOpenOrder(999, '0.001')).toThrow(FaultError);   // no such open order
 */
export class FaultError extends Error {
  override name = 'FaultError';
}

/**
 * A numeric fault argument outside its range (or not an integer): a RangeError like the
 * platform's own, thrown before anything changes; the control API answers 400 as for FaultError.
 * The ranges are those of the configuration keys for the same settings.
 * @example
 * expect(() => sim.faults.rejectNextOrders(-1)).toThrow(FaultRangeError);
 */
export class FaultRangeError extends RangeError {
  override name = 'FaultRangeError';
}

/**
 * A fault rule that names an unknown endpoint, action or field, or a combination that can never
 * take effect (`-2015` on `ping`, `transport: 'rest'` on `session.logon`): a TypeError
 * in-process, 400 naming it on the control API.
 * @example
 * expect(() => sim.faults.use({ on: 'no.such.endpoint', action: { error: -1003 } })).toThrow(FaultRuleError);
 */
export class FaultRuleError extends TypeError {
  override name = 'FaultRuleError';
}

/** Not a number: FaultError; a number that is not an integer in [min, max]: FaultRangeError. */
export function requireInteger(value: unknown, min: number, max: number, message: string): number {
  if (typeof value !== 'number') throw new FaultError(message);
  if (!Number.isInteger(value) || value < min || value > max) throw new FaultRangeError(`${message} (got ${value})`);
  return value;
}

/** A one-shot count: any non-negative safe integer (as `reject_next_orders` / `rate_limit_next`). */
export function requireCount(value: unknown, name: string): number {
  return requireInteger(value, 0, Number.MAX_SAFE_INTEGER, `${name} must be a non-negative integer`);
}

/** A timer period: 2^31 ms or more overflows a timer, so the cap of `delay_ack_ms` applies. */
export function requireTimerMs(value: unknown, name: string): number {
  return requireInteger(value, 0, MAX_TIMER_MS, `${name} must be an integer from 0 to ${MAX_TIMER_MS}`);
}

/** A clock offset: any safe integer of ms, either way. */
export function requireOffsetMs(value: unknown, name: string): number {
  return requireInteger(value, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, `${name} must be an integer`);
}

export function requireOrderId(value: unknown, name: string): number {
  return requireInteger(value, 1, Number.MAX_SAFE_INTEGER, `${name} must be a positive integer`);
}

/** A quantity as the reference takes it: a decimal string (a JSON number is taken as its text). */
export function requireQty(value: unknown, name: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw new FaultError(`${name} must be a decimal string`);
  return String(value);
}

export function requireBoolean(value: unknown, name: string): boolean {
  if (typeof value !== 'boolean') throw new FaultError(`${name} must be true or false`);
  return value;
}

/** Whether an error is a refusal of a fault call or rule (the control API's 400), not a defect. */
export function isFaultUsageError(error: unknown): error is Error {
  return error instanceof FaultError || error instanceof FaultRangeError || error instanceof FaultRuleError;
}
