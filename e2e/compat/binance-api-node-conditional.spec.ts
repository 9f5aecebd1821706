// Compatibility: binance-api-node's stop, take-profit and quote-amount orders and its order-list
// calls against a simulator with `order_types = "reference"` (docs/orders.md). The library has
// only the deprecated OCO endpoint (`orderOco`: POST /api/v3/order/oco, a listClientOrderId
// x-TKT5PX2F… added, stopLimitTimeInForce=GTC when a stopLimitPrice is given), `getOrderOco`
// (GET orderList), `cancelOrderOco` (DELETE orderList) and `allOrdersOCO` (GET allOrderList); no
// OTO, OTOCO or openOrderList. `order()` adds timeInForce=GTC to the *_LIMIT types. Each order
// is placed through the library, the scripted `market` (generator off) moves the last price so a
// stop triggers or a leg fills, then what the library reads back (getOrder, its formatted
// `ws.user` events, openOrders) is compared with what the simulator holds (the typed client,
// `sim.openOrders()`).
// `ended_orders = "keep"` so that ended orders and lists stay queryable.
import { test, expect, type Simulator } from 'spot-sim/fixture';
import { apiNodeAt, type ApiNode } from './rest-clients.ts';
import { Inbox } from './support.ts';
import { SYMBOL, tradeAt } from '../support/reference-orders.ts';

test.describe.configure({ timeout: 60_000 });
test.use({ simConfig: { sim: { order_types: 'reference', generator: { enabled: false }, account: { ended_orders: 'keep' } } } });

type Loose = Record<string, any>;

/** binance-api-node on `sim`, with the events its `ws.user` subscription delivers, closed after `body`. */
async function withUserEvents(sim: Simulator, body: (lib: ApiNode, events: Inbox<Loose>) => Promise<void>): Promise<void> {
  const lib = apiNodeAt(sim);
  const events = new Inbox<Loose>();
  const close = await lib.ws.user(events.push);
  try {
    await body(lib, events);
  } finally {
    close();
  }
}
// Its typings declare sides and types as enums it does not export at run time: parameters go `as never`.

test('binance-api-node order(): STOP_LOSS_LIMIT, TAKE_PROFIT_LIMIT, STOP_LOSS and TAKE_PROFIT wait, the market triggers them; MARKET with quoteOrderQty; getOrder and the ws.user events agree with the simulator', async ({ sim, client, market }) => {
  await withUserEvents(sim, async (lib, events) => {
    tradeAt(market, '60000');
    const place = async (params: Loose) => (await lib.order({ symbol: SYMBOL, quantity: '0.01', newOrderRespType: 'RESULT', ...params } as never)) as Loose;
    const stopLimit = await place({ side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '58990', stopPrice: '59000' });
    const takeProfitLimit = await place({ side: 'BUY', type: 'TAKE_PROFIT_LIMIT', price: '59010', stopPrice: '59000' });
    const stopLoss = await place({ side: 'BUY', type: 'STOP_LOSS', stopPrice: '61000' });
    const takeProfit = await place({ side: 'SELL', type: 'TAKE_PROFIT', stopPrice: '61000' });
    const orders = [stopLimit, takeProfitLimit, stopLoss, takeProfit];
    // The library added timeInForce=GTC to the two *_LIMIT types and its broker client id to all.
    expect(orders.map((o) => [o.type, o.side, o.timeInForce, o.stopPrice, o.status, o.workingTime])).toEqual([
      ['STOP_LOSS_LIMIT', 'SELL', 'GTC', '59000.00000000', 'NEW', -1],
      ['TAKE_PROFIT_LIMIT', 'BUY', 'GTC', '59000.00000000', 'NEW', -1],
      ['STOP_LOSS', 'BUY', 'GTC', '61000.00000000', 'NEW', -1],
      ['TAKE_PROFIT', 'SELL', 'GTC', '61000.00000000', 'NEW', -1],
    ]);
    expect(orders.every((o) => /^x-TKT5PX2F[0-9a-f]{22}$/.test(o.clientOrderId))).toBe(true);
    expect(sim.openOrders(SYMBOL).map((o) => [o.orderId, o.isWorking])).toEqual(orders.map((o) => [o.orderId, false]));
    expect(await lib.openOrders({ symbol: SYMBOL })).toEqual(await client.rest.openOrders({ symbol: SYMBOL }));
    // cancelOrder on a stop that is still waiting: it leaves the book without ever working.
    const spare = await place({ side: 'SELL', type: 'STOP_LOSS_LIMIT', price: '50000', stopPrice: '50000' });
    const cancelled = (await lib.cancelOrder({ symbol: SYMBOL, orderId: spare.orderId })) as Loose;
    expect(cancelled).toMatchObject({ orderId: spare.orderId, status: 'CANCELED', type: 'STOP_LOSS_LIMIT', stopPrice: '50000.00000000' });
    expect(await lib.getOrder({ symbol: SYMBOL, orderId: spare.orderId })).toMatchObject({ status: 'CANCELED', isWorking: false });
    expect(sim.openOrders(SYMBOL).map((o) => o.orderId)).toEqual(orders.map((o) => o.orderId));
    const waiting = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === takeProfit.orderId, 'the last stop NEW');
    expect(waiting).toMatchObject({ orderType: 'TAKE_PROFIT', executionType: 'NEW', orderStatus: 'NEW', stopPrice: '61000.00000000', isOrderWorking: false, orderListId: -1 });

    // Down to 59000 with liquidity on both sides: the SELL STOP_LOSS_LIMIT (at or below 59000)
    // sells to the bid at 58995, the BUY TAKE_PROFIT_LIMIT (at or below 59000) buys the ask at 59005.
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58995', quantity: '0.01' });
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '59005', quantity: '0.01' });
    tradeAt(market, '59000');
    // Up to 61000 with liquidity on both sides: the BUY STOP_LOSS and the SELL TAKE_PROFIT trigger
    // and trade as MARKET orders, against each other's counterparty.
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60990', quantity: '0.01' });
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61010', quantity: '0.01' });
    tradeAt(market, '61000');
    const fills = ['58995.00000000', '59005.00000000', '61010.00000000', '60990.00000000'];
    for (const [i, order] of orders.entries()) {
      const filled = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === order.orderId && e.orderStatus === 'FILLED', `order ${order.orderId} FILLED`);
      expect(filled).toMatchObject({ executionType: 'TRADE', priceLastTrade: fills[i], totalTradeQuantity: '0.01000000', stopPrice: order.stopPrice });
      const read = (await lib.getOrder({ symbol: SYMBOL, orderId: order.orderId })) as Loose;
      expect(read).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', isWorking: true });
      expect(read).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: order.orderId }));
    }
    expect(sim.openOrders(SYMBOL)).toEqual([]);
    const triggered = events.items.filter((e) => e.eventType === 'executionReport' && e.executionType === 'NEW' && e.isOrderWorking).map((e) => e.orderId);
    expect(triggered).toEqual(orders.map((o) => o.orderId));

    // A MARKET BUY for 100 USDT: the library sends no quantity then.
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '62500', quantity: '0.01' });
    const spent = (await lib.order({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quoteOrderQty: '100' } as never)) as Loose;
    // 100 / 62500 = 0.0016 exactly.
    expect(spent).toMatchObject({ status: 'FILLED', origQty: '0.00160000', origQuoteOrderQty: '100.00000000', cummulativeQuoteQty: '100.00000000' });
    expect(await lib.getOrder({ symbol: SYMBOL, orderId: spent.orderId })).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: spent.orderId }));
    const spentEvent = await events.waitFor((e) => e.eventType === 'executionReport' && e.orderId === spent.orderId && e.orderStatus === 'FILLED', 'the MARKET order FILLED');
    expect(spentEvent).toMatchObject({ quoteOrderQuantity: '100.00000000', totalQuoteTradeQuantity: '100.00000000' });
  });
});

test('binance-api-node orderOco (deprecated OCO): one leg fills and the other expires; getOrderOco, cancelOrderOco, allOrdersOCO and the formatted listStatus events agree with the simulator', async ({ sim, client, market }) => {
  await withUserEvents(sim, async (lib, events) => {
    tradeAt(market, '60000');
    const oco = (await lib.orderOco({ symbol: SYMBOL, side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000', stopLimitPrice: '58900' } as never)) as Loose;
    expect(oco).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING' });
    expect(oco.listClientOrderId).toMatch(/^x-TKT5PX2F[0-9a-f]{22}$/);
    const [stopLeg, limitLeg] = oco.orderReports as Loose[];
    // The library filled in stopLimitTimeInForce=GTC.
    expect(stopLeg).toMatchObject({ type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900.00000000', stopPrice: '59000.00000000' });
    expect(limitLeg).toMatchObject({ type: 'LIMIT_MAKER', price: '61000.00000000' });
    const started = await events.waitFor((e) => e.eventType === 'listStatus' && e.orderListId === oco.orderListId, 'listStatus EXEC_STARTED');
    expect(started).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING', listClientOrderId: oco.listClientOrderId, orders: oco.orders });
    expect(await lib.getOrderOco({ orderListId: oco.orderListId })).toEqual(await client.rest.getOrderList({ orderListId: oco.orderListId }));

    // A buyer at 61000: the LIMIT_MAKER leg fills, the stop leg expires, the list is done.
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.01' });
    const done = await events.waitFor((e) => e.eventType === 'listStatus' && e.orderListId === oco.orderListId && e.listOrderStatus === 'ALL_DONE', 'listStatus ALL_DONE');
    expect(done).toMatchObject({ listStatusType: 'ALL_DONE', listRejectReason: 'NONE' });
    expect(events.items.find((e) => e.eventType === 'executionReport' && e.orderId === stopLeg!.orderId && e.orderStatus === 'EXPIRED')).toMatchObject({ orderListId: oco.orderListId });
    const legs = await Promise.all([stopLeg!, limitLeg!].map((leg) => lib.getOrder({ symbol: SYMBOL, orderId: leg.orderId })));
    expect(legs.map((o) => [o.status, o.executedQty])).toEqual([
      ['EXPIRED', '0.00000000'],
      ['FILLED', '0.01000000'],
    ]);
    expect(legs).toEqual(await Promise.all([stopLeg!, limitLeg!].map((leg) => client.rest.getOrder({ symbol: SYMBOL, orderId: leg.orderId }))));
    const ended = await lib.getOrderOco({ origClientOrderId: oco.listClientOrderId });
    expect(ended).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect(ended).toEqual(await client.rest.getOrderList({ orderListId: oco.orderListId }));

    // A BUY OCO with a STOP_LOSS leg (no stopLimitPrice), cancelled whole by cancelOrderOco.
    const buy = (await lib.orderOco({ symbol: SYMBOL, side: 'BUY', quantity: '0.01', price: '59000', stopPrice: '62000' } as never)) as Loose;
    expect((buy.orderReports as Loose[]).map((r) => r.type)).toEqual(['STOP_LOSS', 'LIMIT_MAKER']);
    expect(sim.openOrders(SYMBOL).map((o) => [o.orderId, o.orderListId])).toEqual((buy.orders as Loose[]).map((o) => [o.orderId, buy.orderListId]));
    const cancelled = (await lib.cancelOrderOco({ symbol: SYMBOL, orderListId: buy.orderListId })) as Loose;
    expect(cancelled).toMatchObject({ orderListId: buy.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect((cancelled.orderReports as Loose[]).map((r) => r.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(sim.openOrders(SYMBOL)).toEqual([]);
    await events.waitFor((e) => e.eventType === 'listStatus' && e.orderListId === buy.orderListId && e.listOrderStatus === 'ALL_DONE', 'the cancelled list ALL_DONE');

    const all = await lib.allOrdersOCO({});
    expect(all.map((l) => [l.orderListId, l.listOrderStatus])).toEqual([
      [oco.orderListId, 'ALL_DONE'],
      [buy.orderListId, 'ALL_DONE'],
    ]);
    expect(all).toEqual(await client.rest.allOrderLists());
  });
});
