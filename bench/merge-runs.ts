// The median of several runs of one benchmark (issue 7: "median of several runs"): every number
// in the results is replaced by its median over the runs, position by position; anything else
// (text, dates, flags) is taken from the first run, except a target's `met`, which is decided
// again on the median `value` (a target reads "<= 150 us", ">= 35000", ">= 0.5x bare", "< 1 ms", ...).

import { median } from './support.ts';

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function meets(value: number, op: string, limit: number): boolean {
  return op === '<=' ? value <= limit : op === '>=' ? value >= limit : op === '<' ? value < limit : value > limit;
}

function merge(values: Json[]): Json {
  const first = values[0];
  if (values.every((v) => typeof v === 'number' && Number.isFinite(v))) return median(values as number[]);
  if (Array.isArray(first)) {
    if (!values.every((v) => Array.isArray(v) && v.length === first.length)) return first;
    return first.map((_, i) => merge(values.map((v) => (v as Json[])[i])));
  }
  if (isRecord(first)) {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(first)) out[key] = merge(values.map((v) => (isRecord(v) ? v[key] : undefined)));
    if (typeof out.value === 'number' && typeof out.target === 'string' && typeof out.met === 'boolean') {
      const m = /^(<=|>=|<|>)\s*([0-9.]+)/.exec(out.target);
      if (m !== null) out.met = meets(out.value, m[1]!, Number(m[2]));
    }
    return out;
  }
  return first;
}

/** The runs' results merged into one, with `runsMerged` saying how many. */
export function mergeRuns(runs: readonly Json[]): Json {
  if (runs.length === 1) return runs[0];
  const merged = merge([...runs]);
  return isRecord(merged) ? { ...merged, runsMerged: runs.length } : merged;
}
