// One WebSocket connection with the bounds every connection has (ARCHITECTURE "WebSocket
// routing"; issue: bounded queues per connection): a cap on the bytes queued for it (a consumer
// that stops reading is cut off instead of growing the server's memory or slowing anyone
// else), the ping/pong bookkeeping of spec 3.3, and a counter of incoming messages per second.
// The cap counts a frame the moment it is queued, not when the tick ends: a manual-clock
// `advanceTime` is one synchronous call, and a day of events queued inside it never reached the
// socket's buffer, where the cap looked (issue 34: 800 MB for a paused reader of 7 streams).
// A pong keeps the connection alive only when it echoes the payload of a ping the server sent
// (binance-facts §5); unsolicited pongs and pongs with another payload are accepted but do not.

import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { framesOf } from './frames.ts';

export type PeerKind = 'market' | 'api' | 'user';

/** A connection whose unsent bytes pass this is closed (slow consumer). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/**
 * Frames queued past this many bytes in one tick are written at once instead of at the end of
 * the tick: a long synchronous burst (an `advanceTime` with the generator on) reaches the socket
 * as it goes, so a client that reads (in another process) keeps up, as under wall-clock load,
 * and one that does not shows in the socket's buffer and is cut. Far above what a tick queues
 * under wall-clock load, where one write per tick stays the rule.
 */
export const EARLY_WRITE_BYTES = 256 * 1024;
/** Largest frame a client may send. */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Close codes: 1008 policy violation (too many messages), 1013 try again later (slow). */
export const CLOSE_POLICY = 1008;
export const CLOSE_SLOW_CONSUMER = 1013;

/** Server pings remembered for their echo; older ones are forgotten (the timeout has them). */
const MAX_OUTSTANDING_PINGS = 16;

/**
 * The peers with frames queued in this tick, in the order they got their first: one
 * `process.nextTick` writes them all. A market-data push to 1000 subscribers queues one callback
 * instead of 1000 (issue 19: bench/market-push.bench.ts).
 */
let flushDue: Peer[] = [];
function flushQueued(): void {
  const peers = flushDue;
  flushDue = [];
  for (let i = 0; i < peers.length; i++) peers[i]!.endTick();
}

export class Peer {
  /** Monotonic ms of the first ping not yet answered; null when none is outstanding. */
  awaitingPongSince: number | null = null;
  lastPingAt: number;
  /** Payloads and send times of the pings not yet echoed, oldest first. */
  private readonly outstandingPings: { readonly payload: string; readonly sentAt: number }[] = [];
  /**
   * Told of each ping the client sends and each pong that echoes no ping of ours: market-data
   * connections count them toward their 5 incoming messages per second (binance-facts §5).
   * An echo of the server's own ping is the heartbeat answer the server asked for, at the
   * server's rate, and is not counted (at the reference's 20 s interval the difference cannot
   * be seen; at a short configured interval it would close every well-behaved client).
   */
  onControlFrame: (() => void) | null = null;
  private windowStart = 0;
  private windowCount = 0;
  closed = false;
  /**
   * What was sent in the current tick, written at its end in one socket write: text payloads
   * (strings, framed at the flush) and whole frames from `textFrame` (Buffers).
   */
  private pending: (string | Buffer)[] = [];
  /** The bytes in `pending` (a string counted by its length: its frame is at least that). */
  private pendingBytes = 0;
  /** In `flushDue` already (an early write empties `pending` but leaves it there). */
  private flushQueued = false;

  constructor(
    readonly ws: WebSocket,
    /** The connection's own socket, from the listener's `upgrade` event (the one `ws` writes to). */
    private readonly socket: Pick<Duplex, 'write' | 'destroyed'>,
    readonly kind: PeerKind,
    readonly connectedAt: number,
    monotonicNow: number,
    private readonly onSlow: (peer: Peer) => void,
  ) {
    this.lastPingAt = monotonicNow;
    ws.on('pong', (data) => {
      if (!this.acceptPong(data)) this.onControlFrame?.();
    });
    ws.on('ping', () => this.onControlFrame?.());
    ws.once('close', () => {
      this.closed = true;
    });
  }

  /**
   * Sends a text message. Everything sent in one tick leaves in one socket write at the end of
   * the tick (`process.nextTick`): a WS API reply and the user-data events it caused, or a
   * pipelined burst of replies, cost one frame-building pass and one syscall instead of one
   * `ws.send` each. Nothing waits for I/O, and frames leave in the order they were sent.
   */
  send(payload: string): void {
    this.queue(payload);
  }

  /** Sends a frame built by `textFrame` (shared by many peers; never modified). */
  sendFrame(frame: Buffer): void {
    this.queue(frame);
  }

  private queue(item: string | Buffer): void {
    if (this.closed) return;
    const ws = this.ws;
    if (ws.readyState !== ws.OPEN) return;
    // What the socket holds plus what this tick queued: the frames of one synchronous burst
    // count before any of them is written. A frame on a connection with nothing waiting goes
    // out whatever its size (one large reply is not a slow reader).
    const waiting = ws.bufferedAmount + this.pendingBytes;
    if (waiting > 0 && waiting + item.length > MAX_BUFFERED_BYTES) {
      this.cutOff();
      return;
    }
    const queued = this.pendingBytes + item.length;
    if (!this.flushQueued) {
      this.flushQueued = true;
      if (flushDue.length === 0) process.nextTick(flushQueued);
      flushDue.push(this);
    }
    this.pending.push(item);
    this.pendingBytes = queued;
    if (queued >= EARLY_WRITE_BYTES) this.flush();
  }

  /**
   * Writes what this tick sent, straight to the connection's socket (the upgrade's; the frames
   * are the ones `ws` would build: unmasked, no extensions, since permessage-deflate is off).
   * `ws` counts those bytes in `bufferedAmount` all the same, which the slow-consumer cap reads.
   * Runs at the end of the tick, and before a close (or now, for a caller that cannot wait).
   */
  flush(): void {
    const items = this.pending;
    if (items.length === 0) return;
    this.pending = [];
    this.pendingBytes = 0;
    const ws = this.ws;
    if (this.closed || ws.readyState !== ws.OPEN) return;
    const socket = this.socket;
    if (socket.destroyed) return;
    if (items.length === 1 && typeof items[0] !== 'string') {
      socket.write(items[0]!);
      return;
    }
    socket.write(framesOf(items));
  }

  /** The end of the tick: what it queued is written (flushQueued calls this once per tick). */
  endTick(): void {
    this.flushQueued = false;
    this.flush();
  }

  /** Counts one incoming message; false once more than `perSecond` arrived in this second. */
  countMessage(nowMs: number, perSecond: number): boolean {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.windowStart) {
      this.windowStart = second;
      this.windowCount = 0;
    }
    return ++this.windowCount <= perSecond;
  }

  /**
   * A pong that echoes an outstanding ping answers it and every older one; the timeout then
   * runs from the oldest ping still unanswered. Returns false for any other pong.
   */
  private acceptPong(data: Buffer): boolean {
    const pings = this.outstandingPings;
    if (pings.length === 0) return false;
    const payload = data.toString('latin1');
    const i = pings.findIndex((p) => p.payload === payload);
    if (i < 0) return false;
    pings.splice(0, i + 1);
    this.awaitingPongSince = pings.length === 0 ? null : pings[0]!.sentAt;
    return true;
  }

  /** Heartbeat step (spec 3.3): close when the outstanding ping is too old, else ping when due. */
  heartbeat(nowMs: number, pingIntervalMs: number, pongTimeoutMs: number): void {
    if (this.closed) return;
    if (this.awaitingPongSince !== null && nowMs - this.awaitingPongSince >= pongTimeoutMs) {
      this.terminate();
      return;
    }
    if (nowMs - this.lastPingAt >= pingIntervalMs) {
      this.lastPingAt = nowMs;
      this.awaitingPongSince ??= nowMs;
      const payload = String(nowMs);
      this.outstandingPings.push({ payload, sentAt: nowMs });
      if (this.outstandingPings.length > MAX_OUTSTANDING_PINGS) this.outstandingPings.shift();
      try {
        this.ws.ping(payload);
      } catch {
        // The socket closed under us; its close handler cleans up.
      }
    }
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    // What was sent before the close leaves before the close frame.
    this.flush();
    this.ws.close(code, reason);
  }

  terminate(): void {
    // Frames sent earlier in this tick still leave first.
    this.flush();
    this.ws.terminate();
  }

  private cutOff(): void {
    // What it queued is dropped, not written: its memory is freed now.
    this.pending = [];
    this.pendingBytes = 0;
    this.closed = true;
    this.onSlow(this);
    // terminate(): a close frame would only queue behind the data the peer is not reading.
    this.ws.terminate();
  }
}
