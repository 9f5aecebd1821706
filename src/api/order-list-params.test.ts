import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config/index.ts';
import { buildMarkets, type Instrument } from '../core/markets.ts';
import { ApiError } from '../core/errors.ts';
import type { PlaceOrderList } from '../core/commands.ts';
import { listEngineRefusal, parseCancelOrderList, parseOrderList, type OrderListKind } from './order-list-params.ts';

function instrument(extra: Record<string, unknown> = {}): Instrument {
  const config = resolveConfig({ sim: { order_types: 'reference' }, instruments: [{ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5', ...extra }] });
  return buildMarkets(config).instruments[0]!;
}

const BTC = instrument();
const parse = (kind: OrderListKind, params: Record<string, string>, inst = BTC) => parseOrderList(kind, (n) => params[n], (s) => (s === 'BTCUSDT' ? inst : undefined), 1);
const refusal = (kind: OrderListKind, params: Record<string, string>) => {
  const r = parse(kind, params);
  assert.ok(r instanceof ApiError, `accepted ${kind} ${JSON.stringify(params)}`);
  return `${r.code} ${r.msg}`;
};
const accepted = (kind: OrderListKind, params: Record<string, string>, inst = BTC): PlaceOrderList => {
  const r = parse(kind, params, inst);
  assert.ok(!(r instanceof ApiError), `${kind} ${JSON.stringify(params)}: ${r instanceof ApiError ? r.msg : ''}`);
  return r;
};

const OCO = { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', aboveType: 'LIMIT_MAKER', abovePrice: '61000', belowType: 'STOP_LOSS_LIMIT', belowStopPrice: '59000', belowPrice: '58900', belowTimeInForce: 'GTC' };
const OTO = { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: '59000', workingQuantity: '0.01', workingTimeInForce: 'GTC', pendingType: 'STOP_LOSS', pendingSide: 'SELL', pendingStopPrice: '58000', pendingQuantity: '0.01' };
const { pendingType: _t, pendingStopPrice: _s, ...WORKING } = OTO;
const OTOCO = { ...WORKING, pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: '62000', pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: '58000' };

test('the refusals of each list form name the parameter the client sent (table of cases)', () => {
  const cases: [OrderListKind, Record<string, string>, string][] = [
    ['oco', { ...OCO, symbol: 'NOPE' }, '-1121 Invalid symbol.'],
    ['oco', { ...OCO, side: 'LONG' }, '-1117 Invalid side.'],
    ['oco', { ...OCO, aboveType: 'WHATEVER' }, '-1116 Invalid orderType.'],
    ['oco', { ...OCO, belowType: 'MARKET' }, '-1158 Order type not supported in OCO.'],
    ['oco', { ...OCO, abovePrice: '' }, "-1102 Mandatory parameter 'abovePrice' was not sent, was empty/null, or malformed."],
    ['oco', { ...OCO, belowTimeInForce: '' }, "-1102 Mandatory parameter 'belowTimeInForce' was not sent, was empty/null, or malformed."],
    ['oco', { ...OCO, aboveTimeInForce: 'GTC' }, "-1106 Parameter 'aboveTimeInForce' sent when not required."],
    ['oco', { ...OCO, quantity: '0.000001' }, '-1013 Filter failure: LOT_SIZE'],
    ['oco', { ...OCO, belowTrailingDelta: '5' }, '-1013 Filter failure: TRAILING_DELTA'],
    ['oco', { ...OCO, aboveClientOrderId: 'a b' }, "-1100 Illegal characters found in parameter 'aboveClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'."],
    ['oco', { ...OCO, listClientOrderId: 'x'.repeat(37) }, "-1100 Illegal characters found in parameter 'listClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'."],
    ['ocoDeprecated', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000' }, "-1102 Mandatory parameter 'stopPrice' was not sent, was empty/null, or malformed."],
    ['ocoDeprecated', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000', stopLimitPrice: '58900' }, "-1102 Mandatory parameter 'stopLimitTimeInForce' was not sent, was empty/null, or malformed."],
    ['ocoDeprecated', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000', stopLimitTimeInForce: 'GTC' }, "-1106 Parameter 'stopLimitTimeInForce' sent when not required."],
    ['oto', { ...OTO, workingType: 'MARKET' }, "-1130 Data sent for parameter 'workingType' is not valid."],
    ['oto', { ...OTO, workingTimeInForce: '' }, "-1102 Mandatory parameter 'workingTimeInForce' was not sent, was empty/null, or malformed."],
    ['oto', { ...OTO, pendingStopPrice: '' }, "-1102 Param 'pendingStopPrice' or 'pendingTrailingDelta' must be sent, but both were empty/null!"],
    // No leg takes a quote amount: a pending MARKET needs its quantity.
    ['oto', { ...OTO, pendingType: 'MARKET', pendingStopPrice: '', pendingQuantity: '', pendingQuoteOrderQty: '100' }, "-1102 Mandatory parameter 'pendingQuantity' was not sent, was empty/null, or malformed."],
    ['otoco', { ...OTOCO, pendingSide: '' }, "-1102 Mandatory parameter 'pendingSide' was not sent, was empty/null, or malformed."],
    ['otoco', { ...OTOCO, pendingBelowType: '' }, "-1102 Mandatory parameter 'pendingBelowType' was not sent, was empty/null, or malformed."],
    ['otoco', { ...OTOCO, pendingSide: 'BUY' }, '-1165 A limit order in a buy OCO must be below.'],
  ];
  for (const [kind, params, expected] of cases) {
    const sent = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== ''));
    assert.equal(refusal(kind, sent), expected, `${kind} ${JSON.stringify(params)}`);
  }
});

test('the OCO pair: which kind of leg may be above or below, per side (errors.md -1165 ... -1199)', () => {
  const legs = { LIMIT_MAKER: { Price: '61000' }, TAKE_PROFIT: { StopPrice: '61000' }, STOP_LOSS: { StopPrice: '59000' } } as const;
  const expected: Record<string, string> = {
    'SELL LIMIT_MAKER/STOP_LOSS': 'ok',
    'SELL TAKE_PROFIT/STOP_LOSS': 'ok',
    'SELL STOP_LOSS/LIMIT_MAKER': '-1197',
    'SELL LIMIT_MAKER/TAKE_PROFIT': '-1199',
    'SELL TAKE_PROFIT/LIMIT_MAKER': '-1166',
    'SELL LIMIT_MAKER/LIMIT_MAKER': '-1168',
    'BUY STOP_LOSS/LIMIT_MAKER': 'ok',
    'BUY STOP_LOSS/TAKE_PROFIT': 'ok',
    'BUY LIMIT_MAKER/STOP_LOSS': '-1165',
    'BUY TAKE_PROFIT/STOP_LOSS': '-1198',
    'BUY STOP_LOSS/STOP_LOSS': '-1196',
    'BUY LIMIT_MAKER/LIMIT_MAKER': '-1168',
  };
  for (const [key, want] of Object.entries(expected)) {
    const [side, pair] = key.split(' ') as [string, string];
    const [above, below] = pair.split('/') as [keyof typeof legs, keyof typeof legs];
    const params: Record<string, string> = { symbol: 'BTCUSDT', side, quantity: '0.01', aboveType: above, belowType: below };
    for (const [field, value] of Object.entries(legs[above])) params[`above${field}`] = value;
    for (const [field, value] of Object.entries(legs[below])) params[`below${field}`] = value;
    const r = parse('oco', params);
    assert.equal(r instanceof ApiError ? String(r.code) : 'ok', want, key);
  }
});

test('accepted lists: the legs by role, the deprecated OCO as a LIMIT_MAKER and a stop on the right sides', () => {
  const oco = accepted('oco', OCO);
  assert.ok(oco.contingency === 'OCO');
  assert.deepEqual([oco.above.orderType, oco.above.price, oco.below.orderType, oco.below.stopPrice], ['LIMIT_MAKER', 6_100_000, 'STOP_LOSS_LIMIT', 5_900_000]);
  const sell = accepted('ocoDeprecated', { symbol: 'BTCUSDT', side: 'SELL', quantity: '0.01', price: '61000', stopPrice: '59000', limitClientOrderId: 'lim', stopClientOrderId: 'stp' });
  assert.ok(sell.contingency === 'OCO');
  assert.deepEqual([sell.above.orderType, sell.above.clientOrderId, sell.below.orderType, sell.below.clientOrderId], ['LIMIT_MAKER', 'lim', 'STOP_LOSS', 'stp']);
  const buy = accepted('ocoDeprecated', { symbol: 'BTCUSDT', side: 'BUY', quantity: '0.01', price: '59000', stopPrice: '61000', stopLimitPrice: '61100', stopLimitTimeInForce: 'GTC' });
  assert.ok(buy.contingency === 'OCO');
  assert.deepEqual([buy.above.orderType, buy.above.price, buy.below.orderType], ['STOP_LOSS_LIMIT', 6_110_000, 'LIMIT_MAKER']);
  const oto = accepted('oto', { ...OTO, listClientOrderId: 'mine' });
  assert.ok(oto.contingency === 'OTO');
  assert.deepEqual([oto.listClientOrderId, oto.working.orderType, oto.pending.orderType, oto.pending.side], ['mine', 'LIMIT', 'STOP_LOSS', 'SELL']);
  const otoco = accepted('otoco', OTOCO);
  assert.ok(otoco.contingency === 'OTOCO');
  assert.deepEqual([otoco.pendingAbove.orderType, otoco.pendingBelow.orderType, otoco.pendingBelow.quantity], ['LIMIT_MAKER', 'STOP_LOSS', 1000]);
});

test('listEngineRefusal: OCO / OTO turned off (an OTOCO needs both), a leg of a type the symbol does not take (-2010)', () => {
  const noOco = instrument({ oco_allowed: false });
  const noOto = instrument({ oto_allowed: false });
  const noStopLimit = instrument({ order_types: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS'] });
  const msg = (cmd: PlaceOrderList, inst: Instrument) => listEngineRefusal(cmd, inst)?.msg ?? null;
  assert.equal(msg(accepted('oco', OCO, noOco), noOco), 'OCO orders are not supported for this symbol');
  assert.equal(msg(accepted('otoco', OTOCO, noOco), noOco), 'OCO orders are not supported for this symbol');
  assert.equal(msg(accepted('otoco', OTOCO, noOto), noOto), 'OTO orders are not supported for this symbol');
  assert.equal(msg(accepted('oto', OTO, noOco), noOco), null);
  assert.equal(msg(accepted('oco', OCO, noStopLimit), noStopLimit), 'Stop loss limit orders are not supported for this symbol.');
});

test('cancelling a list: the symbol, orderListId or listClientOrderId, a valid cancel id', () => {
  const cancel = (params: Record<string, string>, id?: number) => parseCancelOrderList((n) => params[n], id, (s) => (s === 'BTCUSDT' ? BTC : undefined), 1);
  assert.equal((cancel({ symbol: 'BTCUSDT' }) as ApiError).msg, "Param 'orderListId' or 'listClientOrderId' must be sent, but both were empty/null!");
  assert.equal((cancel({ orderListId: '1' }, 1) as ApiError).code, -1102);
  assert.equal((cancel({ symbol: 'BTCUSDT', newClientOrderId: '#' }, 1) as ApiError).code, -1100);
  assert.deepEqual(cancel({ symbol: 'BTCUSDT', listClientOrderId: 'mine' }), { type: 'cancelOrderList', now: 1, symbolIndex: 0, orderListId: undefined, listClientOrderId: 'mine', cancelClientOrderId: null });
});
