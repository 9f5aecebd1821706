// Compatibility: ccxt's conditional and quote-amount orders and its raw order-list calls against a
// simulator with `order_types = "reference"` (docs/orders.md). Each order is placed through ccxt,
// the scripted `market` (generator off) moves the last price so the stop triggers or a leg fills,
// then what ccxt reports (its reply, fetchOrder, fetchOpenOrders) is compared with what the
// simulator holds (the typed client's GET order, `sim.openOrders()`, the user-data events).
// `ended_orders = "keep"` so that a filled, expired or cancelled order can still be fetched.
// What ccxt 4.5 sends for each unified form on a spot market (binance.js createOrderRequest):
// - `stopPrice` or `triggerPrice` in params: `stopPrice=…`; with type `limit` the order becomes
//   STOP_LOSS_LIMIT, with `market` STOP_LOSS; an explicit type (STOP_LOSS_LIMIT,
//   TAKE_PROFIT_LIMIT) is kept;
// - `stopLossPrice`: STOP_LOSS_LIMIT / STOP_LOSS; `takeProfitPrice`: TAKE_PROFIT_LIMIT / TAKE_PROFIT;
// - `trailingPercent` with `stopLossOrTakeProfit`: `trailingDelta` = percent x 100 (basis points);
// - MARKET with `cost` or `quoteOrderQty` in params (createMarketBuyOrderWithCost,
//   createMarketSellOrderWithCost), or with a price: `quoteOrderQty` (amount x price), no quantity;
// - every order also carries newOrderRespType=FULL and newClientOrderId=x-TKT5PX2F…;
// - order lists have no unified method: the implicit privatePostOrderListOco,
//   privatePostOrderOco (deprecated), privateGetOrderList, privateGetOpenOrderList,
//   privateGetAllOrderList and privateDeleteOrderList send the caller's parameters as they are.
import { test, expect } from 'spot-sim/fixture';
import type { ExecutionReportEvent, ListStatusEvent, UserEvent } from 'spot-sim';
import { ccxtAt, type Ccxt } from './rest-clients.ts';
import { SYMBOL, tradeAt } from '../support/reference-orders.ts';

test.describe.configure({ timeout: 60_000 });
test.use({ simConfig: { sim: { order_types: 'reference', generator: { enabled: false }, account: { ended_orders: 'keep' } } } });

const PAIR = 'BTC/USDT';

const report = (orderId: string | number, X: string) => (e: UserEvent): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === Number(orderId) && e.X === X;
const listDone = (id: number) => (e: UserEvent): e is ListStatusEvent => e.e === 'listStatus' && e.g === id && e.L === 'ALL_DONE';

/** A ccxt order's id (ccxt types it as optional). */
function idOf(order: { id?: string }): string {
  if (order.id === undefined) throw new Error('ccxt returned an order without an id');
  return order.id;
}

/** A connected ccxt instance with its markets loaded; closed after the body. */
async function withCcxt(sim: Parameters<typeof ccxtAt>[0], body: (exchange: Ccxt) => Promise<void>): Promise<void> {
  const exchange = ccxtAt(sim);
  try {
    await exchange.loadMarkets();
    await body(exchange);
  } finally {
    await exchange.close();
  }
}

test('ccxt createOrder STOP_LOSS_LIMIT (stopPrice), limit + triggerPrice, TAKE_PROFIT_LIMIT: they wait off the book, the market triggers and fills them; fetchOrder agrees with the simulator', async ({ sim, client, market }) => {
  const user = await client.userData();
  tradeAt(market, '60000');
  const names = new Map<number, string>();
  await withCcxt(sim, async (ex) => {
    const stopLimit = await ex.createOrder(PAIR, 'STOP_LOSS_LIMIT', 'sell', 0.01, 58990, { stopPrice: 59000 });
    // ccxt's unified view: a limit order with a trigger price; the raw reply is the simulator's FULL report.
    expect(stopLimit).toMatchObject({ status: 'open', type: 'limit', side: 'sell', price: 58990, amount: 0.01, filled: 0, triggerPrice: 59000 });
    expect(stopLimit.info).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'NEW', stopPrice: '59000.00000000', workingTime: -1, fills: [] });
    expect(stopLimit.clientOrderId).toMatch(/^x-TKT5PX2F/);
    const viaTrigger = await ex.createOrder(PAIR, 'limit', 'sell', 0.01, 58490, { triggerPrice: 58500 });
    const takeProfit = await ex.createOrder(PAIR, 'TAKE_PROFIT_LIMIT', 'sell', 0.01, 61010, { stopPrice: 61000 });
    for (const [name, order] of Object.entries({ stop: stopLimit, viaTrigger, takeProfit })) names.set(Number(order.id), name);

    // The simulator holds the three as ccxt meant them, waiting (not working), none in the book.
    const held = () => sim.openOrders(SYMBOL).map((o) => ({ id: String(o.orderId), type: o.type, side: o.side, price: o.price, stopPrice: o.stopPrice, timeInForce: o.timeInForce, isWorking: o.isWorking }));
    expect(held()).toEqual([
      { id: idOf(stopLimit), type: 'STOP_LOSS_LIMIT', side: 'SELL', price: '58990.00000000', stopPrice: '59000.00000000', timeInForce: 'GTC', isWorking: false },
      { id: idOf(viaTrigger), type: 'STOP_LOSS_LIMIT', side: 'SELL', price: '58490.00000000', stopPrice: '58500.00000000', timeInForce: 'GTC', isWorking: false },
      { id: idOf(takeProfit), type: 'TAKE_PROFIT_LIMIT', side: 'SELL', price: '61010.00000000', stopPrice: '61000.00000000', timeInForce: 'GTC', isWorking: false },
    ]);
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([]);
    const open = await ex.fetchOpenOrders(PAIR);
    expect(open.map((o) => [o.id, o.status, o.triggerPrice])).toEqual([
      [idOf(stopLimit), 'open', 59000],
      [idOf(viaTrigger), 'open', 58500],
      [idOf(takeProfit), 'open', 61000],
    ]);

    // The market falls: a bid under the stop, then a trade at 59000 triggers the first stop only.
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58995', quantity: '0.02' });
    tradeAt(market, '59000');
    await user.next(report(idOf(stopLimit), 'FILLED'));
    const filled = await ex.fetchOrder(idOf(stopLimit), PAIR);
    expect(filled).toMatchObject({ status: 'closed', filled: 0.01, remaining: 0, average: 58995, cost: 589.95, triggerPrice: 59000 });
    expect(filled.info).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: Number(filled.id) }));
    expect(held().map((o) => [o.id, o.isWorking])).toEqual([
      [idOf(viaTrigger), false],
      [idOf(takeProfit), false],
    ]);

    // The market rises to 61000: the take-profit triggers and rests at 61010 (working, open),
    // then a buyer there fills it.
    tradeAt(market, '61000');
    await user.next((e) => report(idOf(takeProfit), 'NEW')(e) && e.w);
    const working = await ex.fetchOrder(idOf(takeProfit), PAIR);
    expect(working).toMatchObject({ status: 'open', filled: 0, triggerPrice: 61000, info: { isWorking: true, status: 'NEW' } });
    expect(working.info).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: Number(working.id) }));
    expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([['61010.00000000', '0.01000000']]);
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61010', quantity: '0.01' });
    await user.next(report(idOf(takeProfit), 'FILLED'));
    expect(await ex.fetchOrder(idOf(takeProfit), PAIR)).toMatchObject({ status: 'closed', filled: 0.01, average: 61010 });

    // The stop that never triggered, cancelled through ccxt.
    expect(await ex.cancelOrder(idOf(viaTrigger), PAIR)).toMatchObject({ id: idOf(viaTrigger), status: 'canceled', triggerPrice: 58500 });
    expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: Number(viaTrigger.id) })).toMatchObject({ status: 'CANCELED', executedQty: '0.00000000', isWorking: false });
    expect(sim.openOrders(SYMBOL)).toEqual([]);
  });
  // The triggers and fills as the user-data stream told them (outboundAccountPosition left out).
  const lines = user.all().flatMap((e) => (e.e === 'executionReport' ? [`${names.get(e.i)} ${e.o} ${e.x}/${e.X} w=${e.w}`] : []));
  expect(lines).toEqual([
    'stop STOP_LOSS_LIMIT NEW/NEW w=false',
    'viaTrigger STOP_LOSS_LIMIT NEW/NEW w=false',
    'takeProfit TAKE_PROFIT_LIMIT NEW/NEW w=false',
    'stop STOP_LOSS_LIMIT NEW/NEW w=true',
    'stop STOP_LOSS_LIMIT TRADE/FILLED w=false',
    'takeProfit TAKE_PROFIT_LIMIT NEW/NEW w=true',
    'takeProfit TAKE_PROFIT_LIMIT TRADE/FILLED w=false',
    'viaTrigger STOP_LOSS_LIMIT CANCELED/CANCELED w=false',
  ]);
});

test('ccxt stopLossPrice / takeProfitPrice on market and limit orders and a trailingPercent stop: the types ccxt maps them to, the three a fall triggers, the two it leaves', async ({ sim, client, market }) => {
  const user = await client.userData();
  tradeAt(market, '60000');
  await withCcxt(sim, async (ex) => {
    const stopLoss = await ex.createOrder(PAIR, 'market', 'sell', 0.01, undefined, { stopLossPrice: 59000 });
    const takeProfitBuy = await ex.createOrder(PAIR, 'market', 'buy', 0.01, undefined, { takeProfitPrice: 59500 });
    const trailing = await ex.createOrder(PAIR, 'market', 'sell', 0.01, undefined, { trailingPercent: 1, stopLossOrTakeProfit: 'stopLoss' });
    const stopLossLimitBuy = await ex.createOrder(PAIR, 'limit', 'buy', 0.01, 61100, { stopLossPrice: 61000 });
    const takeProfitLimit = await ex.createOrder(PAIR, 'limit', 'sell', 0.01, 61500, { takeProfitPrice: 61500 });
    const ids = [stopLoss, takeProfitBuy, trailing, stopLossLimitBuy, takeProfitLimit].map(idOf);
    expect([stopLoss, takeProfitBuy, trailing, stopLossLimitBuy, takeProfitLimit].map((o) => [o.type, o.side, o.triggerPrice])).toEqual([
      ['market', 'sell', 59000],
      ['market', 'buy', 59500],
      ['market', 'sell', undefined],
      ['limit', 'buy', 61000],
      ['limit', 'sell', 61500],
    ]);
    const held = sim.openOrders(SYMBOL);
    expect(held.map((o) => [String(o.orderId), o.type, o.side, o.price, o.stopPrice, o.trailingDelta, o.isWorking])).toEqual([
      [ids[0], 'STOP_LOSS', 'SELL', '0.00000000', '59000.00000000', undefined, false],
      [ids[1], 'TAKE_PROFIT', 'BUY', '0.00000000', '59500.00000000', undefined, false],
      [ids[2], 'STOP_LOSS', 'SELL', '0.00000000', '0.00000000', 100, false],
      [ids[3], 'STOP_LOSS_LIMIT', 'BUY', '61100.00000000', '61000.00000000', undefined, false],
      [ids[4], 'TAKE_PROFIT_LIMIT', 'SELL', '61500.00000000', '61500.00000000', undefined, false],
    ]);

    // Liquidity on both sides away from the triggers, then a trade at 59000: the STOP_LOSS sell
    // (at or below 59000), the TAKE_PROFIT buy (at or below 59500) and the trailing stop (1 %
    // below the 60000 it started from: 59400) trigger, in the order they were placed.
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58900', quantity: '0.05' });
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '59600', quantity: '0.05' });
    tradeAt(market, '59000');
    await user.next(report(ids[2]!, 'FILLED'));
    const expected = [
      { id: ids[0], side: 'sell', average: 58900 },
      { id: ids[1], side: 'buy', average: 59600 },
      { id: ids[2], side: 'sell', average: 58900 },
    ];
    for (const { id, side, average } of expected) {
      const fetched = await ex.fetchOrder(id!, PAIR);
      expect(fetched).toMatchObject({ id, side, type: 'market', status: 'closed', filled: 0.01, average });
      expect(fetched.info).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: Number(id) }));
    }
    const triggerOrder = user.all().filter((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.x === 'NEW' && e.w).map((e) => String(e.i));
    expect(triggerOrder).toEqual(ids.slice(0, 3));
    expect(user.all().find((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === Number(ids[2]) && e.X === 'FILLED')).toMatchObject({ o: 'STOP_LOSS', d: 100 });

    // The two the fall left waiting: ccxt and the simulator agree, and ccxt's cancelAllOrders
    // (DELETE openOrders) ends both.
    expect((await ex.fetchOpenOrders(PAIR)).map((o) => [o.id, o.status, o.triggerPrice])).toEqual([
      [ids[3], 'open', 61000],
      [ids[4], 'open', 61500],
    ]);
    expect(sim.openOrders(SYMBOL).map((o) => [String(o.orderId), o.isWorking])).toEqual([
      [ids[3], false],
      [ids[4], false],
    ]);
    const cancelled = await ex.cancelAllOrders(PAIR);
    expect(cancelled.map((o) => [o.id, o.status])).toEqual([
      [ids[3], 'canceled'],
      [ids[4], 'canceled'],
    ]);
    expect(sim.openOrders(SYMBOL)).toEqual([]);
  });
});

test('ccxt MARKET by quote amount: createMarketBuyOrderWithCost, cost and quoteOrderQty params, amount x price, createMarketSellOrderWithCost; the simulator took the quantities ccxt reports', async ({ sim, client, market }) => {
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.1' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59990', quantity: '0.1' });
  await withCcxt(sim, async (ex) => {
    const cases = [
      // 100 / 60000 = 0.0016666…: the largest lot (0.00001) whose cost stays within 100.
      { order: await ex.createMarketBuyOrderWithCost(PAIR, 100), side: 'BUY', quote: '100.00000000', filled: 0.00166, cost: 99.6 },
      { order: await ex.createOrder(PAIR, 'market', 'buy', 1, undefined, { cost: 50 }), side: 'BUY', quote: '50.00000000', filled: 0.00083, cost: 49.8 },
      { order: await ex.createOrder(PAIR, 'market', 'buy', 1, undefined, { quoteOrderQty: 30 }), side: 'BUY', quote: '30.00000000', filled: 0.0005, cost: 30 },
      // With a price ccxt sends quoteOrderQty = amount x price (0.002 x 60000 = 120).
      { order: await ex.createOrder(PAIR, 'market', 'buy', 0.002, 60000), side: 'BUY', quote: '120.00000000', filled: 0.002, cost: 120 },
      // A SELL takes the smallest lot whose proceeds reach 100: 100 / 59990 = 0.001666… -> 0.00167.
      { order: await ex.createMarketSellOrderWithCost(PAIR, 100), side: 'SELL', quote: '100.00000000', filled: 0.00167, cost: 100.1833 },
    ];
    for (const { order, side, quote, filled, cost } of cases) {
      expect(order).toMatchObject({ type: 'market', status: 'closed', filled, amount: filled, cost });
      expect(order.info).toMatchObject({ side, origQuoteOrderQty: quote, executedQty: filled.toFixed(8) });
      const held = await client.rest.getOrder({ symbol: SYMBOL, orderId: Number(order.id) });
      expect(held).toMatchObject({ status: 'FILLED', origQty: filled.toFixed(8), executedQty: filled.toFixed(8), origQuoteOrderQty: quote, cummulativeQuoteQty: order.info.cummulativeQuoteQty });
      const trades = await ex.fetchMyTrades(PAIR);
      const amount = trades.filter((t) => t.order === order.id).reduce((sum, t) => sum + (t.amount ?? 0), 0);
      expect(amount).toBeCloseTo(filled, 8);
    }
  });
});

test('ccxt raw order lists: privatePostOrderListOco (a leg fills, the other expires), privatePostOrderOco (its stop triggers), the list queries and privateDeleteOrderList', async ({ sim, client, market }) => {
  const user = await client.userData();
  tradeAt(market, '60000');
  await withCcxt(sim, async (ex) => {
    const oco = (await ex.privatePostOrderListOco({
      symbol: SYMBOL, side: 'SELL', quantity: '0.01', listClientOrderId: 'ccxt-oco',
      aboveType: 'LIMIT_MAKER', abovePrice: '61000',
      belowType: 'STOP_LOSS_LIMIT', belowStopPrice: '59000', belowPrice: '58900', belowTimeInForce: 'GTC',
    })) as Record<string, any>;
    expect(oco).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING', listClientOrderId: 'ccxt-oco', symbol: SYMBOL });
    const [stopLeg, limitLeg] = oco.orderReports as Record<string, any>[];
    expect(stopLeg).toMatchObject({ type: 'STOP_LOSS_LIMIT', status: 'NEW', orderListId: oco.orderListId });
    expect(limitLeg).toMatchObject({ type: 'LIMIT_MAKER', status: 'NEW', orderListId: oco.orderListId });
    const { orderReports: _reports, ...listOnly } = oco;
    expect(await ex.privateGetOpenOrderList()).toEqual([listOnly]);
    expect(await client.rest.openOrderLists()).toEqual([listOnly]);

    // A buyer at 61000 fills the LIMIT_MAKER leg; the stop leg expires (OCO_TRIGGER).
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.01' });
    await user.next(listDone(oco.orderListId));
    expect(await ex.fetchOrder(String(limitLeg!.orderId), PAIR)).toMatchObject({ status: 'closed', filled: 0.01, average: 61000 });
    const expired = await ex.fetchOrder(String(stopLeg!.orderId), PAIR);
    expect(expired).toMatchObject({ status: 'expired', filled: 0, triggerPrice: 59000 });
    expect(expired.info).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: stopLeg!.orderId }));
    expect(user.all().find(report(stopLeg!.orderId, 'EXPIRED'))).toMatchObject({ eR: 'OCO_TRIGGER', g: oco.orderListId });
    const ended = await ex.privateGetOrderList({ orderListId: oco.orderListId });
    expect(ended).toMatchObject({ orderListId: oco.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect(ended).toEqual(await client.rest.getOrderList({ orderListId: oco.orderListId }));
    expect(await ex.privateGetOpenOrderList()).toEqual([]);

    // The deprecated endpoint: a BUY pair, LIMIT_MAKER below the market and a STOP_LOSS_LIMIT above.
    const old = (await ex.privatePostOrderOco({
      symbol: SYMBOL, side: 'BUY', quantity: '0.01', price: '59000', stopPrice: '61500', stopLimitPrice: '61600', stopLimitTimeInForce: 'GTC',
    })) as Record<string, any>;
    const [oldStop, oldLimit] = old.orderReports as Record<string, any>[];
    expect([oldStop!.type, oldLimit!.type]).toEqual(['STOP_LOSS_LIMIT', 'LIMIT_MAKER']);
    expect(sim.openOrders(SYMBOL).map((o) => [o.orderId, o.orderListId, o.isWorking])).toEqual([
      [oldStop!.orderId, old.orderListId, false],
      [oldLimit!.orderId, old.orderListId, true],
    ]);
    // The market rises through 61500 (an ask at 61550 for the triggered stop to buy from).
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61550', quantity: '0.01' });
    tradeAt(market, '61500');
    await user.next(listDone(old.orderListId));
    expect(await ex.fetchOrder(String(oldStop!.orderId), PAIR)).toMatchObject({ status: 'closed', filled: 0.01, average: 61550 });
    expect(await ex.fetchOrder(String(oldLimit!.orderId), PAIR)).toMatchObject({ status: 'expired', filled: 0 });

    // A third list, cancelled whole through privateDeleteOrderList.
    const third = (await ex.privatePostOrderListOco({
      symbol: SYMBOL, side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '63000', belowType: 'STOP_LOSS', belowStopPrice: '60000',
    })) as Record<string, any>;
    const cancelled = (await ex.privateDeleteOrderList({ symbol: SYMBOL, orderListId: third.orderListId })) as Record<string, any>;
    expect(cancelled).toMatchObject({ orderListId: third.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
    expect((cancelled.orderReports as { status: string }[]).map((r) => r.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(sim.openOrders(SYMBOL)).toEqual([]);

    const all = (await ex.privateGetAllOrderList()) as Record<string, any>[];
    expect(all.map((l) => [l.orderListId, l.listOrderStatus])).toEqual([
      [oco.orderListId, 'ALL_DONE'],
      [old.orderListId, 'ALL_DONE'],
      [third.orderListId, 'ALL_DONE'],
    ]);
    expect(all).toEqual(await client.rest.allOrderLists());
  });
});
