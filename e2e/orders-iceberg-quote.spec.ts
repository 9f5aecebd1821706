// Icebergs and quote-amount MARKET orders with `[sim] order_types = "reference"`
// (docs/orders.md), through the fixture over real sockets: an iceberg shows only its visible part
// in depth and refills it at the back of its level; a MARKET order given as `quoteOrderQty` buys
// the most the amount pays for (or sells until it receives the amount), with the reference's
// fields in its reply and events.
import { test, expect } from 'spot-sim/fixture';
import type { ExecutionReportEvent } from 'spot-sim';
import { REFERENCE, SYMBOL } from './support/reference-orders.ts';

test.use({ simConfig: REFERENCE });

test('an iceberg shows its visible part in depth, refills it from the hidden rest as it trades, and reports icebergQty', async ({ client, market }) => {
  const user = await client.userData();
  const placed = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.01', icebergQty: '0.002', newOrderRespType: 'RESULT' });
  expect(placed).toMatchObject({ origQty: '0.01000000', icebergQty: '0.00200000', status: 'NEW' });
  expect((await client.rest.depth({ symbol: SYMBOL })).bids).toEqual([['59000.00000000', '0.00200000']]);
  expect(await client.rest.getOrder({ symbol: SYMBOL, orderId: placed.orderId })).toMatchObject({ icebergQty: '0.00200000', stopPrice: '0.00000000', isWorking: true });

  // A counterparty bid at the same price queues behind the visible part.
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.001' });
  // Selling the visible part refills it at the back of the level: the counterparty's bid trades next.
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.003' });
  const depth = await client.rest.depth({ symbol: SYMBOL });
  expect(depth.bids).toEqual([['59000.00000000', '0.00200000']]);
  const fill = await user.next((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === placed.orderId && e.x === 'TRADE');
  expect(fill).toMatchObject({ X: 'PARTIALLY_FILLED', l: '0.00200000', z: '0.00200000', F: '0.00200000' });
  await expect(client).toHaveOpenOrder({ orderId: placed.orderId, executedQty: '0.002', icebergQty: '0.002' });
});

test('an iceberg over ICEBERG_PARTS, one not below its quantity, or not GTC: the reference refusals', async ({ client }) => {
  const order = { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quantity: '0.01' } as const;
  await expect(client.rest.newOrder({ ...order, icebergQty: '0.00009' })).rejects.toMatchObject({ code: -1013, msg: 'Filter failure: ICEBERG_PARTS' });
  await expect(client.rest.newOrder({ ...order, icebergQty: '0.01' })).rejects.toMatchObject({ code: -2010, msg: 'IcebergQty exceeds QTY.' });
  await expect(client.rest.newOrder({ ...order, timeInForce: 'IOC', icebergQty: '0.001' })).rejects.toMatchObject({ code: -1014, msg: 'Unsupported order combination.' });
  // order/test checks parameters and filters only: never -2010.
  await expect(client.rest.testOrder({ ...order, icebergQty: '0.00009' })).rejects.toMatchObject({ code: -1013 });
  expect(await client.rest.testOrder({ ...order, icebergQty: '0.01' })).toEqual({});
  expect(await client.rest.openOrders()).toEqual([]);
});

test('a quoteOrderQty MARKET BUY takes the largest lot-grid quantity the amount pays for; origQuoteOrderQty and Q carry the amount', async ({ client, market }) => {
  const user = await client.userData();
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.001' });
  market.place({ symbol: SYMBOL, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '1' });
  const bought = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quoteOrderQty: '100' });
  // 0.001 at 60000 (60) + 0.00066 at 60010 (39.6066) = 99.6066; one more lot would pay 100.2067.
  expect(bought).toMatchObject({ type: 'MARKET', status: 'FILLED', origQty: '0.00166000', executedQty: '0.00166000', origQuoteOrderQty: '100.00000000', cummulativeQuoteQty: '99.60660000' });
  expect(bought.fills.map((f) => [f.price, f.qty])).toEqual([
    ['60000.00000000', '0.00100000'],
    ['60010.00000000', '0.00066000'],
  ]);
  const report = await user.next((e): e is ExecutionReportEvent => e.e === 'executionReport' && e.i === bought.orderId && e.X === 'FILLED');
  expect(report).toMatchObject({ Q: '100.00000000', q: '0.00166000', o: 'MARKET' });
});

test('a quoteOrderQty MARKET SELL on the WS API sells until it receives the amount; on an empty book -2010; below NOTIONAL -1013', async ({ client, market }) => {
  const api = await client.wsApi();
  await expect(api.placeOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quoteOrderQty: '100' })).rejects.toMatchObject({
    code: -2010,
    msg: 'Order book liquidity is less than symbol minimum quantity.',
  });
  await expect(api.placeOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quoteOrderQty: '4' })).rejects.toMatchObject({ code: -1013, msg: 'Filter failure: NOTIONAL' });
  market.place({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '1' });
  const sold = await api.placeOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quoteOrderQty: '100', newOrderRespType: 'RESULT' });
  // 0.002 at 50000 = 100 exactly.
  expect(sold).toMatchObject({ origQty: '0.00200000', cummulativeQuoteQty: '100.00000000', origQuoteOrderQty: '100.00000000', status: 'FILLED' });
  await expect(api.placeOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: '0.001', quoteOrderQty: '100' })).rejects.toMatchObject({
    code: -1106,
    msg: "Parameter 'quoteOrderQty' sent when not required.",
  });
});
