// One field list per reply shape, and what is made from it: the object form (JSON.stringify'd
// by the transports), a text writer compiled once per shape for the hot replies (the same bytes
// as JSON.stringify of the object form, without building the object), and the TypeScript type
// of the reply that the typed client (src/client/types.ts) exposes. Field order is the table's
// order, which is the reference exchange's order (binance-facts §3).
//
// A field reads its value from the source the reply is made of (S) and a context (C: the
// instrument whose scales format prices and quantities). Kinds say how the text writer writes a
// value: `text` between quotes as is (symbols, enum names, decimals: nothing JSON escapes),
// `string` through JSON.stringify (client-chosen ids), `number` and `boolean` bare, `list` as
// an array of another shape.

type Kind = 'text' | 'string' | 'number' | 'boolean' | 'list';

/** One field. `V` is the value's wire type (phantom: it types the client), `O` whether it may be absent. */
export interface Field<S, C, V, O extends boolean = false> {
  readonly kind: Kind;
  readonly get: (s: S, c: C) => unknown;
  /** Written only when this holds (a field the reference exchange writes only when it applies). */
  readonly when: ((s: S, c: C) => boolean) | undefined;
  /** For a list: the shape of its items. */
  readonly items: Shape<never, C, Fields> | undefined;
  readonly optional: O;
  readonly wireType?: V;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Fields = Record<string, Field<any, any, unknown, boolean>>;

type ValueOf<F> = F extends Field<never, never, infer V, boolean> ? V : never;
type Flat<T> = { [K in keyof T]: T[K] };

/** The wire type of a field list: what the client receives. */
export type WireOf<F extends Fields> = Flat<
  { -readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: ValueOf<F[K]> } & {
    -readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: ValueOf<F[K]>;
  }
>;

const field = <S, C, V>(kind: Kind, get: (s: S, c: C) => unknown): Field<S, C, V> => ({ kind, get, when: undefined, items: undefined, optional: false });

/** The field builders for replies made of an `S` in a context `C` (types inferred from the getters). */
export function fieldsOf<S, C>() {
  return {
    /** A value written between quotes as is: it never holds a character JSON escapes. */
    text: <V extends string>(get: (s: S, c: C) => V): Field<S, C, V> => field('text', get),
    /** A string that may need escaping (client-chosen ids). */
    str: (get: (s: S, c: C) => string): Field<S, C, string> => field('string', get),
    num: <V extends number>(get: (s: S, c: C) => V): Field<S, C, V> => field('number', get),
    bool: (get: (s: S, c: C) => boolean): Field<S, C, boolean> => field('boolean', get),
    /** A list of items of another shape. */
    list: <I, F extends Fields>(items: Shape<I, C, F>, get: (s: S, c: C) => readonly I[]): Field<S, C, WireOf<F>[]> => ({
      kind: 'list',
      get,
      when: undefined,
      items: items as unknown as Shape<never, C, Fields>,
      optional: false,
    }),
    /** The same field, written only when `when` holds. */
    optional: <V>(f: Field<S, C, V>, when: (s: S, c: C) => boolean): Field<S, C, V, true> => ({ ...f, when, optional: true }),
  };
}

export interface Shape<S, C, F extends Fields> {
  readonly fields: F;
  /** The reply as an object, fields in table order. */
  object(s: S, c: C): WireOf<F>;
  /** The reply as JSON text: equal to JSON.stringify(object(s, c)). */
  text(s: S, c: C): string;
  /** Items as a JSON array text. */
  listText(items: readonly S[], c: C): string;
}

/** Makes a shape of a field table; its text writer is compiled here, once. */
export function shape<S, C, F extends Fields>(fields: F): Shape<S, C, F> {
  const entries = Object.entries(fields);
  const write = compileText(entries) as (s: S, c: C) => string;
  const object = (s: S, c: C): WireOf<F> => {
    const out: Record<string, unknown> = {};
    for (const [name, f] of entries) {
      if (f.when !== undefined && !f.when(s, c)) continue;
      const value = f.get(s, c);
      out[name] = f.items === undefined ? value : (value as readonly never[]).map((item) => f.items!.object(item, c));
    }
    return out as WireOf<F>;
  };
  const listText = (items: readonly S[], c: C): string => {
    let out = '';
    for (const item of items) out += `${out === '' ? '' : ','}${write(item, c)}`;
    return `[${out}]`;
  };
  return { fields, object, text: write, listText };
}

/**
 * `function (s, c) { return '{"a":"' + g0(s, c) + '","b":' + g1(s, c) + (w2(s, c) ? ',"c":"' + g2(s, c) + '"' : '') + '}' }`:
 * the same concatenation as a hand-written template (neighbouring constants merged into one
 * literal), each getter its own call site.
 */
function compileText(entries: [string, Field<never, never, unknown, boolean>][]): (s: unknown, c: unknown) => string {
  const args: string[] = [];
  const values: unknown[] = [];
  const bind = (name: string, value: unknown): string => {
    args.push(name);
    values.push(value);
    return name;
  };
  /** Pieces of a concatenation: constant text, or an expression. */
  type Piece = { readonly literal: string } | { readonly expr: string };
  const join = (pieces: Piece[]): string => {
    const merged: Piece[] = [];
    for (const piece of pieces) {
      const last = merged.at(-1);
      if ('literal' in piece && last !== undefined && 'literal' in last) merged[merged.length - 1] = { literal: last.literal + piece.literal };
      else merged.push(piece);
    }
    return merged.map((piece) => ('literal' in piece ? JSON.stringify(piece.literal) : piece.expr)).join(' + ');
  };
  const pieces: Piece[] = [{ literal: '{' }];
  entries.forEach(([name, f], i) => {
    if (i === 0 && f.when !== undefined) throw new Error(`shape: the first field (${name}) cannot be optional`);
    const key: Piece = { literal: `${i === 0 ? '' : ','}${JSON.stringify(name)}:` };
    const get = `${bind(`g${i}`, f.get)}(s, c)`;
    let value: Piece[];
    if (f.kind === 'text') value = [{ literal: '"' }, { expr: get }, { literal: '"' }];
    else if (f.kind === 'string') value = [{ expr: `JSON.stringify(${get})` }];
    else if (f.kind === 'list') value = [{ expr: `${bind(`l${i}`, f.items!.listText)}(${get}, c)` }];
    else value = [{ expr: `('' + ${get})` }];
    if (f.when === undefined) pieces.push(key, ...value);
    else pieces.push({ expr: `(${bind(`w${i}`, f.when)}(s, c) ? ${join([key, ...value])} : '')` });
  });
  pieces.push({ literal: '}' });
  // Built from the field names (JSON-quoted) and fixed argument names: no outside input.
  const factory = new Function(...args, `return function writeShape(s, c) { return ${join(pieces)}; };`) as (...a: unknown[]) => (s: unknown, c: unknown) => string;
  return factory(...values);
}
