// Placing orders over REST end to end, on both listeners: every order type and time in force,
// the three response kinds and their per-type defaults (binance-facts §3.6), order/test, a
// duplicate client order id and self-trade prevention. Fills need a counterparty: resting
// generator-side orders are placed straight into the book, since the account's own orders
// self-trade-prevent. Query, cancel, cancelReplace, amend and openOrders are in
// rest-orders-managing.spec.ts.
import { counterparty, expect, LISTENERS, test } from './support/rest.ts';
import { ACK, RESULT, FULL, NO_SUCH_ORDER, WOULD_TAKE } from './support/order-replies.ts';

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
  });
}
