// The settings of the REST benchmark (bench/rest.bench.ts, its parts in rest-load.ts,
// rest-startup.ts, rest-idle-rss.ts): environment and flags read once, the requests measured,
// and the figures' formats, so every part measures and prints the same way.

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envNumber, flag } from './support.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(BENCH_DIR, '..');
/** The load process (forked). */
export const CLIENT_FILE = join(BENCH_DIR, 'rest-client.ts');
export const RESULTS_FILE = join(BENCH_DIR, 'results', 'rest.json');

export const SECONDS = envNumber('BENCH_SECONDS', 10);
export const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 1);
export const CONNECTIONS = Math.max(1, Math.round(envNumber('BENCH_CONNECTIONS', 10)));
export const STARTS = Math.max(1, Math.round(envNumber('BENCH_STARTS', 50)));
export const STARTUP_WARMUP = Math.round(envNumber('BENCH_STARTUP_WARMUP', 5));
export const IDLE_SECONDS = envNumber('BENCH_IDLE_SECONDS', 2);
export const GENERATOR = envNumber('BENCH_GENERATOR', 1) !== 0;

const ALL_PARTS = ['bare', 'order', 'depth', 'startup', 'rss'] as const;
type Part = (typeof ALL_PARTS)[number];
const onlyFlag = flag('only');
export const PARTS = new Set<Part>(onlyFlag ? (onlyFlag.split(',').filter((p) => (ALL_PARTS as readonly string[]).includes(p)) as Part[]) : ALL_PARTS);
export const WRITE_JSON = flag('no-json') === undefined;

export const SYMBOL = 'BTCUSDT';
export const ORDER_QUERY = `symbol=${SYMBOL}&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=50000`;
export const DEPTH_PATH = `/api/v3/depth?symbol=${SYMBOL}&limit=100`;
export const MiB = 1024 * 1024;
/** Other processes using more than this (in cores) during a timed phase make its figures suspect. */
export const NOISY_OTHER_CPU = 0.15;

export const log = (msg: string) => console.log(msg);

/** µs, as ms from 1000 µs up (a REST round trip under load often passes a millisecond). */
export function fmtUs(us: number): string {
  if (!Number.isFinite(us)) return '-';
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`;
}
