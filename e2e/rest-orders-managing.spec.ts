// Orders after placing, over REST end to end on both listeners: query and cancel by either id,
// cancelReplace in both modes with its -2021/-2022 `data` (binance-facts §2.5),
// amend/keepPriority, and openOrders (GET and DELETE). Fills need a counterparty: resting
// generator-side orders are placed straight into the book, since the account's own orders
// self-trade-prevent. Placing is in rest-orders-placing.spec.ts.
import { counterparty, expect, LISTENERS, test } from './support/rest.ts';
import { ACK, FULL, QUERY, CANCEL, AMENDED, UNKNOWN_ORDER, NO_SUCH_ORDER, WOULD_TAKE } from './support/order-replies.ts';

for (const listener of LISTENERS) {
  test.describe(`orders over ${listener}`, () => {
    test.use({ listener });

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
