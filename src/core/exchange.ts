// The exchange core: one synchronous, deterministic entry, `submit(command)`, over the typed
// union of commands.ts (ticks, lots, instrument indexes; time with each command). Nothing here
// touches sockets, clocks or the process (ARCHITECTURE rule 1). Each command returns its result
// and the events it caused, in order: order reports and public trades as they occur, then one
// balance event (with its figures) if the account's balances moved. Level changes are not
// events: the depth aggregator notes them and the depth stream reads them at the flush.
//
// The parts, one room each: the book (book/: books, resting orders, depth, matching), the account
// (account/: the desk with the account's commands and its side of each fill, over the ledger,
// the trade log, the open orders' ids and the ended orders), public market data (market/: fed the
// book's trades) and the counterparty (counterparty/: the generator and a replayed symbol's
// recorded prints, whose commands come through this same `submit`; replays.ts wires the
// replayed symbols). This file wires them. Reads go through `state` (queries.ts,
// invariants.ts). A reset is a new Exchange.

import type { Config } from '../config/types.ts';
import { AccountDesk, Ledger, OpenOrders, OrderHistory, TradeLog, type AccountOrder } from './account/index.ts';
import { Matcher, NONE, RestingOrders } from './book/index.ts';
import type { Command, CounterpartyLimit, CounterpartyTake, Outcome, ResultOf } from './commands.ts';
import { CounterpartyGenerator } from './counterparty/index.ts';
import { isApiError, type ApiError } from './errors.ts';
import { EventQueue, NO_EVENTS } from './event-queue.ts';
import { MarketData, NO_HISTORY, type MarketHistory } from './market/index.ts';
import { buildMarkets, type Instrument, type Markets } from './markets.ts';
import { Replays } from './replays.ts';
import { Rng } from './rng.ts';
import { ConservationCursor, type CoreState } from './state.ts';

export type { Outcome } from './commands.ts';

export class Exchange {
  readonly markets: Markets;
  /** The read-only view queries and invariant checks read. */
  readonly state: CoreState;
  private readonly events = new EventQueue();
  private readonly resting: RestingOrders<AccountOrder>;
  private readonly history: OrderHistory;
  private readonly matcher: Matcher<AccountOrder>;
  private readonly desk: AccountDesk;
  private readonly generator: CounterpartyGenerator;
  /** The replayed symbols (API.md section 12): their recordings print here instead of the generator. */
  private readonly replays: Replays;
  /**
   * Inside `advance`: the generator's commands add their events to its outcome. Only `advance`
   * nests commands, so the common path needs no try/finally (which kept `run` out of line).
   */
  private advancing = false;
  /**
   * Told after each outermost command: the edge's scheduler looks again, since a depth batch
   * may now be due (a command can change the book without any event, e.g. a resting order).
   */
  afterCommand: (() => void) | null = null;

  /** Public trades, candles and tickers (API.md section 9), history first. */
  readonly marketData: MarketData;

  constructor(
    readonly config: Config,
    readonly startTime: number,
    /** Public market data before the start (market-history.ts); shared, never changed. */
    marketHistory?: MarketHistory,
  ) {
    const markets = buildMarkets(config);
    this.markets = markets;
    const instruments = markets.instruments;
    this.marketData = new MarketData(
      instruments.map((_, i) => marketHistory?.symbols[i] ?? NO_HISTORY),
      config.sim.history.max_trades_per_symbol,
    );
    // Live trade ids follow the history's (API.md 9 decisions); so does the last price stops trigger on.
    for (const inst of instruments) {
      const data = this.marketData.of(inst.index);
      inst.lastTradeId = data.lastTradeId;
      inst.lastPrice = data.lastPrice;
    }
    this.resting = new RestingOrders<AccountOrder>(instruments.length);
    const { ended_orders, max_ended_orders } = config.sim.account;
    this.history = new OrderHistory(instruments.map((inst) => inst.symbol), ended_orders === 'keep' ? max_ended_orders : 0);
    this.matcher = new Matcher(instruments, this.resting, this.events, this.marketData);
    const ledger = new Ledger(markets.startBalances, markets.assetDecimals);
    const tradeLog = new TradeLog();
    const seed = config.sim.seed;
    const open = new OpenOrders(instruments.length, this.resting.orders);
    const keptLists = ended_orders === 'keep' ? max_ended_orders : 0;
    this.desk = new AccountDesk(markets, this.matcher, open, ledger, tradeLog, this.events, new Rng((seed ^ 0x5bd1e995) >>> 0), this.history, keptLists);
    this.matcher.connect(this.desk.fillSink, this.desk.stops);
    this.replays = new Replays(config, instruments, this.matcher, this.resting, marketHistory, startTime);
    this.generator = new CounterpartyGenerator(config.sim.generator, instruments, new Rng(seed), config.sim.driver_tick_ms, startTime, this.replays.symbolIndexes);
    const { resting, history, matcher, desk, generator, replays } = this;
    // A replayed symbol's synthetic book is rebuilt when next looked at (replays.ts): reading the book settles it.
    this.state = {
      markets,
      get books() {
        replays.settle();
        return matcher.books;
      },
      get depth() {
        replays.settle();
        return matcher.depth;
      },
      get orders() {
        replays.settle();
        return resting.orders;
      },
      clientIds: open.clientIds,
      openOrders: open,
      stops: desk.stops,
      orderLists: desk.lists,
      history,
      get counterpartyResting() {
        replays.settle();
        return resting.counterpartyResting;
      },
      get scriptedResting() {
        replays.settle();
        return resting.scriptedResting;
      },
      ledger,
      tradeLog,
      conservation: new ConservationCursor(),
      get lastBalanceUpdate() {
        return desk.lastBalanceUpdate;
      },
      latentMid: (symbolIndex) => generator.latentMid(symbolIndex),
      isReplayed: (symbolIndex) => replays.isReplayed(symbolIndex),
    };

    // A kline CSV's history: the latent mid starts at its last close (API.md section 9).
    for (const inst of instruments) {
      const close = marketHistory?.lastClose[inst.index];
      if (close !== undefined && close > 0) this.generator.setLatentMid(inst.index, close);
    }
    this.generator.seed(this);
    // A replayed symbol starts with its book around the last history print and what prints at the start.
    this.replays.seed(this, startTime);
    this.replays.settle();
    for (const agg of this.matcher.depth) agg.publishSilently();
  }

  get instruments(): readonly Instrument[] {
    return this.markets.instruments;
  }

  /** When the counterparty generator next has a step to run (Infinity when it is off). */
  nextGeneratorStepAt(): number {
    return this.generator.nextStepAt();
  }

  /** The published time of the next recorded print of a replayed symbol (Infinity: none left). */
  nextPrintAt(): number {
    return this.replays.nextPrintAt();
  }

  /**
   * Per replayed symbol, the recorded time (µs) its rows must be loaded through before an
   * `advance` to `now` (Recording.loadedRows): the simulator loads them first.
   */
  recordedTimeNeeded(now: number): { symbol: string; throughUs: number }[] {
    return this.replays.recordedTimeNeeded(now);
  }

  /** Whether a replayed symbol's synthetic book owes a rebuild (made by the next command or read of the book). */
  get bookRebuildOwed(): boolean {
    return this.replays.bookOwed;
  }

  /** Whether any symbol has level changes not yet published in a depth batch. */
  get depthPending(): boolean {
    for (const agg of this.matcher.depth) if (agg.hasPending) return true;
    return false;
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
    // Every command but the replay's own and the clock's sees the synthetic books as the prints left them.
    if (this.replays.bookOwed && cmd.type !== 'counterpartyPrint' && cmd.type !== 'counterpartyRebuild' && cmd.type !== 'advance') this.replays.settle();
    const result = this.run(cmd);
    // Issue 33: the stops its trades triggered and the list orders its fills activated run now,
    // before the next command (a generator's command inside `advance` too).
    if (this.desk.hasDue) {
      // A recorded print's triggered stops trade against the book around that print, not the one
      // its call of `advance` will rebuild after its last print.
      if (cmd.type === 'counterpartyPrint') this.replays.rebuildAround(cmd);
      this.replays.settle();
      this.desk.runDue(cmd.now);
    }
    // The generator's commands inside `advance`: their events join the outer command's.
    let events = NO_EVENTS;
    if (!this.advancing) {
      this.desk.takeBalanceEvent(cmd.now);
      events = this.events.take();
      this.afterCommand?.();
    }
    return isApiError(result) ? { ok: false, error: result, events } : { ok: true, value: result as ResultOf<C>, events };
  }

  /**
   * The commands of the order flow (the generator's, the account's orders) first, the rest in
   * `runOther`: a switch small enough for V8 to inline into `submit` and its callers (152
   * bytes of bytecode; with every case here it was 608, over V8's 460 and always called).
   */
  private run(cmd: Command): unknown {
    switch (cmd.type) {
      case 'counterpartyLimit':
        return this.counterpartyLimit(cmd);
      case 'counterpartyCancel':
        return this.counterpartyCancel(cmd.key);
      case 'counterpartyCancelAt':
        return this.counterpartyCancelAt(cmd.symbolIndex, cmd.slot, cmd.scripted === true);
      case 'counterpartyTake':
        return this.counterpartyTake(cmd);
      case 'place':
        return this.desk.place(cmd);
      case 'cancel':
        return this.desk.cancel(cmd);
      default:
        return this.runOther(cmd);
    }
  }

  /** The rest: account order management, faults, and the driver's time-driven commands. */
  private runOther(cmd: Exclude<Command, { type: 'counterpartyLimit' | 'counterpartyCancel' | 'counterpartyCancelAt' | 'counterpartyTake' | 'place' | 'cancel' }>): unknown {
    switch (cmd.type) {
      case 'cancelAll':
        return this.desk.cancelAll(cmd);
      case 'amend':
        return this.desk.amend(cmd);
      case 'cancelReplace':
        return this.desk.cancelReplace(cmd);
      case 'fillOpenOrder':
        return this.desk.fillOpenOrder(cmd);
      case 'placeOrderList':
        return this.desk.placeOrderList(cmd);
      case 'cancelOrderList':
        return this.desk.cancelOrderList(cmd);
      case 'setLatentMid':
        this.generator.setLatentMid(cmd.symbolIndex, cmd.mid);
        return null;
      case 'advance':
        this.advancing = true;
        try {
          this.generator.advance(this, cmd.now, cmd.maxSteps);
          this.replays.advance(this, cmd.now);
        } finally {
          this.advancing = false;
        }
        return null;
      case 'flushDepth':
        return this.matcher.flushDepth(cmd.now);
      case 'skipDepthUpdate':
        for (const agg of this.matcher.depth) if (cmd.symbolIndex === null || agg.symbol === this.markets.instruments[cmd.symbolIndex]!.symbol) agg.skipNextDiff(cmd.skip);
        return null;
      case 'shiftTime':
        this.generator.shiftTime(cmd.deltaMs);
        this.replays.shiftTime(cmd.deltaMs);
        return null;
      case 'counterpartyPrint':
        return this.replays.print(cmd);
      case 'counterpartyRebuild':
        return this.replays.rebuild(cmd);
    }
  }

  /** A counterparty limit order: it takes what crosses and rests the rest; its book key or 0. */
  private counterpartyLimit(cmd: CounterpartyLimit): number | ApiError {
    if (this.replays.isReplayed(cmd.symbolIndex)) return this.replays.scriptedLimit(cmd);
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const taker = this.resting.newCounterpartyTaker(cmd.symbolIndex, cmd.side, cmd.price, cmd.lots);
    this.matcher.match(inst, taker, cmd.price, cmd.now, null);
    this.resting.spare(taker);
    return taker.remaining === 0 ? 0 : this.matcher.restCounterparty(inst, cmd.side, cmd.price, taker.remaining, cmd.scripted === true);
  }

  private counterpartyTake(cmd: CounterpartyTake): null {
    if (this.replays.isReplayed(cmd.symbolIndex)) return this.replays.scriptedTake(cmd);
    const inst = this.markets.instruments[cmd.symbolIndex]!;
    const taker = this.resting.newCounterpartyTaker(cmd.symbolIndex, cmd.side, cmd.price ?? 0, cmd.lots);
    this.matcher.match(inst, taker, cmd.price, cmd.now, null);
    this.resting.spare(taker);
    return null;
  }

  /** Cancels the counterparty order at `position` in the symbol's pick list (the generator's pick), or in its scripted list. */
  private counterpartyCancelAt(symbolIndex: number, position: number, scripted: boolean): boolean {
    const resting = (scripted ? this.resting.scriptedResting : this.resting.counterpartyResting)[symbolIndex]!;
    if (!Number.isInteger(position) || position < 0 || position >= resting.length) return false;
    this.matcher.cancelCounterparty(resting.at(position));
    return true;
  }

  private counterpartyCancel(key: number): boolean {
    const slot = this.resting.orders.slotOf(key);
    if (slot === NONE) return false;
    this.matcher.cancelCounterparty(slot);
    return true;
  }
}
