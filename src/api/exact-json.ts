// JSON numbers as the client wrote them (issue 18 item 4). JSON.parse turns an integer beyond
// 2^53 into the nearest double: a WS API `orderId` of 9223372036854775807 would be validated and
// signed as 9223372036854775808, and a request id echoed with other digits. The transports parse
// every frame with JSON.parse (fast); only when that rounded an integer they read (the top-level
// `id`, a member of `params`) is the frame scanned again here, keeping such integers as digits.

/** An integer literal beyond +-2^53, as the digits the client sent. */
export class ExactInteger {
  constructor(readonly digits: string) {}
}

/** How deep the exact scan goes (the members it is for are at depth 1 and 2). */
const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const INTEGER = /^-?[0-9]+$/;

function rounded(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
}

/** Whether JSON.parse rounded an integer of a frame's `id` or of a member of its `params`. */
export function roundedIntegers(frame: Record<string, unknown>): boolean {
  if (rounded(frame.id)) return true;
  const params = frame.params;
  if (typeof params !== 'object' || params === null) return false;
  // for-in over a JSON.parse result: its own members only, and no array built per frame.
  for (const key in params) if (rounded((params as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * The frame again, parsed with every integer beyond 2^53 as an ExactInteger (other values as
 * JSON.parse gives them); `fallback` (the JSON.parse result) when the text nests deeper than
 * the scan goes.
 */
export function parseExact(text: string, fallback: unknown): unknown {
  try {
    return new Scanner(text).document();
  } catch {
    return fallback;
  }
}

class Scanner {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.value(0);
    this.space();
    if (this.at !== this.text.length) throw new SyntaxError('trailing text');
    return value;
  }

  private space(): void {
    const t = this.text;
    while (this.at < t.length && (t[this.at] === ' ' || t[this.at] === '\n' || t[this.at] === '\r' || t[this.at] === '\t')) this.at++;
  }

  private expect(char: string): void {
    this.space();
    if (this.text[this.at] !== char) throw new SyntaxError(`expected ${char}`);
    this.at++;
  }

  private value(depth: number): unknown {
    this.space();
    const char = this.text[this.at];
    if (char === '{' || char === '[') {
      if (depth >= MAX_DEPTH) throw new RangeError('too deep');
      return char === '{' ? this.object(depth) : this.array(depth);
    }
    if (char === '"') return this.string();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) throw new SyntaxError('expected a value');
    this.at += match[0].length;
    const number = Number(match[0]);
    return INTEGER.test(match[0]) && !Number.isSafeInteger(number) ? new ExactInteger(match[0]) : number;
  }

  private object(depth: number): Record<string, unknown> {
    this.at++;
    const out: Record<string, unknown> = {};
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      const key = this.string();
      this.expect(':');
      // As JSON.parse does: an own member, also for `__proto__`.
      Object.defineProperty(out, key, { value: this.value(depth + 1), enumerable: true, writable: true, configurable: true });
      this.space();
      const next = this.text[this.at++];
      if (next === '}') return out;
      if (next !== ',') throw new SyntaxError('expected , or }');
    }
  }

  private array(depth: number): unknown[] {
    this.at++;
    const out: unknown[] = [];
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.space();
      const next = this.text[this.at++];
      if (next === ']') return out;
      if (next !== ',') throw new SyntaxError('expected , or ]');
    }
  }

  private string(): string {
    const t = this.text;
    if (t[this.at] !== '"') throw new SyntaxError('expected a string');
    let end = this.at + 1;
    while (end < t.length && t[end] !== '"') end += t[end] === '\\' ? 2 : 1;
    const literal = t.slice(this.at, end + 1);
    this.at = end + 1;
    return JSON.parse(literal) as string;
  }
}

const LITERALS: readonly (readonly [string, unknown])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];
