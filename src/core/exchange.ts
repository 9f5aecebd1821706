// The exchange core: one synchronous, deterministic entry, `submit(command)`, over the typed
// union of commands.ts (ticks, lots, instrument indexes; time with each command). Nothing here
// touches sockets, clocks or the process (ARCHITECTURE rule 1). Each command returns its result
// and the events it caused, in order: order reports and public trades as they occur, then one
// balance event (with its figures) if the account's balances moved. Level changes are not
// events: the depth aggregator notes them and the depth stream reads them at the flush.
//
// The parts: the matcher (books, depth, matching), the order registry (which orders exist), the
// account desk (the account's commands and its side of each fill, over the ledger and the trade
// log) and the counterparty generator, whose commands come through this same `submit`. Reads go
// through `state` (queries.ts, invariants.ts). A reset is a new Exchange.

import type { Config } from '../config/types.ts';
import { AccountDesk } from './account-desk.ts';
import type { Command, CounterpartyLimit, CounterpartyTake, Outcome, ResultOf } from './commands.ts';
import { ApiError } from './errors.ts';
import { EventQueue, NO_EVENTS } from './event-queue.ts';
import { CounterpartyGenerator } from './generator.ts';
import { Ledger } from './ledger.ts';
import { buildMarkets, type Instrument, type Markets } from './markets.ts';
import { Matcher } from './matcher.ts';
import { OrderHistory } from './order-history.ts';
import { OrderRegistry } from './order-registry.ts';
import { Rng } from './rng.ts';
import { ConservationCursor, type CoreState } from './state.ts';
import { TradeLog } from './trade-log.ts';

export type { Outcome } from './commands.ts';

export class Exchange {
  readonly markets: Markets;
  /** The read-only view queries and invariant checks read. */
  readonly state: CoreState;
  private readonly events = new EventQueue();
  private readonly registry: OrderRegistry;
  private readonly history: OrderHistory;
  private readonly matcher: Matcher;
  private readonly desk: AccountDesk;
  private readonly generator: CounterpartyGenerator;
  /** Commands under way: the generator's, inside `advance`, add their events to its outcome. */
  private running = 0;

  constructor(
    readonly config: Config,
    readonly startTime: number,
  ) {
    const markets = buildMarkets(config);
    this.markets = markets;
    const instruments = markets.instruments;
    this.registry = new OrderRegistry(instruments.length);
    const { ended_orders, max_ended_orders } = config.sim.account;
    this.history = new OrderHistory(instruments.map((inst) => inst.symbol), ended_orders === 'keep' ? max_ended_orders : 0);
    this.matcher = new Matcher(instruments, this.registry, this.events);
    const ledger = new Ledger(markets.startBalances, markets.assetDecimals);
    const tradeLog = new TradeLog();
    const seed = config.sim.seed;
    this.desk = new AccountDesk(markets, this.matcher, this.registry, ledger, tradeLog, this.events, new Rng((seed ^ 0x5bd1e995) >>> 0), this.history);
    this.matcher.connect(this.desk);
    this.generator = new CounterpartyGenerator(config.sim.generator, instruments, new Rng(seed), config.sim.driver_tick_ms, startTime);
    const { registry, history, matcher, desk, generator } = this;
    this.state = {
      markets,
      books: matcher.books,
      depth: matcher.depth,
      orders: registry.orders,
      clientIds: registry.clientIds,
      history,
      counterpartyResting: registry.counterpartyResting,
      ledger,
      tradeLog,
      conservation: new ConservationCursor(),
      get lastBalanceUpdate() {
        return desk.lastBalanceUpdate;
      },
      latentMid: (symbolIndex) => generator.latentMid(symbolIndex),
    };

    this.generator.seed(this);
    for (const agg of this.matcher.depth) agg.publishSilently();
  }

  get instruments(): readonly Instrument[] {
    return this.markets.instruments;
  }

  instrument(symbol: string): Instrument | undefined {
    return this.markets.bySymbol.get(symbol);
  }

  /**
   * Runs one command; its result and the events it caused. A command submitted while another
   * runs (the generator's, during `advance`) answers with no events: they join the outer one's,
   * so a driver tick still ends with one balance event.
   */
  submit<C extends Command>(cmd: C): Outcome<ResultOf<C>> {
    this.running++;
    let result: unknown;
    try {
      result = this.run(cmd);
    } finally {
      this.running--;
    }
    let events = NO_EVENTS;
    if (this.running === 0) {
      this.desk.takeBalanceEvent(cmd.now);
      events = this.events.take();
    }
    if (result instanceof ApiError) return { ok: false, error: result, events };
    return { ok: true, value: result as ResultOf<C>, events };
  }

  private run(cmd: Command): unknown {
    switch (cmd.type) {
      case 'counterpartyLimit':
        return this.counterpartyLimit(cmd);
      case 'counterpartyCancel':
        return this.counterpartyCancel(cmd.key);
      case 'counterpartyCancelAt': {
        const order = this.registry.counterpartyResting[cmd.symbolIndex]![cmd.slot];
        return order !== undefined && this.counterpartyCancel(order.id);
      }
      case 'counterpartyTake':
        return this.counterpartyTake(cmd);
      case 'place':
        return this.desk.place(cmd);
      case 'cancel':
        return this.desk.cancel(cmd);
      case 'cancelAll':
        return this.desk.cancelAll(cmd);
      case 'amend':
        return this.desk.amend(cmd);
      case 'cancelReplace':
        return this.desk.cancelReplace(cmd);
      case 'fillOpenOrder':
        return this.desk.fillOpenOrder(cmd);
      case 'setLatentMid':
        this.generator.setLatentMid(cmd.symbolIndex, cmd.mid);
        return null;
      case 'advance':
        this.generator.advance(this, cmd.now, cmd.maxSteps);
        return null;
      case 'flushDepth':
        return this.matcher.flushDepth(cmd.now);
      case 'skipDepthUpdate':
        for (const agg of this.matcher.depth) if (cmd.symbolIndex === null || agg.symbol === this.markets.instruments[cmd.symbolIndex]!.symbol) agg.skipNextDiff(cmd.skip);
        return null;
      case 'shiftTime':
        this.generator.shiftTime(cmd.deltaMs);
        return null;
    }
  }

  /** A counterparty limit order: it takes what crosses and rests the rest; its book key or 0. */
  private counterpartyLimit(cmd: CounterpartyLimit): number {
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const order = this.registry.newCounterpartyOrder(cmd.symbolIndex, cmd.side, cmd.price, cmd.lots);
    this.matcher.match(inst, order, cmd.price, cmd.now, null);
    if (order.remaining === 0) {
      this.registry.spare(order);
      return 0;
    }
    this.registry.addCounterparty(order);
    this.matcher.rest(inst, order);
    return order.id;
  }

  private counterpartyTake(cmd: CounterpartyTake): null {
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const order = this.registry.newCounterpartyOrder(cmd.symbolIndex, cmd.side, cmd.price ?? 0, cmd.lots);
    this.matcher.match(inst, order, cmd.price, cmd.now, null);
    this.registry.spare(order);
    return null;
  }

  private counterpartyCancel(key: number): boolean {
    const order = this.registry.orders.get(key);
    if (order === undefined || order.account !== null) return false;
    this.matcher.unrest(this.markets.instruments[order.symbolIndex]!, order);
    return true;
  }
}
