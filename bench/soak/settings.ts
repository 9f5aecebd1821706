// The settings of the soak (bench/soak/soak.ts, its phases in phase1-hold.ts .. phase4-soak.ts):
// environment read once, every phase's bounds, the simulator's config and the figures' formats,
// so every phase measures and prints the same way.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimConfigInput } from '../../src/index.ts';
import { envNumber, LOAD_SERVER, NO_RATE_LIMITS, type Summary } from '../support.ts';

const THIS_FILE = fileURLToPath(import.meta.url);
// bench/soak/, also when `npm run soak` runs this file bundled into dist/.
const SOAK_DIR = existsSync(join(dirname(THIS_FILE), 'client.ts')) ? dirname(THIS_FILE) : join(dirname(THIS_FILE), '..', 'bench', 'soak');
/** The load process (forked). */
export const CLIENT_FILE = join(SOAK_DIR, 'client.ts');
/** Beside every bench's results (bench/report.ts reads it there). */
export const RESULTS_FILE = join(SOAK_DIR, '..', 'results', 'soak.json');

export const MINUTES = envNumber('SOAK_MINUTES', 10);
export const CONNECTIONS = Math.max(1, Math.round(envNumber('SOAK_CONNECTIONS', 1000)));
export const PROCESSES = Math.min(4, Math.max(2, Math.round(envNumber('SOAK_CLIENTS', 3))));
export const ORDER_RATE = envNumber('SOAK_ORDER_RATE', 20);
export const LIMIT_RATE = envNumber('SOAK_LIMIT_RATE', 200);
export const MARKET_RATE = envNumber('SOAK_MARKET_RATE', 20);
export const CHURN = Math.round(envNumber('SOAK_CHURN', 10_000));
export const ABUSE_PER_KIND = Math.round(envNumber('SOAK_ABUSE', 40));

export const WARMUP_SECONDS = 15;
export const P1_SECONDS = 20;
export const SLOW_MAX_SECONDS = 60;
/** The slow WS API consumer asks for a ~12 KB depth snapshot this often (~0.2 MB/s queued, so it stalls for several seconds). */
export const SLOW_API_INTERVAL_MS = 60;
export const AFTER_SECONDS = 10;
/** Long enough for the heartbeat to drop a WebSocket that never pongs (20 s + 60 s by default). */
export const ABUSE_BOUND_SECONDS = 100;
export const CHURN_BOUND_SECONDS = 90;
export const SETTLE_SECONDS = 30;
export const SAMPLE_EVERY_MS = 10_000;
export const SLOW_P99_TARGET_MS = 5;
export const PING_INTERVAL_MS = 250;
export const PING_TIMEOUT_MS = 5000;

export const MD_STREAMS = 'btcusdt@depth@100ms/btcusdt@trade';
export const ALL_STREAMS = ['btcusdt', 'ethusdt'].flatMap((s) => ['@depth', '@depth@100ms', '@depth@1000ms', '@bookTicker', '@trade'].map((x) => s + x)).join('/');

/** The default configuration with the generator at the soak's rates and no refusal for rate. */
export const config: SimConfigInput = {
  sim: {
    ...LOAD_SERVER,
    generator: { limit_rate_per_s: LIMIT_RATE, market_rate_per_s: MARKET_RATE },
    limits: NO_RATE_LIMITS,
  },
};

export const log = (msg: string) => console.log(msg);
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const mb = (bytes: number) => bytes / (1024 * 1024);
export const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : '-');
export const fmtMB = (x: number) => `${x.toFixed(1)} MiB`;
export const fmtInt = (x: number) => Math.round(x).toLocaleString('en-US');
export const describe = (s: Summary) => `n=${fmtInt(s.n)} p50 ${fmtMs(s.p50)} p90 ${fmtMs(s.p90)} p99 ${fmtMs(s.p99)} max ${fmtMs(s.max)}`;

/** Splits n over the clients (the first ones take the remainder). */
export function split(n: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(n / parts) + (i < n % parts ? 1 : 0));
}
