// The fields of an order placement and the checks every placement shares, whatever its type and
// whichever order_types mode: prices and quantities on their grids and within PRICE_FILTER /
// LOT_SIZE / NOTIONAL, the -1100 / -1111 answers for malformed or too precise decimals, the STP
// mode, strategyType and the client order id (binance-facts §2.2, §3.6). Pure: instruments only.

import { apiError, ApiError } from '../core/errors.ts';
import type { Instrument } from '../core/markets.ts';
import { STP_MODE } from '../core/types.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from '../core/units.ts';

export type InstrumentLookup = (symbol: string) => Instrument | undefined;

/** An order placement as it arrives from either transport (values still strings). */
export interface PlaceOrderFields {
  readonly symbol?: string;
  readonly side?: string;
  readonly type?: string;
  readonly timeInForce?: string;
  readonly quantity?: string;
  readonly price?: string;
  readonly newClientOrderId?: string;
  readonly selfTradePreventionMode?: string;
  // The reference's other features (API.md 11): with order_types = "spec" their presence answers -1014.
  readonly quoteOrderQty?: string;
  readonly stopPrice?: string;
  readonly icebergQty?: string;
  readonly trailingDelta?: string;
  readonly pegPriceType?: string;
  readonly pegOffsetValue?: string;
  readonly pegOffsetType?: string;
  /** Accepted and not echoed; below 1000000 is -1134 (errors.md). */
  readonly strategyType?: string;
}

export const SIDES: ReadonlySet<string> = new Set(['BUY', 'SELL']);
export const TIME_IN_FORCE: ReadonlySet<string> = new Set(['GTC', 'IOC', 'FOK']);
const STP_MODES = new Set(['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER']);
/** The reference exchange's client order id form (binance-facts §3.6). */
export const CLIENT_ORDER_ID_PATTERN = '^[\\.A-Z\\:/a-z0-9_-]{1,36}$';
const CLIENT_ORDER_ID_RE = /^[.A-Z:/a-z0-9_-]{1,36}$/;

export function isValidClientOrderId(id: string): boolean {
  return CLIENT_ORDER_ID_RE.test(id);
}

/** Decimals of every asset (exchangeInfo baseAssetPrecision / quotePrecision). */
const ASSET_PRECISION = 8;

/**
 * binance-facts §2.2 -1111 "Parameter '%s' has too much precision.": a non-zero digit beyond
 * the asset precision. Digits beyond the tick or lot but within it are a filter failure (-1013).
 */
export function exceedsAssetPrecision(text: string): boolean {
  const dot = text.indexOf('.');
  return dot >= 0 && /[1-9]/.test(text.slice(dot + 1 + ASSET_PRECISION));
}

/** A price or stop price in ticks: -1100 malformed, -1111 beyond 8 decimals, PRICE_FILTER off the tick grid or not positive. */
export function parsePrice(text: string, inst: Instrument, name: string): number | ApiError {
  const price = parseScaled(text, inst.tickDecimals);
  if (price === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', name, DECIMAL_PATTERN);
  if (exceedsAssetPrecision(text)) return apiError('BAD_PRECISION', name);
  if (price <= 0 || !Number.isFinite(price)) return apiError('FILTER_FAILURE', 'PRICE_FILTER');
  return price;
}

/** A quantity in lots within LOT_SIZE: -1100 malformed, -1111 beyond 8 decimals, LOT_SIZE off the grid or out of range. */
export function parseQuantity(text: string, inst: Instrument, name: string): number | ApiError {
  const quantity = parseScaled(text, inst.lotDecimals);
  if (quantity === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', name, DECIMAL_PATTERN);
  if (exceedsAssetPrecision(text)) return apiError('BAD_PRECISION', name);
  if (quantity < inst.minQty || quantity > inst.maxQty) return apiError('FILTER_FAILURE', 'LOT_SIZE');
  return quantity;
}

/** NOTIONAL of a priced order (price x quantity within minNotional..maxNotional). */
export function notionalError(inst: Instrument, price: number, quantity: number): ApiError | null {
  const notional = inst.notional(price, quantity);
  if (notional < inst.minNotional || (inst.maxNotional !== null && notional > inst.maxNotional)) return apiError('FILTER_FAILURE', 'NOTIONAL');
  return null;
}

/** What every placement ends with: the STP mode, strategyType and the client order id (named `idName` on the wire). */
export function parseOrderTail(cmd: PlaceOrderFields, idName: string): { clientOrderId: string | null } | ApiError {
  if (cmd.selfTradePreventionMode !== undefined) {
    if (!STP_MODES.has(cmd.selfTradePreventionMode)) return apiError('INVALID_PARAMETER', 'selfTradePreventionMode');
    if (cmd.selfTradePreventionMode !== STP_MODE) return apiError('STP_MODE_NOT_ALLOWED');
  }
  if (cmd.strategyType !== undefined) {
    if (!/^-?[0-9]{1,10}$/.test(cmd.strategyType)) return apiError('ILLEGAL_CHARS', 'strategyType', '^[0-9]{1,10}$');
    if (Number(cmd.strategyType) < 1_000_000) return apiError('BAD_STRATEGY_TYPE');
  }
  const clientOrderId = cmd.newClientOrderId ?? null;
  if (clientOrderId !== null && !isValidClientOrderId(clientOrderId)) return apiError('ILLEGAL_CHARS', idName, CLIENT_ORDER_ID_PATTERN);
  return { clientOrderId };
}

