import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../config/index.ts';
import { buildMarkets, type Instrument } from '../core/markets.ts';
import { ApiError } from '../core/errors.ts';
import type { PlaceOrder } from '../core/commands.ts';
import { parsePlaceOrder } from './order-params.ts';
import { engineRefusal } from './reference-order-params.ts';

type Fields = Record<string, string>;

function instruments(extra: Record<string, unknown> = {}): readonly Instrument[] {
  const config = resolveConfig({
    sim: { order_types: 'reference', symbols: { BTCUSDT: { max_notional: '1000000' } } },
    instruments: [{ symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', tick: '0.01', lot: '0.00001', min_qty: '0.00001', max_qty: '9000', min_notional: '5', ...extra }],
  });
  return buildMarkets(config).instruments;
}

const [BTC] = instruments();
const lookup = (symbol: string) => (symbol === 'BTCUSDT' ? BTC : undefined);
const parse = (f: Fields, mode: 'spec' | 'reference' = 'reference') => parsePlaceOrder({ symbol: 'BTCUSDT', ...f }, lookup, 1, mode);

function refusal(f: Fields): string {
  const r = parse(f);
  assert.ok(r instanceof ApiError, `accepted: ${JSON.stringify(f)}`);
  return `${r.code} ${r.msg}`;
}

function accepted(f: Fields): PlaceOrder {
  const r = parse(f);
  assert.ok(!(r instanceof ApiError), `refused ${JSON.stringify(f)}: ${r instanceof ApiError ? r.msg : ''}`);
  return r;
}

const Q = { quantity: '0.01' };
const SL = { side: 'SELL', type: 'STOP_LOSS', ...Q };
const SLL = { side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', price: '58900', ...Q };

test('the mandatory parameters of each type (rest-api.md "New order"), with the refusal of each missing or extra one', () => {
  const cases: [Fields, string][] = [
    [{ ...SL }, "-1102 Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
    [{ ...SLL }, "-1102 Param 'stopPrice' or 'trailingDelta' must be sent, but both were empty/null!"],
    [{ ...SLL, timeInForce: '', stopPrice: '59000' }, "-1102 Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed."],
    [{ side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', stopPrice: '59000', ...Q }, "-1102 Mandatory parameter 'price' was not sent, was empty/null, or malformed."],
    [{ ...SL, stopPrice: '59000', price: '59000' }, "-1106 Parameter 'price' sent when not required."],
    [{ ...SL, stopPrice: '59000', timeInForce: 'GTC' }, "-1106 Parameter 'timeInForce' sent when not required."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', stopPrice: '59500', ...Q }, "-1106 Parameter 'stopPrice' sent when not required."],
    [{ side: 'BUY', type: 'LIMIT_MAKER', price: '59000', trailingDelta: '100', ...Q }, "-1106 Parameter 'trailingDelta' sent when not required."],
    [{ side: 'BUY', type: 'MARKET' }, "-1102 Param 'quantity' or 'quoteOrderQty' must be sent, but both were empty/null!"],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '100', ...Q }, "-1106 Parameter 'quoteOrderQty' sent when not required."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', quoteOrderQty: '100', ...Q }, "-1106 Parameter 'quoteOrderQty' sent when not required."],
    [{ side: 'BUY', type: 'STOP_LOSS', stopPrice: '61000' }, "-1102 Mandatory parameter 'quantity' was not sent, was empty/null, or malformed."],
    [{ side: 'BUY', type: 'OCO', ...Q }, '-1116 Invalid orderType.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', pegPriceType: 'PRIMARY_PEG', ...Q }, '-1014 Unsupported order combination.'],
    // icebergQty: only types that rest, only GTC (errors.md "Unsupported order combination").
    [{ side: 'BUY', type: 'MARKET', icebergQty: '0.001', ...Q }, '-1014 Unsupported order combination.'],
    [{ ...SL, stopPrice: '59000', icebergQty: '0.001' }, '-1014 Unsupported order combination.'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '59000', icebergQty: '0.001', ...Q }, '-1014 Unsupported order combination.'],
  ];
  for (const [f, expected] of cases) assert.equal(refusal(f), expected, JSON.stringify(f));
});

test('the stateless filters of the new parameters: PRICE_FILTER, LOT_SIZE, ICEBERG_PARTS, TRAILING_DELTA, NOTIONAL', () => {
  const cases: [Fields, string][] = [
    [{ ...SL, stopPrice: '59000.001' }, '-1013 Filter failure: PRICE_FILTER'],
    [{ ...SL, stopPrice: '0' }, '-1013 Filter failure: PRICE_FILTER'],
    [{ ...SL, stopPrice: '5e4' }, "-1100 Illegal characters found in parameter 'stopPrice'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    [{ ...SL, stopPrice: '59000.000000001' }, "-1111 Parameter 'stopPrice' has too much precision."],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.000001', ...Q }, '-1013 Filter failure: LOT_SIZE'],
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: 'x', ...Q }, "-1100 Illegal characters found in parameter 'icebergQty'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    // 0.01 / 0.00009 = 111.1 -> 112 parts > 100.
    [{ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.00009', ...Q }, '-1013 Filter failure: ICEBERG_PARTS'],
    [{ ...SL, trailingDelta: '9' }, '-1013 Filter failure: TRAILING_DELTA'],
    [{ ...SL, trailingDelta: '2001' }, '-1013 Filter failure: TRAILING_DELTA'],
    [{ ...SL, trailingDelta: '-5' }, "-1100 Illegal characters found in parameter 'trailingDelta'; legal range is '^[0-9]{1,20}$'."],
    [{ ...SL, trailingDelta: '1.5' }, "-1100 Illegal characters found in parameter 'trailingDelta'; legal range is '^[0-9]{1,20}$'."],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '4.99' }, '-1013 Filter failure: NOTIONAL'],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '0' }, '-1013 Filter failure: NOTIONAL'],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '1000000.01' }, '-1013 Filter failure: NOTIONAL'],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '10.000000001' }, "-1111 Parameter 'quoteOrderQty' has too much precision."],
    [{ side: 'BUY', type: 'MARKET', quoteOrderQty: '-10' }, "-1100 Illegal characters found in parameter 'quoteOrderQty'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'."],
    // NOTIONAL of the limit forms: 58900 x 0.00001 = 0.589 < 5.
    [{ ...SLL, stopPrice: '59000', quantity: '0.00001' }, '-1013 Filter failure: NOTIONAL'],
  ];
  for (const [f, expected] of cases) assert.equal(refusal(f), expected, JSON.stringify(f));
});

test('TRAILING_DELTA: the above bounds for STOP_LOSS BUY and TAKE_PROFIT SELL forms, the below bounds for the others', () => {
  const [narrow] = instruments({ min_trailing_above_delta: 100, max_trailing_above_delta: 200, min_trailing_below_delta: 300, max_trailing_below_delta: 400 });
  const parseOn = (f: Fields) => parsePlaceOrder({ symbol: 'BTCUSDT', ...Q, ...f }, () => narrow, 1, 'reference');
  const ok = (f: Fields) => !(parseOn(f) instanceof ApiError);
  for (const [type, side, direction] of [
    ['STOP_LOSS', 'BUY', 'above'],
    ['TAKE_PROFIT', 'SELL', 'above'],
    ['STOP_LOSS', 'SELL', 'below'],
    ['TAKE_PROFIT', 'BUY', 'below'],
  ] as const) {
    const inside = direction === 'above' ? '150' : '350';
    const outside = direction === 'above' ? '350' : '150';
    assert.ok(ok({ type, side, trailingDelta: inside }), `${type} ${side} ${inside}`);
    assert.ok(!ok({ type, side, trailingDelta: outside }), `${type} ${side} ${outside}`);
  }
});

test('accepted placements carry the new fields in ticks, BIPS, lots and quote atoms, and only those that were sent', () => {
  const stop = accepted({ ...SLL, stopPrice: '59000', icebergQty: '0.002', trailingDelta: '50' });
  assert.deepEqual({ stop: stop.stopPrice, price: stop.price, ice: stop.icebergQty, delta: stop.trailingDelta, tif: stop.timeInForce }, { stop: 5_900_000, price: 5_890_000, ice: 200, delta: 50, tif: 'GTC' });
  const trailing = accepted({ ...SL, trailingDelta: '100' });
  assert.equal(trailing.stopPrice, undefined);
  assert.equal(trailing.price, 0);
  const byQuote = accepted({ side: 'BUY', type: 'MARKET', quoteOrderQty: '100.5' });
  assert.equal(byQuote.quantity, 0);
  assert.equal(byQuote.quoteOrderQty, 1005n * 10n ** BigInt(BTC!.quoteDecimals - 1));
  const plain = accepted({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', ...Q });
  assert.deepEqual(Object.keys(plain).sort(), ['clientOrderId', 'now', 'orderType', 'price', 'quantity', 'side', 'symbolIndex', 'timeInForce', 'type']);
  // The same plain order under "spec" is the same command.
  assert.deepEqual(parse({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', ...Q }, 'spec'), plain);
});

test('engineRefusal: a type or feature the symbol turns off, an iceberg part not below the quantity (-2010)', () => {
  const [narrow] = instruments({ order_types: ['LIMIT', 'MARKET', 'STOP_LOSS_LIMIT'], iceberg_allowed: false, allow_trailing_stop: false, quote_order_qty_market_allowed: false });
  const refusalOn = (inst: Instrument, f: Fields) => {
    const cmd = parsePlaceOrder({ symbol: 'BTCUSDT', ...f }, () => inst, 1, 'reference');
    assert.ok(!(cmd instanceof ApiError), JSON.stringify(f));
    const r = engineRefusal(cmd, inst);
    return r === null ? null : `${r.code} ${r.msg}`;
  };
  assert.equal(refusalOn(narrow!, { ...SL, stopPrice: '59000' }), '-2010 Stop loss orders are not supported for this symbol.');
  assert.equal(refusalOn(narrow!, { side: 'BUY', type: 'TAKE_PROFIT', stopPrice: '59000', ...Q }), '-2010 Take profit orders are not supported for this symbol.');
  assert.equal(refusalOn(narrow!, { side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', price: '59000', stopPrice: '59000', ...Q }), '-2010 Take profit limit orders are not supported for this symbol.');
  assert.equal(refusalOn(narrow!, { ...SLL, trailingDelta: '100' }), '-2010 Trailing stop orders are not supported for this symbol.');
  assert.equal(refusalOn(narrow!, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.001', ...Q }), '-2010 Iceberg orders are not supported for this symbol.');
  assert.equal(refusalOn(narrow!, { side: 'BUY', type: 'MARKET', quoteOrderQty: '100' }), '-2010 Quote order qty market orders are not support for this symbol.');
  assert.equal(refusalOn(narrow!, { ...SLL, stopPrice: '59000' }), null);
  assert.equal(refusalOn(BTC!, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.01', ...Q }), '-2010 IcebergQty exceeds QTY.');
  assert.equal(refusalOn(BTC!, { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '59000', icebergQty: '0.00999', ...Q }), null);
  const [noMarket] = instruments({ order_types: ['LIMIT'] });
  assert.equal(refusalOn(noMarket!, { side: 'SELL', type: 'MARKET', ...Q }), '-2010 Market orders are not supported for this symbol.');
  // LIMIT_MAKER left out: the reference has no text for it, so it is -1014 at the parameters.
  const r = parsePlaceOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', price: '59000', ...Q }, () => noMarket, 1, 'reference');
  assert.ok(r instanceof ApiError && r.code === -1014);
});
