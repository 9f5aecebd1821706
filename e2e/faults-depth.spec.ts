// skip_next_depth_update (spec 4.5) as a client keeping a local order book sees it (binance-facts
// §5): a manual clock with the generator running, so every depth batch is produced by
// `sim.advanceTime` and a REST snapshot taken at a batch boundary names the last u published —
// the barrier up to which the stream is read. Nothing waits on wall time.
import { test, expect, type SpotSimClient } from 'spot-sim/fixture';
import type { DepthUpdateEvent, MarketStream } from 'spot-sim';
import { LocalBook, type DepthSnapshot as DepthLike } from './support/local-book.ts';
import { SYMBOL } from './support/helpers.ts';

async function snapshot(client: SpotSimClient): Promise<DepthLike> {
  return client.rest.depth({ symbol: SYMBOL, limit: 1000 });
}

test.use({ simConfig: { sim: { clock: 'manual', start_time_ms: 1_700_000_000_000 } } });
test.beforeEach(({ sim }) => sim.reset());

test.describe('skipNextDepthUpdate', () => {
  /** Diffs of `stream` up to the one that ends at `updateId` (the REST snapshot's): what a batch boundary published. */
  async function diffsUpTo(md: MarketStream, updateId: number, lastSeen: number): Promise<DepthUpdateEvent[]> {
    const out: DepthUpdateEvent[] = [];
    let last = lastSeen;
    while (last < updateId) {
      const d = await md.nextOf<DepthUpdateEvent>('btcusdt@depth');
      out.push(d);
      last = d.u;
    }
    expect(last).toBe(updateId);
    return out;
  }

  test('the client sees U != prev u + 1 exactly once; a fresh REST snapshot is consistent with the stream and the book', async ({ sim, client, faults }) => {
    const md = await client.streams('btcusdt@depth');
    const start = await snapshot(client);
    const book = LocalBook.from(start);
    const seen: DepthUpdateEvent[] = [];
    let lastU = start.lastUpdateId;

    // Steady state: every diff continues the previous one and the local book equals the snapshot.
    for (let i = 0; i < 3; i++) {
      sim.advanceTime(500);
      const s = await snapshot(client);
      for (const d of await diffsUpTo(md, s.lastUpdateId, lastU)) {
        seen.push(d);
        lastU = d.u;
        book.apply(d);
      }
      expect(book.levels()).toEqual({ bids: s.bids, asks: s.asks });
    }
    // One diff per advanceTime: a jump's batches reach the stream merged (docs/time.md).
    expect(seen).toHaveLength(3);

    faults.skipNextDepthUpdate();
    sim.advanceTime(1_000);
    const afterGap = await snapshot(client);
    for (const d of await diffsUpTo(md, afterGap.lastUpdateId, lastU)) {
      seen.push(d);
      lastU = d.u;
    }
    sim.advanceTime(1_000);
    const resync = await snapshot(client);
    const resynced = LocalBook.from(resync);
    seen.push(...(await diffsUpTo(md, resync.lastUpdateId, lastU)));

    const gaps = seen.filter((d, i) => i > 0 && d.U !== seen[i - 1]!.u + 1);
    expect(gaps).toHaveLength(1);
    expect(gaps[0]!.U).toBeGreaterThan(seen[seen.indexOf(gaps[0]!) - 1]!.u + 1);
    expect(seen[0]!.U).toBe(start.lastUpdateId + 1);

    // After the gap a client resyncs from REST: the snapshot lines up with the stream (its
    // lastUpdateId is a published u) and equals the book the diffs then keep up to date.
    expect(seen.some((d) => d.u === afterGap.lastUpdateId)).toBe(true);
    sim.advanceTime(500);
    const latest = await snapshot(client);
    for (const d of await diffsUpTo(md, latest.lastUpdateId, resync.lastUpdateId)) {
      expect(d.U).toBe(resynced.updateId + 1);
      resynced.apply(d);
    }
    expect(resynced.levels()).toEqual({ bids: latest.bids, asks: latest.asks });
    const touch = sim.stats().touch[SYMBOL]!;
    expect([Number(touch.bid), Number(touch.ask)]).toEqual([Number(latest.bids[0]![0]), Number(latest.asks[0]![0])]);
  });

  test('clear() cancels a skip that has not happened yet', async ({ sim, client, faults }) => {
    const md = await client.streams('btcusdt@depth');
    const start = await snapshot(client);
    faults.skipNextDepthUpdate();
    faults.clear();
    sim.advanceTime(1_000);
    const s = await snapshot(client);
    const diffs = await diffsUpTo(md, s.lastUpdateId, start.lastUpdateId);
    expect(diffs[0]!.U).toBe(start.lastUpdateId + 1);
    diffs.forEach((d, i) => i > 0 && expect(d.U).toBe(diffs[i - 1]!.u + 1));
  });
});
