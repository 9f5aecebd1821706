// REST order flow end to end, on both listeners: every order type and time in force, the three
// response kinds and their per-type defaults (binance-facts §3.6), order/test, query and cancel
// by either id, cancelReplace in both modes with its -2021/-2022 `data` (binance-facts §2.5),
// amend/keepPriority, and openOrders. Fills need a counterparty: resting generator-side orders
// are placed straight into the book, since the account's own orders self-trade-prevent.
import { counterparty, expect, LISTENERS, test } from './support/rest.ts';

const ACK = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime'];
const RESULT = [...ACK, 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode'];
const FULL = [...RESULT, 'fills'];
const QUERY = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'price', 'origQty', 'executedQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'stopPrice', 'icebergQty', 'time', 'updateTime', 'isWorking', 'workingTime', 'origQuoteOrderQty', 'selfTradePreventionMode'];
const CANCEL = ['symbol', 'origClientOrderId', 'orderId', 'orderListId', 'clientOrderId', 'transactTime', 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'selfTradePreventionMode'];
const AMENDED = ['symbol', 'orderId', 'orderListId', 'origClientOrderId', 'clientOrderId', 'price', 'qty', 'executedQty', 'preventedQty', 'quoteOrderQty', 'cumulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode'];

const UNKNOWN_ORDER = { code: -2011, msg: 'Unknown order sent.' };
const NO_SUCH_ORDER = { code: -2013, msg: 'Order does not exist.' };
const WOULD_TAKE = { code: -2010, msg: 'Order would immediately match and take.' };

for (const listener of LISTENERS) {
  test.describe(`orders over ${listener}`, () => {
    test.use({ listener });

    test('LIMIT GTC, IOC and FOK: fills from the book, the rest rests or expires; FULL by default', async ({ sim, wire }) => {
      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.01');
      counterparty(sim, 'BTCUSDT', 'SELL', '60020', '0.02');

      const gtc = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity: '0.015', newClientOrderId: 'gtc-1' });
      expect(gtc.status).toBe(200);
      expect(Object.keys(gtc.body)).toEqual(FULL);
      expect(gtc.body).toMatchObject({
        symbol: 'BTCUSDT',
        orderListId: -1,
        clientOrderId: 'gtc-1',
        price: '60010.00000000',
        origQty: '0.01500000',
        executedQty: '0.01000000',
        origQuoteOrderQty: '0.00000000',
        cummulativeQuoteQty: '600.10000000',
        status: 'PARTIALLY_FILLED',
        timeInForce: 'GTC',
        type: 'LIMIT',
        side: 'BUY',
        selfTradePreventionMode: 'EXPIRE_MAKER',
      });
      expect(gtc.body.fills).toEqual([{ price: '60010.00000000', qty: '0.01000000', commission: '0.24004000', commissionAsset: 'USDT', tradeId: 1 }]);
      expect(gtc.body.workingTime).toBe(gtc.body.transactTime);

      // IOC: takes the 0.02 at 60020, the remaining 0.01 expires (status EXPIRED even after a fill).
      const ioc = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '60020', quantity: '0.03' });
      expect(ioc.status).toBe(200);
      expect(Object.keys(ioc.body)).toEqual([...RESULT, 'expiryReason', 'fills']);
      expect(ioc.body).toMatchObject({ status: 'EXPIRED', timeInForce: 'IOC', executedQty: '0.02000000', expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED' });
      expect(ioc.body.fills).toEqual([{ price: '60020.00000000', qty: '0.02000000', commission: '0.48016000', commissionAsset: 'USDT', tradeId: 2 }]);
      const iocNothing = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '50000', quantity: '0.001' });
      expect(iocNothing.body).toMatchObject({ status: 'EXPIRED', executedQty: '0.00000000', fills: [], expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED' });

      // FOK: all or nothing.
      counterparty(sim, 'BTCUSDT', 'SELL', '60030', '0.01');
      const fokMiss = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '60030', quantity: '0.02' });
      expect(fokMiss.body).toMatchObject({ status: 'EXPIRED', executedQty: '0.00000000', fills: [], expiryReason: 'UNFILLED_FOK_ORDER_EXPIRED' });
      const fokHit = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'FOK', price: '60030', quantity: '0.01' });
      expect(fokHit.body).toMatchObject({ status: 'FILLED', executedQty: '0.01000000', cummulativeQuoteQty: '600.30000000' });
      expect(Object.keys(fokHit.body)).toEqual(FULL);

      // Only the GTC remainder rests; its lock and the fills show in the balances.
      const open = await wire.openOrders('BTCUSDT');
      expect(open).toEqual([expect.objectContaining({ clientOrderId: 'gtc-1', status: 'PARTIALLY_FILLED', origQty: '0.01500000', executedQty: '0.01000000' })]);
      const balances = await wire.balances();
      expect(balances.BTC).toEqual({ free: '100.04000000', locked: '0.00000000' });
      // 10,000,000 - 2400.8 notional - 0.96032 taker fees - 300.05 locked (0.005 x 60010, the notional only).
      expect(balances.USDT).toEqual({ free: '9997298.18968000', locked: '300.05000000' });
    });

    test('LIMIT_MAKER rests and answers ACK by default; a crossing one is refused with -2010 and changes nothing', async ({ sim, wire }) => {
      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.01');
      const maker = await wire.order({ side: 'BUY', type: 'LIMIT_MAKER', price: '60000', quantity: '0.001', newClientOrderId: 'maker-1' });
      expect(maker.status).toBe(200);
      expect(Object.keys(maker.body)).toEqual(ACK);
      expect(maker.body).toMatchObject({ symbol: 'BTCUSDT', orderListId: -1, clientOrderId: 'maker-1' });
      const got = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: maker.body.orderId });
      expect(got.body).toMatchObject({ type: 'LIMIT_MAKER', timeInForce: 'GTC', status: 'NEW', price: '60000.00000000', isWorking: true });

      const before = await wire.state();
      const depthBefore = (await wire.get('/api/v3/depth', { symbol: 'BTCUSDT' })).body;
      const crossing = await wire.order({ side: 'BUY', type: 'LIMIT_MAKER', price: '60010', quantity: '0.001' });
      expect(crossing.status).toBe(400);
      expect(crossing.body).toEqual(WOULD_TAKE);
      expect(await wire.state()).toEqual(before);
      const depthAfter = (await wire.get('/api/v3/depth', { symbol: 'BTCUSDT' })).body;
      expect([depthAfter.bids, depthAfter.asks]).toEqual([depthBefore.bids, depthBefore.asks]);
    });

    test('MARKET walks the book: FULL by default, price 0 and GTC; an unfilled remainder expires with INSUFFICIENT_LIQUIDITY', async ({ sim, wire }) => {
      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.01');
      counterparty(sim, 'BTCUSDT', 'SELL', '60020', '0.01');
      counterparty(sim, 'BTCUSDT', 'BUY', '59990', '0.01');

      const buy = await wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.015' });
      expect(buy.status).toBe(200);
      expect(Object.keys(buy.body)).toEqual(FULL);
      expect(buy.body).toMatchObject({ price: '0.00000000', timeInForce: 'GTC', type: 'MARKET', status: 'FILLED', executedQty: '0.01500000', cummulativeQuoteQty: '900.20000000' });
      expect(buy.body.fills.map((f: { price: string; qty: string }) => [f.price, f.qty])).toEqual([
        ['60010.00000000', '0.01000000'],
        ['60020.00000000', '0.00500000'],
      ]);

      const sell = await wire.order({ side: 'SELL', type: 'MARKET', quantity: '0.02' });
      expect(Object.keys(sell.body)).toEqual([...RESULT, 'expiryReason', 'fills']);
      expect(sell.body).toMatchObject({ side: 'SELL', status: 'EXPIRED', executedQty: '0.01000000', expiryReason: 'INSUFFICIENT_LIQUIDITY' });
      expect(sell.body.fills).toEqual([{ price: '59990.00000000', qty: '0.01000000', commission: '0.23996000', commissionAsset: 'USDT', tradeId: 3 }]);

      // Nothing left to sell into: the whole order expires; nothing stays open.
      const empty = await wire.order({ side: 'SELL', type: 'MARKET', quantity: '0.001' });
      expect(empty.body).toMatchObject({ status: 'EXPIRED', executedQty: '0.00000000', fills: [] });
      expect(await wire.openOrders()).toEqual([]);
      const balances = await wire.balances();
      expect(balances.BTC).toEqual({ free: '100.00500000', locked: '0.00000000' });
    });

    test('newOrderRespType ACK, RESULT and FULL give the reference field sets for every type', async ({ sim, wire }) => {
      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '1');
      const cases: [string, Record<string, string>][] = [
        ['LIMIT', { timeInForce: 'GTC', price: '50000' }],
        ['LIMIT_MAKER', { price: '50000' }],
        ['MARKET', {}],
      ];
      for (const [type, extra] of cases) {
        for (const [kind, keys] of [['ACK', ACK], ['RESULT', RESULT], ['FULL', FULL]] as const) {
          const r = await wire.order({ side: 'BUY', type, quantity: '0.001', newOrderRespType: kind, ...extra });
          expect(r.status, `${type} ${kind}`).toBe(200);
          expect(Object.keys(r.body), `${type} ${kind}`).toEqual(keys);
          expect(r.body.status ?? 'ACK', `${type} ${kind}`).toBe(kind === 'ACK' ? 'ACK' : type === 'MARKET' ? 'FILLED' : 'NEW');
        }
      }
      // Defaults: FULL for LIMIT and MARKET, ACK for LIMIT_MAKER.
      const defaults = await Promise.all([
        wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' }),
        wire.order({ side: 'BUY', type: 'MARKET', quantity: '0.001' }),
        wire.order({ side: 'BUY', type: 'LIMIT_MAKER', price: '50000', quantity: '0.001' }),
      ]);
      expect(defaults.map((r) => Object.keys(r.body))).toEqual([FULL, FULL, ACK]);
    });

    test('order/test validates without placing: {} or the commission rates; refusals as for a real order', async ({ wire }) => {
      const before = await wire.state();
      const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' };
      const plain = await wire.signed('POST', '/api/v3/order/test', order);
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual({});
      expect(plain.headers['x-mbx-order-count-10s']).toBeUndefined();
      const withRates = await wire.signed('POST', '/api/v3/order/test', { ...order, computeCommissionRates: true }, { in: 'body' });
      expect(withRates.status).toBe(200);
      expect(withRates.body).toEqual({
        standardCommissionForOrder: { maker: '0.00010000', taker: '0.00040000' },
        specialCommissionForOrder: { maker: '0.00000000', taker: '0.00000000' },
        taxCommissionForOrder: { maker: '0.00000000', taker: '0.00000000' },
        discount: { enabledForAccount: false, enabledForSymbol: false, discountAsset: 'BNB', discount: '0.00000000' },
      });
      const explicitFalse = await wire.signed('POST', '/api/v3/order/test', { ...order, computeCommissionRates: false });
      expect(explicitFalse.body).toEqual({});
      // The matching engine is not consulted: an order the balance cannot cover still tests fine.
      const big = { ...order, quantity: '1000' };
      expect((await wire.signed('POST', '/api/v3/order/test', big)).body).toEqual({});
      expect(await wire.state()).toEqual(before);
      expect((await wire.order(big)).body).toEqual({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
      // Validation refusals are the same as order placement's.
      const offTick = await wire.signed('POST', '/api/v3/order/test', { ...order, price: '50000.001' });
      expect(offTick.status).toBe(400);
      expect(offTick.body).toEqual({ code: -1013, msg: 'Filter failure: PRICE_FILTER' });
      const noSide = await wire.signed('POST', '/api/v3/order/test', { ...order, side: undefined });
      expect(noSide.body).toEqual({ code: -1102, msg: "Mandatory parameter 'side' was not sent, was empty/null, or malformed." });
      expect(await wire.state()).toEqual(before);
    });

    test('GET and DELETE order by orderId and by origClientOrderId; ended orders -2013, unknown cancels -2011', async ({ sim, wire }) => {
      const a = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'cl-a' });
      const b = await wire.rest('BUY', '50001', '0.001', { newClientOrderId: 'cl-b' });
      expect(b.orderId).toBe(a.orderId + 1);
      const byId = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.orderId });
      expect(byId.status).toBe(200);
      expect(Object.keys(byId.body)).toEqual(QUERY);
      expect(byId.body).toMatchObject({
        orderId: a.orderId,
        clientOrderId: 'cl-a',
        price: '50000.00000000',
        origQty: '0.00100000',
        executedQty: '0.00000000',
        status: 'NEW',
        stopPrice: '0.00000000',
        icebergQty: '0.00000000',
        isWorking: true,
      });
      const byClientId = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'cl-a' });
      expect(byClientId.body).toEqual(byId.body);
      // Both ids: looked up by orderId, the wire id must match (binance-facts §3.8, -2039).
      const both = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.orderId, origClientOrderId: 'cl-a' });
      expect(both.body).toEqual(byId.body);
      const mismatch = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.orderId, origClientOrderId: 'cl-b' });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body).toEqual({ code: -2039, msg: 'Client order ID is not correct for this order ID.' });
      // 0.001 x 50000 + 0.001 x 50001: the notionals (spec 2.4), no fee reserve.
      expect((await wire.balances()).USDT).toEqual({ free: '9999899.99900000', locked: '100.00100000' });

      const cancelA = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.orderId, newClientOrderId: 'cancel-a' });
      expect(cancelA.status).toBe(200);
      expect(Object.keys(cancelA.body)).toEqual(CANCEL);
      expect(cancelA.body).toMatchObject({ orderId: a.orderId, origClientOrderId: 'cl-a', clientOrderId: 'cancel-a', status: 'CANCELED', price: '50000.00000000', origQty: '0.00100000', type: 'LIMIT', side: 'BUY' });
      const cancelB = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'cl-b' }, { in: 'body' });
      expect(cancelB.body).toMatchObject({ orderId: b.orderId, origClientOrderId: 'cl-b', status: 'CANCELED' });
      expect(cancelB.body.clientOrderId).toMatch(/^[A-Za-z0-9]{22}$/);
      expect(await wire.balances()).toMatchObject({ USDT: { free: '10000000.00000000', locked: '0.00000000' } });

      // Cancelled orders are forgotten: querying answers -2013, cancelling again -2011.
      for (const q of [{ orderId: a.orderId }, { origClientOrderId: 'cl-b' }]) {
        const gone = await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', ...q });
        expect(gone.status).toBe(400);
        expect(gone.body).toEqual(NO_SUCH_ORDER);
        const again = await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', ...q });
        expect(again.status).toBe(400);
        expect(again.body).toEqual(UNKNOWN_ORDER);
      }
      // So are filled ones.
      counterparty(sim, 'BTCUSDT', 'SELL', '60000', '0.001');
      const filled = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.001' });
      expect(filled.body.status).toBe('FILLED');
      expect((await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: filled.body.orderId })).body).toEqual(NO_SUCH_ORDER);
      // Never-seen ids.
      expect((await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: 999 })).body).toEqual(NO_SUCH_ORDER);
      expect((await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'never' })).body).toEqual(UNKNOWN_ORDER);
      // An order id of another symbol is unknown on this one.
      const eth = await wire.rest('BUY', '2000', '0.01', { symbol: 'ETHUSDT' });
      expect((await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: eth.orderId })).body).toEqual(UNKNOWN_ORDER);
    });

    test('a wire order id is unique among open orders only: a duplicate is -2010, reuse after the end is fine', async ({ wire }) => {
      await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'dup-1' });
      const before = await wire.state();
      const dup = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50001', quantity: '0.001', newClientOrderId: 'dup-1' });
      expect(dup.status).toBe(400);
      expect(dup.body).toEqual({ code: -2010, msg: 'Duplicate order sent.' });
      expect(await wire.state()).toEqual(before);
      await wire.signed('DELETE', '/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'dup-1' });
      const reused = await wire.rest('BUY', '50001', '0.001', { newClientOrderId: 'dup-1' });
      expect(reused.clientOrderId).toBe('dup-1');
    });

    test('self-trade prevention is EXPIRE_MAKER: the own resting order expires, the taker rests', async ({ wire }) => {
      const maker = await wire.rest('SELL', '60000', '0.001', { newClientOrderId: 'own-ask' });
      expect((await wire.balances()).BTC).toEqual({ free: '99.99900000', locked: '0.00100000' });
      const taker = await wire.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '60000', quantity: '0.001', newClientOrderId: 'own-bid' });
      expect(taker.body).toMatchObject({ status: 'NEW', executedQty: '0.00000000', fills: [] });
      expect((await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: maker.orderId })).body).toEqual(NO_SUCH_ORDER);
      expect((await wire.openOrders()).map((o) => o.clientOrderId)).toEqual(['own-bid']);
      expect((await wire.balances()).BTC).toEqual({ free: '100.00000000', locked: '0.00000000' });
      expect((await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT' })).body).toEqual([]);
    });

    test('cancelReplace succeeds in both legs: 200 with both responses, the new order counted', async ({ wire }) => {
      const a = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'cr-a' });
      const r = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        timeInForce: 'GTC',
        quantity: '0.002',
        price: '50001',
        cancelReplaceMode: 'STOP_ON_FAILURE',
        cancelOrderId: a.orderId,
        newClientOrderId: 'cr-b',
      });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['cancelResult', 'newOrderResult', 'cancelResponse', 'newOrderResponse']);
      expect(r.body).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'SUCCESS' });
      expect(Object.keys(r.body.cancelResponse)).toEqual(CANCEL);
      expect(r.body.cancelResponse).toMatchObject({ orderId: a.orderId, origClientOrderId: 'cr-a', status: 'CANCELED' });
      expect(Object.keys(r.body.newOrderResponse)).toEqual(FULL); // LIMIT default
      expect(r.body.newOrderResponse).toMatchObject({ clientOrderId: 'cr-b', status: 'NEW', price: '50001.00000000', origQty: '0.00200000' });
      expect(r.headers['x-mbx-order-count-10s']).toBe('2');
      expect(r.headers['x-mbx-order-count-1d']).toBe('2');

      // By wire id, with the cancel's own id and an ACK for the new order, in a form body.
      const r2 = await wire.signed(
        'POST',
        '/api/v3/order/cancelReplace',
        { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT_MAKER', quantity: '0.001', price: '70000', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrigClientOrderId: 'cr-b', cancelNewClientOrderId: 'cr-cancel', newOrderRespType: 'ACK' },
        { in: 'body' },
      );
      expect(r2.status).toBe(200);
      expect(r2.body.cancelResponse).toMatchObject({ origClientOrderId: 'cr-b', clientOrderId: 'cr-cancel', status: 'CANCELED' });
      expect(Object.keys(r2.body.newOrderResponse)).toEqual(ACK);
      const open = await wire.openOrders();
      expect(open.map((o) => o.orderId)).toEqual([r2.body.newOrderResponse.orderId]);
    });

    test('cancelReplace STOP_ON_FAILURE with a failing cancel: 400 -2022, new order NOT_ATTEMPTED, nothing changes', async ({ wire }) => {
      await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'keep' });
      const before = await wire.state();
      const r = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50001', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: 999,
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        code: -2022,
        msg: 'Order cancel-replace failed.',
        data: { cancelResult: 'FAILURE', newOrderResult: 'NOT_ATTEMPTED', cancelResponse: UNKNOWN_ORDER, newOrderResponse: null },
      });
      expect(await wire.state()).toEqual(before);
    });

    test('cancelReplace ALLOW_FAILURE: failed cancel + placed order is 409 -2021; both failing is 400 -2022', async ({ sim, wire }) => {
      const r = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50001', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrigClientOrderId: 'nope', newClientOrderId: 'placed-anyway',
      });
      expect(r.status).toBe(409);
      expect(r.body.code).toBe(-2021);
      expect(r.body.msg).toBe('Order cancel-replace partially failed.');
      expect(r.body.data).toMatchObject({ cancelResult: 'FAILURE', newOrderResult: 'SUCCESS', cancelResponse: UNKNOWN_ORDER });
      expect(Object.keys(r.body.data.newOrderResponse)).toEqual(FULL);
      expect(r.body.data.newOrderResponse).toMatchObject({ clientOrderId: 'placed-anyway', status: 'NEW' });
      expect((await wire.openOrders()).map((o) => o.clientOrderId)).toEqual(['placed-anyway']);

      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.01');
      const before = await wire.state();
      const both = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: '60010', cancelReplaceMode: 'ALLOW_FAILURE', cancelOrderId: 999,
      });
      expect(both.status).toBe(400);
      expect(both.body).toEqual({
        code: -2022,
        msg: 'Order cancel-replace failed.',
        data: { cancelResult: 'FAILURE', newOrderResult: 'FAILURE', cancelResponse: UNKNOWN_ORDER, newOrderResponse: WOULD_TAKE },
      });
      expect(await wire.state()).toEqual(before);
    });

    test('cancelReplace with a cancel that works and a new order the engine refuses: 409 -2021, the old order is gone', async ({ sim, wire }) => {
      counterparty(sim, 'BTCUSDT', 'SELL', '60010', '0.01');
      const a = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'old' });
      const r = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT_MAKER', quantity: '0.001', price: '60010', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrderId: a.orderId,
      });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: -2021, msg: 'Order cancel-replace partially failed.' });
      expect(r.body.data).toMatchObject({ cancelResult: 'SUCCESS', newOrderResult: 'FAILURE', newOrderResponse: WOULD_TAKE });
      expect(r.body.data.cancelResponse).toMatchObject({ orderId: a.orderId, origClientOrderId: 'old', status: 'CANCELED' });
      expect(await wire.openOrders()).toEqual([]);
      expect((await wire.balances()).USDT).toEqual({ free: '10000000.00000000', locked: '0.00000000' });
    });

    test('cancelReplace checks the new order before cancelling: a filter failure is a plain -1013, the old order stays', async ({ wire }) => {
      await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'stays' });
      const before = await wire.state();
      const r = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.00001', price: '50000', cancelReplaceMode: 'STOP_ON_FAILURE', cancelOrigClientOrderId: 'stays',
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: -1013, msg: 'Filter failure: NOTIONAL' });
      const noMode = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', cancelOrigClientOrderId: 'stays',
      });
      expect(noMode.body).toEqual({ code: -1102, msg: "Mandatory parameter 'cancelReplaceMode' was not sent, was empty/null, or malformed." });
      const noTarget = await wire.signed('POST', '/api/v3/order/cancelReplace', {
        symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '50000', cancelReplaceMode: 'STOP_ON_FAILURE',
      });
      expect(noTarget.body).toEqual({ code: -1102, msg: "Param 'cancelOrderId' or 'cancelOrigClientOrderId' must be sent, but both were empty/null!" });
      expect(await wire.state()).toEqual(before);
    });

    test('amend/keepPriority lowers the quantity and keeps the queue place', async ({ sim, wire }) => {
      const a = await wire.rest('BUY', '50000', '0.003', { newClientOrderId: 'am-a' });
      const b = await wire.rest('BUY', '50000', '0.001', { newClientOrderId: 'am-b' });
      const r = await wire.signed('PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: a.orderId, newQty: '0.002', newClientOrderId: 'am-a2' });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body)).toEqual(['transactTime', 'executionId', 'amendedOrder']);
      expect(Object.keys(r.body.amendedOrder)).toEqual(AMENDED);
      expect(r.body.amendedOrder).toMatchObject({
        orderId: a.orderId,
        origClientOrderId: 'am-a',
        clientOrderId: 'am-a2',
        price: '50000.00000000',
        qty: '0.00200000',
        executedQty: '0.00000000',
        cumulativeQuoteQty: '0.00000000',
        status: 'NEW',
      });
      // The lock shrinks with the order: (0.002 + 0.001) x 50000, the notionals (spec 2.4).
      expect((await wire.balances()).USDT!.locked).toBe('150.00000000');
      // Without a new id the order gets a generated one (binance-facts §3.11); by wire id here.
      const again = await wire.signed('PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', origClientOrderId: 'am-a2', newQty: '0.0015' });
      expect(again.body.amendedOrder).toMatchObject({ orderId: a.orderId, origClientOrderId: 'am-a2', qty: '0.00150000' });
      expect(again.body.amendedOrder.clientOrderId).toMatch(/^[A-Za-z0-9]{22}$/);
      expect(again.body.executionId).toBeGreaterThan(r.body.executionId);

      // Still first in the queue: a counterparty sell of 0.0015 fills the amended order only.
      counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.0015');
      expect((await wire.signed('GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: a.orderId })).body).toEqual(NO_SUCH_ORDER);
      expect(await wire.openOrders()).toEqual([expect.objectContaining({ orderId: b.orderId, executedQty: '0.00000000' })]);
      const trades = await wire.signed('GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', orderId: a.orderId });
      expect(trades.body).toEqual([expect.objectContaining({ orderId: a.orderId, qty: '0.00150000', price: '50000.00000000', isBuyer: true, isMaker: true, commission: '0.00750000' })]);
    });

    test('amend/keepPriority refusals: increase and no change -2038, at or below filled -1013, unknown -2011; nothing changes', async ({ sim, wire }) => {
      const a = await wire.rest('BUY', '50000', '0.003', { newClientOrderId: 'am-x' });
      counterparty(sim, 'BTCUSDT', 'SELL', '50000', '0.001');
      const before = await wire.state();
      const cases: [Record<string, string | number>, object][] = [
        [{ orderId: a.orderId, newQty: '0.004' }, { code: -2038, msg: 'Order amend (quantity increase) is not supported.' }],
        [{ orderId: a.orderId, newQty: '0.003' }, { code: -2038, msg: 'The requested action would change no state; rejecting' }],
        [{ orderId: a.orderId, newQty: '0.001' }, { code: -1013, msg: 'Order amend quantity must be greater than the executed quantity.' }],
        [{ orderId: a.orderId, newQty: '0.0005' }, { code: -1013, msg: 'Order amend quantity must be greater than the executed quantity.' }],
        [{ orderId: a.orderId, newQty: '0.000001' }, { code: -1013, msg: 'Filter failure: LOT_SIZE' }],
        [{ orderId: 999, newQty: '0.001' }, UNKNOWN_ORDER],
        [{ origClientOrderId: 'nope', newQty: '0.001' }, UNKNOWN_ORDER],
        [{ orderId: a.orderId }, { code: -1102, msg: "Mandatory parameter 'newQty' was not sent, was empty/null, or malformed." }],
      ];
      for (const [params, error] of cases) {
        const r = await wire.signed('PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', ...params });
        expect(r.status, JSON.stringify(params)).toBe(400);
        expect(r.body, JSON.stringify(params)).toEqual(error);
      }
      expect(await wire.state()).toEqual(before);
    });

    test('openOrders: GET per symbol or all, oldest first; DELETE cancels a symbol, then -2011 when nothing is open', async ({ wire }) => {
      const a = await wire.rest('BUY', '50000', '0.001');
      const e = await wire.rest('BUY', '2000', '0.01', { symbol: 'ETHUSDT' });
      const b = await wire.rest('SELL', '70000', '0.001');
      const btc = await wire.signed('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
      expect(btc.status).toBe(200);
      expect(btc.body.map((o: { orderId: number }) => o.orderId)).toEqual([a.orderId, b.orderId]);
      for (const o of btc.body) expect(Object.keys(o)).toEqual(QUERY);
      const all = await wire.signed('GET', '/api/v3/openOrders');
      expect(all.body.map((o: { orderId: number }) => o.orderId)).toEqual([a.orderId, e.orderId, b.orderId]);

      const cancelled = await wire.signed('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.map((c: { orderId: number; status: string }) => [c.orderId, c.status])).toEqual([
        [a.orderId, 'CANCELED'],
        [b.orderId, 'CANCELED'],
      ]);
      for (const c of cancelled.body) expect(Object.keys(c)).toEqual(CANCEL);
      expect((await wire.signed('GET', '/api/v3/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
      const none = await wire.signed('DELETE', '/api/v3/openOrders', { symbol: 'BTCUSDT' });
      expect(none.status).toBe(400);
      expect(none.body).toEqual(UNKNOWN_ORDER);
      expect((await wire.openOrders()).map((o) => o.orderId)).toEqual([e.orderId]);
      expect((await wire.balances()).BTC).toEqual({ free: '100.00000000', locked: '0.00000000' });

      const noSymbol = await wire.signed('DELETE', '/api/v3/openOrders');
      expect(noSymbol.status).toBe(400);
      expect(noSymbol.body).toEqual({ code: -1102, msg: "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed." });
      expect((await wire.signed('GET', '/api/v3/openOrders', { symbol: 'NOPE' })).body).toEqual({ code: -1121, msg: 'Invalid symbol.' });
    });
  });
}
