// sim.reset() (API.md section 3): back to the starting state with the listeners kept. On a
// manual clock with the generator running, so "the starting state" is exact: the seeded book
// (levels and lastUpdateId), the configured balances, no open orders, order and trade ids from
// the start, no trades, no listen key; and the generator replays the same book from there.
import { test, expect } from 'spot-sim/fixture';
import type { Depth } from 'spot-sim';
import { closeRawConnections, RawWs } from './support/raw-ws.ts';
import { buy, SYMBOL } from './support/helpers.ts';

test.use({ simConfig: { sim: { clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { seed_levels: 20 } } } });
test.afterEach(closeRawConnections);

const book = (d: Depth) => ({ lastUpdateId: d.lastUpdateId, bids: d.bids, asks: d.asks });

test('after orders, fills and generator activity, reset returns balances, open orders, ids and the book to the start', async ({ sim, client, faults }) => {
  // The worker's simulator is fresh: this is the starting state.
  const start = {
    btc: book(await client.rest.depth({ symbol: SYMBOL, limit: 1000 })),
    eth: book(await client.rest.depth({ symbol: 'ETHUSDT', limit: 1000 })),
    balances: (await client.rest.account()).balances,
  };
  expect(start.btc.bids).toHaveLength(20);
  expect(start.btc.asks).toHaveLength(20);
  expect(start.balances.filter((b) => b.asset === 'BTC' || b.asset === 'USDT')).toEqual([
    { asset: 'BTC', free: '100.00000000', locked: '0.00000000' },
    { asset: 'USDT', free: '10000000.00000000', locked: '0.00000000' },
  ]);
  sim.advanceTime(2_000);
  const later = book(await client.rest.depth({ symbol: SYMBOL, limit: 1000 }));
  expect(later).not.toEqual(start.btc);

  // Activity: a taker order that fills, resting orders, a forced fill, a listen key.
  const firstId = (await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.01' })).orderId;
  const resting = await client.rest.newOrder(buy('55000', '0.002', { newClientOrderId: 'before-reset' }));
  // Sweeps every generator bid above 55000 first, then half of ours.
  expect(await faults.fillOpenOrder(resting.orderId, '0.001')).toBe('0.00100000');
  await client.rest.newOrder(buy('54000'));
  expect(sim.openClientOrderIds()).toHaveLength(2);
  const trades = await client.rest.myTrades({ symbol: SYMBOL });
  expect(trades.length).toBeGreaterThan(1);
  const { listenKey } = await client.rest.startUserDataStream();
  const md = await RawWs.open(sim, '/ws/btcusdt@depth');
  sim.advanceTime(1_000);
  expect((await client.rest.account()).balances).not.toEqual(start.balances);

  sim.reset();

  expect(book(await client.rest.depth({ symbol: SYMBOL, limit: 1000 }))).toEqual(start.btc);
  expect(book(await client.rest.depth({ symbol: 'ETHUSDT', limit: 1000 }))).toEqual(start.eth);
  expect((await client.rest.account()).balances).toEqual(start.balances);
  await expect(client.rest.openOrders()).resolves.toEqual([]);
  expect(sim.openClientOrderIds()).toEqual([]);
  await expect(client.rest.myTrades({ symbol: SYMBOL })).resolves.toEqual([]);
  expect(await client.rest.keepAliveUserDataStream(listenKey).catch((e: { code: number }) => e.code)).toBe(-1125);
  expect(sim.stats().sinceMark).toMatchObject({ orders: 0, fills: 0, cancels: 0 });
  // Open WebSockets were closed: update and order ids start over, a client must resync.
  await md.closedWithin();
  // The listeners are kept and the client can go on.
  const again = await RawWs.open(sim, '/ws-api/v3');
  expect((await again.call('ping')).status).toBe(200);

  // The same ids as from the start, and the generator replays the same book.
  sim.advanceTime(2_000);
  expect(book(await client.rest.depth({ symbol: SYMBOL, limit: 1000 }))).toEqual(later);
  const replay = await client.rest.newOrder({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: '0.01' });
  expect(replay.orderId).toBe(firstId);
  expect((await client.rest.myTrades({ symbol: SYMBOL }))[0]!.id).toBe(trades[0]!.id);
});
