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
//   npx tsx --expose-gc bench/market-data.bench.ts

import { createServer, request, Agent } from 'node:http';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { startSimulator, type SimConfigInput } from '../src/index.ts';
import { NO_HISTORY, SymbolMarketData } from '../src/core/market-data.ts';

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

async function rate(port: number, path: string, ms: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 50; i++) await get(agent, port, path);
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    await get(agent, port, path);
    n++;
  }
  agent.destroy();
  return n / (ms / 1000);
}

async function klinesVsHello(): Promise<void> {
  const hello = createServer((_, res) => res.end('hello'));
  await new Promise<void>((r) => hello.listen(0, '127.0.0.1', r));
  const helloPort = (hello.address() as { port: number }).port;
  const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0 } } });
  const path = '/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000';
  const rounds: [number, number][] = [];
  for (let i = 0; i < 3; i++) rounds.push([await rate(sim.ports.http, path, 2000), await rate(helloPort, '/', 2000)]);
  const klines = Math.max(...rounds.map((r) => r[0]));
  const bare = Math.max(...rounds.map((r) => r[1]));
  console.log(`klines limit=1000: ${klines.toFixed(0)} req/s; bare node:http hello: ${bare.toFixed(0)} req/s; ratio ${(klines / bare).toFixed(2)} (target >= 0.5)`);
  await sim.stop();
  hello.close();
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
  return { sim: { port: 0, tls_port: 0, start_mid: '1000', symbols: {}, account: { balances: {} } }, instruments } as SimConfigInput;
}

async function allTickers(): Promise<void> {
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
    await get(agent, sim.ports.http, '/api/v3/ticker/24hr');
    http.push(performance.now() - t);
  }
  agent.destroy();
  console.log(`ticker/24hr, 20 symbols with a day of history: handler p50 ${p50(handler.slice(50)).toFixed(3)} ms; over HTTP p50 ${p50(http.slice(50)).toFixed(3)} ms (target < 1 ms)`);
  await sim.stop();
}

async function startAndReset(): Promise<void> {
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
}

function memoryChild(trades: number): number {
  const md = new SymbolMarketData(NO_HISTORY, 1_000_000);
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  for (let i = 0; i < trades; i++) md.record(6_000_000 + (i % 1000), 1 + (i % 50), 1_700_000_000_000 + i * 50, i % 2 === 0, i % 3 === 0);
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss - before;
}

function memory(): void {
  const run = (n: number) => {
    const out = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--memory-child', String(n)], { encoding: 'utf8' });
    return Number(out.stdout.trim());
  };
  const million = run(1_000_000);
  const none = run(0);
  console.log(`RSS with 1,000,000 kept trades (one symbol): +${((million - none) / 2 ** 20).toFixed(1)} MiB over an empty model (target < 40 MiB)`);
}

if (process.argv[2] === '--memory-child') {
  console.log(memoryChild(Number(process.argv[3])));
} else {
  await klinesVsHello();
  await allTickers();
  await startAndReset();
  memory();
}
