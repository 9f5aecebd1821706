// Validation of an order placement before it reaches the book: parameters, enums, unsupported
// features and the symbol filters (spec 2.2, 7; binance-facts §3.6, §9). Pure: it reads no state
// beyond the instrument, so order/test and cancelReplace can run it before anything changes.

import { apiError, type ApiError } from './errors.ts';
import type { Instrument } from './markets.ts';
import { STP_MODE, type OrderType, type Side, type TimeInForce } from './types.ts';
import { DECIMAL_PATTERN, parseScaled, ScaledParse } from './units.ts';

/** An order placement as it arrives from either transport (values still strings). */
export interface PlaceOrderCommand {
  readonly symbol?: string;
  readonly side?: string;
  readonly type?: string;
  readonly timeInForce?: string;
  readonly quantity?: string;
  readonly price?: string;
  readonly newClientOrderId?: string;
  readonly selfTradePreventionMode?: string;
  // Features the simulator does not implement (spec 1.10): their presence answers -1014.
  readonly quoteOrderQty?: string;
  readonly stopPrice?: string;
  readonly icebergQty?: string;
  readonly trailingDelta?: string;
  readonly pegPriceType?: string;
  readonly pegOffsetValue?: string;
  readonly pegOffsetType?: string;
}

export interface ParsedOrder {
  readonly instrument: Instrument;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  /** Ticks; 0 for MARKET. */
  readonly price: number;
  readonly quantity: number;
  readonly clientOrderId: string | null;
}

const SIDES = new Set(['BUY', 'SELL']);
const SUPPORTED_TYPES = new Set(['LIMIT', 'LIMIT_MAKER', 'MARKET']);
const UNSUPPORTED_TYPES = new Set(['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT']);
const TIME_IN_FORCE = new Set(['GTC', 'IOC', 'FOK']);
const STP_MODES = new Set(['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER']);
const UNSUPPORTED_PARAMS = [
  'quoteOrderQty',
  'stopPrice',
  'icebergQty',
  'trailingDelta',
  'pegPriceType',
  'pegOffsetValue',
  'pegOffsetType',
] as const;

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

export function parsePlaceOrder(
  cmd: PlaceOrderCommand,
  lookup: (symbol: string) => Instrument | undefined,
): ParsedOrder | ApiError {
  if (!cmd.symbol) return apiError('MANDATORY_PARAM', 'symbol');
  const instrument = lookup(cmd.symbol);
  if (instrument === undefined) return apiError('BAD_SYMBOL');
  if (!cmd.side) return apiError('MANDATORY_PARAM', 'side');
  if (!SIDES.has(cmd.side)) return apiError('INVALID_SIDE');
  if (!cmd.type) return apiError('MANDATORY_PARAM', 'type');
  if (UNSUPPORTED_TYPES.has(cmd.type)) return apiError('UNSUPPORTED_ORDER');
  if (!SUPPORTED_TYPES.has(cmd.type)) return apiError('INVALID_ORDER_TYPE');
  for (const name of UNSUPPORTED_PARAMS) if (cmd[name] !== undefined) return apiError('UNSUPPORTED_ORDER');
  const type = cmd.type as OrderType;

  let timeInForce: TimeInForce = 'GTC';
  if (type === 'LIMIT') {
    if (!cmd.timeInForce) return apiError('MANDATORY_PARAM', 'timeInForce');
    if (!TIME_IN_FORCE.has(cmd.timeInForce)) return apiError('INVALID_TIF');
    timeInForce = cmd.timeInForce as TimeInForce;
  } else if (cmd.timeInForce !== undefined) {
    return apiError('PARAM_NOT_REQUIRED', 'timeInForce');
  }

  if (!cmd.quantity) return apiError('MANDATORY_PARAM', 'quantity');
  let price = 0;
  if (type === 'MARKET') {
    if (cmd.price !== undefined) return apiError('PARAM_NOT_REQUIRED', 'price');
  } else {
    if (!cmd.price) return apiError('MANDATORY_PARAM', 'price');
    price = parseScaled(cmd.price, instrument.tickDecimals);
    if (price === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'price', DECIMAL_PATTERN);
    if (exceedsAssetPrecision(cmd.price)) return apiError('BAD_PRECISION', 'price');
    if (price <= 0 || !Number.isFinite(price)) return apiError('FILTER_FAILURE', 'PRICE_FILTER');
  }
  const quantity = parseScaled(cmd.quantity, instrument.lotDecimals);
  if (quantity === ScaledParse.Malformed) return apiError('ILLEGAL_CHARS', 'quantity', DECIMAL_PATTERN);
  if (exceedsAssetPrecision(cmd.quantity)) return apiError('BAD_PRECISION', 'quantity');
  if (quantity < instrument.minQty || quantity > instrument.maxQty) return apiError('FILTER_FAILURE', 'LOT_SIZE');

  if (type !== 'MARKET') {
    const notional = instrument.notional(price, quantity);
    if (notional < instrument.minNotional || (instrument.maxNotional !== null && notional > instrument.maxNotional)) {
      return apiError('FILTER_FAILURE', 'NOTIONAL');
    }
  }

  if (cmd.selfTradePreventionMode !== undefined) {
    if (!STP_MODES.has(cmd.selfTradePreventionMode)) return apiError('INVALID_PARAMETER', 'selfTradePreventionMode');
    if (cmd.selfTradePreventionMode !== STP_MODE) return apiError('STP_MODE_NOT_ALLOWED');
  }
  const clientOrderId = cmd.newClientOrderId ?? null;
  if (clientOrderId !== null && !isValidClientOrderId(clientOrderId)) {
    return apiError('ILLEGAL_CHARS', 'newClientOrderId', CLIENT_ORDER_ID_PATTERN);
  }
  return { instrument, side: cmd.side as Side, type, timeInForce, price, quantity, clientOrderId };
}
