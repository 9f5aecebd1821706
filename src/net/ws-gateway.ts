// WebSocket upgrade routing on both listeners (ARCHITECTURE: `ws` with `noServer` and one
// `upgrade` listener): `/ws-api/v3` -> WS API, `/stream` -> combined market data, `/ws` and
// `/ws/<a>/<b>` -> raw market data (or a legacy listen-key user stream). It owns every
// connection, the heartbeat of spec 3.3 and the delivery of events and depth batches.
// Heartbeats are a transport matter: they run on the wall clock (monotonic), whatever the
// simulated clock does, so a long `advanceTime` never makes a live connection look dead; the
// timer runs only while a connection is open.

import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventWire } from '../api/event-wire.ts';
import { timeUnitOf } from '../api/time-unit.ts';
import type { Service } from '../api/service.ts';
import type { ReplyObserver } from '../api/reply.ts';
import type { CoreEvent, DepthDiff, Touch } from '../core/types.ts';
import type { EventDelivery, Outbox } from './outbox.ts';
import { MarketStreams, type MarketConnection } from './market-streams.ts';
import { MarketDataPushes, marketDataStreams } from './market-data-pushes.ts';
import { MAX_URL_BYTES } from './rest-server.ts';
import { UserStreams } from './user-streams.ts';
import { WsApiConnection } from './ws-api.ts';
import { MAX_FRAME_BYTES, Peer, type PeerKind } from './ws-peer.ts';

export interface GatewayOptions {
  readonly service: Service;
  readonly wire: EventWire;
  /** Monotonic ms for message rates and heartbeats (never the simulated clock). */
  readonly monotonicNow: () => number;
  readonly pingIntervalMs: number;
  readonly pongTimeoutMs: number;
  /** Where WS API requests publish their events (made by the simulator, delivered by this gateway). */
  readonly outbox: Outbox;
  readonly onReply?: ReplyObserver;
  readonly onSlowConsumer?: () => void;
  /** A market stream got its first subscriber (a timed push or a depth batch may be due): the scheduler looks again. */
  readonly onMarketDataSubscriber?: () => void;
}

export class WsGateway implements EventDelivery {
  private readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES });
  readonly users: UserStreams;
  readonly market: MarketStreams;
  /** Klines, tickers, avgPrice, partial depth and aggTrade streams (API.md section 9). */
  private readonly pushes: MarketDataPushes;
  private readonly peers = new Set<Peer>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  slowConsumersCut = 0;

  constructor(private readonly options: GatewayOptions) {
    const { service } = options;
    this.users = new UserStreams(options.wire, service.faults);
    const symbols = service.exchange.instruments.map((i) => i.symbol);
    const specs = marketDataStreams(symbols);
    this.market = new MarketStreams(
      symbols,
      options.wire,
      this.users,
      (name) => service.listenKeys.isValid(name, service.clock.now()),
      options.monotonicNow,
      (where, error) => service.unexpected(where, error),
      specs.keys(),
      // Timed pushes may now be due, or a replayed book's depth batches (a depth or bookTicker stream).
      () => options.onMarketDataSubscriber?.(),
      () => service.clock.now(),
    );
    this.pushes = new MarketDataPushes(specs, this.market, () => service.exchange);
  }

  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      try {
        this.onUpgrade(req, socket, head);
      } catch (error) {
        // The last line of defence (issue 18): an upgrade request never takes the process down.
        this.options.service.unexpected(`the WebSocket upgrade of ${req.url?.slice(0, 100)}`, error);
        refuse(socket, 500, { code: -1000, msg: 'An unknown error occurred while processing the request.' });
      }
    });
  }

  /** Pings and pong timeouts (spec 3.3) on a wall-clock timer, armed while a connection is open. */
  private startHeartbeat(): void {
    if (this.heartbeatTimer !== null) return;
    const period = Math.max(1, Math.min(this.options.pingIntervalMs, this.options.pongTimeoutMs, 1000));
    this.heartbeatTimer = setInterval(() => this.heartbeat(), period);
    this.heartbeatTimer.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  heartbeat(now = this.options.monotonicNow()): void {
    for (const peer of this.peers) peer.heartbeat(now, this.options.pingIntervalMs, this.options.pongTimeoutMs);
  }

  get connectionCount(): number {
    return this.peers.size;
  }

  // ------------------------------------------------------------------ delivery

  /** Events of a command: public trades to their streams, account events to user streams. */
  publishEvents(events: readonly CoreEvent[]): void {
    this.publishTrades(events);
    this.publishAccount(events);
  }

  publishTrades(events: readonly CoreEvent[]): void {
    for (const e of events) if (e.type === 'trade') this.market.publishTrade(e);
    this.pushes.publishAggTrades(events);
  }

  /** Whether a timed market-data stream (klines, tickers, avgPrice, partial depth) has a subscriber. */
  hasTimedMarketData(): boolean {
    return this.pushes.hasTimedSubscribers();
  }

  /** Whether a depth-diff or bookTicker stream has a subscriber. */
  hasBookStreams(): boolean {
    return this.market.hasBookStreams();
  }

  /**
   * The timed market-data pushes due at `now` (the simulator's clock; called by the scheduler);
   * `horizon`: where the jump under way ends (see Scheduler.horizon).
   */
  publishMarketData(now: number, horizon = -Infinity): void {
    this.pushes.publish(now, horizon);
  }

  /**
   * Runs one manual-clock jump with the depth streams held (MarketStreams.holdDepth): each
   * symbol's diffs go out merged, and its last bookTicker, when the jump ends.
   */
  duringJump(jump: () => void): void {
    this.market.holdDepth();
    try {
      jump();
    } finally {
      this.market.releaseDepth();
    }
  }

  publishAccount(events: readonly CoreEvent[]): void {
    if (this.users.size > 0) this.users.deliver(this.users.serialize(events));
  }

  closeListenKey(key: string): void {
    this.users.closeListenKey(key);
  }

  publishBatch(diffs: readonly DepthDiff[], touches: readonly Touch[]): void {
    this.market.publishBatch(diffs, touches);
  }

  expireListenKeys(keys: readonly string[], now: number): void {
    for (const key of keys) this.users.expireListenKey(key, now);
  }

  // ------------------------------------------------------------------ connections

  /** A reset (sim.reset()): every connection is closed and the pushes start over. */
  newWorld(): void {
    this.dropConnections(['market', 'api', 'user']);
    this.pushes.forget();
  }

  /** Closes every connection of a kind (faults); returns how many. */
  dropConnections(kinds: readonly PeerKind[]): number {
    let n = 0;
    for (const peer of this.peers) {
      if (!kinds.includes(peer.kind)) continue;
      peer.terminate();
      n++;
    }
    return n;
  }

  marketConnections(): ReadonlySet<MarketConnection> {
    return this.market.connections;
  }

  /** Fault `send_malformed_frames`: one non-JSON text frame on every connection of the kinds. */
  sendMalformedFrames(kinds: readonly PeerKind[]): number {
    let n = 0;
    for (const peer of this.peers) {
      if (!kinds.includes(peer.kind)) continue;
      peer.send('<<spot-sim: malformed frame>>');
      n++;
    }
    return n;
  }

  closeAll(): void {
    this.stopHeartbeat();
    for (const peer of this.peers) peer.terminate();
    this.peers.clear();
    this.wss.close();
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = req.url ?? '/';
    if (url.length > MAX_URL_BYTES) return refuse(socket, 414, { code: -1000, msg: `Request URL longer than ${MAX_URL_BYTES} bytes.` });
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    // `+` stays a plus (the `@kline_<i>@+08:00` streams); `%2B` means the same.
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1).replace(/\+/g, '%2B'));
    if (path === '/ws-api/v3') {
      const returnRateLimits = query.get('returnRateLimits') !== 'false';
      const unit = timeUnitOf(query.get('timeUnit'));
      return this.accept(req, socket, head, 'api', (peer) => {
        new WsApiConnection(peer, this.apiHooks(), returnRateLimits, unit);
      });
    }
    if (path === '/stream') {
      const names = (query.get('streams') ?? '').split('/').filter((s) => s !== '');
      const unknown = names.find((n) => !this.market.isSubscribable(n));
      if (unknown !== undefined) return refuse(socket, 400, { code: 2, msg: `Invalid request: unknown stream name ${JSON.stringify(unknown)}` });
      return this.accept(req, socket, head, 'market', (peer) => this.market.open(peer, true, names, timeUnitOf(query.get('timeUnit'))));
    }
    if (path === '/ws' || path.startsWith('/ws/')) {
      let parts: string[];
      try {
        parts = path.slice(4).split('/').filter((s) => s !== '').map((s) => decodeURIComponent(s));
      } catch {
        return refuse(socket, 400, { code: 2, msg: 'Invalid request: malformed stream path' });
      }
      // A segment that names a stream must be one we publish; other segments (ccxt's `/ws/0`
      // stream index, client-requests §7) leave an empty raw connection.
      const bad = parts.find((p) => p.includes('@') && !this.market.isStream(p));
      if (bad !== undefined) return refuse(socket, 400, { code: 2, msg: `Invalid request: unknown stream name ${JSON.stringify(bad)}` });
      const names = parts.filter((p) => this.market.isSubscribable(p));
      const isUserStream = names.length > 0 && names.every((n) => !this.market.isStream(n));
      return this.accept(req, socket, head, isUserStream ? 'user' : 'market', (peer) => this.market.open(peer, false, names, timeUnitOf(query.get('timeUnit'))));
    }
    refuse(socket, 404, { code: -1000, msg: `Not found: ${path}` });
  }

  private accept(req: IncomingMessage, socket: Duplex, head: Buffer, kind: PeerKind, open: (peer: Peer) => void): void {
    this.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const peer = new Peer(ws, socket, kind, this.options.service.clock.now(), this.options.monotonicNow(), () => {
        this.slowConsumersCut++;
        this.options.onSlowConsumer?.();
      });
      this.peers.add(peer);
      this.startHeartbeat();
      ws.on('error', () => ws.terminate());
      ws.once('close', () => {
        this.peers.delete(peer);
        this.users.removePeer(peer);
        if (this.peers.size === 0) this.stopHeartbeat();
      });
      open(peer);
    });
  }

  private apiHooks() {
    return {
      service: this.options.service,
      users: this.users,
      outbox: this.options.outbox,
      onReply: this.options.onReply,
    };
  }
}

function refuse(socket: Duplex, status: number, body: object): void {
  const text = JSON.stringify(body);
  const reason = status === 404 ? 'Not Found' : status === 414 ? 'URI Too Long' : status === 500 ? 'Internal Server Error' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json;charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
