// The typed client's type test (issue 22 item 3): this file must compile, and every line marked
// `@ts-expect-error` must fail to (tsc reports an unused directive), so the types cannot start
// to lie again. Compiled by `tsc -p .` and by src/client/type-test.test.ts; never run.
import {
  SpotSimClient,
  SpotSimError,
  SpotSimTimeoutError,
  connectSimulator,
  type ExecutionReportEvent,
  type ListStatusEvent,
  type OrderAck,
  type OrderListAck,
  type OrderListFull,
  type OrderFull,
  type OrderResult,
  type WsApiClient,
} from 'spot-sim';

declare const client: SpotSimClient;
declare const api: WsApiClient;
const limit = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000' } as const;

export async function orderReplies(): Promise<void> {
  // LIMIT and MARKET default to FULL: status and fills are there.
  const full: OrderFull = await client.rest.newOrder(limit);
  full.fills.map((f) => f.price);
  const ack: OrderAck = await client.rest.newOrder({ ...limit, newOrderRespType: 'ACK' });
  // @ts-expect-error an ACK reply has no status
  void ack.status;
  const result: OrderResult = await api.placeOrder({ ...limit, newOrderRespType: 'RESULT' });
  void result.status;
  // A union of reply types gives the union of replies: status is not known to be there.
  const either = await client.rest.newOrder({ ...limit, newOrderRespType: 'ACK' as 'ACK' | 'FULL' });
  // @ts-expect-error the ACK member has no status
  void either.status;
  if ('status' in either) void either.fills;
  // Types other than LIMIT and MARKET default to ACK.
  const maker = await api.placeOrder({ ...limit, type: 'LIMIT_MAKER' });
  // @ts-expect-error a LIMIT_MAKER reply defaults to ACK
  void maker.status;
  // Decimals: strings or numbers (numbers go out in plain notation).
  await client.rest.newOrder({ ...limit, quantity: 1e-7 });
}

export async function referenceOrders(): Promise<void> {
  // Stops and take-profits default to ACK (order_types = "reference").
  const stop = await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '58900', stopPrice: '59000' });
  // @ts-expect-error a stop's reply defaults to ACK
  void stop.status;
  const trailing = await api.placeOrder({ symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_LOSS', quantity: '0.01', trailingDelta: 100, newOrderRespType: 'RESULT' });
  const conditional: [string | undefined, number | undefined, number | undefined] = [trailing.stopPrice, trailing.trailingDelta, trailing.trailingTime];
  void conditional;
  // Order lists default to FULL: each report has its fills.
  const oco = { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS', belowStopPrice: '59000' } as const;
  const full: OrderListFull = await client.rest.newOrderListOco(oco);
  full.orderReports.map((r) => r.fills.length);
  const ack: OrderListAck = await api.placeOrderListOco({ ...oco, newOrderRespType: 'ACK' });
  // @ts-expect-error an ACK list's reports have no status
  void ack.orderReports[0]?.status;
  // @ts-expect-error an OCO leg is never a MARKET order
  await client.rest.newOrderListOco({ ...oco, belowType: 'MARKET' });
  const listed = await client.rest.getOrderList({ orderListId: ack.orderListId });
  // @ts-expect-error a queried list has no reports
  void listed.orderReports;
  const user = await client.userData();
  const list: ListStatusEvent = await user.next('listStatus');
  void [list.g, list.l, list.L, list.O[0]?.i];
}

export async function streams(): Promise<void> {
  const md = await client.streams('btcusdt@trade', 'btcusdt@depth');
  const trade = await md.next('trade');
  void trade.data.p;
  // @ts-expect-error a trade message has no bids
  void trade.data.b;
  const diff = await md.next('btcusdt@depth');
  void diff.data.U;
  void md.last('depthUpdate')?.data.b;
  // @ts-expect-error not a stream of this connection
  await md.next('ethusdt@trade');
  const user = await client.userData();
  const report: ExecutionReportEvent = await user.next('executionReport');
  void report.X;
  // @ts-expect-error no index signature: a misspelt field does not compile
  void report.Xx;
  // all() is a copy typed as an array of the stream's events.
  user.all().push(report);
  await user.close();
}

export async function everyWsApiMethod(): Promise<void> {
  void (await api.time()).serverTime;
  void (await api.exchangeInfo()).symbols[0]?.filters;
  void (await api.bookTicker({ symbol: 'BTCUSDT' })).bidPrice;
  void (await api.bookTicker()).length;
  void (await api.commission({ symbol: 'BTCUSDT' })).standardCommission.maker;
  void (await api.testOrder(limit));
  void (await api.cancelReplace({ ...limit, cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 1 })).cancelResult;
  void (await api.amendKeepPriority({ symbol: 'BTCUSDT', orderId: 1, newQty: '0.0005' })).amendedOrder.qty;
  void (await api.myTrades({ symbol: 'BTCUSDT' }))[0]?.commission;
  void (await api.orderRateLimit())[0]?.count;
  void (await api.sessionStatus()).apiKey;
  void (await api.sessionSubscriptions())[0]?.subscriptionId;
  await api.unsubscribeUserData({ subscriptionId: 1 });
  void api.lastRateLimits?.[0]?.count;
  void client.rest.lastHeaders['x-mbx-used-weight-1m'];
}

export async function errorsAndHandles(): Promise<void> {
  try {
    await client.rest.newOrder(limit);
  } catch (e) {
    if (e instanceof SpotSimTimeoutError) {
      const outcome: 'unknown' = e.outcome;
      void outcome;
      if (e.newClientOrderId !== undefined) await client.rest.getOrder({ symbol: 'BTCUSDT', origClientOrderId: e.newClientOrderId });
    } else if (e instanceof SpotSimError) {
      const code: number = e.code;
      void code;
      void e.retryAfterMs;
    }
  }
  const sim = await connectSimulator('http://127.0.0.1:9080');
  const filled: string = await sim.faults.fillOpenOrder(1, '0.001');
  void filled;
  const rule = await sim.faults.use({ on: 'order.place', action: { error: -1013 } });
  const hits: number = await rule.hits;
  void hits;
  // @ts-expect-error the in-process names: there is no faults.reject
  await sim.faults.reject(1);
  new SpotSimClient({ baseUrl: 'http://127.0.0.1:9080', apiKey: 'k', apiSecret: 's' });
  // @ts-expect-error a baseUrl alone is not enough: the credentials sign requests
  new SpotSimClient({ baseUrl: 'http://127.0.0.1:9080' });
}
