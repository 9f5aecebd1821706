// Turns the configured instruments into exact integer scales. Every asset gets one atom size,
// fine enough that notionals (ticks x lots) and commissions in hundredths of a basis point are
// whole atoms: quote atoms have at least tick + lot + 6 decimals, so every amount the ledger
// moves is exact and additive (locks released piecewise sum to the lock taken). A commission is
// charged at the 8 decimals exchangeInfo publishes (quoteCommissionPrecision), rounded up.

import type { Config, InstrumentConfig } from '../config/types.ts';
import { parseScaled, parseScaledBig, pow10n, stepDecimals, writtenDecimals } from './units.ts';

const FEE_DECIMALS = 6;
const MIN_ASSET_DECIMALS = 8;
/** exchangeInfo baseCommissionPrecision / quoteCommissionPrecision (binance-facts §3.2). */
export const COMMISSION_DECIMALS = 8;

export class Instrument {
  /** Latest per-symbol update id (spec 2.7: each symbol has its own counter). */
  updateId = 0;
  /** Latest engine trade id of this symbol (shared with the public trade stream). */
  lastTradeId = 0;
  /** Count of the account's open orders here (MAX_NUM_ORDERS). */
  accountOpenOrders = 0;
  /**
   * The last public trade's price (ticks; the account's, the counterparty's, history's), 0 before
   * any: what conditional orders trigger on (issue 33). The matcher keeps it.
   */
  lastPrice = 0;
  // Issue 33's state filters (exchangeInfo MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS,
  // MAX_NUM_ORDER_LISTS): the reference's values here, the instrument's configuration may change them.
  maxNumAlgoOrders = 5;
  maxNumIcebergOrders = 5;
  maxNumOrderLists = 20;
  /**
   * MAX_NUM_ORDERS (binance-facts §9: 200 on every symbol): every open order counts, untriggered
   * and pending ones too. A field so that the engine bench can hold 100k waiting stops.
   */
  maxNumOrders = 200;
  /**
   * Conditional orders waiting for this symbol's trades (issue 33; MAX_NUM_ALGO_ORDERS counts
   * them). The account's stop book keeps it, and the window below.
   */
  watchedStops = 0;
  /**
   * The trigger window (ticks): the matcher hands a trade to the account's trigger check only
   * when its price reaches `triggerAbove` or `triggerBelow` (the nearest waiting stops; a
   * tracking trailing stop sets `triggerAbove` to 0: every trade). Without stops they cannot be
   * reached, so a trade pays two comparisons, with 100k stops far from the touch the same.
   */
  triggerAbove = Infinity;
  triggerBelow = -1;

  constructor(
    readonly index: number,
    readonly config: InstrumentConfig,
    readonly tickDecimals: number,
    readonly lotDecimals: number,
    readonly baseDecimals: number,
    readonly quoteDecimals: number,
    readonly minQty: number,
    readonly maxQty: number,
    /** Quote atoms. */
    readonly minNotional: bigint,
    readonly maxNotional: bigint | null,
    /** Ticks. */
    readonly startMid: number,
  ) {}

  get symbol(): string {
    return this.config.symbol;
  }
  get base(): string {
    return this.config.base;
  }
  get quote(): string {
    return this.config.quote;
  }

  /** Quote atoms of one tick x one lot. */
  get quotePerTickLot(): bigint {
    return pow10n(this.quoteDecimals - this.tickDecimals - this.lotDecimals);
  }

  /** Quote atoms of one tick x one lot x one centi-bps (1 bps = 100 centi-bps; commission = notional x centiBps / 1e6). */
  get feeUnit(): bigint {
    return pow10n(this.quoteDecimals - this.tickDecimals - this.lotDecimals - FEE_DECIMALS);
  }

  get basePerLot(): bigint {
    return pow10n(this.baseDecimals - this.lotDecimals);
  }

  /** Quote atoms of 10^-8 (the commission precision); quote atoms have at least 8 decimals. */
  get commissionUnit(): bigint {
    return pow10n(this.quoteDecimals - COMMISSION_DECIMALS);
  }

  notional(ticks: number, lots: number): bigint {
    return BigInt(ticks) * BigInt(lots) * this.quotePerTickLot;
  }

  /**
   * The commission on `tickLots` (price in ticks x quantity in lots) at `centiBps`, in quote
   * atoms, rounded UP to 8 decimals. Up, because the exchange must never undercharge its
   * published rate: rounded down (or to nearest), a client could split its trades into pieces
   * whose commission is under 0.00000001 and trade for free. The reference does not document
   * its direction (binance-facts §3.2 only gives the 8 decimals).
   */
  commission(tickLots: bigint, centiBps: bigint): bigint {
    const exact = tickLots * this.feeUnit * centiBps;
    const unit = this.commissionUnit;
    const below = exact % unit;
    return below === 0n ? exact : exact - below + unit;
  }
}

export interface Markets {
  readonly instruments: readonly Instrument[];
  readonly bySymbol: ReadonlyMap<string, Instrument>;
  /** Atom decimals per asset. */
  readonly assetDecimals: ReadonlyMap<string, number>;
  /** Starting balance per asset, in atoms. */
  readonly startBalances: ReadonlyMap<string, bigint>;
  readonly makerCentiBps: bigint;
  readonly takerCentiBps: bigint;
}

export function buildMarkets(config: Config): Markets {
  const decimals = new Map<string, number>();
  const need = (asset: string, d: number) => decimals.set(asset, Math.max(decimals.get(asset) ?? MIN_ASSET_DECIMALS, d));
  for (const inst of config.instruments) {
    const td = stepDecimals(inst.tick);
    const ld = stepDecimals(inst.lot);
    need(inst.base, ld);
    need(inst.quote, td + ld + FEE_DECIMALS);
  }
  for (const [asset, amount] of Object.entries(config.sim.account.balances)) need(asset, writtenDecimals(amount));

  const instruments = config.instruments.map((cfg, index) => {
    const td = stepDecimals(cfg.tick);
    const ld = stepDecimals(cfg.lot);
    const qd = decimals.get(cfg.quote)!;
    const overrides = config.sim.symbols[cfg.symbol] ?? {};
    const startMid = parseScaled(overrides.start_mid ?? config.sim.start_mid, td);
    const maxNotional = overrides.max_notional === undefined ? null : mustBig(overrides.max_notional, qd);
    const inst = new Instrument(
      index,
      cfg,
      td,
      ld,
      decimals.get(cfg.base)!,
      qd,
      parseScaled(cfg.min_qty, ld),
      parseScaled(cfg.max_qty, ld),
      mustBig(cfg.min_notional, qd),
      maxNotional,
      startMid,
    );
    // The state filters an instrument's configuration may change (its other order rules are the edge's).
    if (cfg.max_num_algo_orders !== undefined) inst.maxNumAlgoOrders = cfg.max_num_algo_orders;
    if (cfg.max_num_iceberg_orders !== undefined) inst.maxNumIcebergOrders = cfg.max_num_iceberg_orders;
    if (cfg.max_num_order_lists !== undefined) inst.maxNumOrderLists = cfg.max_num_order_lists;
    return inst;
  });

  const startBalances = new Map<string, bigint>();
  for (const [asset, amount] of Object.entries(config.sim.account.balances)) {
    startBalances.set(asset, mustBig(amount, decimals.get(asset)!));
  }
  for (const asset of decimals.keys()) if (!startBalances.has(asset)) startBalances.set(asset, 0n);

  return {
    instruments,
    bySymbol: new Map(instruments.map((i) => [i.symbol, i])),
    assetDecimals: decimals,
    startBalances,
    makerCentiBps: mustBig(config.sim.fees.maker_bps, 2),
    takerCentiBps: mustBig(config.sim.fees.taker_bps, 2),
  };
}

function mustBig(text: string, decimals: number): bigint {
  const value = parseScaledBig(text, decimals);
  if (value === null) throw new RangeError(`${text} is not representable with ${decimals} decimals`);
  return value;
}
