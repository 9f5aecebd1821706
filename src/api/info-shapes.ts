// The exchangeInfo (spec 2.2, binance-facts §3.2) and account (binance-facts §3.5) replies:
// their types, which the typed client exposes, and the one function that builds each. Not hot:
// objects, JSON.stringify'd by the transports.

import type { FeesConfig, LimitsConfig, OrderTypesMode } from '../config/types.ts';
import type { Exchange } from '../core/exchange.ts';
import { COMMISSION_DECIMALS, type Instrument } from '../core/markets.ts';
import { balances } from '../core/queries.ts';
import { formatScaled } from '../core/units.ts';
import { price, qty, quote, ZERO } from './order-shapes.ts';
import { symbolOrderInfo } from './order-rules.ts';
import { rateLimitList, type RateLimitWire } from './rate-limit-shapes.ts';

/**
 * A symbol filter: `filterType` and the figures of that type (PRICE_FILTER, LOT_SIZE, NOTIONAL,
 * MAX_NUM_ORDERS; with order_types = "reference" also ICEBERG_PARTS, TRAILING_DELTA,
 * MAX_NUM_ORDER_LISTS, MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS).
 */
export type SymbolFilter = Record<string, unknown> & { filterType: string };

export interface SymbolInfo {
  symbol: string;
  status: string;
  baseAsset: string;
  baseAssetPrecision: number;
  quoteAsset: string;
  quotePrecision: number;
  quoteAssetPrecision: number;
  baseCommissionPrecision: number;
  quoteCommissionPrecision: number;
  orderTypes: string[];
  icebergAllowed: boolean;
  ocoAllowed: boolean;
  otoAllowed: boolean;
  opoAllowed: boolean;
  quoteOrderQtyMarketAllowed: boolean;
  allowTrailingStop: boolean;
  cancelReplaceAllowed: boolean;
  amendAllowed: boolean;
  pegInstructionsAllowed: boolean;
  isSpotTradingAllowed: boolean;
  isMarginTradingAllowed: boolean;
  filters: SymbolFilter[];
  permissions: string[];
  permissionSets: string[][];
  defaultSelfTradePreventionMode: string;
  allowedSelfTradePreventionModes: string[];
}

export interface ExchangeInfoWire {
  timezone: string;
  serverTime: number;
  rateLimits: RateLimitWire[];
  exchangeFilters: unknown[];
  symbols: SymbolInfo[];
}

export interface BalanceWire {
  asset: string;
  free: string;
  locked: string;
}

export interface AccountWire {
  makerCommission: number;
  takerCommission: number;
  buyerCommission: number;
  sellerCommission: number;
  commissionRates: { maker: string; taker: string; buyer: string; seller: string };
  canTrade: boolean;
  canWithdraw: boolean;
  canDeposit: boolean;
  brokered: boolean;
  requireSelfTradePrevention: boolean;
  preventSor: boolean;
  updateTime: number;
  accountType: string;
  balances: BalanceWire[];
  permissions: string[];
  uid: number;
}

/** exchangeInfo of the given symbols (all when undefined); `mode` is `[sim] order_types`. */
export function exchangeInfo(limits: LimitsConfig, exchange: Exchange, now: number, symbols: readonly string[] | undefined, mode: OrderTypesMode): ExchangeInfoWire {
  const instruments = exchange.instruments.filter((i) => symbols === undefined || symbols.includes(i.symbol));
  return { timezone: 'UTC', serverTime: now, rateLimits: rateLimitList(limits), exchangeFilters: [], symbols: instruments.map((i) => symbolInfo(i, mode)) };
}

function symbolInfo(inst: Instrument, mode: OrderTypesMode): SymbolInfo {
  const notional: SymbolFilter = { filterType: 'NOTIONAL', minNotional: quote(inst, inst.minNotional), applyMinToMarket: true };
  if (inst.maxNotional !== null) {
    notional.maxNotional = quote(inst, inst.maxNotional);
    notional.applyMaxToMarket = true;
  }
  notional.avgPriceMins = 0;
  const orders = symbolOrderInfo(inst, mode);
  const priceFilter = { filterType: 'PRICE_FILTER', minPrice: price(inst, 1), maxPrice: ZERO, tickSize: price(inst, 1) };
  const lotSize = { filterType: 'LOT_SIZE', minQty: qty(inst, inst.minQty), maxQty: qty(inst, inst.maxQty), stepSize: qty(inst, 1) };
  const maxNumOrders = { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 };
  // The reference's symbols list their filters in this order (BTCUSDT's exchangeInfo).
  const f = orders.filters;
  const filters: SymbolFilter[] =
    f === null
      ? [priceFilter, lotSize, notional, maxNumOrders]
      : [priceFilter, lotSize, f.icebergParts, f.trailingDelta, notional, maxNumOrders, f.maxNumOrderLists, f.maxNumAlgoOrders, f.maxNumIcebergOrders];
  return {
    symbol: inst.symbol,
    status: 'TRADING',
    baseAsset: inst.base,
    baseAssetPrecision: 8,
    quoteAsset: inst.quote,
    quotePrecision: 8,
    quoteAssetPrecision: 8,
    baseCommissionPrecision: COMMISSION_DECIMALS,
    quoteCommissionPrecision: COMMISSION_DECIMALS,
    orderTypes: orders.orderTypes,
    icebergAllowed: orders.flags.icebergAllowed,
    ocoAllowed: orders.flags.ocoAllowed,
    otoAllowed: orders.flags.otoAllowed,
    opoAllowed: false,
    quoteOrderQtyMarketAllowed: orders.flags.quoteOrderQtyMarketAllowed,
    allowTrailingStop: orders.flags.allowTrailingStop,
    cancelReplaceAllowed: orders.flags.cancelReplaceAllowed,
    amendAllowed: orders.flags.amendAllowed,
    pegInstructionsAllowed: false,
    isSpotTradingAllowed: true,
    isMarginTradingAllowed: false,
    filters,
    permissions: [],
    permissionSets: [['SPOT']],
    defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
    allowedSelfTradePreventionModes: ['EXPIRE_MAKER'],
  };
}

/** GET account; commissions in bps as the reference writes them. */
export function account(fees: FeesConfig, exchange: Exchange, omitZeroBalances: boolean): AccountWire {
  const m = exchange.markets;
  const rate = (centiBps: bigint) => formatScaled(centiBps, 6);
  const list = balances(exchange.state)
    .filter((b) => !omitZeroBalances || b.free !== 0n || b.locked !== 0n)
    .sort((a, b) => a.asset.localeCompare(b.asset))
    .map((b) => ({ asset: b.asset, free: formatScaled(b.free, b.decimals), locked: formatScaled(b.locked, b.decimals) }));
  return {
    makerCommission: Number(fees.maker_bps),
    takerCommission: Number(fees.taker_bps),
    buyerCommission: 0,
    sellerCommission: 0,
    commissionRates: { maker: rate(m.makerCentiBps), taker: rate(m.takerCentiBps), buyer: ZERO, seller: ZERO },
    canTrade: true,
    canWithdraw: true,
    canDeposit: true,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: exchange.state.lastBalanceUpdate,
    accountType: 'SPOT',
    balances: list,
    permissions: ['SPOT'],
    uid: 1,
  };
}
