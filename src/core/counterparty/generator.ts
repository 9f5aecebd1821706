// The counterparty (spec 1.5): Poisson arrivals of limit orders, market orders and cancels
// around a random-walk latent mid, per symbol, on a fixed step grid so that what it does
// depends only on the seed, the configuration and how far time has moved. Its limit orders
// rest at least `touch_offset_ticks` from the latent mid, so its touch sits about that far away
// (2990 ticks by default) and a client quoting near the mid is ahead of it and gets hit by the
// larger market orders.

import type { GeneratorConfig } from '../../config/types.ts';
import type { CounterpartyCommand } from '../commands.ts';
import type { Instrument } from '../markets.ts';
import type { Rng } from '../rng.ts';
import type { Side } from '../types.ts';
import { POW10 } from '../units.ts';

/** What the generator needs from the exchange: the one entry everyone uses, and a read. */
export interface CounterpartyVenue {
  submit(cmd: CounterpartyCommand): unknown;
  /** The counterparty's resting orders per symbol (for their count). */
  readonly state: { readonly counterpartyResting: readonly { readonly length: number }[] };
}

interface SymbolState {
  readonly instrument: Instrument;
  /** Latent mid, ticks. */
  mid: number;
  /** Quote units -> lots at a price of 1 tick: lots = notional * lotsPerQuotePerTick / mid. */
  readonly lotsPerQuotePerTick: number;
  readonly minMid: number;
}

export class CounterpartyGenerator {
  private readonly symbols: SymbolState[];
  /** The symbols it trades in: a replayed symbol's counterparty is its recording (API.md section 12). */
  private readonly active: SymbolState[];
  private readonly stepSeconds: number;
  private stepsDone = 0;
  private readonly limitNotional: readonly [number, number];
  private readonly marketNotional: readonly [number, number];

  constructor(
    private readonly config: GeneratorConfig,
    instruments: readonly Instrument[],
    private readonly rng: Rng,
    readonly stepMs: number,
    private startTime: number,
    replayed: ReadonlySet<number> = new Set(),
  ) {
    this.stepSeconds = stepMs / 1000;
    this.limitNotional = [Number(config.limit_notional_min), Number(config.limit_notional_max)];
    this.marketNotional = [Number(config.market_notional_min), Number(config.market_notional_max)];
    this.symbols = instruments.map((instrument) => ({
      instrument,
      mid: instrument.startMid,
      lotsPerQuotePerTick: POW10[instrument.tickDecimals + instrument.lotDecimals]!,
      minMid: config.touch_offset_ticks + 1,
    }));
    this.active = this.symbols.filter((s) => !replayed.has(s.instrument.index));
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /** The latent mid of a symbol, in ticks. */
  latentMid(symbolIndex: number): number {
    return this.symbols[symbolIndex]!.mid;
  }

  /** Sets a symbol's latent mid (ticks; the scripted market's `setMid`). */
  setLatentMid(symbolIndex: number, mid: number): void {
    this.symbols[symbolIndex]!.mid = mid;
  }

  /** Places `seed_levels` levels per side around the starting mid, the touch at the offset. */
  seed(venue: CounterpartyVenue): void {
    if (!this.config.enabled) return;
    for (const s of this.active) {
      for (let level = 0; level < this.config.seed_levels; level++) {
        const offset = this.config.touch_offset_ticks + level * this.config.level_spacing_ticks;
        for (const side of ['BUY', 'SELL'] as const) {
          const price = side === 'BUY' ? s.mid - offset : s.mid + offset;
          if (price > 0) venue.submit({ type: 'counterpartyLimit', now: this.startTime, symbolIndex: s.instrument.index, side, price, lots: this.size(s, this.limitNotional) });
        }
      }
    }
  }

  /** The server clock jumped (clock offset changed): the step grid moves with it, no catch-up. */
  shiftTime(deltaMs: number): void {
    this.startTime += deltaMs;
  }

  /** The time of the next step not yet run (it may be past, after a stall); Infinity when off. */
  nextStepAt(): number {
    return this.config.enabled && this.active.length > 0 ? this.startTime + (this.stepsDone + 1) * this.stepMs : Infinity;
  }

  /**
   * Runs every whole step up to `now` (at most `maxSteps`; steps beyond are dropped, so a long
   * stall does not freeze the caller). Each step acts at its own grid time.
   */
  advance(venue: CounterpartyVenue, now: number, maxSteps = Infinity): void {
    if (!this.config.enabled || this.active.length === 0) return;
    const target = Math.floor((now - this.startTime) / this.stepMs);
    if (target - this.stepsDone > maxSteps) this.stepsDone = target - maxSteps;
    while (this.stepsDone < target) {
      this.stepsDone++;
      const time = this.startTime + this.stepsDone * this.stepMs;
      for (const s of this.active) this.step(venue, s, time);
    }
  }

  private step(venue: CounterpartyVenue, s: SymbolState, time: number): void {
    const cfg = this.config;
    const k = cfg.mid_step_max_ticks;
    if (k > 0) s.mid = Math.max(s.minMid, s.mid + this.rng.int(-k, k));
    const index = s.instrument.index;

    const resting = venue.state.counterpartyResting[index]!.length;
    const cancels = this.rng.poisson((resting * this.stepSeconds) / cfg.mean_order_lifetime_s);
    for (let i = 0; i < cancels; i++) {
      const count = venue.state.counterpartyResting[index]!.length;
      if (count === 0) break;
      venue.submit({ type: 'counterpartyCancelAt', now: time, symbolIndex: index, slot: this.rng.int(0, count - 1) });
    }

    const limits = this.rng.poisson(cfg.limit_rate_per_s * this.stepSeconds);
    for (let i = 0; i < limits; i++) {
      const side: Side = this.rng.float() < 0.5 ? 'BUY' : 'SELL';
      const extra = Math.floor(this.rng.exponential(cfg.depth_spread_ticks) / cfg.level_spacing_ticks) * cfg.level_spacing_ticks;
      const offset = cfg.touch_offset_ticks + extra;
      const price = side === 'BUY' ? s.mid - offset : s.mid + offset;
      if (price > 0) venue.submit({ type: 'counterpartyLimit', now: time, symbolIndex: index, side, price, lots: this.size(s, this.limitNotional) });
    }

    const markets = this.rng.poisson(cfg.market_rate_per_s * this.stepSeconds);
    for (let i = 0; i < markets; i++) {
      const side: Side = this.rng.float() < 0.5 ? 'BUY' : 'SELL';
      venue.submit({ type: 'counterpartyTake', now: time, symbolIndex: index, side, price: null, lots: this.size(s, this.marketNotional) });
    }
  }

  /** A random size whose notional at the latent mid is uniform in [min, max], on the lot grid. */
  private size(s: SymbolState, [min, max]: readonly [number, number]): number {
    const notional = min + (max - min) * this.rng.float();
    const lots = Math.floor((notional * s.lotsPerQuotePerTick) / s.mid);
    return Math.min(s.instrument.maxQty, Math.max(s.instrument.minQty, lots));
  }
}
