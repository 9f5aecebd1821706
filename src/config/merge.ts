// Deep merge of configuration trees (API.md section 3 and 6): tables merge key by key,
// everything else (arrays such as `instruments`, scalars) is replaced by the overriding tree.
// A key whose value is `undefined` counts as not given. Inputs are never mutated.
import { isTable } from './fields.ts';

/** Sets an own data property even for keys such as `__proto__` (TOML may contain them). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A structural copy of tables and arrays (leaves are immutable primitives or dates). */
export function cloneTree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneTree);
  if (!isTable(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) setOwn(copy, key, cloneTree(item));
  }
  return copy;
}

export function deepMerge(base: unknown, over: unknown): unknown {
  if (over === undefined) return cloneTree(base);
  if (!isTable(base) || !isTable(over)) return cloneTree(over);
  const merged = cloneTree(base) as Record<string, unknown>;
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    setOwn(merged, key, Object.hasOwn(merged, key) ? deepMerge(merged[key], value) : cloneTree(value));
  }
  return merged;
}
