// Market-data figures (issue 19), all as same-run comparisons:
//   klines    GET /api/v3/klines?interval=1m&limit=1000 req/s, against a bare node:http server
//             answering "hello" on the same machine in the same run (sequential keep-alive
//             requests, one client; ratio = klines / hello)
//   tickers   GET /api/v3/ticker/24hr (all symbols) with 20 instruments: p50 of the handler
//             in-process (no transport) and over HTTP
//   start     startSimulator p50 with the default history (1440 minutes) and without (0),
//             alternating; reset p50 of each
//   memory    RSS growth of one symbol's model holding 1,000,000 kept trades (a child process
//             per measurement, after gc)
//
// It prints them and writes bench/results/market-data.json (bench/report.ts puts them in
// bench/REPORT.md).
//
//   npx tsx --expose-gc bench/market-data.bench.ts [--no-json]        npm run bench (with the others)

import { createServer, request, Agent } from 'node:http';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSimulator, type SimConfigInput } from '../src/index.ts';
import { NO_HISTORY, SymbolMarketData } from '../src/core/market/index.ts';
import { flag, runInfo, writeResults } from './support.ts';

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function get(agent: Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(n));
    });
    req.on('error', reject);
    req.end();
  });
}

function getStatus(agent: Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function rate(port: number, path: string, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 50; i++) if ((await getStatus(agent, port, path)) !== 200) throw new Error(`${path} refused`);
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    await get(agent, port, path);
    n++;
  }
  agent.destroy();
  return n / (ms / 1000);
}

interface KlinesFigures {
  readonly bytes: number;
  readonly reqPerSec: number;
  readonly helloReqPerSec: number;
  readonly sameBytesReqPerSec: number;
}

async function klinesVsHello(): Promise<KlinesFigures> {
  const hello = createServer((_, res) => res.end('hello'));
  await new Promise<void>((r) => hello.listen(0, '127.0.0.1', r));
  const helloPort = (hello.address() as { port: number }).port;
  let body = '';
  // The same bytes from a bare server: what moving a 1000-candle body costs by itself.
  const same = createServer((_, res) => res.end(body));
  await new Promise<void>((r) => same.listen(0, '127.0.0.1', r));
  const samePort = (same.address() as { port: number }).port;
  // The weight limit raised: the benchmark measures the server, not the request-weight refusals.
  const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, limits: { weight_per_minute: 100_000_000 } } } });
  const path = '/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000';
  body = await (await fetch(`${sim.urls.http}${path}`)).text();
  const rounds: [number, number, number][] = [];
  for (let i = 0; i < 3; i++) rounds.push([await rate(sim.ports.http, path, 2000), await rate(helloPort, '/', 2000), await rate(samePort, '/', 2000)]);
  const best = (k: number) => Math.max(...rounds.map((r) => r[k]!));
  const [klines, bare, bytes] = [best(0), best(1), best(2)];
  console.log(
    `klines limit=1000 (${body.length} bytes): ${klines.toFixed(0)} req/s; bare node:http hello ${bare.toFixed(0)} req/s (ratio ${(klines / bare).toFixed(2)}, target >= 0.5); bare node:http sending the same bytes ${bytes.toFixed(0)} req/s (ratio ${(klines / bytes).toFixed(2)})`,
  );
  await sim.stop();
  hello.close();
  same.close();
  return { bytes: body.length, reqPerSec: klines, helloReqPerSec: bare, sameBytesReqPerSec: bytes };
}

function twentySymbols(): SimConfigInput {
  const instruments = Array.from({ length: 20 }, (_, i) => ({
    symbol: `S${i}USDT`,
    base: `S${i}`,
    quote: 'USDT',
    tick: '0.01',
    lot: '0.0001',
    min_qty: '0.0001',
    max_qty: '100000',
    min_notional: '5',
  }));
  return { sim: { port: 0, tls_port: 0, start_mid: '1000', symbols: {}, account: { balances: {} }, limits: { weight_per_minute: 100_000_000 } }, instruments } as SimConfigInput;
}

async function allTickers(): Promise<{ readonly handlerP50Ms: number; readonly httpP50Ms: number }> {
  const sim = await startSimulator({ config: twentySymbols() });
  const service = sim.service;
  const endpoint = (await import('../src/api/endpoints.ts')).REST_ROUTES.get('GET /api/v3/ticker/24hr')!;
  const { parseRestParams } = await import('../src/api/params.ts');
  const handler: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    endpoint.run({ service, exchange: sim.exchange, now: sim.now(), events: [] }, parseRestParams('', ''));
    handler.push(performance.now() - t);
  }
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const http: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const status = await getStatus(agent, sim.ports.http, '/api/v3/ticker/24hr');
    if (status !== 200) throw new Error(`ticker/24hr answered ${status}`);
    http.push(performance.now() - t);
  }
  agent.destroy();
  const figures = { handlerP50Ms: p50(handler.slice(50)), httpP50Ms: p50(http.slice(50)) };
  console.log(`ticker/24hr, 20 symbols with a day of history: handler p50 ${figures.handlerP50Ms.toFixed(3)} ms; over HTTP p50 ${figures.httpP50Ms.toFixed(3)} ms (target < 1 ms)`);
  await sim.stop();
  return figures;
}

/** p50s in ms, with the default day of history and without. */
interface StartResetFigures {
  readonly start: { readonly historyP50Ms: number; readonly noHistoryP50Ms: number };
  readonly reset: { readonly historyP50Ms: number; readonly noHistoryP50Ms: number };
}

async function startAndReset(): Promise<StartResetFigures> {
  const config = (minutes: number): SimConfigInput => ({ sim: { port: 0, tls_port: 0, history: { minutes } } });
  for (const m of [1440, 0]) await (await startSimulator({ config: config(m) })).stop();
  const starts: Record<number, number[]> = { 1440: [], 0: [] };
  const resets: Record<number, number[]> = { 1440: [], 0: [] };
  for (let i = 0; i < 40; i++) {
    for (const m of [1440, 0]) {
      const t = performance.now();
      const sim = await startSimulator({ config: config(m) });
      starts[m]!.push(performance.now() - t);
      for (let r = 0; r < 5; r++) {
        const u = performance.now();
        sim.reset();
        resets[m]!.push(performance.now() - u);
      }
      await sim.stop();
    }
  }
  const f = (x: number) => x.toFixed(2);
  console.log(`startSimulator p50: history 1440 min ${f(p50(starts[1440]!))} ms, none ${f(p50(starts[0]!))} ms (target < 5 ms)`);
  console.log(`reset p50: history 1440 min ${f(p50(resets[1440]!))} ms, none ${f(p50(resets[0]!))} ms (target < 2 ms)`);
  return {
    start: { historyP50Ms: p50(starts[1440]!), noHistoryP50Ms: p50(starts[0]!) },
    reset: { historyP50Ms: p50(resets[1440]!), noHistoryP50Ms: p50(resets[0]!) },
  };
}

function memoryChild(trades: number): string {
  const md = new SymbolMarketData(NO_HISTORY, 1_000_000);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  for (let i = 0; i < trades; i++) md.record(6_000_000 + (i % 1000), 1 + (i % 50), 1_700_000_000_000 + i * 50, i % 2 === 0, i % 3 === 0);
  gc?.();
  const after = process.memoryUsage();
  return JSON.stringify({ rss: after.rss - before.rss, buffers: after.arrayBuffers - before.arrayBuffers, heap: after.heapUsed - before.heapUsed, kept: md.tape.size });
}

/** Growth in MiB of one symbol's model holding a million kept trades over an empty one. */
function memory(): { readonly rssMiB: number; readonly typedArraysMiB: number; readonly heapMiB: number } {
  const run = (n: number) => {
    const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--memory-child', String(n)], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(out.stderr);
    return JSON.parse(out.stdout.trim()) as { rss: number; buffers: number; heap: number; kept: number };
  };
  const million = run(1_000_000);
  const none = run(0);
  const mib = (bytes: number) => bytes / 2 ** 20;
  const growth = { rssMiB: mib(million.rss - none.rss), typedArraysMiB: mib(million.buffers - none.buffers), heapMiB: mib(million.heap - none.heap) };
  console.log(
    `1,000,000 kept trades (one symbol, ${million.kept} kept): RSS +${growth.rssMiB.toFixed(1)} MiB, typed arrays +${growth.typedArraysMiB.toFixed(1)} MiB, JS heap +${growth.heapMiB.toFixed(1)} MiB over an empty model (target < 40 MiB)`,
  );
  return growth;
}

if (process.argv[2] === '--memory-child') {
  console.log(memoryChild(Number(process.argv[3])));
} else {
  const loadAtStart = loadavg();
  const wallStart = performance.now();
  const klines = await klinesVsHello();
  const tickers = await allTickers();
  const { start, reset } = await startAndReset();
  const keptTrades = memory();
  const target = (value: number, limit: string, met: boolean) => ({ value, target: limit, met });
  if (flag('no-json') === undefined) {
    writeResults(join(import.meta.dirname, 'results', 'market-data.json'), {
      ...runInfo('market-data'),
      loadAverage: { atStart: loadAtStart, atEnd: loadavg() },
      wallSeconds: (performance.now() - wallStart) / 1000,
      klines: { ...klines, ratioToHello: klines.reqPerSec / klines.helloReqPerSec, ratioToSameBytes: klines.reqPerSec / klines.sameBytesReqPerSec },
      tickers: { symbols: 20, ...tickers },
      start,
      reset,
      keptTrades: { trades: 1_000_000, ...keptTrades },
      targets: {
        klines: target(klines.reqPerSec / klines.helloReqPerSec, '>= 0.5x hello', klines.reqPerSec / klines.helloReqPerSec >= 0.5),
        tickers: target(tickers.httpP50Ms, '< 1 ms', tickers.httpP50Ms < 1),
        start: target(start.historyP50Ms, '< 5 ms', start.historyP50Ms < 5),
        reset: target(reset.historyP50Ms, '< 2 ms', reset.historyP50Ms < 2),
        keptTrades: target(keptTrades.rssMiB, '< 40 MiB', keptTrades.rssMiB < 40),
      },
    });
  }
}
