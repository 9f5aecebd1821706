// Order lists with `[sim] order_types = "reference"` (docs/orders.md) through the fixture over
// real sockets: OCO (one leg fills, the other expires with OCO_TRIGGER, then listStatus
// ALL_DONE), OTO (the pending order activates when the working one fills), OTOCO, the deprecated
// OCO, cancelling a list, the three list queries and DELETE openOrders, on REST and on the WS API,
// with the reference's response fields, order counts and user-data events.
import { test, expect } from 'spot-sim/fixture';
import type { DeprecatedOcoParams, ExecutionReportEvent, ListStatusEvent, OcoParams, OtocoParams, OtoParams, UserEvent } from 'spot-sim';
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { REFERENCE, SYMBOL, timeline, tradeAt } from './support/reference-orders.ts';

test.use({ simConfig: REFERENCE });
test.afterEach(closeRawConnections);

const SELL_OCO: OcoParams = { symbol: SYMBOL, side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS_LIMIT', belowStopPrice: '59000', belowPrice: '58900', belowTimeInForce: 'GTC', listClientOrderId: 'my-oco' };
const OTO: OtoParams = { symbol: SYMBOL, workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '59000', workingQuantity: '0.01', workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '61000', pendingQuantity: '0.01' };

const listDone = (id: number) => (e: UserEvent): e is ListStatusEvent => e.e === 'listStatus' && e.g === id && e.L === 'ALL_DONE';

test('OCO on REST: the stop leg first, FULL reports by default; the limit leg fills, the stop leg expires (OCO_TRIGGER), then listStatus ALL_DONE', async ({ client, market }) => {
  const user = await client.userData();
  tradeAt(market, '60000');
  const before = Number((await client.rest.orderRateLimit())[0]!.count);
  const oco = await client.rest.newOrderListOco(SELL_OCO);
  expect(oco).toMatchObject({ orderListId: 1, contingencyType: 'OCO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING', listClientOrderId: 'my-oco', symbol: SYMBOL });
  const [stop, limit] = oco.orderReports;
  expect(stop).toMatchObject({ type: 'STOP_LOSS_LIMIT', orderListId: 1, status: 'NEW', stopPrice: '59000.00000000', workingTime: -1, fills: [] });
  expect(limit).toMatchObject({ type: 'LIMIT_MAKER', orderListId: 1, status: 'NEW', price: '61000.00000000', fills: [] });
  expect(limit!.orderId).toBe(stop!.orderId + 1);
  expect(oco.orders.map((o) => o.orderId)).toEqual([stop!.orderId, limit!.orderId]);
  // An OCO counts as two orders toward the ORDERS limits.
  expect(Number((await client.rest.orderRateLimit())[0]!.count)).toBe(before + 2);
  const { orderReports: _reports, ...listOnly } = oco;
  expect(await client.rest.openOrderLists()).toEqual([listOnly]);

  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.01' });
  await user.next(listDone(1));
  const events = user.all();
  expect(timeline(events).filter((line) => line !== 'outboundAccountPosition')).toEqual([
    `#${stop!.orderId} NEW/NEW`,
    `#${limit!.orderId} NEW/NEW`,
    'list 1 EXEC_STARTED/EXECUTING',
    `#${limit!.orderId} TRADE/FILLED`,
    `#${stop!.orderId} EXPIRED/EXPIRED`,
    'list 1 ALL_DONE/ALL_DONE',
  ]);
  const expired = events.find((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === stop!.orderId && e.x === 'EXPIRED')!;
  expect(expired).toMatchObject({ eR: 'OCO_TRIGGER', g: 1, P: '59000.00000000' });
  expect(events.find(listDone(1))).toMatchObject({ s: SYMBOL, c: 'OCO', l: 'ALL_DONE', r: 'NONE', C: 'my-oco', O: oco.orders.map((o) => ({ s: o.symbol, i: o.orderId, c: o.clientOrderId })) });
  expect(await client.rest.openOrderLists()).toEqual([]);
  // Ended lists are forgotten by default (ended_orders = "forget").
  await expect(client.rest.getOrderList({ orderListId: 1 })).rejects.toMatchObject({ code: -2013, msg: 'Order does not exist.' });
});

test('myTrades on REST and the WS API: a list order\'s trade carries its orderListId, an order of no list -1', async ({ client, market }) => {
  tradeAt(market, '60000');
  const oco = await client.rest.newOrderListOco(SELL_OCO);
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.01' });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.001' });
  const plain = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.001' });
  const limitLeg = oco.orderReports[1]!.orderId;
  const expected = [
    [limitLeg, oco.orderListId],
    [plain.orderId, -1],
  ];
  const rows = (trades: { orderId: number; orderListId: number }[]) => trades.map((t) => [t.orderId, t.orderListId]);
  expect(rows(await client.rest.myTrades({ symbol: SYMBOL }))).toEqual(expected);
  const api = await client.wsApi();
  expect(rows(await api.myTrades({ symbol: SYMBOL }))).toEqual(expected);
});

test('OCO on the WS API, queried and cancelled there: orderList.status, openOrderLists.status, allOrderLists, orderList.cancel', async ({ client, market }) => {
  tradeAt(market, '60000');
  const api = await client.wsApi();
  const user = await api.subscribeUserData();
  const oco = await api.placeOrderListOco({ ...SELL_OCO, newOrderRespType: 'ACK' });
  expect(Object.keys(oco.orderReports[0]!)).toEqual(['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime']);
  expect(await api.orderListStatus({ origClientOrderId: 'my-oco' })).toMatchObject({ orderListId: oco.orderListId, listOrderStatus: 'EXECUTING' });
  expect((await api.openOrderLists()).map((l) => l.orderListId)).toEqual([oco.orderListId]);
  expect((await api.allOrderLists({ fromId: 1 })).map((l) => l.orderListId)).toEqual([oco.orderListId]);

  const cancelled = await api.cancelOrderList({ symbol: SYMBOL, orderListId: oco.orderListId, newClientOrderId: 'bye' });
  expect(cancelled).toMatchObject({ orderListId: oco.orderListId, listStatusType: 'ALL_DONE', listOrderStatus: 'ALL_DONE', listClientOrderId: 'my-oco' });
  expect(cancelled.orderReports.map((r) => [r.type, r.status, r.orderListId])).toEqual([
    ['STOP_LOSS_LIMIT', 'CANCELED', oco.orderListId],
    ['LIMIT_MAKER', 'CANCELED', oco.orderListId],
  ]);
  await user.next(listDone(oco.orderListId));
  expect(await api.openOrderLists()).toEqual([]);
  await expect(api.cancelOrderList({ symbol: SYMBOL, orderListId: oco.orderListId })).rejects.toMatchObject({ code: -2011 });
});

test('OTO on REST: the pending order is PENDING_NEW (open, not working) until the working order fills, then NEW; ALL_DONE', async ({ client, market }) => {
  const user = await client.userData();
  const oto = await client.rest.newOrderListOto({ ...OTO, newOrderRespType: 'RESULT' });
  expect(oto).toMatchObject({ contingencyType: 'OTO', listStatusType: 'EXEC_STARTED', listOrderStatus: 'EXECUTING' });
  const [working, pending] = oto.orderReports;
  expect(working).toMatchObject({ type: 'LIMIT', status: 'NEW', side: 'BUY' });
  expect(pending).toMatchObject({ type: 'LIMIT_MAKER', status: 'PENDING_NEW', side: 'SELL', workingTime: -1 });
  expect('fills' in pending!).toBe(false);
  await expect(client).toHaveOpenOrder({ orderId: pending!.orderId, status: 'PENDING_NEW', isWorking: false });

  const activated = expect(client).toHaveOpenOrder({ orderId: pending!.orderId, status: 'NEW', isWorking: true });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.01' });
  await activated;
  await user.next(listDone(oto.orderListId));
  expect(timeline(user.all()).filter((line) => line !== 'outboundAccountPosition')).toEqual([
    `#${working!.orderId} NEW/NEW`,
    `#${pending!.orderId} NEW/PENDING_NEW`,
    `list ${oto.orderListId} EXEC_STARTED/EXECUTING`,
    `#${working!.orderId} TRADE/FILLED`,
    `#${pending!.orderId} NEW/NEW`,
    `list ${oto.orderListId} ALL_DONE/ALL_DONE`,
  ]);
  expect((await client.rest.depth({ symbol: SYMBOL })).asks).toEqual([['61000.00000000', '0.01000000']]);
});

test('OTOCO on the WS API counts three orders; DELETE openOrders cancels the whole list and answers it as one entry', async ({ client }) => {
  const api = await client.wsApi();
  const otoco = await api.placeOrderListOtoco({
    symbol: SYMBOL,
    workingType: 'LIMIT',
    workingSide: 'BUY',
    workingPrice: '59000',
    workingQuantity: '0.01',
    workingTimeInForce: 'GTC',
    pendingSide: 'SELL',
    pendingQuantity: '0.01',
    pendingAboveType: 'LIMIT_MAKER',
    pendingAbovePrice: '61000',
    pendingBelowType: 'STOP_LOSS',
    pendingBelowStopPrice: '58000',
  });
  expect(api.lastRateLimits?.find((l) => l.rateLimitType === 'ORDERS' && l.interval === 'SECOND')?.count).toBe(3);
  expect(otoco.contingencyType).toBe('OTO');
  expect(otoco.orderReports.map((r) => `${r.type} ${r.status}`)).toEqual(['LIMIT NEW', 'STOP_LOSS PENDING_NEW', 'LIMIT_MAKER PENDING_NEW']);
  const plain = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' });

  const cancelled = await client.rest.cancelOpenOrders({ symbol: SYMBOL });
  expect(cancelled).toHaveLength(2);
  expect(cancelled[0]).toMatchObject({ orderId: plain.orderId, status: 'CANCELED', orderListId: -1 });
  expect(cancelled[1]).toMatchObject({ orderListId: otoco.orderListId, contingencyType: 'OTO', listOrderStatus: 'ALL_DONE' });
  expect(cancelled[1] !== undefined && 'orderReports' in cancelled[1] && cancelled[1].orderReports).toHaveLength(3);
  expect(await client.rest.openOrders({ symbol: SYMBOL })).toEqual([]);
});

test('the deprecated OCO on REST (order/oco) and the WS API (orderList.place): a LIMIT_MAKER and a stop leg, both listed by allOrderLists, oldest first', async ({ client, market }) => {
  tradeAt(market, '60000');
  const rest = await client.rest.newOco({ symbol: SYMBOL, side: 'BUY', quantity: '0.01', price: '59000', stopPrice: '61000', stopLimitPrice: '61100', stopLimitTimeInForce: 'GTC' });
  expect(rest.orderReports.map((r) => `${r.type} ${r.side}`)).toEqual(['STOP_LOSS_LIMIT BUY', 'LIMIT_MAKER BUY']);
  const api = await client.wsApi();
  const ws = await api.placeOco({ symbol: SYMBOL, side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000' });
  expect(ws.orderReports.map((r) => `${r.type} ${r.side}`)).toEqual(['STOP_LOSS SELL', 'LIMIT_MAKER SELL']);
  expect((await client.rest.allOrderLists()).map((l) => l.orderListId)).toEqual([rest.orderListId, ws.orderListId]);
  const { orderReports: _reports, ...listOnly } = ws;
  expect(await client.rest.getOrderList({ orderListId: ws.orderListId })).toEqual(listOnly);
});

test('faults.fillOpenOrder fills a working order of a list (the OCO pair resolves); an order not working yet (a waiting stop, a PENDING_NEW one) is unknown to it', async ({ client, faults, market }) => {
  tradeAt(market, '60000');
  const oco = await client.rest.newOrderListOco(SELL_OCO);
  const [stop, limit] = oco.orderReports;
  expect(() => faults.fillOpenOrder(stop!.orderId, '0.01')).toThrow();
  expect(faults.fillOpenOrder(limit!.orderId, '0.01')).toBe('0.01000000');
  await expect(client).not.toHaveOpenOrder({ orderId: stop!.orderId });
  const oto = await client.rest.newOrderListOto(OTO);
  expect(() => faults.fillOpenOrder(oto.orderReports[1]!.orderId, '0.01')).toThrow();
  expect(await client.rest.openOrderLists()).toEqual([expect.objectContaining({ orderListId: oto.orderListId })]);
});

test('every list placement on both transports, each cancelled on the other; listStatus reaches a legacy listen-key stream too', async ({ sim, client, market }) => {
  tradeAt(market, '60000');
  const { listenKey } = await client.rest.startUserDataStream();
  const legacy = await RawWs.open(sim, `/ws/${listenKey}`);
  const api = await client.wsApi();
  const { pendingType: _t, pendingPrice: _p, ...working } = OTO;
  const OTOCO: OtocoParams = { ...working, pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '62000', pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '58000' };
  const OLD: DeprecatedOcoParams = { symbol: SYMBOL, side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000' };
  const placements: [string, () => Promise<{ orderListId: number }>, 'rest' | 'ws'][] = [
    ['REST orderList/oco', () => client.rest.newOrderListOco(SELL_OCO), 'rest'],
    ['WS orderList.place.oco', () => api.placeOrderListOco(SELL_OCO), 'ws'],
    ['REST orderList/oto', () => client.rest.newOrderListOto(OTO), 'rest'],
    ['WS orderList.place.oto', () => api.placeOrderListOto(OTO), 'ws'],
    ['REST orderList/otoco', () => client.rest.newOrderListOtoco(OTOCO), 'rest'],
    ['WS orderList.place.otoco', () => api.placeOrderListOtoco(OTOCO), 'ws'],
    ['REST order/oco', () => client.rest.newOco(OLD), 'rest'],
    ['WS orderList.place', () => api.placeOco(OLD), 'ws'],
  ];
  for (const [what, place, placedOn] of placements) {
    const list = await place();
    const cancel = { symbol: SYMBOL, orderListId: list.orderListId };
    const cancelled = placedOn === 'rest' ? await api.cancelOrderList(cancel) : await client.rest.cancelOrderList(cancel);
    expect(cancelled, what).toMatchObject({ orderListId: list.orderListId, listOrderStatus: 'ALL_DONE' });
    await legacy.frame((f) => f.json?.e === 'listStatus' && f.json.g === list.orderListId && f.json.L === 'ALL_DONE');
  }
  expect(await client.rest.openOrderLists()).toEqual([]);
  expect(await client.rest.openOrders()).toEqual([]);
});

test('rejectNextOrders counts a list placement as one placement, refused whole with -2010 on REST and the WS API; then placements go through', async ({ client, faults, market }) => {
  tradeAt(market, '60000');
  faults.rejectNextOrders(2);
  expect(faults.rules()).toEqual([
    expect.objectContaining({ on: ['order.place', 'orderList.place', 'orderList.place.oco', 'orderList.place.oto', 'orderList.place.otoco'], times: 2, preset: 'rejectNextOrders' }),
  ]);
  const closed = { status: 400, code: -2010, msg: 'Market is closed.' };
  await expect(client.rest.newOrderListOco(SELL_OCO)).rejects.toMatchObject(closed);
  const api = await client.wsApi();
  await expect(api.placeOrderListOto(OTO)).rejects.toMatchObject({ code: -2010, msg: 'Market is closed.' });
  expect(await client.rest.openOrders()).toEqual([]);
  expect(await client.rest.openOrderLists()).toEqual([]);
  // Both counts are spent: the next list goes through, and the refused ones took no list id.
  expect(await client.rest.newOrderListOco(SELL_OCO)).toMatchObject({ orderListId: 1, listOrderStatus: 'EXECUTING' });
  expect(faults.rules()).toEqual([]);
});

test('fault rules name the list operations by their ids: an injected error on orderList.place.oco, the ack delay on orderList.cancel', async ({ sim, client, faults, market }) => {
  expect(faults.endpoints().map((e) => e.id)).toEqual(expect.arrayContaining(['orderList.place.oco', 'orderList.cancel', 'allOrderLists']));
  tradeAt(market, '60000');
  const rule = faults.use({ on: 'orderList.place.oco', action: { error: -1013 } });
  await expect(client.rest.newOrderListOco(SELL_OCO)).rejects.toMatchObject({ code: -1013 });
  expect(rule.hits).toBe(1);
  rule.remove();
  const oco = await client.rest.newOrderListOco(SELL_OCO);
  faults.setAckDelayMs(300);
  const api = await client.wsApi();
  const started = Date.now();
  await api.cancelOrderList({ symbol: SYMBOL, orderListId: oco.orderListId });
  expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  expect(sim.openOrders()).toEqual([]);
});

test("a list order's amend answers its listStatus; cancelReplace of a list order answers the whole list's cancel, then places the new order", async ({ client, market }) => {
  tradeAt(market, '60000');
  const oco = await client.rest.newOrderListOco(SELL_OCO);
  const limit = oco.orderReports[1]!;
  const amended = await client.rest.amendKeepPriority({ symbol: SYMBOL, orderId: limit.orderId, newQty: '0.005' });
  expect(amended.amendedOrder).toMatchObject({ orderId: limit.orderId, orderListId: oco.orderListId, qty: '0.00500000' });
  // The amend gives the order a new client id (the reference's rule when none is sent): the list shows it.
  const orders = [oco.orders[0], { ...oco.orders[1], clientOrderId: amended.amendedOrder.clientOrderId }];
  expect(amended.listStatus).toEqual({ orderListId: oco.orderListId, contingencyType: 'OCO', listOrderStatus: 'EXECUTING', listClientOrderId: 'my-oco', symbol: SYMBOL, orders });

  const replaced = await client.rest.cancelReplace({ symbol: SYMBOL, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: limit.orderId, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '62000' });
  expect(replaced).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS', cancelResponse: { orderListId: oco.orderListId, listOrderStatus: 'ALL_DONE' }, newOrderResponse: { price: '62000.00000000', orderListId: -1 } });
  expect(await client.rest.openOrderLists()).toEqual([]);
  expect((await client.rest.openOrders()).map((o) => o.price)).toEqual(['62000.00000000']);
});
