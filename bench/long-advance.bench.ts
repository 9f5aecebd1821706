// Long manual-clock jumps with a reader that has stopped (issue 34 item 1). A simulator in its
// own process (bench/long-advance-server.ts: manual clock, generator on), one WebSocket reading
// the seven streams of the issue's report and then pausing (it reads nothing while the server
// works), and one control call `POST /sim/v1/advance-time`. Per span: how long the call took,
// the server's RSS before, after and at its peak (VmHWM), whether the paused reader was cut,
// and the frames and bytes it got once it read again. A second connection on the same streams
// reads all along, to show what a client that keeps up receives.
//
//   npx tsx bench/long-advance.bench.ts                       this tree
//   npx tsx bench/long-advance.bench.ts --root=<dir>          the sources under <dir> (a base to compare)
//   env: BENCH_SPANS_MS=7200000,86400000 (2 h and 1 day)      flags: --no-json

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { flag, runInfo, SERVER_ENV, SERVER_NODE_FLAGS, writeResults } from './support.ts';

const STREAMS = ['btcusdt@depth20@100ms', 'ethusdt@depth20@100ms', 'btcusdt@kline_1s', 'ethusdt@kline_1s', 'btcusdt@ticker_1h', '!ticker_1h@arr', 'btcusdt@aggTrade'];
const SPANS = (process.env.BENCH_SPANS_MS ?? '7200000,86400000').split(',').map(Number);
/** A reader that got nothing for this long has everything the server will send. */
const QUIET_MS = 2_000;
const MB = 1024 * 1024;

interface Reader {
  frames: number;
  bytes: number;
  closedWith: number | null;
  readonly ws: WebSocket;
  readonly closed: Promise<void>;
}

function reader(url: string): Promise<Reader> {
  const ws = new WebSocket(`${url}/stream?streams=${STREAMS.join('/')}`, { perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    let onClose!: () => void;
    const r: Reader = { frames: 0, bytes: 0, closedWith: null, ws, closed: new Promise((done) => (onClose = done)) };
    ws.on('message', (data: Buffer) => {
      r.frames++;
      r.bytes += data.length;
    });
    ws.on('close', (code) => {
      r.closedWith = code;
      onClose();
    });
    ws.on('error', () => undefined);
    ws.once('open', () => resolve(r));
    ws.once('unexpected-response', () => reject(new Error('refused')));
  });
}

/** Resolves when `r` got nothing for QUIET_MS or closed. */
async function drained(r: Reader): Promise<void> {
  for (;;) {
    const before = r.frames;
    const quiet = new Promise((done) => setTimeout(done, QUIET_MS));
    await Promise.race([quiet, r.closed]);
    if (r.closedWith !== null || r.frames === before) return;
  }
}

/** POST /sim/v1/advance-time with no client-side timeout (fetch gives up after 300 s). */
function advance(httpUrl: string, ms: number): Promise<number> {
  const body = JSON.stringify({ ms });
  return new Promise((resolve, reject) => {
    const req = request(`${httpUrl}/sim/v1/advance-time`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

async function scenario(spanMs: number, root: string | undefined) {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', join(import.meta.dirname, 'long-advance-server.ts'), ...(root ? [`--root=${root}`] : [])], {
    env: { ...process.env, ...SERVER_ENV },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
    const { urls } = JSON.parse(line) as { urls: { http: string; ws: string } };
    const paused = await reader(urls.ws);
    const reading = await reader(urls.ws);
    paused.ws.pause();
    await new Promise((done) => setTimeout(done, 500));
    const before = memoryMb(child.pid!);
    const t0 = performance.now();
    const status = await advance(urls.http, spanMs);
    const seconds = (performance.now() - t0) / 1000;
    if (status !== 200) throw new Error(`advance-time answered ${status}`);
    const after = memoryMb(child.pid!);
    const stats = ((await (await fetch(`${urls.http}/sim/v1/stats`)).json()) as { result: { slowConsumersDisconnected: number } }).result;
    await drained(reading);
    paused.ws.resume();
    await drained(paused);
    const settled = memoryMb(child.pid!);
    paused.ws.terminate();
    reading.ws.terminate();
    return {
      spanMs,
      seconds,
      rssBeforeMb: before.rss,
      rssAfterMb: after.rss,
      rssGrowthMb: after.rss - before.rss,
      rssPeakMb: after.peak,
      rssSettledMb: settled.rss,
      slowConsumersCut: stats.slowConsumersDisconnected,
      paused: { frames: paused.frames, mb: paused.bytes / MB, closedWith: paused.closedWith },
      reading: { frames: reading.frames, mb: reading.bytes / MB, closedWith: reading.closedWith },
    };
  } finally {
    child.kill('SIGTERM');
  }
}

const root = flag('root') || undefined;
const results = [];
for (const span of SPANS) {
  const r = await scenario(span, root);
  results.push(r);
  const close = (c: number | null) => (c === null ? 'open' : `closed ${c}`);
  console.log(
    `advance ${span / 3_600_000} h, generator on, 7 streams${root ? ` (${root})` : ''}: ${r.seconds.toFixed(1)} s; RSS ${r.rssBeforeMb.toFixed(0)} -> ${r.rssAfterMb.toFixed(0)} MB (+${r.rssGrowthMb.toFixed(0)}, peak ${r.rssPeakMb.toFixed(0)}, after the readers ${r.rssSettledMb.toFixed(0)}); ` +
      `paused reader ${close(r.paused.closedWith)}, ${r.paused.frames} frames (${r.paused.mb.toFixed(1)} MB); reading client ${close(r.reading.closedWith)}, ${r.reading.frames} frames (${r.reading.mb.toFixed(1)} MB); slow consumers cut ${r.slowConsumersCut}`,
  );
}
if (flag('no-json') === undefined) writeResults(join(import.meta.dirname, 'results', 'long-advance.json'), { ...runInfo('long-advance'), root: root ?? 'this tree', results });
