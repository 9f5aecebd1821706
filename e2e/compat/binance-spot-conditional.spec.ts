// Compatibility: the official @binance/spot connector's stop, take-profit and quote-amount orders
// and its order-list calls (OCO, OTO, OTOCO, the deprecated OCO, cancel, the three list queries)
// against a simulator with `order_types = "reference"` (docs/orders.md), over REST and the WS
// API. Each order is placed through the library, the scripted `market` (generator off) moves the
// last price so a stop triggers or a leg fills, then what the library reads back is compared with
// what the simulator holds (the typed client's queries, `sim.openOrders()`, user-data events).
// `ended_orders = "keep"` so that ended orders and lists stay queryable. The library sends every
// parameter in the query string (REST) or as a string (WS API), numbers as JavaScript prints
// them, and no client ids: the simulator makes them (client-requests.md sections 0, 6).
import { SpotRestAPI as R, SpotWebsocketAPI as W, Spot } from '@binance/spot';
import { test, expect, type Simulator } from 'spot-sim/fixture';
import type { ExecutionReportEvent, ListStatusEvent, UserEvent } from 'spot-sim';
import { spotRestAt } from './rest-clients.ts';
import { Inbox } from './support.ts';
import { SYMBOL, tradeAt } from '../support/reference-orders.ts';

test.describe.configure({ timeout: 60_000 });
test.use({ simConfig: { sim: { order_types: 'reference', generator: { enabled: false }, account: { ended_orders: 'keep' } } } });

const report = (orderId: number, X: string) => (e: UserEvent): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === orderId && e.X === X;
const listDone = (id: number) => (e: UserEvent): e is ListStatusEvent => e.e === 'listStatus' && e.g === id && e.L === 'ALL_DONE';

/** A number the library typed as `number | bigint` (ids stay far below 2^53 here). */
const n = (value: number | bigint | undefined): number => Number(value);

test('@binance/spot REST newOrder: STOP_LOSS_LIMIT and TAKE_PROFIT wait, the market triggers and fills them; MARKET with quoteOrderQty; getOrder agrees with the simulator', async ({ sim, client, market }) => {
  const rest = spotRestAt(sim).restAPI;
  const user = await client.userData();
  const getOrder = async (orderId: number) => (await rest.getOrder({ symbol: SYMBOL, orderId })).data();
  tradeAt(market, '60000');

  const stop = await (
    await rest.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.SELL, type: R.NewOrderTypeEnum.STOP_LOSS_LIMIT, timeInForce: R.NewOrderTimeInForceEnum.GTC, quantity: 0.01, price: 58990, stopPrice: 59000 })
  ).data();
  // A stop's reply defaults to ACK (the reference's rule for every type but LIMIT and MARKET).
  expect(Object.keys(stop)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
  const takeProfit = await (
    await rest.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.SELL, type: R.NewOrderTypeEnum.TAKE_PROFIT, quantity: 0.01, stopPrice: 61000, newOrderRespType: R.NewOrderNewOrderRespTypeEnum.RESULT })
  ).data();
  expect(takeProfit).toMatchObject({ type: 'TAKE_PROFIT', status: 'NEW', price: '0.00000000', stopPrice: '61000.00000000', workingTime: -1 });
  const stopId = n(stop.orderId);
  const takeProfitId = n(takeProfit.orderId);
  for (const id of [stopId, takeProfitId]) {
    const read = await getOrder(id);
    expect(read).toMatchObject({ status: 'NEW', isWorking: false, workingTime: -1 });
    expect(read).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: id }));
  }
  expect(sim.openOrders(SYMBOL).map((o) => [o.orderId, o.type, o.isWorking])).toEqual([
    [stopId, 'STOP_LOSS_LIMIT', false],
    [takeProfitId, 'TAKE_PROFIT', false],
  ]);

  // Down to 59000 (a bid at 58995 below it): the STOP_LOSS_LIMIT triggers and sells there.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58995', quantity: '0.01' });
  tradeAt(market, '59000');
  await user.next(report(stopId, 'FILLED'));
  const filled = await getOrder(stopId);
  expect(filled).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', cummulativeQuoteQty: '589.95000000', isWorking: true });
  expect(filled).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: stopId }));

  // Up to 61000 (a bid at 60990 below it): the TAKE_PROFIT triggers and sells as a MARKET order.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60990', quantity: '0.01' });
  tradeAt(market, '61000');
  await user.next(report(takeProfitId, 'FILLED'));
  const tookProfit = await getOrder(takeProfitId);
  expect(tookProfit).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', cummulativeQuoteQty: '609.90000000' });
  expect(tookProfit).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: takeProfitId }));
  expect(sim.openOrders(SYMBOL)).toEqual([]);

  // A MARKET BUY for 100 USDT at 61050: 0.00163 (99.5115), the largest lot within the amount.
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61050', quantity: '0.01' });
  const spent = await (await rest.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.MARKET, quoteOrderQty: 100 })).data();
  expect(spent).toMatchObject({ status: 'FILLED', origQty: '0.00163000', executedQty: '0.00163000', origQuoteOrderQty: '100.00000000', cummulativeQuoteQty: '99.51150000' });
  expect(spent.fills).toEqual([expect.objectContaining({ price: '61050.00000000', qty: '0.00163000' })]);
  expect(await getOrder(n(spent.orderId))).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: n(spent.orderId) }));
});

test('@binance/spot REST order lists: orderListOco (its stop triggers, the other leg expires), orderListOto, orderListOtoco and orderOco; deleteOrderList, getOrderList, openOrderList, allOrderList agree with the simulator', async ({ sim, client, market }) => {
  const rest = spotRestAt(sim).restAPI;
  const user = await client.userData();
  tradeAt(market, '60000');

  // OCO: the stop leg (below) triggers on the way down and fills; the LIMIT_MAKER leg expires.
  const oco = await (
    await rest.orderListOco({
      symbol: SYMBOL, side: R.OrderListOcoSideEnum.SELL, quantity: 0.01,
      aboveType: R.OrderListOcoAboveTypeEnum.LIMIT_MAKER, abovePrice: 61000,
      belowType: R.OrderListOcoBelowTypeEnum.STOP_LOSS_LIMIT, belowStopPrice: 59000, belowPrice: 58900, belowTimeInForce: R.OrderListOcoBelowTimeInForceEnum.GTC,
    })
  ).data();
  const ocoId = n(oco.orderListId);
  const [stopLeg, limitLeg] = (oco.orderReports ?? []).map((r) => n(r.orderId));
  expect(oco).toMatchObject({ contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING' });
  expect((await rest.openOrderList()).status).toBe(200);
  expect(await (await rest.openOrderList()).data()).toEqual(await client.rest.openOrderLists());
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '58950', quantity: '0.01' });
  tradeAt(market, '59000');
  await user.next(listDone(ocoId));
  const legs = await Promise.all([stopLeg!, limitLeg!].map(async (orderId) => (await rest.getOrder({ symbol: SYMBOL, orderId })).data()));
  expect(legs.map((o) => [o.type, o.status, o.executedQty])).toEqual([
    ['STOP_LOSS_LIMIT', 'FILLED', '0.01000000'],
    ['LIMIT_MAKER', 'EXPIRED', '0.00000000'],
  ]);
  expect(legs).toEqual([await client.rest.getOrder({ symbol: SYMBOL, orderId: stopLeg! }), await client.rest.getOrder({ symbol: SYMBOL, orderId: limitLeg! })]);
  expect(user.all().find(report(limitLeg!, 'EXPIRED'))).toMatchObject({ eR: 'OCO_TRIGGER', g: ocoId });
  const ocoEnded = await (await rest.getOrderList({ orderListId: ocoId })).data();
  expect(ocoEnded).toMatchObject({ listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
  expect(ocoEnded).toEqual(await client.rest.getOrderList({ orderListId: ocoId }));

  // OTO: the pending LIMIT_MAKER sell works once the working buy has filled.
  const oto = await (
    await rest.orderListOto({
      symbol: SYMBOL,
      workingType: R.OrderListOtoWorkingTypeEnum.LIMIT, workingSide: R.OrderListOtoWorkingSideEnum.BUY, workingPrice: 58000, workingQuantity: 0.01, workingTimeInForce: R.OrderListOtoWorkingTimeInForceEnum.GTC,
      pendingType: R.OrderListOtoPendingTypeEnum.LIMIT_MAKER, pendingSide: R.OrderListOtoPendingSideEnum.SELL, pendingPrice: 60500, pendingQuantity: 0.01,
    })
  ).data();
  const otoId = n(oto.orderListId);
  const [working, pending] = (oto.orderReports ?? []).map((r) => n(r.orderId));
  expect(sim.openOrders(SYMBOL).map((o) => [o.orderId, o.status, o.isWorking])).toEqual([
    [working, 'NEW', true],
    [pending, 'PENDING_NEW', false],
  ]);
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '58000', quantity: '0.01' });
  await user.next(listDone(otoId));
  const activated = await (await rest.getOrder({ symbol: SYMBOL, orderId: pending! })).data();
  expect(activated).toMatchObject({ status: 'NEW', isWorking: true, orderListId: otoId });
  expect(activated).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: pending! }));
  expect(await (await rest.getOrderList({ orderListId: otoId })).data()).toMatchObject({ contingencyType: 'OTO', listOrderStatus: 'ALL_DONE' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60500', quantity: '0.01' });
  await user.next(report(pending!, 'FILLED'));

  // OTOCO: three orders, the pending pair waiting; cancelled whole through deleteOrderList.
  const otoco = await (
    await rest.orderListOtoco({
      symbol: SYMBOL, listClientOrderId: 'spot-otoco',
      workingType: R.OrderListOtocoWorkingTypeEnum.LIMIT, workingSide: R.OrderListOtocoWorkingSideEnum.BUY, workingPrice: 59500, workingQuantity: 0.01, workingTimeInForce: R.OrderListOtocoWorkingTimeInForceEnum.GTC,
      pendingSide: R.OrderListOtocoPendingSideEnum.SELL, pendingQuantity: 0.01,
      pendingAboveType: R.OrderListOtocoPendingAboveTypeEnum.LIMIT_MAKER, pendingAbovePrice: 62000,
      pendingBelowType: R.OrderListOtocoPendingBelowTypeEnum.STOP_LOSS, pendingBelowStopPrice: 58000,
    })
  ).data();
  expect(otoco).toMatchObject({ contingencyType: 'OTO', listClientOrderId: 'spot-otoco', listOrderStatus: 'EXECUTING' });
  expect(sim.openOrders(SYMBOL).map((o) => [o.type, o.status])).toEqual([
    ['LIMIT', 'NEW'],
    ['STOP_LOSS', 'PENDING_NEW'],
    ['LIMIT_MAKER', 'PENDING_NEW'],
  ]);
  expect(await (await rest.openOrderList()).data()).toEqual(await client.rest.openOrderLists());
  const otocoCancelled = await (await rest.deleteOrderList({ symbol: SYMBOL, listClientOrderId: 'spot-otoco' })).data();
  expect(otocoCancelled).toMatchObject({ orderListId: otoco.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE' });
  expect((otocoCancelled.orderReports ?? []).map((r) => r.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
  expect(sim.openOrders(SYMBOL)).toEqual([]);

  // The deprecated OCO, found by its list client id, cancelled by cancelling one of its orders.
  const old = await (
    await rest.orderOco({ symbol: SYMBOL, side: R.OrderOcoSideEnum.SELL, quantity: 0.01, price: 62000, stopPrice: 59000, stopLimitPrice: 58900, stopLimitTimeInForce: R.OrderOcoStopLimitTimeInForceEnum.GTC })
  ).data();
  expect((old.orderReports ?? []).map((r) => r.type)).toEqual(['STOP_LOSS_LIMIT', 'LIMIT_MAKER']);
  const found = await (await rest.getOrderList({ origClientOrderId: old.listClientOrderId })).data();
  expect(found).toMatchObject({ orderListId: old.orderListId, listOrderStatus: 'EXECUTING' });
  expect(found).toEqual(await client.rest.getOrderList({ orderListId: n(old.orderListId) }));
  await rest.deleteOrder({ symbol: SYMBOL, orderId: n(old.orderReports![1]!.orderId) });
  expect(sim.openOrders(SYMBOL)).toEqual([]);

  const all = await (await rest.allOrderList()).data();
  expect(all.map((l) => [n(l.orderListId), l.listOrderStatus])).toEqual([
    [ocoId, 'ALL_DONE'],
    [otoId, 'ALL_DONE'],
    [n(otoco.orderListId), 'ALL_DONE'],
    [n(old.orderListId), 'ALL_DONE'],
  ]);
  expect(all).toEqual(await client.rest.allOrderLists());
});

/** The library's WS API connection and the user-data events its subscription delivers. */
async function wsApiWithEvents(sim: Simulator): Promise<{ api: W.WebsocketAPIConnection; events: Inbox<Record<string, any>> }> {
  const spot = new Spot({ configurationWebsocketAPI: { apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, wsURL: `${sim.urls.ws}/ws-api/v3`, timeout: 15_000 } });
  const api = await spot.websocketAPI.connect();
  const events = new Inbox<Record<string, any>>();
  const { stream } = await api.userDataStreamSubscribeSignature();
  stream.on('message', (event) => events.push(event as unknown as Record<string, any>));
  return { api, events };
}

test('@binance/spot WS API: orderPlace TAKE_PROFIT_LIMIT, orderListPlaceOco, orderListPlaceOto; a market move triggers and fills; orderListStatus, openOrderListsStatus, allOrderLists and orderListCancel agree with the simulator; the library delivers executionReport and listStatus', async ({ sim, client, market }) => {
  tradeAt(market, '60000');
  const { api, events } = await wsApiWithEvents(sim);
  try {
    // A BUY take-profit below the market, as a limit order once triggered.
    const takeProfit = (await api.orderPlace({ symbol: SYMBOL, side: W.OrderPlaceSideEnum.BUY, type: W.OrderPlaceTypeEnum.TAKE_PROFIT_LIMIT, timeInForce: W.OrderPlaceTimeInForceEnum.GTC, quantity: 0.01, price: 59010, stopPrice: 59000 })).data;
    const takeProfitId = n(takeProfit.orderId);
    // A SELL OCO around the market.
    const oco = (
      await api.orderListPlaceOco({
        symbol: SYMBOL, side: W.OrderListPlaceOcoSideEnum.SELL, quantity: 0.01, listClientOrderId: 'ws-oco',
        aboveType: W.OrderListPlaceOcoAboveTypeEnum.LIMIT_MAKER, abovePrice: 61000,
        belowType: W.OrderListPlaceOcoBelowTypeEnum.STOP_LOSS, belowStopPrice: 58000,
      })
    ).data;
    const ocoId = n(oco.orderListId);
    // An OTO whose working order rests far below.
    const oto = (
      await api.orderListPlaceOto({
        symbol: SYMBOL,
        workingType: W.OrderListPlaceOtoWorkingTypeEnum.LIMIT, workingSide: W.OrderListPlaceOtoWorkingSideEnum.BUY, workingPrice: 55000, workingQuantity: 0.01, workingTimeInForce: W.OrderListPlaceOtoWorkingTimeInForceEnum.GTC,
        pendingType: W.OrderListPlaceOtoPendingTypeEnum.TAKE_PROFIT, pendingSide: W.OrderListPlaceOtoPendingSideEnum.SELL, pendingQuantity: 0.01, pendingStopPrice: 65000,
      })
    ).data;
    const otoId = n(oto.orderListId);

    const status = (await api.orderListStatus({ origClientOrderId: 'ws-oco' })).data;
    expect(status).toEqual(await client.rest.getOrderList({ orderListId: ocoId }));
    const open = (await api.openOrderListsStatus()).data;
    expect(open.map((l) => n(l.orderListId))).toEqual([ocoId, otoId]);
    expect(open).toEqual(await client.rest.openOrderLists());
    expect(sim.openOrders(SYMBOL).map((o) => [o.type, o.status, o.isWorking])).toEqual([
      ['TAKE_PROFIT_LIMIT', 'NEW', false],
      ['STOP_LOSS', 'NEW', false],
      ['LIMIT_MAKER', 'NEW', true],
      ['LIMIT', 'NEW', true],
      ['TAKE_PROFIT', 'PENDING_NEW', false],
    ]);

    // Down to 59000 with an ask at 59005: the take-profit buys there. Then a buyer at 61000
    // fills the OCO's LIMIT_MAKER leg and its stop leg expires.
    market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '59005', quantity: '0.01' });
    tradeAt(market, '59000');
    const filled = await events.waitFor((e) => e.e === 'executionReport' && e.i === takeProfitId && e.X === 'FILLED', 'the take-profit FILLED');
    expect(filled).toMatchObject({ o: 'TAKE_PROFIT_LIMIT', L: '59005.00000000', P: '59000.00000000', g: -1 });
    expect((await api.orderStatus({ symbol: SYMBOL, orderId: takeProfitId })).data).toEqual(await client.rest.getOrder({ symbol: SYMBOL, orderId: takeProfitId }));
    market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.01' });
    const done = await events.waitFor((e) => e.e === 'listStatus' && e.g === ocoId && e.L === 'ALL_DONE', 'the OCO listStatus ALL_DONE');
    expect(done).toMatchObject({ c: 'OCO', l: 'ALL_DONE', C: 'ws-oco', O: [{ i: n(oco.orders![0]!.orderId) }, { i: n(oco.orders![1]!.orderId) }] });
    expect(events.items.find((e) => e.e === 'executionReport' && e.i === n(oco.orders![0]!.orderId) && e.X === 'EXPIRED')).toMatchObject({ eR: 'OCO_TRIGGER', g: ocoId });

    // The OTO, still waiting for its working order, cancelled through the library.
    const cancelled = (await api.orderListCancel({ symbol: SYMBOL, orderListId: otoId })).data;
    expect(cancelled).toMatchObject({ orderListId: otoId, listOrderStatus: 'ALL_DONE' });
    expect(sim.openOrders(SYMBOL)).toEqual([]);
    const all = (await api.allOrderLists()).data;
    expect(all.map((l) => [n(l.orderListId), l.listOrderStatus])).toEqual([
      [ocoId, 'ALL_DONE'],
      [otoId, 'ALL_DONE'],
    ]);
    expect(all).toEqual(await client.rest.allOrderLists());
    await events.waitFor((e) => e.e === 'listStatus' && e.g === otoId && e.L === 'ALL_DONE', 'the OTO listStatus ALL_DONE');
  } finally {
    await api.disconnect();
  }
});
