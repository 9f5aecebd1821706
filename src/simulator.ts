// The running simulator (API.md section 3): configuration -> exchange core -> service ->
// listeners (REST, WebSockets, control API), the scheduler of everything timed on the simulated
// clock (src/time: generator steps, depth batches every `depth_update_ms` (spec 1.6), timed
// faults, listen-key expiry), the faults, stats and journal. On the wall clock one timer waits
// for the next due instant; with `sim.clock = "manual"` advanceTime() jumps from one due instant
// to the next. Heartbeats are the transport's and always run on the wall clock. `stop()` closes
// every socket and timer.

import { performance } from 'node:perf_hooks';
import { Service, type Reply } from './api/service.ts';
import { loadConfig } from './config/index.ts';
import type { Config } from './config/types.ts';
import type { Balance, Order } from './client/types.ts';
import { urlsOf, type SimulatorUrls, type StartOptions } from './simulator-options.ts';
import { ManualClock, type Clock } from './core/clock.ts';
import { Exchange } from './core/exchange.ts';
import type { CoreEvent } from './core/types.ts';
import { loadMarketHistory, type MarketHistory } from './history-files.ts';
import { closeServer, openListeners, type ListenerPair } from './net/listeners.ts';
import type { OpenRecordings } from './replay/index.ts';
import { createRestHandler } from './net/rest-server.ts';
import { WsGateway } from './net/ws-gateway.ts';
import { Outbox, type BatchListener, type EventListener } from './net/outbox.ts';
import { createControlRoutes } from './net/control-api.ts';
import { EventWire } from './api/event-wire.ts';
import type { RequestSeen } from './api/reply.ts';
import { Faults } from './faults/controller.ts';
import { Market } from './market.ts';
import { ScriptedOrders } from './api/scripted-orders.ts';
import { fillOpenOrder } from './api/orders.ts';
import { openClientOrderIds, openOrderCount } from './core/queries.ts';
import { Journal, type JournalEntry } from './journal.ts';
import { Stats } from './stats.ts';
import { balancesOf, openOrdersOf } from './account-reads.ts';
import { RequestLog } from './request-log.ts';
import { checkStartInputs, readStartFiles, startClock } from './start-inputs.ts';
import { periodicTask, Scheduler } from './time/scheduler.ts';
import { MARKET_DATA_PUSH_MS } from './net/market-data-pushes.ts';
import { ExchangeTask } from './time/exchange-tasks.ts';
import { WallDriver } from './time/wall-driver.ts';
import { checkAdvance } from './time/advance-rules.ts';

/** At most this many generator steps per wall-clock stop: a long stall is skipped, not replayed. */
const MAX_CATCH_UP_STEPS = 5_000;

export type { BatchListener, EventListener } from './net/outbox.ts';
export type { SimulatorUrls, StartOptions } from './simulator-options.ts';

/** The exchange core (`reset()` puts a fresh one in; all read it here) and the history all cores share. */
interface CoreRef {
  current: Exchange;
  readonly history: MarketHistory;
  /** The replayed recordings, loaded ahead of every move of the clock (src/replay/). */
  readonly recorded: OpenRecordings;
}

/**
 * A running simulator (`startSimulator()`, the fixture's `sim`): its URLs, ports and credentials,
 * the fault controls, the scripted market, the clock, `reset()`, stats and the journal.
 * @example
 * const sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual' } } });
 * sim.faults.rejectNextOrders(1);
 * sim.advanceTime(60_000);
 * console.log(sim.urls.http, sim.now(), sim.stats().orders);
 * await sim.stop();
 */
export class Simulator {
  /** Base URLs of both listeners: `http`, `https`, `ws`, `wss`. */
  readonly urls: SimulatorUrls;
  readonly ports: { readonly http: number; readonly https: number };
  /** The account's API key and secret (the environment and the configuration decide them). */
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string };
  /** The fault controls: fixed calls and fault rules (docs/faults.md). */
  readonly faults: Faults;
  /** The scripted counterparty flow (docs/isolation-and-market.md): place, cancel, cancelAll, setMid. */
  readonly market: Market;
  /** The current core's scripted market (rebuilt with the core on reset). */
  private scripted: ScriptedOrders;
  /**
   * @internal Everything timed on the simulated clock. Other periodic work registers here
   * (`scheduler.register(periodicTask({...}))`, see src/time/scheduler.ts) and calls
   * `scheduler.changed()` when something outside a stop makes an instant due.
   */
  readonly scheduler = new Scheduler();
  private readonly exchangeTask: ExchangeTask;
  private driver: WallDriver | null = null;
  private stopped: Promise<void> | null = null;
  /** @internal The counters behind stats(). */
  readonly statistics: Stats;
  private readonly journal = new Journal();
  /** @internal Every answered REST and WS API request, for `--log-format json`. */
  readonly requestLog = new RequestLog();

  private constructor(
    readonly config: Config,
    /** The exchange core, by a reference `reset()` replaces with a fresh one. */
    private readonly core: CoreRef,
    /** @internal The transport-neutral service (repository tests and benchmarks reach it). */
    readonly service: Service,
    private readonly clock: Clock,
    private readonly listeners: ListenerPair,
    /** @internal The WebSocket gateway (repository tests and benchmarks reach it). */
    readonly gateway: WsGateway,
    private readonly outbox: Outbox,
  ) {
    this.ports = { http: listeners.httpPort, https: listeners.httpsPort };
    this.urls = urlsOf(config.sim.bind, this.ports);
    this.credentials = { apiKey: config.sim.account.api_key, apiSecret: config.sim.account.api_secret };
    this.statistics = new Stats(() => core.current);
    outbox.observe((events) => this.statistics.recordEvents(events));
    outbox.observeBatches((batch) => this.statistics.recordBatch(batch));
    outbox.observe((events) => this.journal.addEvents(events));
    outbox.connect(gateway);
    gateway.attach(listeners.http);
    gateway.attach(listeners.https);
    for (const server of [listeners.http, listeners.https]) {
      server.on('connection', (socket) => {
        this.statistics.connections++;
        socket.once('close', () => this.statistics.connections--);
      });
    }
    this.faults = new Faults({
      rules: service.faults,
      get exchange() {
        return core.current;
      },
      fillOpenOrder: (orderId, qty, now) => fillOpenOrder(core.current, orderId, qty, now),
      dropConnections: (kinds) => gateway.dropConnections(kinds),
      sendMalformedFrames: (kinds) => gateway.sendMalformedFrames(kinds),
      expireListenKeys: () => {
        const now = clock.now();
        const keys = service.listenKeys.expire(now, true);
        gateway.expireListenKeys(keys, now);
        return keys.length;
      },
      now: () => clock.now(),
      publish: (events) => outbox.publish(events),
      setClockOffsetMs: (ms) => this.setClockOffsetMs(ms),
      configuredOffsetMs: config.sim.clock_offset_ms,
    });
    this.faults.schedule(config.sim.faults, this.baseTime());
    this.exchangeTask = new ExchangeTask(
      {
        core: () => core.current,
        offsetMs: () => clock.offsetMs,
        publish: (events) => outbox.publish(events),
        publishBatch: (diffs, touches) => outbox.publishBatch(diffs, touches),
        faults: this.faults,
        listenKeys: service.listenKeys,
        expireListenKeys: (keys, now) => gateway.expireListenKeys(keys, now),
        depthUpdateMs: config.sim.depth_update_ms,
        maxCatchUpSteps: clock instanceof ManualClock ? Infinity : MAX_CATCH_UP_STEPS,
        deferPrints: clock instanceof ManualClock,
        depthFollowed: () => config.sim.depth_snapshot === 'flushed' || gateway.hasBookStreams(),
        loadRecorded: (now) => core.recorded.loadThrough(core.current.recordedTimeNeeded(now)),
      },
      clock.now(),
    );
    this.scheduler.register(this.exchangeTask);
    // Klines, tickers, avgPrice and partial depth (API.md 9): after the depth batch of the same
    // instant, on the 100 ms grid (the shortest push period), only while one has a subscriber.
    this.scheduler.register(
      periodicTask({
        name: 'market-data pushes',
        periodMs: MARKET_DATA_PUSH_MS,
        origin: () => 0,
        active: () => gateway.hasTimedMarketData(),
        run: (now) => gateway.publishMarketData(now, this.scheduler.horizon()),
      }),
    );
    service.listenKeys.onExpiryChanged = () => this.scheduler.changed();
    core.current.afterCommand = () => this.scheduler.changed();
    this.scripted = new ScriptedOrders(core.current);
    const sim = this;
    this.market = new Market({
      get scripted() {
        return sim.scripted;
      },
      now: () => clock.now(),
      publish: (events) => outbox.publish(events),
    });
  }

  /** @internal startSimulator's work (src/start-simulator.ts). */
  static async start(options: StartOptions = {}): Promise<Simulator> {
    return Simulator.startResolved(loadConfig(options));
  }

  /**
   * @internal Starts from a configuration already resolved (the command line's: its file paths are final,
   * and defaults still name files inside the package, so nothing is resolved against the cwd).
   */
  static async startResolved(config: Config): Promise<Simulator> {
    const sim = config.sim;
    const files = await readStartFiles(config);
    const clock = startClock(config);
    const history = loadMarketHistory(config, clock.now(), files.replays.recordings);
    const core: CoreRef = { current: new Exchange(config, clock.now(), history), history, recorded: files.replays };
    // The one outbox: every transport publishes a command's events here after its response.
    const outbox = new Outbox();
    const service = new Service(
      config,
      () => core.current,
      clock,
      { apiKey: sim.account.api_key, apiSecret: sim.account.api_secret, ed25519PublicKeyPem: files.ed25519PublicKeyPem },
      (message, error) => console.error(`spot-sim: ${message}:`, error),
      (key) => outbox.listenKeyRemoved(key),
    );
    let simulator: Simulator | undefined;
    const handler = createRestHandler({
      service,
      outbox,
      onReply: (endpointId, reply, request) => simulator?.recordReply(endpointId, reply, 'rest', request),
      extraRoutes: createControlRoutes(() => simulator, { enabled: sim.control_api, bind: sim.bind, token: sim.control_token }),
    });
    const gateway = new WsGateway({
      service,
      wire: new EventWire({ instrument: (symbol) => core.current.instrument(symbol) }, service.wire),
      monotonicNow: () => performance.now(),
      pingIntervalMs: sim.ping_interval_ms,
      pongTimeoutMs: sim.pong_timeout_ms,
      outbox,
      onReply: (endpointId, reply, request) => simulator?.recordReply(endpointId, reply, 'ws', request),
      onMarketDataSubscriber: () => simulator?.scheduler.changed(),
    });
    let listeners: ListenerPair | undefined;
    try {
      listeners = await openListeners(handler, sim.bind, sim.port, sim.tls_port, files.tls);
      simulator = new Simulator(config, core, service, clock, listeners, gateway, outbox);
    } catch (error) {
      // A start that fails closes what it opened (listeners, the replay's cache entries), so the process can end.
      gateway.closeAll();
      const servers = listeners === undefined ? [] : [closeServer(listeners.http), closeServer(listeners.https)];
      await Promise.all([...servers, files.replays.close()]);
      throw error;
    }
    files.replays.loadRestInBackground();
    if (sim.clock !== 'manual') simulator.driver = new WallDriver(simulator.scheduler, () => clock.now());
    return simulator;
  }

  /** @internal What a start reads before it listens, checked without listening (`--check-config`). */
  static readonly checkResolved: (config: Config) => Promise<void> = checkStartInputs;

  /** @internal Subscribes to every event the exchange produces (after each response). */
  onEvents(listener: EventListener): () => void {
    return this.outbox.observe(listener);
  }

  /** @internal Subscribes to the depth batches (one diff per changed symbol, bookTicker updates). */
  onDepthBatch(listener: BatchListener): () => void {
    return this.outbox.observeBatches(listener);
  }

  /** @internal Account-event batches held by a fault or waiting behind one (0: the stream is live); the model test waits on it. */
  get pendingAccountEvents(): number {
    return this.outbox.pendingAccountEvents;
  }

  /** @internal The current exchange core (tests and benchmarks of this repository reach it). */
  get exchange(): Exchange {
    return this.core.current;
  }

  /** Server time: wall clock + offset, or the manual clock. */
  now(): number {
    return this.clock.now();
  }

  /**
   * With `sim.clock = "manual"`: moves time on by `ms`, a whole number of milliseconds from 0 to
   * `sim.max_advance_ms` (default 30 days; a RangeError names the rule otherwise). Everything due
   * on the way happens at its own instant, in order (generator steps, depth batches, timed
   * faults, listen-key expiry), as if that much time had passed; it costs what happens, not how
   * long it spans. WebSocket heartbeats run on the wall clock, so no jump closes a connection.
   * Streams see it as one step (docs/time.md "Streams during a jump"), the replayed prints due
   * by its end (settled) included.
   */
  advanceTime(ms: number): void {
    checkAdvance(ms, this.config.sim.max_advance_ms);
    const clock = this.clock;
    if (!(clock instanceof ManualClock)) throw new Error('advanceTime needs sim.clock = "manual"');
    this.gateway.duringJump(() => {
      this.scheduler.advance(clock, ms);
      this.exchangeTask.settle(clock.now());
    });
  }

  /** The stats line's counters (orders, fills, requests, refusals...), each fault's, and `sinceMark` (since `mark()`). */
  stats() {
    return this.statistics.snapshot({
      openOrders: openOrderCount(this.core.current.state),
      slowConsumersDisconnected: this.gateway.slowConsumersCut,
      internalErrors: this.service.internalErrors,
      faults: this.faults.counters(),
    });
  }

  /** Starts the "since mark" counters. */
  mark(): void {
    this.statistics.mark();
  }

  /** The client order ids of the account's open orders, oldest first. */
  openClientOrderIds(): string[] {
    return openClientOrderIds(this.core.current.state);
  }

  /** The account's open orders (of `symbol`: -1121 if unknown) as GET /api/v3/openOrders lists them; no request weight, `stats()` unmoved. */
  openOrders(symbol?: string): Order[] {
    return openOrdersOf(this.core.current, this.service, symbol);
  }

  /** The account's balance of every asset as GET /api/v3/account lists them; read in process like `openOrders`. */
  balances(): Balance[] {
    return balancesOf(this.core.current, this.service);
  }

  /** The recent requests, replies and events (bounded), oldest first. */
  recentJournal(): JournalEntry[] {
    return this.journal.recent();
  }

  /**
   * Back to the starting state without restarting the listeners: book, balances, ids, trade
   * log, limits, listen keys, the scripted market, and the faults as configured (`[sim.faults]`
   * armed again, its timers counted from now). A manual clock goes back to its starting time.
   * Open WebSockets are closed, because update ids and order ids start over and a client must
   * resync; clients reconnect as after any drop. The fixture calls this before every test
   * (`simIsolation: 'test'`), so it is kept cheap: a fresh core replaces the old one.
   * It is a barrier (docs/events.md): replies still held by a fault are answered as a closed
   * connection, and no event of the world before it reaches a stream after it.
   */
  reset(): void {
    this.outbox.reset();
    this.faults.clear();
    this.gateway.newWorld();
    if (this.clock instanceof ManualClock) this.clock.rewind();
    const now = this.clock.now();
    this.core.current = new Exchange(this.config, now, this.core.history);
    this.core.current.afterCommand = () => this.scheduler.changed();
    this.scripted = new ScriptedOrders(this.core.current);
    this.faults.schedule(this.config.sim.faults, this.baseTime());
    this.service.wire.clearCaches();
    this.service.limits.reset();
    this.service.listenKeys.clear();
    this.statistics.forgetClientOrderIds();
    this.statistics.mark();
    this.journal.clear();
    this.exchangeTask.restart(now);
    this.scheduler.changed();
  }

  /** Closes every connection and both listeners; later calls return the same promise. */
  async stop(): Promise<void> {
    this.stopped ??= (async () => {
      this.driver?.stop();
      this.driver = null;
      this.faults.clear();
      this.gateway.closeAll();
      await Promise.all([closeServer(this.listeners.http), closeServer(this.listeners.https), this.core.recorded.close()]);
    })();
    return this.stopped;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.stop();
  }

  /** The one-line summary the standalone server prints every `stats_interval_ms`: the `stats()` counters, the account's position and the touch. */
  statsLine(): string {
    return this.statistics.line();
  }

  /** Server time without the clock offset: the time timed faults are scheduled on. */
  private baseTime(): number {
    return this.clock.now() - this.clock.offsetMs;
  }

  /** Fault `set_clock_offset_ms`: server time jumps; the generator grid and batches jump with it. */
  private setClockOffsetMs(ms: number): void {
    const delta = ms - this.clock.offsetMs;
    if (delta === 0) return;
    this.clock.setOffsetMs(ms);
    this.core.current.submit({ type: 'shiftTime', now: this.clock.now(), deltaMs: delta });
    this.exchangeTask.shift(delta);
    this.scheduler.changed();
  }

  /** The one place every REST and WS API reply is observed: stats, journal, request log. */
  private recordReply(endpointId: string | undefined, reply: Reply, transport: 'rest' | 'ws', request: RequestSeen): void {
    const kind = transport === 'rest' ? 'rest' : 'ws-api';
    this.statistics.recordReply(endpointId, reply, transport);
    this.journal.addReply(this.clock.now(), kind, endpointId, reply.status, reply.body);
    this.requestLog.record(endpointId, reply, request, kind, performance.now());
  }
}
