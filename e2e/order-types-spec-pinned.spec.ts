// `[sim] order_types = "spec"` (the default) answers exactly as the simulator did before the
// reference's other order types existed: exchangeInfo, every refusal of a conditional type, a
// stop price, an iceberg, a trailing delta or a quote amount on every placement path, the order
// list endpoints (unknown: 404 on REST, -1130 'method' on the WS API), and the answers and
// user-data events of ordinary orders, byte for byte. The answers were recorded on the commit
// before order_types existed (e2e/order-types-spec-pinned.answers.txt, one line per answer);
// `SPOT_SIM_RECORD=<file>` writes this run's answers to <file> instead of comparing, to record
// them again from a commit whose answers are known to be right.
import { readFileSync, writeFileSync } from 'node:fs';
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { expect, restTestWith, type Method, type Reply, type Wire } from './support/rest.ts';
import type { ParamList } from './support/signing.ts';

const ANSWERS = new URL('./order-types-spec-pinned.answers.txt', import.meta.url);
const test = restTestWith({ clock: 'manual', start_time_ms: Date.UTC(2026, 0, 1), seed: 3 });
test.afterEach(closeRawConnections);

const BASE = { symbol: 'BTCUSDT', quantity: '0.01' };
/** Placements the spec refuses (-1014, or their own -11xx), one per feature of the reference. */
const PLACEMENTS: readonly ParamList[] = [
  { ...BASE, side: 'SELL', type: 'STOP_LOSS', stopPrice: '59000' },
  { ...BASE, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900', stopPrice: '59000' },
  { ...BASE, side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '59000' },
  { ...BASE, side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', price: '59100', stopPrice: '59000' },
  { ...BASE, side: 'SELL', type: 'STOP_LOSS', trailingDelta: '100' },
  { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.001' },
  { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', stopPrice: '59500' },
  { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', trailingDelta: '50' },
  { ...BASE, side: 'BUY', type: 'LIMIT_MAKER', price: '59000', icebergQty: '0.001' },
  { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '100' },
  { ...BASE, side: 'BUY', type: 'MARKET', quoteOrderQty: '100' },
  { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', pegPriceType: 'PRIMARY_PEG' },
  { ...BASE, side: 'BUY', type: 'OCO', price: '59000' },
  { ...BASE, side: 'BUY', type: 'STOP_LOSS' },
  { ...BASE, side: 'BUY', type: 'LIMIT', price: '59000' },
  { ...BASE, side: 'BUY', type: 'MARKET', price: '59000' },
];

const OCO = { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS', belowStopPrice: '59000' };
const OTO = { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '59000', workingQuantity: '0.01', workingTimeInForce: 'GTC', pendingType: 'LIMIT_MAKER', pendingSide: 'SELL', pendingPrice: '61000', pendingQuantity: '0.01' };
/** The order-list routes of the reference (and a neighbour that was never one): all unknown to the spec. */
const LIST_ROUTES: readonly [Method, string, ParamList][] = [
  ['POST', '/api/v3/orderList/oco', OCO],
  ['POST', '/api/v3/orderList/oto', OTO],
  ['POST', '/api/v3/orderList/otoco', { ...OTO, pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '61000', pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '58000' }],
  ['POST', '/api/v3/orderList/opo', OTO],
  ['POST', '/api/v3/order/oco', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000' }],
  ['DELETE', '/api/v3/orderList', { symbol: 'BTCUSDT', orderListId: 1 }],
  ['GET', '/api/v3/orderList', { orderListId: 1 }],
  ['PUT', '/api/v3/orderList', { orderListId: 1 }],
  ['GET', '/api/v3/allOrderList', {}],
  ['GET', '/api/v3/openOrderList', {}],
];
const LIST_METHODS: readonly [string, Record<string, string | number>][] = [
  ['orderList.place', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000' }],
  ['orderList.place.oco', OCO],
  ['orderList.place.oto', OTO],
  ['orderList.place.otoco', OTO],
  ['orderList.place.opo', OTO],
  ['orderList.cancel', { symbol: 'BTCUSDT', orderListId: 1 }],
  ['orderList.status', { orderListId: 1 }],
  ['openOrderLists.status', {}],
  ['allOrderLists', {}],
];

/** One line per REST answer: status, the rate-limit headers, the body as sent. */
function restLine(what: string, r: Reply): string {
  const h = (name: string) => r.headers[name] ?? '-';
  return `${what} -> ${r.status} w=${h('x-mbx-used-weight-1m')} o=${h('x-mbx-order-count-10s')}/${h('x-mbx-order-count-1d')} ${JSON.stringify(r.body)}`;
}

async function restAnswers(wire: Wire, out: string[]): Promise<void> {
  const send = async (method: Method, path: string, params: ParamList) => {
    const r = await wire.signed(method, path, params);
    out.push(restLine(`${method} ${path} ${JSON.stringify(params)}`, r));
    return r;
  };
  out.push(restLine('GET /api/v3/exchangeInfo', await wire.get('/api/v3/exchangeInfo')));
  for (const p of PLACEMENTS) {
    await send('POST', '/api/v3/order', p);
    await send('POST', '/api/v3/order/test', { ...p, computeCommissionRates: 'true' });
  }
  for (const [method, path, params] of LIST_ROUTES) await send(method, path, params);

  // Ordinary orders: a resting LIMIT (FULL by default), a LIMIT_MAKER (ACK by default), a
  // MARKET that sweeps a counterparty's ask, their queries, a cancelReplace that refuses a stop
  // and one that works, an amend, the cancels.
  const resting = (await send('POST', '/api/v3/order', { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000' })).body;
  await send('POST', '/api/v3/order', { ...BASE, side: 'SELL', type: 'LIMIT_MAKER', price: '61000' });
  await send('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: resting.orderId });
  await send('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
  await send('GET', '/api/v3/allOrders', { symbol: 'BTCUSDT' });
  const replace = { symbol: 'BTCUSDT', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: resting.orderId, side: 'BUY', quantity: '0.01' };
  await send('POST', '/api/v3/order/cancelReplace', { ...replace, type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58000', stopPrice: '58100' });
  await send('POST', '/api/v3/order/cancelReplace', { ...replace, type: 'LIMIT', timeInForce: 'GTC', price: '58000', icebergQty: '0.001' });
  const replaced = (await send('POST', '/api/v3/order/cancelReplace', { ...replace, type: 'LIMIT', timeInForce: 'GTC', price: '58000' })).body;
  await send('PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: replaced.newOrderResponse.orderId, newQty: '0.005' });
  await send('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
}

async function wsAnswers(api: RawWs, out: string[]): Promise<void> {
  const call = async (method: string, params: Record<string, string | number>, signed = true) => {
    const reply = await api.call(method, params, signed);
    out.push(`${method} ${JSON.stringify(params)} -> ${JSON.stringify(reply)}`);
    return reply;
  };
  await call('exchangeInfo', { symbol: 'BTCUSDT' }, false);
  for (const p of PLACEMENTS) {
    await call('order.place', p as Record<string, string>);
    await call('order.test', p as Record<string, string>);
  }
  for (const [method, params] of LIST_METHODS) await call(method, params);
  const placed = await call('order.place', { ...BASE, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59500', newOrderRespType: 'RESULT' });
  await call('order.status', { symbol: 'BTCUSDT', orderId: placed.result.orderId });
  await call('order.cancelReplace', { symbol: 'BTCUSDT', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: placed.result.orderId, side: 'BUY', type: 'TAKE_PROFIT', quantity: '0.01', stopPrice: '58000' });
  await call('order.cancel', { symbol: 'BTCUSDT', orderId: placed.result.orderId });
}

test('order_types = "spec": exchangeInfo, refusals, unknown order-list routes and ordinary answers as before, byte for byte', async ({ sim, wire }) => {
  const out: string[] = [];
  const api = await RawWs.open(sim, '/ws-api/v3');
  await api.subscribeUserData();
  // A counterparty's ask and bid, so a MARKET order fills and the events show a trade.
  sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '1' });
  await restAnswers(wire, out);
  const market = await wire.signed('POST', '/api/v3/order', { ...BASE, side: 'BUY', type: 'MARKET' });
  out.push(restLine('POST /api/v3/order MARKET', market));
  await wsAnswers(api, out);
  await api.call('ping'); // a round trip: every event of the requests above has arrived
  for (const f of api.log) if (f.json?.event !== undefined) out.push(`event ${f.text}`);

  const recordTo = process.env['SPOT_SIM_RECORD'];
  if (recordTo) return writeFileSync(recordTo, `${out.join('\n')}\n`);
  const expected = readFileSync(ANSWERS, 'utf8').split('\n').slice(0, -1);
  expect(out.length).toBe(expected.length);
  for (let i = 0; i < out.length; i++) expect(out[i], `answer ${i + 1}`).toBe(expected[i]);
});
