// One WebSocket connection with the bounds every connection has (ARCHITECTURE "WebSocket
// routing"; issue: bounded queues per connection): a cap on the bytes queued for it (a consumer
// that stops reading is cut off instead of growing the server's memory or slowing anyone
// else), the ping/pong bookkeeping of spec 3.3, and a counter of incoming messages per second.

import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

export type PeerKind = 'market' | 'api' | 'user';

/** A connection whose unsent bytes pass this is closed (slow consumer). */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Largest frame a client may send. */
export const MAX_FRAME_BYTES = 64 * 1024;

/** Close codes: 1008 policy violation (too many messages), 1013 try again later (slow). */
export const CLOSE_POLICY = 1008;
export const CLOSE_SLOW_CONSUMER = 1013;

/** Every frame we send is text; one options object instead of one per send. */
const TEXT_FRAME = { binary: false } as const;

export class Peer {
  /** Monotonic ms of the first ping not yet answered; null when none is outstanding. */
  awaitingPongSince: number | null = null;
  lastPingAt: number;
  private windowStart = 0;
  private windowCount = 0;
  closed = false;
  /** The socket held corked until the end of the current tick (see `send`), or null. */
  private corked: Socket | null = null;
  private readonly uncork = (): void => {
    const socket = this.corked;
    this.corked = null;
    socket?.uncork();
  };

  constructor(
    readonly ws: WebSocket,
    readonly kind: PeerKind,
    readonly connectedAt: number,
    monotonicNow: number,
    private readonly onSlow: (peer: Peer) => void,
  ) {
    this.lastPingAt = monotonicNow;
    ws.on('pong', () => {
      this.awaitingPongSince = null;
    });
    ws.once('close', () => {
      this.closed = true;
    });
  }

  /**
   * Sends a text frame (a string, or the UTF-8 bytes of one shared by many peers). Frames sent
   * in the same tick leave in one write: the first corks the socket and a `process.nextTick`
   * uncorks it, so a WS API reply and the user-data events it caused (or a pipelined burst of
   * replies) cost one writev syscall instead of one each. Nothing waits for I/O: the frames go
   * out as soon as the code that sent them returns, in the order they were sent.
   */
  send(data: string | Buffer): void {
    if (this.closed) return;
    const ws = this.ws;
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.cutOff();
      return;
    }
    if (this.corked === null) {
      // `ws` keeps its net.Socket in `_socket` (not typed); without it, send uncorked.
      const socket = (ws as unknown as { _socket?: Socket | null })._socket;
      if (socket != null && typeof socket.cork === 'function') {
        socket.cork();
        this.corked = socket;
        process.nextTick(this.uncork);
      }
    }
    ws.send(data, TEXT_FRAME);
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
      try {
        this.ws.ping(String(nowMs));
      } catch {
        // The socket closed under us; its close handler cleans up.
      }
    }
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.ws.close(code, reason);
  }

  terminate(): void {
    // Frames sent earlier in this tick still leave first, as they would have uncorked.
    this.uncork();
    this.ws.terminate();
  }

  private cutOff(): void {
    this.onSlow(this);
    // terminate(): a close frame would only queue behind the data the peer is not reading.
    this.ws.terminate();
  }
}
