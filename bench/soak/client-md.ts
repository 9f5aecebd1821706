// Soak load: the market-data subscribers (each checks its depth stream stays contiguous), the
// measuring windows over their delivery delay, and the two slow consumers (a subscriber and a
// WS API connection that stop reading). Part of bench/soak/client.ts.

import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { errText, intAfter, K_E, K_U, K_u, openWs, signedFrame, STREAM_PREFIX, wallNow } from '../load-common.ts';
import { Hist, type MdStatus, type WindowResult } from './protocol.ts';

// ------------------------------------------------------------------ market-data subscribers

interface MdConn {
  ws: WebSocket;
  lastU: number;
  closed: boolean;
}

const md: MdConn[] = [];
const mdTotals = { opened: 0, closed: 0, errors: 0, firstError: null as string | null, depth: 0, trade: 0, gaps: 0, firstGap: null as string | null };
let windowDepth: Hist | null = null;
let windowTrade: Hist | null = null;
let windowStart = 0;
let windowCpu = process.cpuUsage();
let windowLoop: IntervalHistogram | null = null;

function onMdMessage(c: MdConn, data: Buffer): void {
  const recv = wallNow();
  // `{"stream":"btcusdt@depth@100ms","data":{...}}` / `{"stream":"btcusdt@trade",...}`
  const at = data.indexOf(0x40, STREAM_PREFIX.length); // '@'
  if (at < 0) return;
  const kind = data[at + 1]; // 'd' depth, 't' trade
  const E = intAfter(data, K_E, at);
  if (kind === 0x64) {
    mdTotals.depth++;
    const U = intAfter(data, K_U, at);
    const u = intAfter(data, K_u, at);
    if (c.lastU >= 0 && U !== c.lastU + 1) {
      mdTotals.gaps++;
      mdTotals.firstGap ??= `U=${U} after u=${c.lastU}`;
    }
    c.lastU = u;
    windowDepth?.add(recv - E);
  } else if (kind === 0x74) {
    mdTotals.trade++;
    windowTrade?.add(recv - E);
  }
}

export async function mdOpen(url: string, count: number): Promise<number> {
  const BATCH = 50;
  for (let i = 0; i < count; i += BATCH) {
    const n = Math.min(BATCH, count - i);
    const opened = await Promise.all(Array.from({ length: n }, () => openWs(url)));
    for (const ws of opened) {
      const c: MdConn = { ws, lastU: -1, closed: false };
      md.push(c);
      mdTotals.opened++;
      ws.on('message', (data: Buffer) => onMdMessage(c, data));
      ws.on('error', (e) => {
        mdTotals.errors++;
        mdTotals.firstError ??= errText(e);
      });
      ws.once('close', (code, reason) => {
        c.closed = true;
        mdTotals.closed++;
        mdTotals.firstError ??= `closed by the server: ${code} ${reason.toString()}`;
      });
    }
  }
  return md.length;
}

export function mdStatus(): MdStatus {
  return {
    open: md.filter((c) => !c.closed).length,
    opened: mdTotals.opened,
    closed: mdTotals.closed,
    errors: mdTotals.errors,
    firstError: mdTotals.firstError,
    depthMessages: mdTotals.depth,
    tradeMessages: mdTotals.trade,
    gaps: mdTotals.gaps,
    firstGap: mdTotals.firstGap,
  };
}

/** Starts a measuring window: delivery delays, CPU share and event-loop delay from now. */
export function windowBegin(): void {
  windowDepth = new Hist();
  windowTrade = new Hist();
  windowStart = performance.now();
  windowCpu = process.cpuUsage();
  windowLoop?.disable();
  windowLoop = monitorEventLoopDelay({ resolution: 10 });
  windowLoop.enable();
}

export function windowEnd(): WindowResult {
  const seconds = (performance.now() - windowStart) / 1000;
  const c = process.cpuUsage(windowCpu);
  const loop = windowLoop;
  loop?.disable();
  windowLoop = null;
  const loopDelayMs = loop === null ? { p50: NaN, p99: NaN, max: NaN } : { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
  const out: WindowResult = { depth: (windowDepth ?? new Hist()).toJSON(), trade: (windowTrade ?? new Hist()).toJSON(), seconds, cpu: (c.user + c.system) / 1e6 / seconds, loopDelayMs };
  windowDepth = windowTrade = null;
  return out;
}

/** Sends one frame and resolves when the reply with its id says 200. */
export function call(ws: WebSocket, id: number, frame: string, what: string): Promise<void> {
  return new Promise((res, rej) => {
    const timer = setTimeout(() => {
      ws.off('message', onMessage);
      rej(new Error(`no reply to ${what} within 10 s`));
    }, 10_000);
    const onMessage = (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { id?: number; status?: number; error?: unknown };
      if (m.id !== id) return;
      clearTimeout(timer);
      ws.off('message', onMessage);
      if (m.status === 200) res();
      else rej(new Error(`${what} refused: ${JSON.stringify(m.error)}`));
    };
    ws.on('message', onMessage);
    ws.send(frame);
  });
}
// ------------------------------------------------------------------ slow consumers

let slowMd: WebSocket | null = null;
let slowApi: { ws: WebSocket; timer: NodeJS.Timeout } | null = null;

export async function slowMdOpen(url: string): Promise<void> {
  const ws = await openWs(url);
  slowMd = ws;
  ws.on('error', () => {});
  await new Promise<void>((res) => ws.once('message', () => res()));
  // Stop reading: the kernel's socket buffers fill first, then the server's send queue grows.
  ws.pause();
}

export async function slowApiOpen(url: string, apiKey: string, apiSecret: string, intervalMs: number, depthLimit: number): Promise<void> {
  const ws = await openWs(url);
  ws.on('error', () => {});
  await call(ws, 1, signedFrame(1, 'userDataStream.subscribe.signature', [], apiKey, apiSecret), 'userDataStream.subscribe.signature');
  ws.pause();
  let id = 2;
  const request = () => `{"id":${id++},"method":"depth","params":{"symbol":"BTCUSDT","limit":${depthLimit}}}`;
  const timer = setInterval(() => {
    // Once the server let go the writes fail (EPIPE/ECONNRESET, swallowed above): stop then.
    if (ws.readyState !== ws.OPEN || ws.bufferedAmount > 1 << 20) return;
    ws.send(request());
  }, intervalMs);
  slowApi = { ws, timer };
}

export function slowMdClose(): void {
  slowMd?.terminate();
  slowMd = null;
}

export function slowApiClose(): void {
  if (slowApi !== null) {
    clearInterval(slowApi.timer);
    slowApi.ws.terminate();
  }
  slowApi = null;
}

/** Closes every connection this module opened (the client is stopping). */
export function closeAllMd(): void {
  for (const c of md) c.ws.terminate();
  slowMdClose();
  slowApiClose();
}
