// The system under test of the account-event model (issue 24 item 1): one in-process simulator
// on a manual clock with its generator running, two WS API connections that trade, the REST
// client, and two state-keeping views of the account (a legacy `/ws/<listenKey>` stream and a
// WS API `userDataStream.subscribe.signature` subscription). `settle()` waits until every reply
// and every held event is out; `check()` compares each view with GET account + openOrders and
// counts its events against the ones the exchange produced.

import WebSocket from 'ws';
import { startSimulator, type Simulator } from '../../src/index.ts';
import { SpotSimClient } from '../../src/client/index.ts';
import { WsApiClient } from '../../src/client/ws-api-methods.ts';
import { hmacHex, wsPayload } from '../../src/client/signing.ts';
import { AccountView, type Snapshot, type ViewOrder } from './view.ts';

const DEADLINE_MS = 10_000;

export class ModelWorld {
  readonly views: AccountView[] = [new AccountView('legacy /ws/<listenKey>'), new AccountView('WS API subscription')];
  readonly traders: (WsApiClient | null)[] = [null, null];
  /** Requests of the current step not yet settled (REST and WS API), with the connection of the WS ones. */
  pending: { promise: Promise<unknown>; settled: boolean; conn: number | null }[] = [];
  /** Account events (executionReport + outboundAccountPosition) the exchange produced, counted. */
  produced = 0;
  /** Client order ids the exchange named in events in the current world. */
  worldIds = new Set<string>();
  world = 0;
  /** Views found exactly equal (with every event counted) / resynced after a documented loss. */
  exactChecks = 0;
  resyncs = 0;
  private producedAtSync: number[] = [0, 0];
  private duplicatesAtSync: number[] = [0, 0];
  private start!: Snapshot;

  private constructor(
    readonly sim: Simulator,
    readonly client: SpotSimClient,
  ) {
    sim.onEvents((events) => {
      for (const e of events) {
        if (e.type !== 'execution' && e.type !== 'balances') continue;
        this.produced++;
        if (e.type === 'execution') {
          this.worldIds.add(e.order.clientOrderId);
          if (e.origClientOrderId !== null) this.worldIds.add(e.origClientOrderId);
        }
      }
    });
  }

  static async open(seed: number): Promise<ModelWorld> {
    const sim = await startSimulator({
      config: {
        sim: {
          port: 0,
          tls_port: 0,
          seed,
          clock: 'manual',
          start_time_ms: 1_700_000_000_000,
          driver_tick_ms: 50,
          listen_key_validity_ms: 2_000_000_000,
          generator: { touch_offset_ticks: 300, depth_spread_ticks: 200, market_rate_per_s: 10 },
          limits: { weight_per_minute: 100_000_000, orders_per_10s: 100_000_000, orders_per_day: 100_000_000 },
        },
      },
    });
    const client = new SpotSimClient(sim, { now: () => sim.now() });
    const world = new ModelWorld(sim, client);
    world.start = await world.snapshot();
    for (const view of world.views) view.sync(world.start);
    await world.connectViews();
    world.handledAtStepStart = world.handled();
    return world;
  }

  /** The account as REST shows it. */
  async snapshot(): Promise<Snapshot> {
    const [account, open] = await Promise.all([this.client.rest.account(), this.client.rest.openOrders()]);
    const balances = new Map(account.balances.map((b) => [b.asset, `${b.free}/${b.locked}`]));
    const orders = new Map<number, ViewOrder>(
      open.map((o) => [o.orderId, { clientOrderId: o.clientOrderId, price: o.price, origQty: o.origQty, executedQty: o.executedQty, status: o.status, side: o.side }]),
    );
    return { balances, orders };
  }

  /** A trading connection (reopened when a fault or the model closed it). */
  async trader(conn: number): Promise<WsApiClient> {
    const open = this.traders[conn];
    if (open !== null && open !== undefined && !open.closed) return open;
    const api = new WsApiClient({ url: `${this.sim.urls.ws}/ws-api/v3`, credentials: this.sim.credentials, now: () => this.sim.now(), timeoutMs: DEADLINE_MS });
    await api.ready();
    this.traders[conn] = api;
    return api;
  }

  /** Closes a trading connection from the client side (its pending calls reject). */
  closeTrader(conn: number): void {
    const api = this.traders[conn];
    if (api !== null && api !== undefined) void api.close().catch(() => undefined);
    this.traders[conn] = null;
  }

  /** Requests the server has carried out so far (REST + WS API replies produced, held or not). */
  private handled(): number {
    const stats = this.sim.stats();
    return stats.restRequests + stats.wsApiRequests;
  }

  /**
   * Before a reset: lets the server carry out what the step sent so far, so that a reset lands
   * while their replies are held (the scenario) rather than before the requests arrive.
   * Bounded: a request on a connection that closed is never carried out.
   */
  private async letRequestsArrive(): Promise<void> {
    const deadline = Date.now() + 200;
    while (this.handled() - this.handledAtStepStart < this.pending.length && !this.pending.every((p) => p.settled) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  private handledAtStepStart = 0;

  /** Tracks a request of the step until it settles (a reply, a refusal, a closed connection). */
  track(promise: Promise<unknown>, conn: number | null = null): void {
    const entry = { promise, settled: false, conn };
    promise.then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
    this.pending.push(entry);
  }

  /** Opens the views' connections that are closed (after a reset, a drop). */
  async connectViews(): Promise<void> {
    const [legacy, api] = this.views as [AccountView, AccountView];
    const tasks: Promise<void>[] = [];
    if (legacy.closed) {
      tasks.push(
        (async () => {
          const { listenKey } = await this.client.rest.startUserDataStream();
          legacy.attach(await openWs(`${this.sim.urls.ws}/ws/${listenKey}`), (f) => f);
        })(),
      );
    }
    if (api.closed) {
      tasks.push(
        (async () => {
          const ws = await openWs(`${this.sim.urls.ws}/ws-api/v3`);
          const subscribed = new Promise<void>((resolve, reject) => {
            const onReply = (data: WebSocket.RawData) => {
              const frame = JSON.parse(String(data)) as { id?: string; status?: number };
              if (frame.id !== 'subscribe') return;
              ws.off('message', onReply);
              if (frame.status === 200) resolve();
              else reject(new Error(`subscribe refused: ${String(data)}`));
            };
            ws.on('message', onReply);
          });
          api.attach(ws, (f) => (f?.subscriptionId !== undefined ? f.event : undefined));
          const params: Record<string, string | number> = { apiKey: this.sim.credentials.apiKey, timestamp: this.sim.now() };
          params.signature = hmacHex(this.sim.credentials.apiSecret, wsPayload(params));
          ws.send(JSON.stringify({ id: 'subscribe', method: 'userDataStream.subscribe.signature', params }));
          await subscribed;
        })(),
      );
    }
    await Promise.all(tasks);
  }

  /** sim.reset() as the fixture does it, then the views reconnect at once (before held replies are due). */
  async reset(): Promise<void> {
    await this.letRequestsArrive();
    const old = this.worldIds;
    this.worldIds = new Set();
    this.world++;
    this.sim.reset();
    for (const view of this.views) {
      view.close();
      view.forbid(old);
      view.sync(this.start);
      view.lossy = true;
    }
    for (let conn = 0; conn < this.traders.length; conn++) this.closeTrader(conn);
    await this.connectViews();
  }

  /**
   * Waits until the step is over: every REST reply in, every WS API request answered (or
   * swallowed: the barrier `ping` on its connection, sent after the faults are cleared, comes
   * back behind it), every held account event released. The faults are cleared on the way.
   */
  async settle(): Promise<void> {
    await waitFor(() => this.pending.every((p) => p.settled || p.conn !== null) && this.sim.pendingAccountEvents === 0, 'REST replies and held events');
    this.sim.faults.clear();
    for (let conn = 0; conn < this.traders.length; conn++) {
      const api = this.traders[conn];
      if (api === null || api === undefined || !this.pending.some((p) => p.conn === conn && !p.settled)) continue;
      const barrier = api.send('ping').catch(() => undefined);
      await barrier;
      // Still open after the ping's reply: swallowed. Settled from here on.
      for (const p of this.pending) if (p.conn === conn) p.settled = true;
    }
    await waitFor(() => this.pending.every((p) => p.settled) && this.sim.pendingAccountEvents === 0, 'WS API replies and held events');
    this.pending = [];
    this.handledAtStepStart = this.handled();
  }

  /**
   * Each view against the account: a view that lost events by a documented fault (muted, its
   * connection dropped, a reset) resyncs from REST; any other must equal it exactly and have
   * received every event the exchange produced since its last sync (duplicates counted in).
   */
  async check(): Promise<string[]> {
    const failures: string[] = [];
    const truth = await this.snapshot();
    const duplicated = this.sim.stats().faults.duplicatedUserEvents;
    for (let i = 0; i < this.views.length; i++) {
      const view = this.views[i]!;
      failures.push(...view.violations.splice(0));
      const reached = !view.lossy && (await view.barrier());
      if (reached) {
        failures.push(...view.diff(truth));
        const expected = this.produced - this.producedAtSync[i]! + (duplicated - this.duplicatesAtSync[i]!);
        if (view.received !== expected) failures.push(`${view.name}: received ${view.received} account events since its sync, the exchange produced ${expected} (duplicates included)`);
        if (failures.length === 0) {
          this.exactChecks++;
          continue;
        }
      }
      // Lossy (documented) or failed: start over from REST, on a fresh connection if closed.
      this.resyncs++;
      if (view.closed) await this.connectViews();
      view.sync(await this.snapshot());
      this.producedAtSync[i] = this.produced;
      this.duplicatesAtSync[i] = this.sim.stats().faults.duplicatedUserEvents;
    }
    return failures;
  }

  async close(): Promise<void> {
    for (const view of this.views) view.close();
    for (let conn = 0; conn < this.traders.length; conn++) this.closeTrader(conn);
    this.client.rest.close();
    await this.sim.stop();
  }
}

async function openWs(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  ws.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`${url}: HTTP ${res.statusCode}`)));
    ws.once('close', () => reject(new Error(`${url}: closed while opening`)));
  });
  return ws;
}

/** Polls `done` each millisecond up to a deadline (held events are released on timers). */
async function waitFor(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`model: ${what} not settled within ${DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
