// What `[sim] order_types = "reference"` answers at the edge (docs/orders.md), byte for byte as
// the reference's documents word it: exchangeInfo's flags and filters, the mandatory parameter
// combinations and stateless filters on every placement path (REST order, order/test and
// cancelReplace; WS API order.place, order.test, order.cancelReplace), the OCO leg rules, and an
// instrument that narrows its types and turns features off ("... not supported for this symbol.").
import { expect } from 'spot-sim/fixture';
import { withSimConfig } from './support/helpers.ts';
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { wireFor } from './support/rest.ts';
import { REFERENCE, SYMBOL, tradeAt } from './support/reference-orders.ts';

const test = withSimConfig(REFERENCE);
test.afterEach(closeRawConnections);

const Q = { symbol: SYMBOL, quantity: '0.01' };
/** A placement and the refusal every placement path gives it (order/test too: none is -2010). */
const REFUSALS: readonly [Record<string, string>, number, string][] = [
  [{ ...Q, side: 'SELL', type: 'STOP_LOSS' }, -1102, "Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
  [{ ...Q, side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '58900', stopPrice: '59000' }, -1102, "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed."],
  [{ ...Q, side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '59000', price: '59000' }, -1106, "Parameter 'price' sent when not required."],
  [{ ...Q, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', stopPrice: '59500' }, -1106, "Parameter 'stopPrice' sent when not required."],
  [{ symbol: SYMBOL, side: 'BUY', type: 'MARKET' }, -1102, "Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!"],
  [{ ...Q, side: 'SELL', type: 'STOP_LOSS', stopPrice: '59000.005' }, -1013, 'Filter failure: PRICE_FILTER'],
  [{ ...Q, side: 'SELL', type: 'STOP_LOSS', trailingDelta: '5' }, -1013, 'Filter failure: TRAILING_DELTA'],
  [{ ...Q, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.000001' }, -1013, 'Filter failure: LOT_SIZE'],
  [{ ...Q, side: 'BUY', type: 'MARKET', icebergQty: '0.001' }, -1014, 'Unsupported order combination.'],
  [{ ...Q, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', pegPriceType: 'PRIMARY_PEG' }, -1014, 'Unsupported order combination.'],
  [{ ...Q, side: 'BUY', type: 'OCO' }, -1116, 'Invalid orderType.'],
];

test('exchangeInfo shows the reference flags and the five filters with their field names and values', async ({ client }) => {
  const info = (await client.rest.exchangeInfo({ symbol: SYMBOL })).symbols[0]!;
  expect(info).toMatchObject({
    orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
    icebergAllowed: true,
    ocoAllowed: true,
    otoAllowed: true,
    opoAllowed: false,
    quoteOrderQtyMarketAllowed: true,
    allowTrailingStop: true,
    cancelReplaceAllowed: true,
    amendAllowed: true,
    pegInstructionsAllowed: false,
  });
  expect(info.filters.map((f) => f.filterType)).toEqual(['PRICE_FILTER', 'LOT_SIZE', 'ICEBERG_PARTS', 'TRAILING_DELTA', 'NOTIONAL', 'MAX_NUM_ORDERS', 'MAX_NUM_ORDER_LISTS', 'MAX_NUM_ALGO_ORDERS', 'MAX_NUM_ICEBERG_ORDERS']);
  expect(info.filters.filter((f) => !['PRICE_FILTER', 'LOT_SIZE', 'NOTIONAL', 'MAX_NUM_ORDERS'].includes(f.filterType))).toEqual([
    { filterType: 'ICEBERG_PARTS', limit: 100 },
    { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10, maxTrailingAboveDelta: 2000, minTrailingBelowDelta: 10, maxTrailingBelowDelta: 2000 },
    { filterType: 'MAX_NUM_ORDER_LISTS', maxNumOrderLists: 20 },
    { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
    { filterType: 'MAX_NUM_ICEBERG_ORDERS', maxNumIcebergOrders: 5 },
  ]);
});

test('each refusal is the same on REST order, order/test and cancelReplace, and WS API order.place, order.test and order.cancelReplace', async ({ sim }) => {
  const wire = wireFor(sim);
  const api = await RawWs.open(sim, '/ws-api/v3');
  try {
    const resting = await wire.rest('BUY', '50000', '0.001');
    const replace = { cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: resting.orderId };
    for (const [order, code, msg] of REFUSALS) {
      const expected = { code, msg };
      const what = JSON.stringify(order);
      expect((await wire.signed('POST', '/api/v3/order', order)).body, `order ${what}`).toEqual(expected);
      expect((await wire.signed('POST', '/api/v3/order/test', order)).body, `order/test ${what}`).toEqual(expected);
      expect((await wire.signed('POST', '/api/v3/order/cancelReplace', { ...order, ...replace })).body, `cancelReplace ${what}`).toEqual(expected);
      for (const method of ['order.place', 'order.test', 'order.cancelReplace']) {
        const reply = await api.call(method, method === 'order.cancelReplace' ? { ...order, ...replace } : order, true);
        expect(reply.error, `${method} ${what}`).toEqual(expected);
      }
    }
    expect(sim.openOrders().map((o) => o.orderId)).toEqual([resting.orderId]);
  } finally {
    wire.close();
  }
});

test('the OCO leg rules: types per side, one contingent leg, an iceberg leg GTC, the prices against the last trade', async ({ sim, market }) => {
  const wire = wireFor(sim);
  const oco = { symbol: SYMBOL, side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS', belowStopPrice: '59000' };
  const cases: [Record<string, string>, number, string][] = [
    [{ aboveType: 'LIMIT' }, -1158, 'Order type not supported in OCO.'],
    [{ aboveType: 'STOP_LOSS', aboveStopPrice: '62000' }, -1197, 'A stop loss order in a sell OCO must be below.'],
    [{ aboveType: 'TAKE_PROFIT', aboveStopPrice: '61000', belowType: 'LIMIT_MAKER', belowPrice: '59000' }, -1166, 'A limit order in a sell OCO must be above.'],
    [{ belowType: 'TAKE_PROFIT', belowStopPrice: '59000' }, -1199, 'A take profit order in a sell OCO must be above.'],
    [{ side: 'BUY' }, -1165, 'A limit order in a buy OCO must be below.'],
    [{ side: 'BUY', aboveType: 'TAKE_PROFIT', aboveStopPrice: '61000' }, -1198, 'A take profit order in a buy OCO must be below.'],
    [{ side: 'BUY', aboveType: 'STOP_LOSS', aboveStopPrice: '61000', belowType: 'STOP_LOSS', belowStopPrice: '59000' }, -1196, 'A stop loss order in a buy OCO must be above.'],
    [{ side: 'BUY', aboveType: 'LIMIT_MAKER', belowType: 'LIMIT_MAKER', belowPrice: '59000' }, -1168, 'At least one OCO order must be contingent.'],
    [{ belowType: 'STOP_LOSS_LIMIT', belowPrice: '58900', belowTimeInForce: 'IOC', belowIcebergQty: '0.001' }, -1160, "Parameter 'belowIcebergQty' is not supported if `aboveTimeInForce`/`belowTimeInForce` is not GTC."],
    [{ belowStopPrice: '' }, -1102, "Param 'belowStopPrice' or 'belowTrailingDelta' must be sent, but both were empty/null!"],
    [{ abovePrice: '61000.001' }, -1013, 'Filter failure: PRICE_FILTER'],
  ];
  try {
    for (const [change, code, msg] of cases) {
      const body = Object.fromEntries(Object.entries({ ...oco, ...change }).filter(([, v]) => v !== ''));
      expect((await wire.signed('POST', '/api/v3/orderList/oco', body)).body, JSON.stringify(change)).toEqual({ code, msg });
    }
    tradeAt(market, '61500');
    // The limit leg's price must lie above the last trade for a SELL.
    expect((await wire.signed('POST', '/api/v3/orderList/oco', oco)).body).toEqual({ code: -2010, msg: 'The relationship of the prices for the orders is not correct.' });
    expect(sim.openOrders()).toEqual([]);
  } finally {
    wire.close();
  }
});

test.describe('an instrument that narrows its order types and turns features off', () => {
  const narrowed = withSimConfig({
    sim: { order_types: 'reference', generator: { enabled: false } },
    instruments: [
      { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5', order_types: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT'], oco_allowed: false, iceberg_allowed: false, allow_trailing_stop: false, amend_allowed: false, iceberg_parts: 10, max_num_algo_orders: 1 },
    ],
  });

  narrowed('exchangeInfo shows the narrowing; each turned-off feature answers its reference message (-2010), never on order/test', async ({ sim, client }) => {
    const info = (await client.rest.exchangeInfo()).symbols[0]!;
    expect(info).toMatchObject({ orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS_LIMIT'], ocoAllowed: false, icebergAllowed: false, allowTrailingStop: false, amendAllowed: false });
    expect(info.filters).toContainEqual({ filterType: 'ICEBERG_PARTS', limit: 10 });
    expect(info.filters).toContainEqual({ filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 1 });
    const wire = wireFor(sim);
    try {
      const refused: [Record<string, string>, string][] = [
        [{ ...Q, side: 'SELL', type: 'STOP_LOSS', stopPrice: '59000' }, 'Stop loss orders are not supported for this symbol.'],
        [{ ...Q, side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', price: '59000', stopPrice: '59000' }, 'Take profit limit orders are not supported for this symbol.'],
        [{ ...Q, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900', trailingDelta: '100' }, 'Trailing stop orders are not supported for this symbol.'],
        [{ ...Q, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.005' }, 'Iceberg orders are not supported for this symbol.'],
      ];
      for (const [order, msg] of refused) {
        expect((await wire.signed('POST', '/api/v3/order', order)).body).toEqual({ code: -2010, msg });
        expect((await wire.signed('POST', '/api/v3/order/test', order)).body).toEqual({});
      }
      const oco = { symbol: SYMBOL, side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS_LIMIT', belowStopPrice: '59000', belowPrice: '58900', belowTimeInForce: 'GTC' };
      expect((await wire.signed('POST', '/api/v3/orderList/oco', oco)).body).toEqual({ code: -2010, msg: 'OCO orders are not supported for this symbol' });
      const resting = await wire.rest('BUY', '50000', '0.002');
      expect((await wire.signed('PUT', '/api/v3/order/amend/keepPriority', { symbol: SYMBOL, orderId: resting.orderId, newQty: '0.001' })).body).toEqual({ code: -2038, msg: 'Order amend is not supported for this symbol.' });
      // MAX_NUM_ALGO_ORDERS 1: a second waiting stop is refused (the core's state filter).
      const stop = { ...Q, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900', stopPrice: '59000' };
      expect((await wire.signed('POST', '/api/v3/order', stop)).status).toBe(200);
      expect((await wire.signed('POST', '/api/v3/order', stop)).body).toEqual({ code: -2010, msg: 'Filter failure: MAX_NUM_ALGO_ORDERS' });
    } finally {
      wire.close();
    }
  });
});
