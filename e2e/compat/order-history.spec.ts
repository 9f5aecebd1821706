// Compatibility of the order history (API.md section 10) with real client libraries, on a
// simulator with `ended_orders = "keep"`: ccxt's fetchOrder of a filled and of a cancelled
// order, fetchOrders, fetchClosedOrders and fetchCanceledOrders (all read GET allOrders),
// @binance/spot's allOrders and binance-api-node's allOrders, each compared with what the
// simulator holds (the typed client's allOrders). And the default ("forget") still answers
// -2013, which ccxt reports as OrderNotFound. Each library is pointed at the simulator the way
// the other compat specs do it (ccxt-rest, binance-spot-rest, binance-api-node).
import ccxt from 'ccxt';
import { Spot } from '@binance/spot';
import BinanceModule from 'binance-api-node';
import { test as simTest, expect, type SimConfigInput, type Simulator, type SpotSimClient } from 'spot-sim/fixture';

type Binance = InstanceType<typeof ccxt.binance>;
const BinanceApiNode = BinanceModule.default;

simTest.describe.configure({ timeout: 60_000 });

const QUIET = { generator: { enabled: false } };

/** The fixture's test on a worker of its own with this configuration. */
const withConfig = (simConfig: SimConfigInput) => simTest.extend<object, { simConfig: SimConfigInput }>({ simConfig: [simConfig, { scope: 'worker' }] });
const keepTest = withConfig({ sim: { ...QUIET, account: { ended_orders: 'keep' } } });
const forgetTest = withConfig({ sim: QUIET });

function ccxtAt(sim: Simulator): Binance {
  const exchange = new ccxt.binance({
    apiKey: sim.credentials.apiKey,
    secret: sim.credentials.apiSecret,
    timeout: 4000,
    options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
  });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [name, url] of Object.entries(api)) {
    if (typeof url === 'string') api[name] = sim.urls.http + new URL(url).pathname;
  }
  return exchange;
}

/** A counterparty ask the account's MARKET BUY fills against (the generator is off). */
function askFor(sim: Simulator, quantity: string): void {
  sim.market.place({ symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '60010', quantity });
}

/** What the simulator holds: orderId -> status, from GET allOrders through the typed client. */
async function held(client: SpotSimClient): Promise<Map<string, string>> {
  const rows = await client.rest.allOrders({ symbol: 'BTCUSDT' });
  return new Map(rows.map((o) => [String(o.orderId), o.status]));
}

keepTest.describe('ended_orders = "keep"', () => {
  keepTest('ccxt: fetchOrder of a filled and a cancelled order; fetchOrders, fetchClosedOrders, fetchCanceledOrders', async ({ sim, client }) => {
    const exchange = ccxtAt(sim);
    try {
      await exchange.loadMarkets();
      const resting = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
      await exchange.cancelOrder(resting.id!, 'BTC/USDT');
      askFor(sim, '0.001');
      const bought = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.001);
      expect(bought.status).toBe('closed');
      const open = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50001);

      // The polling loop of a bot: the order is still there once it has ended.
      const cancelled = await exchange.fetchOrder(resting.id!, 'BTC/USDT');
      expect(cancelled).toMatchObject({ id: resting.id, clientOrderId: resting.clientOrderId, status: 'canceled', filled: 0, price: 50000 });
      const filled = await exchange.fetchOrder(bought.id!, 'BTC/USDT');
      expect(filled).toMatchObject({ id: bought.id, status: 'closed', type: 'market', side: 'buy', filled: 0.001, remaining: 0 });
      expect(filled.average).toBeCloseTo(60010, 6);

      const all = await exchange.fetchOrders('BTC/USDT');
      const holds = await held(client);
      expect(new Map(all.map((o) => [o.id, o.status]))).toEqual(
        new Map([...holds].map(([id, status]) => [id, status === 'NEW' ? 'open' : status === 'FILLED' ? 'closed' : 'canceled'])),
      );
      expect(all.map((o) => o.id)).toEqual([resting.id, bought.id, open.id]);
      expect((await exchange.fetchClosedOrders('BTC/USDT')).map((o) => o.id)).toEqual([bought.id]);
      expect((await exchange.fetchCanceledOrders('BTC/USDT')).map((o) => o.id)).toEqual([resting.id]);
    } finally {
      await exchange.close();
    }
  });

  keepTest('@binance/spot allOrders and binance-api-node allOrders list what the simulator holds', async ({ sim, client }) => {
    const cancelledId = (await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '50000', quantity: '0.001' })).orderId;
    await client.rest.cancelOrder({ symbol: 'BTCUSDT', orderId: cancelledId });
    askFor(sim, '0.002');
    const filledId = (await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' })).orderId;
    const rows = await client.rest.allOrders({ symbol: 'BTCUSDT' });
    expect(rows.map((o) => [o.orderId, o.status])).toEqual([
      [cancelledId, 'CANCELED'],
      [filledId, 'FILLED'],
    ]);

    const spot = new Spot({ configurationRestAPI: { apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, basePath: sim.urls.http, timeout: 4000, retries: 0 } });
    const spotRes = await spot.restAPI.allOrders({ symbol: 'BTCUSDT' });
    expect(spotRes.status).toBe(200);
    expect(await spotRes.data()).toEqual(rows);
    const fromFilled = await (await spot.restAPI.allOrders({ symbol: 'BTCUSDT', orderId: filledId })).data();
    expect(fromFilled.map((o) => o.orderId)).toEqual([filledId]);

    const node = BinanceApiNode({ apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, httpBase: sim.urls.http });
    const nodeRows = await node.allOrders({ symbol: 'BTCUSDT' });
    expect(nodeRows).toEqual(rows);
    expect((await node.getOrder({ symbol: 'BTCUSDT', orderId: filledId })).status).toBe('FILLED');
  });
});

forgetTest.describe('ended_orders = "forget" (the default)', () => {
  forgetTest('ccxt: fetchOrder of a filled order is OrderNotFound (-2013); fetchOrders lists the open ones only', async ({ sim }) => {
    const exchange = ccxtAt(sim);
    try {
      await exchange.loadMarkets();
      askFor(sim, '0.001');
      const bought = await exchange.createOrder('BTC/USDT', 'market', 'buy', 0.001);
      expect(bought.status).toBe('closed');
      const open = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
      await expect(exchange.fetchOrder(bought.id!, 'BTC/USDT')).rejects.toBeInstanceOf(ccxt.OrderNotFound);
      expect((await exchange.fetchOrders('BTC/USDT')).map((o) => o.id)).toEqual([open.id]);
    } finally {
      await exchange.close();
    }
  });
});
