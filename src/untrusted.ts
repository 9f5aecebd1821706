// Values a client sent (a parsed JSON body or frame, or whatever an in-process caller without
// types passes), described and coerced without ever throwing or recursing without bound
// (issue 18 item 1). JSON.stringify and String() are not safe on such values: a value nested
// 5,000 deep overflows the stack, `{"toString":1}` cannot be converted to a primitive, a getter
// may throw. Every refusal message that shows a client's value and every coercion of one goes
// through here.

/** How deep a description looks into arrays and objects before it writes `...`. */
const DESCRIBE_DEPTH = 2;
/** At most this many characters of description (then `...`). */
export const DESCRIBE_MAX_CHARS = 80;
/** Items or members shown per array or object. */
const DESCRIBE_MAX_ITEMS = 5;

/**
 * A short JSON-like description of any value, for a refusal message: strings quoted, at most
 * DESCRIBE_DEPTH levels and DESCRIBE_MAX_ITEMS members per level, at most `maxChars`
 * characters. Never throws.
 */
export function describeUntrusted(value: unknown, maxChars = DESCRIBE_MAX_CHARS): string {
  let text: string;
  try {
    text = describe(value, DESCRIBE_DEPTH, maxChars + 1);
  } catch {
    text = 'a value that cannot be shown';
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}...` : text;
}

function describe(value: unknown, depth: number, budget: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > budget ? value.slice(0, budget) : value);
    case 'number':
    case 'boolean':
      return `${value}`;
    case 'bigint':
      return `${value}n`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  const isArray = Array.isArray(value);
  if (depth === 0) return isArray ? '[...]' : '{...}';
  const parts: string[] = [];
  let used = 2;
  const keys = isArray ? null : Object.keys(value as object);
  const count = isArray ? (value as unknown[]).length : keys!.length;
  for (let i = 0; i < count && i < DESCRIBE_MAX_ITEMS && used < budget; i++) {
    const item = isArray
      ? describe((value as unknown[])[i], depth - 1, budget - used)
      : `${JSON.stringify(keys![i]!.slice(0, budget))}:${describe((value as Record<string, unknown>)[keys![i]!], depth - 1, budget - used)}`;
    parts.push(item);
    used += item.length + 1;
  }
  if (count > parts.length) parts.push('...');
  return isArray ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

/**
 * A scalar parameter's text: a string as it is, a finite number as its plain text; undefined for
 * anything else (arrays, objects, booleans, null), which the caller refuses as the wrong type.
 */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return plainNumber(value);
  return undefined;
}

/** A number in plain notation (never `1e-7`), so decimals parse as the caller meant them. */
export function plainNumber(v: number): string {
  if (Number.isInteger(v)) return v.toFixed(0);
  const text = String(v);
  return text.includes('e') ? v.toFixed(20).replace(/0+$/, '') : text;
}

/**
 * Whether a parsed JSON value nests deeper than `maxDepth` arrays or objects, found without
 * recursion and without visiting more than `maxNodes` values (beyond that: too deep as well, so
 * nothing larger is walked later either).
 */
export function nestsDeeperThan(value: unknown, maxDepth: number, maxNodes = 100_000): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  let visited = 0;
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth || ++visited > maxNodes) return true;
    const children = Array.isArray(node) ? node : Object.values(node as object);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
