// Market-data streams end to end on both listeners: the reference "local order book"
// algorithm run against the live generator for BTCUSDT and ETHUSDT at once and checked against
// REST snapshots at the same update id; one contiguous depthUpdate per symbol per batch; the
// three depth suffixes carrying the same batches; `trade` sent at once on a fill with its
// `m`/`M` fields; `bookTicker` sent when (and only when) the touch changed.
import { counterparty, type Wire } from './support/rest.ts';
import { LocalBook } from './support/local-book.ts';
import { expect, SCHEMES, test, wsTestWith, type Frame, type WsClient } from './support/ws.ts';

const SYNC_MS = 3000;

const depthOf = (stream: string) => (f: Frame) => f.stream === stream && f.data?.e === 'depthUpdate';

async function snapshot(rest: Wire, symbol: string) {
  const r = await rest.get('/api/v3/depth', { symbol, limit: 5000 });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };
}

/**
 * binance-facts §5 for one symbol on a combined connection: buffer, snapshot (again while it is
 * older than the first buffered U), drop u <= lastUpdateId, apply with U == prev u + 1. Every
 * second, and at the end, a REST snapshot is compared with the local book at its update id
 * (`depth_snapshot = flushed` makes snapshots fall on published batch boundaries).
 */
async function runLocalBook(client: WsClient, rest: Wire, symbol: string): Promise<number> {
  const isEvent = depthOf(`${symbol.toLowerCase()}@depth`);
  const book = new LocalBook(symbol);
  const first = (await client.next(isEvent, 5000, `${symbol} depthUpdate`)).data;
  let snap = await snapshot(rest, symbol);
  for (let i = 0; snap.lastUpdateId < first.U; i++) {
    expect(i, 'snapshot never caught up with the stream').toBeLessThan(20);
    snap = await snapshot(rest, symbol);
  }
  book.seed(snap);
  book.apply(first);
  let verified = 0;
  const verify = async () => {
    const s = await snapshot(rest, symbol);
    while (book.updateId < s.lastUpdateId) book.apply((await client.next(isEvent, 5000, `${symbol} depthUpdate`)).data);
    expect(book.updateId, `${symbol}: snapshot id is a published u`).toBe(s.lastUpdateId);
    const local = book.levels();
    expect(s.bids.length).toBeLessThan(5000); // the whole book fits, so the whole book must match
    expect(s.asks.length).toBeLessThan(5000);
    expect(local.bids, `${symbol} bids at ${s.lastUpdateId}`).toEqual(s.bids);
    expect(local.asks, `${symbol} asks at ${s.lastUpdateId}`).toEqual(s.asks);
    expect(local.bids.length).toBeGreaterThan(0);
    verified++;
  };
  const start = performance.now();
  let nextCheck = start + 1000;
  while (performance.now() - start < SYNC_MS) {
    book.apply((await client.next(isEvent, 5000, `${symbol} depthUpdate`)).data);
    if (performance.now() >= nextCheck) {
      await verify();
      nextCheck += 1000;
    }
  }
  await verify();
  expect(verified).toBeGreaterThanOrEqual(3);
  return book.applied;
}

for (const scheme of SCHEMES) {
  test.describe(`${scheme}, generator on`, () => {
    const test = wsTestWith({ generator: { enabled: true }, depth_snapshot: 'flushed' });
    test.use({ scheme });

    test('depth sync: the local order book of BTCUSDT and ETHUSDT equals REST snapshots at the same update id', async ({ connect, rest }) => {
      const client = await connect('/stream?streams=btcusdt@depth/ethusdt@depth');
      const [btc, eth] = await Promise.all([runLocalBook(client, rest, 'BTCUSDT'), runLocalBook(client, rest, 'ETHUSDT')]);
      expect(btc).toBeGreaterThan(10);
      expect(eth).toBeGreaterThan(10);

      // Over everything received: per symbol, U = previous u + 1 from the first event on, and
      // one event per batch (event times strictly increase; a batch stamps every symbol alike).
      const events = client.log.filter((f) => f.data?.e === 'depthUpdate').map((f) => ({ stream: f.stream as string, ...f.data }));
      for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
        const mine = events.filter((e) => e.s === symbol);
        expect(mine.every((e) => e.stream === `${symbol.toLowerCase()}@depth`)).toBe(true);
        for (let i = 1; i < mine.length; i++) {
          expect(mine[i].U, `${symbol} event ${i}`).toBe(mine[i - 1].u + 1);
          expect(mine[i].E).toBeGreaterThan(mine[i - 1].E);
        }
        for (const e of mine) {
          expect(e.u).toBeGreaterThanOrEqual(e.U);
          expect(e.b.length + e.a.length).toBeGreaterThan(0);
        }
      }
      const batches = new Map<number, string[]>();
      for (const e of events) batches.set(e.E, [...(batches.get(e.E) ?? []), e.s]);
      for (const symbols of batches.values()) expect(new Set(symbols).size).toBe(symbols.length);
      // Both symbols change in most batches, so many batches carry one event of each.
      expect([...batches.values()].filter((s) => s.length === 2).length).toBeGreaterThan(5);
    });

    test('@depth, @depth@100ms and @depth@1000ms carry the same batches, raw and combined', async ({ connect }) => {
      const suffixes = ['@depth', '@depth@100ms', '@depth@1000ms'];
      const raw = await Promise.all(suffixes.map((s) => connect(`/ws/btcusdt${s}`)));
      const combined = await connect(`/stream?streams=${suffixes.map((s) => `btcusdt${s}`).join('/')}`);
      const clients = [...raw, combined];
      // Wait until every connection has seen 6 batches from the latest first event among them.
      const firstEvent = (c: WsClient) => c.until(() => c.log.map((f) => f.data ?? f).find((e) => e.e === 'depthUpdate'), 5000, 'a depthUpdate');
      const from = Math.max(...(await Promise.all(clients.map(firstEvent))).map((e) => e.U as number));
      const upTo = (c: WsClient) =>
        c.until(() => {
          const seen = c.log.map((f) => f.data ?? f).filter((e) => e.e === 'depthUpdate' && e.U >= from);
          return seen.length >= 6 * (c === combined ? 3 : 1) ? seen : undefined;
        }, 5000, '6 batches');
      const seen = await Promise.all(clients.map(upTo));
      const reference = seen[0]!.slice(0, 6);
      expect(reference.map((e) => e.s)).toEqual(Array(6).fill('BTCUSDT'));
      for (const events of seen.slice(0, 3)) expect(events.slice(0, 6)).toEqual(reference);
      // Combined: each batch comes once per subscribed name, in a row, with the same payload.
      const frames = combined.log.filter((f) => f.data?.e === 'depthUpdate' && f.data.U >= from).slice(0, 18);
      for (let i = 0; i < 6; i++) {
        expect(frames.slice(3 * i, 3 * i + 3).map((f) => f.stream)).toEqual(suffixes.map((s) => `btcusdt${s}`));
        for (const f of frames.slice(3 * i, 3 * i + 3)) expect(f.data).toEqual(reference[i]);
      }
      // The 1000ms stream gets the depth_update_ms (100 ms) batches too.
      const times = seen[2]!.slice(0, 6).map((e) => e.E);
      expect(times[5]! - times[0]!).toBeLessThan(2500);
    });
  });

  test.describe(`${scheme}, generator off, long depth batches`, () => {
    const test = wsTestWith({ depth_update_ms: 60_000 });
    test.use({ scheme });

    test('trade: sent at once on a fill, on raw and combined streams, with m (buyer is maker) and M', async ({ sim, connect, rest }) => {
      const raw = await connect('/ws/btcusdt@trade/btcusdt@depth');
      const combined = await connect('/stream?streams=btcusdt@trade');
      // The account buys from a resting counterparty ask: the buyer is the taker, m = false.
      counterparty(sim, 'BTCUSDT', 'SELL', '61000.00', '0.003');
      const buy = await rest.order({ side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '61000', quantity: '0.002', newOrderRespType: 'FULL' });
      expect(buy.status, JSON.stringify(buy.body)).toBe(200);
      const fill = buy.body.fills[0];
      const expected = { e: 'trade', s: 'BTCUSDT', t: fill.tradeId, p: '61000.00000000', q: '0.00200000', m: false, M: true };
      // Depth batches are a minute apart here, so the trade cannot have waited for one.
      const t1 = await raw.next((f) => f.e === 'trade', 2000, 'trade');
      expect(t1).toMatchObject(expected);
      expect(t1.T).toBe(buy.body.transactTime);
      expect(t1.E).toBe(t1.T);
      expect(raw.log.some((f) => f.e === 'depthUpdate')).toBe(false);
      expect(await combined.next(() => true, 2000, 'trade')).toEqual({ stream: 'btcusdt@trade', data: t1 });

      // The account sells into a resting counterparty bid: the buyer is the maker, m = true.
      counterparty(sim, 'BTCUSDT', 'BUY', '59000.00', '0.001');
      const sell = await rest.order({ side: 'SELL', type: 'MARKET', quantity: '0.001', newOrderRespType: 'FULL' });
      expect(sell.status, JSON.stringify(sell.body)).toBe(200);
      const t2 = await raw.next((f) => f.e === 'trade', 2000, 'second trade');
      expect(t2).toMatchObject({ e: 'trade', s: 'BTCUSDT', t: sell.body.fills[0].tradeId, p: '59000.00000000', q: '0.00100000', m: true, M: true });
      expect(t2.t).toBeGreaterThan(t1.t);
      expect((await combined.next(() => true, 2000, 'second trade')).data).toEqual(t2);
      // An ETHUSDT fill reaches ETHUSDT subscribers only.
      const eth = await connect('/ws/ethusdt@trade');
      counterparty(sim, 'ETHUSDT', 'SELL', '3000.00', '0.01');
      expect((await rest.order({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01' })).status).toBe(200);
      expect(await eth.next(() => true, 2000, 'ETH trade')).toMatchObject({ e: 'trade', s: 'ETHUSDT', m: false });
      raw.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
      expect(await raw.next(() => true, 2000, 'reply')).toEqual({ result: ['btcusdt@trade', 'btcusdt@depth'], id: 1 });
    });
  });

  test.describe(`${scheme}, generator off`, () => {
    test.use({ scheme });

    test('bookTicker: after the batch that changed the touch, with the batch update id; not when the touch held', async ({ connect, rest }) => {
      const client = await connect('/stream?streams=btcusdt@depth/btcusdt@bookTicker');
      const depth = (price: string) => client.next((f) => f.stream === 'btcusdt@depth' && [...f.data.b, ...f.data.a].some((l: string[]) => l[0] === price), 5000, `depth at ${price}`);
      const indexOf = (frame: Frame) => client.log.indexOf(frame);

      await rest.rest('BUY', '50000', '0.001');
      const d1 = await depth('50000.00000000');
      const t1 = await client.next((f) => f.stream === 'btcusdt@bookTicker', 5000, 'bookTicker');
      expect(t1.data).toEqual({ u: d1.data.u, s: 'BTCUSDT', b: '50000.00000000', B: '0.00100000', a: '0.00000000', A: '0.00000000' });
      expect(indexOf(t1)).toBe(indexOf(d1) + 1);

      // A level behind the touch: a depthUpdate, no bookTicker.
      await rest.rest('BUY', '49000', '0.001');
      const d2 = await depth('49000.00000000');
      // The touch quantity changes: the next frames are that batch's depthUpdate and bookTicker.
      await rest.rest('BUY', '50000', '0.002');
      const d3 = await depth('50000.00000000');
      const t3 = await client.next((f) => f.stream === 'btcusdt@bookTicker', 5000, 'bookTicker');
      expect(indexOf(d3)).toBe(indexOf(d2) + 1);
      expect(indexOf(t3)).toBe(indexOf(d3) + 1);
      expect(t3.data).toEqual({ u: d3.data.u, s: 'BTCUSDT', b: '50000.00000000', B: '0.00300000', a: '0.00000000', A: '0.00000000' });

      // The ask side.
      await rest.rest('SELL', '51000', '0.004');
      const d4 = await depth('51000.00000000');
      const t4 = await client.next((f) => f.stream === 'btcusdt@bookTicker', 5000, 'bookTicker');
      expect(indexOf(t4)).toBe(indexOf(d4) + 1);
      expect(t4.data).toEqual({ u: d4.data.u, s: 'BTCUSDT', b: '50000.00000000', B: '0.00300000', a: '51000.00000000', A: '0.00400000' });
      // REST bookTicker agrees with the stream.
      expect((await rest.get('/api/v3/ticker/bookTicker', { symbol: 'BTCUSDT' })).body).toEqual({
        symbol: 'BTCUSDT',
        bidPrice: '50000.00000000',
        bidQty: '0.00300000',
        askPrice: '51000.00000000',
        askQty: '0.00400000',
      });
    });
  });
}
