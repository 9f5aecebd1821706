// sim.reset() benchmark (issue 15: `simIsolation: 'test'` resets the simulator before every
// test, so a reset must cost nothing a user notices; target p50 < 2 ms with the default config,
// the generator on with its seed levels). One simulator with the default configuration on
// random ports, in this process; each timed sample is one synchronous `sim.reset()` call.
//
//   idle      reset after reset: a test that did nothing to the exchange
//   test      reset after what a typical test leaves: a market-data WebSocket and a WS API
//             connection open (reset closes them), 10 account orders (half resting, half
//             trading with the generator), 5 scripted-market orders, a listen key, an armed fault
//   busy      reset after a minute of generator flow (manual clock; the book and trade log at
//             their size after a long test)
//
//   suite     a 50-test Playwright suite (each test: a REST order, an open-orders query, a
//             scripted order) run in one worker with simIsolation 'test' and then 'worker':
//             wall time of each `playwright test` process, each twice alternating, the faster
//             one kept, same run (skip: --no-suite)
//
//   npx tsx bench/reset.bench.ts          npm run bench (with the others)
//   env:   BENCH_RESETS=500 (samples per scenario)  BENCH_RESET_WARMUP=50
//   flags: --no-json  --no-suite

import { loadavg } from 'node:os';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { startSimulator, type SimConfigInput, type Simulator } from '../src/index.ts';
import { envNumber, flag, percentile, runInfo, writeResults } from './support.ts';
import { placeOrder } from '../src/api/orders.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_FILE = join(ROOT, 'bench', 'results', 'reset.json');
const SUITE_TESTS = 50;
const RESETS = Math.max(10, Math.round(envNumber('BENCH_RESETS', 500)));
const WARMUP = Math.round(envNumber('BENCH_RESET_WARMUP', 50));
const TARGET_P50_MS = 2;

interface Summary {
  readonly samples: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

async function scenario(name: string, config: SimConfigInput, before: (sim: Simulator, i: number) => Promise<void> | void): Promise<Summary> {
  const sim = await startSimulator({ config: { ...config, sim: { ...config.sim, port: 0, tls_port: 0 } } });
  const times: number[] = [];
  try {
    for (let i = 0; i < WARMUP + RESETS; i++) {
      await before(sim, i);
      const t0 = performance.now();
      sim.reset();
      const ms = performance.now() - t0;
      if (i >= WARMUP) times.push(ms);
    }
  } finally {
    await sim.stop();
  }
  times.sort((a, b) => a - b);
  const summary = { samples: times.length, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99), maxMs: times[times.length - 1]! };
  console.log(`[${name}] ${summary.samples} resets: p50 ${summary.p50Ms.toFixed(3)} ms, p99 ${summary.p99Ms.toFixed(3)} ms, max ${summary.maxMs.toFixed(3)} ms`);
  return summary;
}

function open(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** What a typical test leaves behind; returns once its sockets are open. */
async function typicalTest(sim: Simulator, i: number): Promise<void> {
  const [md, api] = await Promise.all([open(`${sim.urls.ws}/ws/btcusdt@depth`), open(`${sim.urls.ws}/ws-api/v3`)]);
  const now = sim.now();
  for (let k = 0; k < 10; k++) {
    // Even k: a bid far below the touch (rests); odd k: a market buy (trades with the generator).
    const order = k % 2 === 0
      ? { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: String(50_000 + k), quantity: '0.001' }
      : { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' };
    placeOrder(sim.exchange, order, now);
  }
  for (let k = 0; k < 5; k++) sim.market.place({ symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: String(3_100 + k + (i % 7)), quantity: '0.5' });
  sim.service.listenKeys.create(now);
  sim.faults.rejectNextOrders(1);
  // The reset closes both; their close handshakes finish in the background as in the fixture.
  md.once('close', () => undefined);
  api.once('close', () => undefined);
}

/**
 * Wall time of a `playwright test` process running SUITE_TESTS small tests in one worker with
 * the given isolation. The suite lives under .tmp/ in the repository, so `spot-sim/fixture`
 * resolves to this checkout.
 */
function suiteWallMs(isolation: 'test' | 'worker'): number {
  const dir = join(ROOT, '.tmp', `bench-suite-${isolation}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'suite.spec.ts'),
    `import { test, expect } from 'spot-sim/fixture';
test.use({ simIsolation: '${isolation}' });
for (let i = 0; i < ${SUITE_TESTS}; i++) {
  test('test ' + i, async ({ client, market }) => {
    const order = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: String(50000 + i), quantity: '0.001' });
    expect((await client.rest.openOrders({ symbol: 'BTCUSDT' })).map((o) => o.orderId)).toContain(order.orderId);
    await market.place({ symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: String(3100 + i), quantity: '0.5' });
  });
}
`,
  );
  writeFileSync(join(dir, 'playwright.config.ts'), `export default { testDir: '.', workers: 1, reporter: 'dot', outputDir: './test-results' };\n`);
  const t0 = performance.now();
  const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')], { cwd: dir, encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (run.status !== 0) throw new Error(`the ${isolation} suite failed:\n${run.stdout}${run.stderr}`);
  console.log(`[suite] ${SUITE_TESTS} tests, one worker, simIsolation '${isolation}': ${(ms / 1000).toFixed(2)} s wall`);
  return ms;
}

/** Each isolation twice, alternating (so neither always runs on a warmer machine); the faster of each. */
function suiteComparison() {
  const test: number[] = [];
  const worker: number[] = [];
  for (let round = 0; round < 2; round++) {
    test.push(suiteWallMs('test'));
    worker.push(suiteWallMs('worker'));
  }
  return { tests: SUITE_TESTS, testWallMs: Math.min(...test), workerWallMs: Math.min(...worker) };
}

const started = performance.now();
const atStart = loadavg();
const results = {
  ...runInfo('reset'),
  loadAverage: { atStart },
  idle: await scenario('idle', {}, () => undefined),
  test: await scenario('test', {}, typicalTest),
  busy: await scenario('busy', { sim: { clock: 'manual' } }, (sim) => sim.advanceTime(60_000)),
  suite: flag('no-suite') === undefined ? suiteComparison() : undefined,
  wallSeconds: 0,
};
results.wallSeconds = (performance.now() - started) / 1000;
const met = results.idle.p50Ms < TARGET_P50_MS && results.test.p50Ms < TARGET_P50_MS;
console.log(`[target] reset p50 < ${TARGET_P50_MS} ms (idle and typical test, default config): ${met ? 'met' : 'NOT met'}`);
if (flag('no-json') === undefined) writeResults(RESULTS_FILE, { ...results, targets: { resetP50: { target: `< ${TARGET_P50_MS} ms`, met } } });
