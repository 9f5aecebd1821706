// The resolved configuration is shared by every part of the simulator (API.md section 3:
// `sim.config` is "the resolved, frozen configuration"), so nothing may change it in place.

/** Freezes `value` and everything reachable from it; returns the same object. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
