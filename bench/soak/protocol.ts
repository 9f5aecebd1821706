// The IPC protocol between bench/soak/soak.ts and its load process bench/soak/client.ts: the jobs,
// their results, and the mergeable latency histogram both sides read.

import type { Summary } from '../support.ts';

export interface Histogram {
  /** Width of a bin, ms. */
  readonly binMs: number;
  /** Counts per bin from 0; the last bin holds everything above the range. */
  readonly bins: number[];
  readonly n: number;
  readonly sum: number;
  readonly max: number;
  /** Samples below 0 (clock granularity: `E` is whole ms), counted in bin 0. */
  readonly negative: number;
}

const HIST_BIN_MS = 0.1;
const HIST_BINS = 50_001; // 0 .. 5000 ms, then overflow

export interface MdStatus {
  readonly open: number;
  readonly opened: number;
  readonly closed: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly depthMessages: number;
  readonly tradeMessages: number;
  readonly gaps: number;
  readonly firstGap: string | null;
}

export interface WindowResult {
  readonly depth: Histogram;
  readonly trade: Histogram;
  readonly seconds: number;
  /** Share of one core this process used over the window. */
  readonly cpu: number;
  /** This process's event-loop delay over the window, ms (its own lag adds to the delays it measures). */
  readonly loopDelayMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

export interface TradeResult {
  readonly placed: number;
  readonly acked: number;
  readonly placeErrors: number;
  readonly cancels: number;
  readonly cancelErrors: number;
  readonly firstError: string | null;
  readonly sawNew: number;
  readonly sawFinal: number;
  readonly finals: Record<string, number>;
  readonly missingNew: number;
  readonly missingFinal: number;
  readonly finalBeforeNew: number;
  readonly examplesMissing: string[];
  readonly placeRttMs: Histogram;
  readonly closed: boolean;
  readonly seconds: number;
}

export interface PingResult {
  readonly ok: number;
  readonly failed: number;
  readonly firstError: string | null;
  readonly latencyMs: Histogram;
  /** The longest stretch without a successful ping, ms. */
  readonly longestGapMs: number;
}

export interface ChurnResult {
  readonly kind: 'ws' | 'http';
  readonly ok: number;
  readonly failed: number;
  readonly firstError: string | null;
  readonly seconds: number;
  readonly requests: number;
}

export interface AbuseCategory {
  readonly name: string;
  readonly port: 'http' | 'https';
  readonly count: number;
  /** Connections the server closed (or that the client reset itself), and when. */
  readonly freed: number;
  readonly freedMsMax: number;
  readonly freedMsMedian: number;
  /** What the server answered, if anything (first bytes of the first reply). */
  readonly reply: string | null;
  readonly connectErrors: number;
}

export interface AbuseResult {
  readonly categories: AbuseCategory[];
  readonly seconds: number;
}

export type Job = { readonly id: number } & (
  | { readonly kind: 'md-open'; readonly url: string; readonly count: number }
  | { readonly kind: 'md-status' }
  | { readonly kind: 'window-start' }
  | { readonly kind: 'window-end' }
  | { readonly kind: 'slow-md-open'; readonly url: string }
  | { readonly kind: 'slow-md-close' }
  | { readonly kind: 'slow-api-open'; readonly url: string; readonly apiKey: string; readonly apiSecret: string; readonly intervalMs: number; readonly depthLimit: number }
  | { readonly kind: 'slow-api-close' }
  | { readonly kind: 'trade-start'; readonly url: string; readonly apiKey: string; readonly apiSecret: string; readonly ratePerSec: number; readonly tag: string }
  | { readonly kind: 'trade-stop'; readonly settleSeconds: number }
  | { readonly kind: 'ping-start'; readonly http: string; readonly https: string; readonly intervalMs: number; readonly timeoutMs: number }
  | { readonly kind: 'ping-stop' }
  | { readonly kind: 'churn-ws'; readonly url: string; readonly count: number; readonly concurrency: number; readonly timeoutSeconds: number }
  | { readonly kind: 'churn-http'; readonly host: string; readonly port: number; readonly count: number; readonly concurrency: number; readonly requestsPerConnection: number; readonly timeoutSeconds: number }
  | {
      readonly kind: 'abuse';
      readonly host: string;
      readonly httpPort: number;
      readonly httpsPort: number;
      readonly perCategory: number;
      readonly boundSeconds: number;
    }
);


// ------------------------------------------------------------------ histograms

export class Hist {
  readonly bins = new Uint32Array(HIST_BINS);
  n = 0;
  sum = 0;
  max = -Infinity;
  negative = 0;

  add(ms: number): void {
    this.n++;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
    if (ms < 0) {
      this.negative++;
      this.bins[0]!++;
      return;
    }
    const b = Math.floor(ms / HIST_BIN_MS);
    this.bins[b < HIST_BINS - 1 ? b : HIST_BINS - 1]!++;
  }

  toJSON(): Histogram {
    return { binMs: HIST_BIN_MS, bins: Array.from(this.bins), n: this.n, sum: this.sum, max: this.n === 0 ? 0 : this.max, negative: this.negative };
  }
}

// The bench side reads them: histograms of several processes or windows merge bin by bin.

export function mergeHistograms(hs: readonly Histogram[]): Histogram {
  const binMs = hs[0]?.binMs ?? 0.1;
  const size = hs[0]?.bins.length ?? 1;
  const bins = new Array<number>(size).fill(0);
  let n = 0;
  let sum = 0;
  let max = 0;
  let negative = 0;
  for (const h of hs) {
    for (let i = 0; i < size; i++) bins[i]! += h.bins[i]!;
    n += h.n;
    sum += h.sum;
    negative += h.negative;
    if (h.n > 0) max = Math.max(max, h.max);
  }
  return { binMs, bins, n, sum, max, negative };
}

/** The upper edge of the bin holding the p-th sample (the overflow bin: the max). */
function quantile(h: Histogram, p: number): number {
  if (h.n === 0) return NaN;
  const rank = Math.max(1, Math.ceil(p * h.n));
  let seen = 0;
  const last = h.bins.length - 1;
  for (let i = 0; i <= last; i++) {
    seen += h.bins[i]!;
    if (seen >= rank) return i === last ? h.max : Math.min(h.max, (i + 1) * h.binMs);
  }
  return h.max;
}

export function summarizeHistogram(h: Histogram): Summary {
  return { n: h.n, mean: h.n ? h.sum / h.n : NaN, p50: quantile(h, 0.5), p90: quantile(h, 0.9), p99: quantile(h, 0.99), max: h.n ? h.max : NaN };
}
