// The running simulator: configuration -> exchange core -> service -> listeners, plus the driver
// that runs the counterparty generator every `driver_tick_ms` and publishes a depth batch every
// `depth_update_ms` (spec 1.6). `stop()` closes every socket and timer.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Service } from './api/service.ts';
import { loadConfig } from './config/index.ts';
import type { Config, SimConfigInput } from './config/types.ts';
import { ManualClock, WallClock, type Clock } from './core/clock.ts';
import { Exchange } from './core/exchange.ts';
import type { CoreEvent, DepthDiff, Touch } from './core/types.ts';
import { closeServer, openListeners, type ListenerPair } from './net/listeners.ts';
import { createRestHandler } from './net/rest-server.ts';
import { WsGateway } from './net/ws-gateway.ts';
import { EventWire } from './api/event-wire.ts';
import { Stats } from './stats.ts';

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** At most this many generator steps per driver tick: a long stall is skipped, not replayed. */
const MAX_CATCH_UP_STEPS = 5_000;

export interface StartOptions {
  readonly configFile?: string;
  readonly config?: SimConfigInput;
}

export interface SimulatorUrls {
  readonly http: string;
  readonly https: string;
  readonly ws: string;
  readonly wss: string;
}

export type EventListener = (events: readonly CoreEvent[]) => void;
export type BatchListener = (batch: { diffs: readonly DepthDiff[]; touches: readonly Touch[] }) => void;

export class Simulator {
  readonly urls: SimulatorUrls;
  readonly ports: { readonly http: number; readonly https: number };
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string };
  private readonly eventListeners = new Set<EventListener>();
  private readonly batchListeners = new Set<BatchListener>();
  private driver: NodeJS.Timeout | null = null;
  private lastFlush: number;
  private stopped: Promise<void> | null = null;
  readonly statistics: Stats;

  private constructor(
    readonly config: Config,
    readonly exchange: Exchange,
    readonly service: Service,
    private readonly clock: Clock,
    private readonly listeners: ListenerPair,
    readonly gateway: WsGateway,
  ) {
    const host = config.sim.bind.includes(':') ? `[${config.sim.bind}]` : config.sim.bind;
    this.ports = { http: listeners.httpPort, https: listeners.httpsPort };
    this.urls = {
      http: `http://${host}:${this.ports.http}`,
      https: `https://${host}:${this.ports.https}`,
      ws: `ws://${host}:${this.ports.http}`,
      wss: `wss://${host}:${this.ports.https}`,
    };
    this.credentials = { apiKey: config.sim.account.api_key, apiSecret: config.sim.account.api_secret };
    this.lastFlush = clock.now();
    this.statistics = new Stats(exchange);
    this.onEvents((events) => this.statistics.recordEvents(events));
    this.onDepthBatch((batch) => this.statistics.recordBatch(batch));
    this.onEvents((events) => gateway.publishEvents(events));
    this.onDepthBatch((batch) => gateway.publishBatch(batch.diffs, batch.touches));
    gateway.attach(listeners.http);
    gateway.attach(listeners.https);
    for (const server of [listeners.http, listeners.https]) {
      server.on('connection', (socket) => {
        this.statistics.connections++;
        socket.once('close', () => this.statistics.connections--);
      });
    }
  }

  static async start(options: StartOptions = {}): Promise<Simulator> {
    const config = loadConfig(options);
    const sim = config.sim;
    const clock: Clock =
      sim.clock === 'manual'
        ? new ManualClock(sim.start_time_ms || Date.now(), sim.clock_offset_ms)
        : new WallClock({ wallMs: () => Date.now(), monotonicMs: () => performance.now() }, sim.clock_offset_ms, sim.start_time_ms);
    const exchange = new Exchange(config, clock.now());
    const ed25519 = sim.account.ed25519_public_key_file;
    const service = new Service(
      config,
      exchange,
      clock,
      {
        apiKey: sim.account.api_key,
        apiSecret: sim.account.api_secret,
        ed25519PublicKeyPem: ed25519 === undefined ? undefined : readFileSync(locate(ed25519), 'utf8'),
      },
      (message, error) => console.error(`spot-sim: ${message}:`, error),
    );
    let simulator: Simulator | undefined;
    const handler = createRestHandler({
      service,
      publish: (events) => simulator?.publish(events),
      onReply: (endpointId, reply) => simulator?.statistics.recordReply(endpointId, reply, 'rest'),
    });
    const tls = { cert: readFileSync(locate(sim.tls_cert), 'utf8'), key: readFileSync(locate(sim.tls_key), 'utf8') };
    const gateway = new WsGateway({
      service,
      wire: new EventWire(exchange, service.wire),
      monotonicNow: () => performance.now(),
      pingIntervalMs: sim.ping_interval_ms,
      pongTimeoutMs: sim.pong_timeout_ms,
      publish: (events) => simulator?.publish(events),
      onReply: (endpointId, reply) => simulator?.statistics.recordReply(endpointId, reply, 'ws'),
    });
    const listeners = await openListeners(handler, sim.bind, sim.port, sim.tls_port, tls);
    simulator = new Simulator(config, exchange, service, clock, listeners, gateway);
    gateway.startHeartbeat();
    if (sim.clock !== 'manual') simulator.startDriver();
    return simulator;
  }

  /** Subscribes to every event the exchange produces (after each response). */
  onEvents(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Subscribes to the depth batches (one diff per changed symbol, bookTicker updates). */
  onDepthBatch(listener: BatchListener): () => void {
    this.batchListeners.add(listener);
    return () => this.batchListeners.delete(listener);
  }

  /** Server time: wall clock + offset, or the manual clock. */
  now(): number {
    return this.clock.now();
  }

  /** With `sim.clock = "manual"`: moves time on, running the driver as if that much had passed. */
  advanceTime(ms: number): void {
    if (!(this.clock instanceof ManualClock)) throw new Error('advanceTime needs sim.clock = "manual"');
    const tick = this.config.sim.driver_tick_ms;
    for (let left = ms; left > 0; left -= tick) {
      this.clock.advance(Math.min(tick, left));
      this.tick(Infinity);
    }
  }

  async stop(): Promise<void> {
    this.stopped ??= (async () => {
      if (this.driver !== null) clearInterval(this.driver);
      this.driver = null;
      this.gateway.closeAll();
      await Promise.all([closeServer(this.listeners.http), closeServer(this.listeners.https)]);
    })();
    return this.stopped;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  private startDriver(): void {
    this.driver = setInterval(() => this.tick(MAX_CATCH_UP_STEPS), this.config.sim.driver_tick_ms);
    this.driver.unref();
  }

  private tick(maxSteps: number): void {
    const now = this.clock.now();
    const events = this.exchange.advance(now, maxSteps);
    if (events.length > 0) this.publish(events);
    const expired = this.service.listenKeys.expire(now);
    if (expired.length > 0) this.gateway.expireListenKeys(expired, now);
    if (now - this.lastFlush >= this.config.sim.depth_update_ms) {
      this.lastFlush = now;
      const batch = this.exchange.flushDepth(now);
      if (batch.diffs.length > 0 || batch.touches.length > 0) for (const l of this.batchListeners) l(batch);
    }
  }

  /** The stats line of spec 1.7. */
  statsLine(): string {
    return this.statistics.line();
  }

  private publish(events: readonly CoreEvent[]): void {
    for (const listener of this.eventListeners) listener(events);
  }
}

/** Relative paths: from the working directory, else from the package (the fixture files). */
function locate(path: string): string {
  if (isAbsolute(path)) return path;
  const fromCwd = resolve(path);
  return existsSync(fromCwd) ? fromCwd : resolve(PACKAGE_ROOT, path);
}

export function startSimulator(options: StartOptions = {}): Promise<Simulator> {
  return Simulator.start(options);
}
