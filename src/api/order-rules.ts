// What a symbol allows with `[sim] order_types = "reference"` (API.md 11 "exchangeInfo values"):
// its order types, feature flags and stateless order filters, from its configuration with the
// reference exchange's values for what is not set. One place for these values: exchangeInfo
// shows them, the placement checks (order-checks.ts, order-list-params.ts) enforce them. The
// state filters (MAX_NUM_ALGO_ORDERS, MAX_NUM_ICEBERG_ORDERS, MAX_NUM_ORDER_LISTS) live on the
// core's Instrument, which enforces them.

import type { OrderTypesMode } from '../config/types.ts';
import type { Instrument } from '../core/markets.ts';
import type { OrderType } from '../core/types.ts';

/** The spec's types (spec 1.10), in exchangeInfo's order. */
export const SPEC_ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'MARKET'];
/** Every type with "reference", in exchangeInfo's order (the reference's symbols list them so). */
export const REFERENCE_ORDER_TYPES: readonly OrderType[] = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

export interface TrailingBounds {
  readonly minAbove: number;
  readonly maxAbove: number;
  readonly minBelow: number;
  readonly maxBelow: number;
}

export interface OrderRules {
  readonly orderTypes: ReadonlySet<OrderType>;
  readonly icebergAllowed: boolean;
  readonly ocoAllowed: boolean;
  readonly otoAllowed: boolean;
  readonly quoteOrderQtyMarketAllowed: boolean;
  readonly allowTrailingStop: boolean;
  readonly cancelReplaceAllowed: boolean;
  readonly amendAllowed: boolean;
  /** ICEBERG_PARTS.limit. */
  readonly icebergParts: number;
  /** TRAILING_DELTA, in BIPS. */
  readonly trailing: TrailingBounds;
}

/** The reference's values (API.md 11; not the reference's documentation examples, whose `allowTrailingStop` is false). */
const REFERENCE = {
  icebergParts: 100,
  trailing: { minAbove: 10, maxAbove: 2000, minBelow: 10, maxBelow: 2000 },
} as const;

const cache = new WeakMap<Instrument, OrderRules>();

/** The rules of a symbol under "reference" (kept per instrument: placements ask on every order). */
export function orderRules(inst: Instrument): OrderRules {
  let rules = cache.get(inst);
  if (rules === undefined) {
    rules = rulesOf(inst);
    cache.set(inst, rules);
  }
  return rules;
}

function rulesOf(inst: Instrument): OrderRules {
  const c = inst.config;
  const listed = c.order_types === undefined ? REFERENCE_ORDER_TYPES : REFERENCE_ORDER_TYPES.filter((t) => c.order_types!.includes(t));
  return {
    orderTypes: new Set(listed),
    icebergAllowed: c.iceberg_allowed ?? true,
    ocoAllowed: c.oco_allowed ?? true,
    otoAllowed: c.oto_allowed ?? true,
    quoteOrderQtyMarketAllowed: c.quote_order_qty_market_allowed ?? true,
    allowTrailingStop: c.allow_trailing_stop ?? true,
    cancelReplaceAllowed: c.cancel_replace_allowed ?? true,
    amendAllowed: c.amend_allowed ?? true,
    icebergParts: c.iceberg_parts ?? REFERENCE.icebergParts,
    trailing: {
      minAbove: c.min_trailing_above_delta ?? REFERENCE.trailing.minAbove,
      maxAbove: c.max_trailing_above_delta ?? REFERENCE.trailing.maxAbove,
      minBelow: c.min_trailing_below_delta ?? REFERENCE.trailing.minBelow,
      maxBelow: c.max_trailing_below_delta ?? REFERENCE.trailing.maxBelow,
    },
  };
}

/** What exchangeInfo says of a symbol's orders in either mode: "spec" keeps spec 1.10's answer. */
export function symbolOrderInfo(inst: Instrument, mode: OrderTypesMode) {
  if (mode === 'spec') {
    return {
      orderTypes: [...SPEC_ORDER_TYPES],
      flags: { icebergAllowed: false, ocoAllowed: false, otoAllowed: false, quoteOrderQtyMarketAllowed: false, allowTrailingStop: false, cancelReplaceAllowed: true, amendAllowed: true },
      filters: null,
    };
  }
  const r = orderRules(inst);
  return {
    orderTypes: REFERENCE_ORDER_TYPES.filter((t) => r.orderTypes.has(t)),
    flags: {
      icebergAllowed: r.icebergAllowed,
      ocoAllowed: r.ocoAllowed,
      otoAllowed: r.otoAllowed,
      quoteOrderQtyMarketAllowed: r.quoteOrderQtyMarketAllowed,
      allowTrailingStop: r.allowTrailingStop,
      cancelReplaceAllowed: r.cancelReplaceAllowed,
      amendAllowed: r.amendAllowed,
    },
    filters: {
      icebergParts: { filterType: 'ICEBERG_PARTS', limit: r.icebergParts },
      trailingDelta: {
        filterType: 'TRAILING_DELTA',
        minTrailingAboveDelta: r.trailing.minAbove,
        maxTrailingAboveDelta: r.trailing.maxAbove,
        minTrailingBelowDelta: r.trailing.minBelow,
        maxTrailingBelowDelta: r.trailing.maxBelow,
      },
      maxNumOrderLists: { filterType: 'MAX_NUM_ORDER_LISTS', maxNumOrderLists: inst.maxNumOrderLists },
      maxNumAlgoOrders: { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: inst.maxNumAlgoOrders },
      maxNumIcebergOrders: { filterType: 'MAX_NUM_ICEBERG_ORDERS', maxNumIcebergOrders: inst.maxNumIcebergOrders },
    },
  };
}
