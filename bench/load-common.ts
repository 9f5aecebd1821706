// What the load processes share (bench/ws-client.ts, bench/rest-client.ts, bench/soak/client.ts,
// forked by the benches): serving the bench process's jobs over IPC, WebSocket connections
// opened the way a lean client opens them, the readers that pick fields out of a reply's bytes
// without JSON.parse, signed WS API frames, CPU shares, and small utilities. Kept here once so
// the clients measure the same way. The bench side of the IPC is LoadProcess (bench/support.ts).

import { createHmac } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const errText = (e: unknown) => (e instanceof Error ? `${(e as NodeJS.ErrnoException).code ?? ''} ${e.message}`.trim() : String(e));
export const wallNow = () => performance.timeOrigin + performance.now();

/** Zero masking key (RFC 6455 allows any key; `ws` then skips the XOR pass). */
export const zeroMask = (mask: Buffer) => {
  mask[0] = 0;
  mask[1] = 0;
  mask[2] = 0;
  mask[3] = 0;
};

/** A client connection: no compression, no UTF-8 validation of what arrives, zero masks. */
export function openWs(url: string, timeoutMs = 10_000): Promise<WebSocket> {
  return new Promise((res, rej) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true, generateMask: zeroMask, handshakeTimeout: timeoutMs });
    ws.once('open', () => {
      ws.off('error', rej);
      res(ws);
    });
    ws.once('error', rej);
  });
}

/** This process's CPU since `since`, as a share of one core over `seconds`. */
export function cpuShare(since: NodeJS.CpuUsage, seconds: number): number {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1e6 / seconds;
}

// ------------------------------------------------------------------ reading replies from bytes

/** `{"id":<digits>` at the start of a reply frame: the id, or -1 for anything else (events). */
export function replyId(data: Buffer): number {
  // {"id":  = 7b 22 69 64 22 3a
  if (data.length < 8 || data[2] !== 0x69 || data[3] !== 0x64) return -1;
  let n = 0;
  for (let i = 6; i < data.length; i++) {
    const c = data[i]!;
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
  }
  return n;
}

/** Whether the reply says `"status":200` (its text right after the id). */
export function replyOk(data: Buffer): boolean {
  const at = data.indexOf('"status":', 6);
  return at > 0 && data[at + 9] === 0x32 && data[at + 10] === 0x30 && data[at + 11] === 0x30;
}

/** The digits after `"orderId":`, or null. */
export function orderIdOf(data: Buffer): string | null {
  const at = data.indexOf('"orderId":');
  if (at < 0) return null;
  let end = at + 10;
  while (end < data.length && data[end]! >= 0x30 && data[end]! <= 0x39) end++;
  return end > at + 10 ? data.toString('latin1', at + 10, end) : null;
}

export function intAfter(buf: Buffer, key: Buffer, from = 0): number {
  const at = buf.indexOf(key, from);
  if (at < 0) return NaN;
  let i = at + key.length;
  let n = 0;
  let digits = 0;
  for (; i < buf.length; i++) {
    const c = buf[i]!;
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    digits++;
  }
  return digits === 0 ? NaN : n;
}

export const K_E = Buffer.from('"E":');
export const K_U = Buffer.from('"U":');
export const K_u = Buffer.from('"u":');
export const STREAM_PREFIX = '{"stream":"';

// ------------------------------------------------------------------ signed requests

/** A WS API request frame signed with HMAC-SHA256 over the sorted `k=v&...` parameters. */
export function signedFrame(id: number, method: string, fields: Array<[string, string]>, apiKey: string, apiSecret: string): string {
  const params: Array<[string, string]> = [...fields, ['apiKey', apiKey], ['timestamp', String(Date.now())]];
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const payload = params.map(([k, v]) => `${k}=${v}`).join('&');
  params.push(['signature', createHmac('sha256', apiSecret).update(payload).digest('hex')]);
  return JSON.stringify({ id, method, params: Object.fromEntries(params) });
}

// ------------------------------------------------------------------ serving the bench process

/**
 * What a load process sends its bench process over IPC: `ready` once, when it takes jobs;
 * `measuring` when the timed phase of job `measuring` starts (the bench then starts reading its
 * own CPU, so the server's share covers the same span as the client's); one reply per job.
 */
export type LoadReport =
  | { readonly ready: true }
  | { readonly measuring: number }
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string };

/** A job the bench process sends: its own fields and the id its reply carries back. */
export interface LoadJob {
  readonly id: number;
}

const report = (m: LoadReport) => {
  // The bench process may be gone already (it crashed or was interrupted): nothing to report to.
  if (process.connected) process.send!(m);
};

/** Tells the bench process that the timed phase of job `id` starts now. */
export const reportMeasuring = (id: number) => report({ measuring: id });

/**
 * Runs this process as a load process: every job the bench process sends goes to `run` (several
 * may run at once), its result or error goes back under the job's id; `{ stop: true }` calls
 * `onStop` and disconnects. Exits at once when started by hand (it needs the IPC channel) and
 * when the bench process goes away.
 */
export function serveJobs<J extends LoadJob>(self: string, runInstead: string, run: (job: J) => Promise<unknown>, onStop: () => void = () => {}): void {
  if (process.send === undefined) {
    console.error(`${self} is forked by a bench; run ${runInstead} instead`);
    process.exit(2);
  }
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: J | { stop: true }) => {
    if ('stop' in m) {
      onStop();
      process.disconnect();
      return;
    }
    run(m).then(
      (result) => report({ id: m.id, ok: true, result }),
      (e: unknown) => report({ id: m.id, ok: false, error: errText(e) }),
    );
  });
  report({ ready: true });
}
