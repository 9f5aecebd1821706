// The settings of the WS benchmark (bench/ws.bench.ts, its parts in ws-round-trip.ts,
// ws-throughput.ts, ws-fan-out.ts): environment and flags read once, the simulators' configs and
// the figures' formats, so every part measures and prints the same way.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimConfigInput } from '../src/index.ts';
import { envNumber, flag, LOAD_SERVER, NO_RATE_LIMITS } from './support.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
/** The load process (forked). */
export const CLIENT_FILE = join(BENCH_DIR, 'ws-client.ts');
export const RESULTS_FILE = join(BENCH_DIR, 'results', 'ws.json');

export const SECONDS = envNumber('BENCH_SECONDS', 10);
export const RTT_SECONDS = envNumber('BENCH_RTT_SECONDS', Math.min(3, SECONDS));
export const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 1);
/** At most 190 requests in flight: each may be an open order, and a symbol allows 200. */
export const WINDOW = Math.min(190, Math.max(1, Math.round(envNumber('BENCH_WINDOW', 128))));
export const MD_CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_MD_CONNECTIONS', 1000)));
export const MD_CLIENTS = Math.max(1, Math.round(envNumber('BENCH_MD_CLIENTS', 2)));
export const MD_RATE = process.env.BENCH_MD_RATE ? envNumber('BENCH_MD_RATE', 20) : undefined;
/** W1 keeps at most this many round trips (memory bound of a long run). */
export const RTT_MAX_SAMPLES = 500_000;

const ALL_PARTS = ['w1', 'w2', 'm1'] as const;
type Part = (typeof ALL_PARTS)[number];
const onlyFlag = flag('only');
export const PARTS = new Set<Part>(onlyFlag ? (onlyFlag.split(',').filter((p) => (ALL_PARTS as readonly string[]).includes(p)) as Part[]) : ALL_PARTS);
export const WRITE_JSON = flag('no-json') === undefined;
export const BASELINE = flag('no-baseline') === undefined;
/**
 * `--keep-awake`: a no-op timer every 2 ms in this (the server) process for the whole run. A
 * simulator with nothing due arms no timer and sleeps until a request comes; 18ee0d6 and older
 * woke every 2 ms (their driver tick). Sleeping deeper makes the next wake-up slower on this
 * machine, which the W1 round trip includes (80 against 77 µs HMAC with and without the timer);
 * with the flag on both sides of a `bench:ab` run, W1 compares the request paths alone.
 */
export const KEEP_AWAKE = flag('keep-awake') !== undefined;

export const DEPTH_STREAM = 'btcusdt@depth@100ms';
/** The depth stream's push interval, which the bare broadcaster copies. */
export const BATCH_MS = 100;

export const log = (msg: string) => console.log(msg);
export const fmtUs = (us: number) => (Number.isFinite(us) ? `${us.toFixed(0)} µs` : '-');
export const fmtMs = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(2)} ms` : '-');

/** W1/W2: generator off (only the bench's orders), rate limits lifted; an Ed25519 key for `logon`. */
export function apiConfig(ed25519File?: string): SimConfigInput {
  return {
    sim: {
      ...LOAD_SERVER,
      generator: { enabled: false },
      limits: NO_RATE_LIMITS,
      ...(ed25519File === undefined ? {} : { account: { ed25519_public_key_file: ed25519File } }),
    },
  };
}

/** M1: the default config (generator on), at BENCH_MD_RATE when given. */
export function marketConfig(): SimConfigInput {
  return {
    sim: {
      ...LOAD_SERVER,
      ...(MD_RATE === undefined ? {} : { generator: { limit_rate_per_s: MD_RATE } }),
    },
  };
}
