// Replaying a recorded day (issue 35 item 6): a full day of a liquid symbol, the 2.5 million
// aggregate trades of replay-load.bench.ts's synthetic BTCUSDT day (generated as a .csv at bench
// time, loaded by a simulator on a manual clock), replayed by advanceTime:
//   quiet        one advanceTime over the day, no subscriber (target >= 1,000,000 prints/s)
//   subscribers  the day minute by minute with a `btcusdt@trade` and a `btcusdt@kline_1m`
//                subscriber reading in another process, until it has every trade (target >= 200,000)
//   bare         a loop over the same rows in the same process: each row's published time and
//                its price x quantity (the floor of any replay of them)
// Alternating rounds (bare, quiet, subscribers), each after sim.reset() (the replay restarts at
// the day's start). Wall and CPU time of the server's process; on a shared machine CPU holds up.
//
//   node --expose-gc --import tsx bench/replay-speed.bench.ts [--aggregates=N] [--rounds=N] [--no-json]

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { aggregates, aggTradesCsv } from '../scripts/replay/synthetic-trades.ts';
import { startSimulator, type Simulator } from '../src/index.ts';
import { resolveConfig } from '../src/config/index.ts';
import { loadRecordings, type Recording } from '../src/replay/index.ts';
import { flag, median, runInfo, table, writeResults } from './support.ts';

const DAY_MS = 86_400_000;
const DAY_START = Date.UTC(2025, 0, 1);
const TARGET_QUIET = 1_000_000;
const TARGET_SUBSCRIBED = 200_000;

interface Timed {
  readonly ms: number;
  readonly cpuMs: number;
}

function timed(work: () => void): Timed {
  const cpu = process.cpuUsage();
  const t = performance.now();
  work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

async function timedAsync(work: () => Promise<void>): Promise<Timed> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

/** The same day as replay-load.bench.ts (seed, spacing, price walk), as a .csv. */
function writeDay(dir: string, count: number): string {
  const tape = aggregates({ seed: 2025, startUs: DAY_START * 1000, aggregates: count, meanGapUs: Math.floor((DAY_MS * 1000) / count), resolutionUs: 1, startPriceTicks: 9_350_000, volatilityTicks: 130 });
  const file = join(dir, 'BTCUSDT-aggTrades-2025-01-01.csv');
  writeFileSync(file, [...aggTradesCsv(tape, { unit: 'us', header: false, crlf: false })].join(''));
  return file;
}

/** The floor: every row's published time and notional, summed so nothing is optimized away. */
function bareLoop(r: Recording): number {
  let sum = 0;
  const fromUs = r.timeUs[0]!;
  for (let i = 0; i < r.count; i++) sum += DAY_START + Math.floor((r.timeUs[i]! - fromUs) / 1000) + r.price[i]! * r.qty[i]! + r.buyerIsMaker[i]!;
  return sum;
}

/** A subscriber in its own process: counts trade frames, says how many when asked (stdin line). */
const CLIENT = `
const { WebSocket } = require('ws');
const ws = new WebSocket(process.argv[1]);
let trades = 0, klines = 0;
ws.on('message', (data) => { const s = data.toString(); if (s.includes('"e":"trade"')) trades++; else if (s.includes('"e":"kline"')) klines++; });
ws.on('open', () => process.stdout.write('open\\n'));
ws.on('close', () => process.stdout.write('closed\\n'));
process.stdin.on('data', () => process.stdout.write(JSON.stringify({ trades, klines }) + '\\n'));
`;

async function subscribedDay(sim: Simulator, prints: number): Promise<Timed & { klines: number; cut: number }> {
  const child = spawn(process.execPath, ['-e', CLIENT, `${sim.urls.ws}/stream?streams=btcusdt@trade/btcusdt@kline_1m`], { stdio: ['pipe', 'pipe', 'inherit'], cwd: process.cwd() });
  const lines: string[] = [];
  let wake = () => undefined as void;
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    lines.push(...text.split('\n').filter((l) => l !== ''));
    wake();
  });
  const line = async (pred: (l: string) => boolean): Promise<string> => {
    for (;;) {
      const found = lines.find(pred);
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  await line((l) => l === 'open');
  const cutBefore = sim.stats().slowConsumersDisconnected;
  // The rows at the start print as the core is made, before anyone subscribes.
  const streamed = prints - sim.exchange.instruments[0]!.lastTradeId;
  let counts = { trades: 0, klines: 0 };
  const t = await timedAsync(async () => {
    for (let minute = 0; minute <= 1440; minute++) {
      sim.advanceTime(60_000);
      await new Promise((resolve) => setImmediate(resolve)); // the sockets drain between minutes
    }
    for (let last = -1; counts.trades < streamed; ) {
      lines.length = 0;
      child.stdin.write('?\n');
      counts = JSON.parse(await line((l) => l.startsWith('{'))) as typeof counts;
      if (lines.includes('closed')) throw new Error('the subscriber was disconnected');
      if (counts.trades === last) throw new Error(`the subscriber stopped at ${counts.trades} of ${streamed} trades`);
      last = counts.trades;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  child.kill();
  // The next round's quiet day runs without yielding: the server must have seen this subscriber
  // leave first, or that day is published to its dead connection (a 5x slower "quiet" figure).
  while (sim.stats().connections > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return { ...t, klines: counts.klines, cut: sim.stats().slowConsumersDisconnected - cutBefore };
}

async function main(): Promise<void> {
  const count = Number(flag('aggregates') ?? 2_500_000);
  const rounds = Number(flag('rounds') ?? 3);
  const load = loadavg();
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'spot-sim-replay-speed-'));
  try {
    const file = writeDay(dir, count);
    const sim = { port: 0, tls_port: 0, clock: 'manual', start_time_ms: DAY_START, max_advance_ms: 2 * DAY_MS, generator: { enabled: false }, replay: [{ symbol: 'BTCUSDT', file }], replay_cache_dir: join(dir, 'cache') } as const;
    await using server = await startSimulator({ config: { sim } });
    const recording = (await loadRecordings(resolveConfig({ sim }))).get('BTCUSDT')!;
    const prints = recording.count;
    const bare: Timed[] = [];
    const quiet: Timed[] = [];
    const subscribed: (Timed & { klines: number; cut: number })[] = [];
    let check = 0;
    for (let round = 0; round < rounds; round++) {
      bare.push(timed(() => (check += bareLoop(recording))));
      server.reset();
      quiet.push(timed(() => server.advanceTime(DAY_MS + 60_000)));
      if (server.exchange.instruments[0]!.lastTradeId !== prints) throw new Error(`printed ${server.exchange.instruments[0]!.lastTradeId} of ${prints}`);
      server.reset();
      subscribed.push(await subscribedDay(server, prints));
    }
    const rate = (xs: Timed[], key: 'ms' | 'cpuMs') => prints / (median(xs.map((x) => x[key])) / 1000);
    const result = {
      ...runInfo('replay-speed'),
      loadavg: { atStart: load },
      wallSeconds: (performance.now() - started) / 1000,
      rounds,
      day: { aggregates: count, prints },
      bare: { rowsPerSec: rate(bare, 'ms'), rowsPerCpuSec: rate(bare, 'cpuMs'), runs: bare, check },
      quiet: { printsPerSec: rate(quiet, 'ms'), printsPerCpuSec: rate(quiet, 'cpuMs'), runs: quiet },
      subscribers: { printsPerSec: rate(subscribed, 'ms'), printsPerCpuSec: rate(subscribed, 'cpuMs'), runs: subscribed },
      targets: {
        quiet: { target: `>= ${TARGET_QUIET.toLocaleString('en-US')} prints/s`, met: rate(quiet, 'ms') >= TARGET_QUIET },
        subscribers: { target: `>= ${TARGET_SUBSCRIBED.toLocaleString('en-US')} prints/s`, met: rate(subscribed, 'ms') >= TARGET_SUBSCRIBED },
      },
    };
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    console.log(
      table([
        ['replay of a day', 'prints (rows) per second', 'per CPU-second', 'vs the bare loop (CPU)'],
        ['bare loop over the rows', f(result.bare.rowsPerSec), f(result.bare.rowsPerCpuSec), '1'],
        ['advanceTime, no subscriber', f(result.quiet.printsPerSec), f(result.quiet.printsPerCpuSec), (result.quiet.printsPerCpuSec / result.bare.rowsPerCpuSec).toFixed(4)],
        ['advanceTime by the minute, trade + kline subscriber', f(result.subscribers.printsPerSec), f(result.subscribers.printsPerCpuSec), (result.subscribers.printsPerCpuSec / result.bare.rowsPerCpuSec).toFixed(4)],
      ]),
    );
    if (flag('no-json') === undefined) writeResults(join(import.meta.dirname, 'results', 'replay-speed.json'), result);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
