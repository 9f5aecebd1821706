// The load side of bench/ws.bench.ts, forked by it (never run on its own): WebSocket clients on
// loopback, driven over the IPC channel one job at a time. Kept lean so the client's own cost
// stays small next to the server's: the order frames are written out as text (checked once
// against the generic builder), the HMAC key is a KeyObject made once,
// replies are read from their bytes (`{"id":<n>,"status":<s>` and `"orderId":<n>`) without
// JSON.parse, outgoing frames use an all-zero masking key (RFC 6455 allows any key; `ws` then
// skips the XOR pass), and incoming UTF-8 validation is off. Signing happens before a request's
// clock starts, so the round trip covers send -> reply only.
//
// Jobs:
//   rtt    one connection, sequential: send, await the reply, repeat; order.place and
//          order.cancel alternate (the cancel takes the placed orderId), each timed on its own.
//          `echo` sends the same order.place frame to a bare echo server.
//   pipe   one connection, `window` requests always in flight: each of `window` slots loops
//          order.place -> order.cancel(orderId) (so at most `window` orders are open); with `subscribe` the connection first takes a
//          user-data subscription (userDataStream.subscribe.signature) and receives its events.
//          `echo` keeps `window` copies of the order.place frame in flight on the echo server.
//   depth-connect / depth-measure   `connections` raw market-data connections; measure records
//          for every depthUpdate the delay (receive wall time - the event's `E`) and the
//          update-id continuity (U == previous u + 1) per connection.

import { performance } from 'node:perf_hooks';
import type WebSocket from 'ws';
import { cpuShare, openWs as open, orderIdOf, replyId, replyOk, reportMeasuring, serveJobs } from './load-common.ts';
import { setUp, Signer, type Auth } from './ws-requests.ts';

export type { Auth, AuthMode } from './ws-requests.ts';

export type ClientJob =
  | { readonly id: number; readonly kind: 'rtt'; readonly url: string; readonly auth: Auth; readonly warmupSeconds: number; readonly seconds: number; readonly maxSamples: number }
  | {
      readonly id: number;
      readonly kind: 'pipe';
      readonly url: string;
      readonly auth: Auth;
      readonly warmupSeconds: number;
      readonly seconds: number;
      readonly window: number;
      readonly subscribe: boolean;
    }
  | { readonly id: number; readonly kind: 'depth-connect'; readonly url: string; readonly connections: number }
  | { readonly id: number; readonly kind: 'depth-measure'; readonly seconds: number };

export interface RttResult {
  readonly kind: 'rtt';
  /** Round trips of order.place (echo: of the echoed frame), µs, in arrival order. */
  readonly placeUs: number[];
  readonly cancelUs: number[];
  readonly errors: number;
  readonly firstError: string | null;
  readonly seconds: number;
  readonly clientCpu: number;
}

export interface PipeResult {
  readonly kind: 'pipe';
  /** Replies received in the timed phase (echo: echoed frames). */
  readonly places: number;
  readonly cancels: number;
  readonly events: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly seconds: number;
  /** Share of one core this client process used over the timed phase. */
  readonly clientCpu: number;
  readonly window: number;
}

export interface DepthResult {
  readonly kind: 'depth';
  readonly connections: number;
  /** Delivery delay per received depthUpdate, ms. */
  readonly delaysMs: number[];
  readonly messages: number;
  readonly gaps: number;
  readonly closed: number;
  readonly seconds: number;
  readonly clientCpu: number;
}

export type ClientResult = RttResult | PipeResult | DepthResult;

// ------------------------------------------------------------------ rtt

async function runRtt(job: Extract<ClientJob, { kind: 'rtt' }>): Promise<RttResult> {
  const ws = await open(job.url);
  const echo = job.auth.mode === 'echo';
  const signer = new Signer(job.auth);
  if (!echo) await setUp(ws, signer, job.auth, false);
  if (!echo) signer.selfCheck();
  const echoFrame = echo ? new Signer({ ...job.auth, mode: 'hmac' }).place(1) : '';

  const placeUs: number[] = [];
  const cancelUs: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let timed = false;
  let cpu0 = process.cpuUsage();
  let tStart = 0;
  let deadline = performance.now() + job.warmupSeconds * 1000;
  let nextId = 1;
  let pendingCancel: string | null = null; // orderId to cancel next
  let inFlightIsPlace = true;
  let t0 = 0;

  return new Promise<RttResult>((resolve, reject) => {
    const finish = () => {
      const seconds = (performance.now() - tStart) / 1000;
      ws.off('message', onMessage);
      ws.close();
      resolve({ kind: 'rtt', placeUs, cancelUs, errors, firstError, seconds, clientCpu: cpuShare(cpu0, seconds) });
    };
    const sendNext = () => {
      const now = performance.now();
      if (now >= deadline || (timed && placeUs.length >= job.maxSamples)) {
        if (!timed) {
          timed = true;
          placeUs.length = 0;
          cancelUs.length = 0;
          errors = 0;
          firstError = null;
          deadline = now + job.seconds * 1000;
          tStart = now;
          cpu0 = process.cpuUsage();
          reportMeasuring(job.id);
        } else if (pendingCancel === null || echo) {
          return finish();
        }
      }
      const id = nextId++;
      let frame: string;
      if (echo) frame = echoFrame;
      else if (pendingCancel !== null) {
        frame = signer.cancel(id, pendingCancel);
        pendingCancel = null;
        inFlightIsPlace = false;
      } else {
        frame = signer.place(id);
        inFlightIsPlace = true;
      }
      t0 = performance.now();
      ws.send(frame);
    };
    const onMessage = (data: Buffer) => {
      const t1 = performance.now();
      if (!echo && replyId(data) < 0) return; // not a reply
      const us = (t1 - t0) * 1000;
      if (inFlightIsPlace || echo) placeUs.push(us);
      else cancelUs.push(us);
      if (!echo) {
        if (!replyOk(data)) {
          errors++;
          firstError ??= data.toString('utf8');
          if (errors > 100 && !timed) return reject(new Error(`order requests refused: ${firstError}`));
        } else if (inFlightIsPlace) {
          pendingCancel = orderIdOf(data);
        }
      }
      sendNext();
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('the connection closed during the run')));
    sendNext();
  });
}

// ------------------------------------------------------------------ pipelined

async function runPipe(job: Extract<ClientJob, { kind: 'pipe' }>): Promise<PipeResult> {
  const ws = await open(job.url);
  const echo = job.auth.mode === 'echo';
  const signer = new Signer(job.auth);
  if (!echo) await setUp(ws, signer, job.auth, job.subscribe);
  if (!echo) signer.selfCheck();
  const echoFrame = echo ? new Signer({ ...job.auth, mode: 'hmac' }).place(1) : '';

  // Slots: slot s owns the ids congruent to s + 1 mod `slots`. Order mode: each slot has one
  // request in flight, a place or the cancel of what it placed, so at most `slots` orders are open.
  const slots = Math.max(1, job.window);
  const slotIsPlace = new Uint8Array(slots);
  const slotSeq = new Float64Array(slots);
  let places = 0;
  let cancels = 0;
  let events = 0;
  let errors = 0;
  let firstError: string | null = null;
  let timed = false;
  let stopping = false;
  let inFlight = 0;
  let cpu0 = process.cpuUsage();
  let tStart = 0;
  let tEnd = 0;

  const send = (slot: number, orderId: string | null) => {
    const id = slotSeq[slot]! * slots + slot + 1;
    slotSeq[slot] = slotSeq[slot]! + 1;
    inFlight++;
    if (echo) return ws.send(echoFrame);
    if (orderId === null) {
      slotIsPlace[slot] = 1;
      ws.send(signer.place(id));
    } else {
      slotIsPlace[slot] = 0;
      ws.send(signer.cancel(id, orderId));
    }
  };

  return new Promise<PipeResult>((resolve, reject) => {
    const finish = () => {
      ws.off('message', onMessage);
      ws.close();
      const seconds = (tEnd - tStart) / 1000;
      resolve({ kind: 'pipe', places, cancels, events, errors, firstError, seconds, clientCpu: cpuShare(cpu0, seconds), window: slots });
    };
    let echoSlot = 0;
    const onMessage = (data: Buffer) => {
      if (echo) {
        inFlight--;
        if (timed && !stopping) places++;
        if (stopping) {
          if (inFlight === 0) finish();
          return;
        }
        send(echoSlot, null);
        echoSlot = (echoSlot + 1) % slots;
        return;
      }
      const id = replyId(data);
      if (id < 0) {
        if (timed && !stopping) events++;
        return;
      }
      if (id >= 900_000_000) return; // a late setup reply
      inFlight--;
      const slot = (id - 1) % slots;
      const wasPlace = slotIsPlace[slot] === 1;
      let orderId: string | null = null;
      if (!replyOk(data)) {
        errors++;
        firstError ??= data.toString('utf8');
      } else if (wasPlace) {
        orderId = orderIdOf(data);
      }
      if (timed && !stopping) {
        if (wasPlace) places++;
        else cancels++;
      }
      if (stopping && orderId === null) {
        if (inFlight === 0) finish();
        return;
      }
      send(slot, orderId); // while stopping, only the cancels of what is still open
    };
    ws.on('message', onMessage);
    ws.once('close', () => reject(new Error('the connection closed during the run')));
    for (let s = 0; s < slots; s++) send(s, null);
    setTimeout(() => {
      timed = true;
      places = cancels = events = errors = 0;
      firstError = null;
      tStart = performance.now();
      cpu0 = process.cpuUsage();
      reportMeasuring(job.id);
      setTimeout(() => {
        tEnd = performance.now();
        stopping = true;
        if (inFlight === 0) finish();
      }, job.seconds * 1000);
    }, job.warmupSeconds * 1000);
  });
}

// ------------------------------------------------------------------ market-data subscribers

interface DepthConn {
  ws: WebSocket;
  lastU: number;
}

let depthConns: DepthConn[] = [];

async function depthConnect(job: Extract<ClientJob, { kind: 'depth-connect' }>): Promise<void> {
  const out: DepthConn[] = [];
  const BATCH = 50;
  for (let i = 0; i < job.connections; i += BATCH) {
    const n = Math.min(BATCH, job.connections - i);
    const opened = await Promise.all(Array.from({ length: n }, () => open(job.url)));
    for (const ws of opened) out.push({ ws, lastU: -1 });
  }
  depthConns = out;
}

function depthMeasure(job: Extract<ClientJob, { kind: 'depth-measure' }>): Promise<DepthResult> {
  const delaysMs: number[] = [];
  let messages = 0;
  let gaps = 0;
  let closed = 0;
  const origin = performance.timeOrigin;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (const c of depthConns) {
    c.ws.removeAllListeners('message');
    c.ws.on('message', (data: Buffer) => {
      const recv = origin + performance.now();
      const msg = JSON.parse(data.toString('utf8')) as { e?: string; E: number; U: number; u: number };
      if (msg.e !== 'depthUpdate') return;
      messages++;
      delaysMs.push(recv - msg.E);
      if (c.lastU >= 0 && msg.U !== c.lastU + 1) gaps++;
      c.lastU = msg.u;
    });
    c.ws.once('close', () => closed++);
  }
  return new Promise((resolve) => {
    setTimeout(() => {
      const seconds = (performance.now() - t0) / 1000;
      const clientCpu = cpuShare(cpu0, seconds);
      for (const c of depthConns) c.ws.terminate();
      depthConns = [];
      resolve({ kind: 'depth', connections: 0, delaysMs, messages, gaps, closed, seconds, clientCpu });
    }, job.seconds * 1000);
  });
}

// ------------------------------------------------------------------ IPC

async function runJob(job: ClientJob): Promise<ClientResult | undefined> {
  switch (job.kind) {
    case 'rtt':
      return runRtt(job);
    case 'pipe':
      return runPipe(job);
    case 'depth-connect':
      await depthConnect(job);
      return undefined;
    case 'depth-measure': {
      const n = depthConns.length;
      return { ...(await depthMeasure(job)), connections: n };
    }
  }
}

serveJobs('bench/ws-client.ts', 'bench/ws.bench.ts', runJob, () => {
  for (const c of depthConns) c.ws.terminate();
});
