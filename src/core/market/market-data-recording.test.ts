// Every public trade goes to its symbol's market data as the matcher makes it: the tape holds
// exactly the trades the events reported, and a taker's fills at one price form one aggregate
// trade, never joined with another taker's (aggTrades, @aggTrade).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { advance, busyExchange, counterparty, counterpartyMarket, lots, makeExchange, T0, ticks } from '../test-support.ts';
import type { CoreEvent, PublicTrade } from '../types.ts';

const BTC = 'BTCUSDT';
const tradesOf = (events: readonly CoreEvent[]) => events.filter((e): e is PublicTrade => e.type === 'trade');

test('a taker sweeping two prices makes two aggregates; the next taker at the same price makes its own', () => {
  const ex = makeExchange();
  const btc = ex.instrument(BTC)!.index;
  counterparty(ex, BTC, 'SELL', '61000', '1');
  counterparty(ex, BTC, 'SELL', '61000', '1');
  counterparty(ex, BTC, 'SELL', '61001', '3');
  const sweep = tradesOf(counterpartyMarket(ex, btc, 'BUY', lots(ex, BTC, '2.5'), T0 + 5));
  const next = tradesOf(counterpartyMarket(ex, btc, 'BUY', lots(ex, BTC, '1'), T0 + 6));
  assert.deepEqual([...sweep, ...next].map((t) => t.price), [61000, 61000, 61001, 61001].map((p) => ticks(ex, BTC, String(p))));
  const md = ex.marketData.of(btc);
  const aggs = md.aggTrades({ limit: 10 });
  assert.deepEqual(
    aggs.map((a) => [a.price, a.qty, a.firstId, a.lastId, a.time, a.buyerIsMaker]),
    [
      [ticks(ex, BTC, '61000'), lots(ex, BTC, '2'), sweep[0]!.tradeId, sweep[1]!.tradeId, T0 + 5, false],
      [ticks(ex, BTC, '61001'), lots(ex, BTC, '0.5'), sweep[2]!.tradeId, sweep[2]!.tradeId, T0 + 5, false],
      [ticks(ex, BTC, '61001'), lots(ex, BTC, '1'), next[0]!.tradeId, next[0]!.tradeId, T0 + 6, false],
    ],
  );
});

test('the generator\'s trades during an advance are on the tape exactly as their events reported them', () => {
  const ex = busyExchange(7);
  const reported: PublicTrade[] = [];
  for (let now = T0; now < T0 + 20_000; now += 1000) reported.push(...tradesOf(advance(ex, now)));
  assert.ok(reported.length > 50, `only ${reported.length} trades`);
  for (const inst of ex.instruments) {
    const mine = reported.filter((t) => t.symbol === inst.symbol);
    assert.ok(mine.length < 1000, 'one page of trades holds them all');
    const md = ex.marketData.of(inst.index);
    const kept = md.trades(mine[0]?.tradeId ?? 1, 1000);
    assert.deepEqual(
      kept.map((t) => [t.id, t.price, t.qty, t.time, t.buyerIsMaker]),
      mine.map((t) => [t.tradeId, t.price, t.qty, t.time, t.buyerIsMaker]),
      inst.symbol,
    );
    // Aggregates never span two times (two takers) and cover every trade once.
    const aggs = md.aggTrades({ fromId: 1, limit: 1000 });
    assert.equal(aggs.reduce((n, a) => n + a.lastId - a.firstId + 1, 0), kept.length);
    for (const a of aggs) for (const t of kept) if (t.id >= a.firstId && t.id <= a.lastId) assert.deepEqual([t.time, t.price], [a.time, a.price]);
  }
});
