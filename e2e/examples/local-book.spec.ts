// Example: a bot keeping a local order book from `btcusdt@depth` and REST snapshots (the
// reference algorithm, bots/local-order-book.ts). The simulator skips one depth update; the
// bot must see the gap (U != previous u + 1), resync by itself, and afterwards hold exactly
// the book a fresh snapshot shows at the same update id. `depth_snapshot = 'flushed'` makes
// REST snapshots the book as last published, so "the same update id" is one the bot reaches.
import { once } from 'node:events';
import { test, expect } from 'spot-sim/fixture';
import { LocalOrderBook, type Gap } from './bots/local-order-book.ts';

test.use({ simConfig: { sim: { depth_snapshot: 'flushed' } } });

type Levels = ReturnType<LocalOrderBook['levels']>;

/** The next `name` event of the bot (its arguments), or a failure after `ms`. */
async function nextEvent(bot: LocalOrderBook, name: string, ms = 5_000): Promise<unknown[]> {
  try {
    return await once(bot, name, { signal: AbortSignal.timeout(ms) });
  } catch (error) {
    throw new Error(`the bot emitted no '${name}' within ${ms} ms (book id ${bot.updateId}, gaps ${JSON.stringify(bot.gaps)})`, { cause: error });
  }
}

/** Waits until the bot has applied `n` more diffs. */
async function appliedDiffs(bot: LocalOrderBook, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await nextEvent(bot, 'applied');
}

test('the bot notices the skipped depth update, resyncs once, and its book equals a fresh snapshot', async ({ sim, client, faults }) => {
  const bot = new LocalOrderBook({ wsBaseUrl: sim.urls.ws, restBaseUrl: sim.urls.http, symbol: 'BTCUSDT' });
  // The bot's whole book at every id it reaches, to compare with a snapshot taken at that id.
  const bookAt = new Map<number, Levels>();
  const record = (id: number) => bookAt.set(id, bot.levels());
  bot.on('applied', record);
  bot.on('synced', record);
  try {
    await bot.start();
    expect(bot.snapshotsUsed).toHaveLength(1);
    await appliedDiffs(bot, 3); // live: the generator's diffs go on top of the snapshot
    expect(bot.gaps).toEqual([]);

    const gapSeen = nextEvent(bot, 'gap');
    const resynced = nextEvent(bot, 'synced');
    faults.skipNextDepthUpdate();
    const [gap] = (await gapSeen) as [Gap];
    await resynced;
    expect(gap.U).toBeGreaterThan(gap.bookId + 1);
    expect(bot.gaps).toEqual([gap]);
    expect(bot.snapshotsUsed).toHaveLength(2);
    expect(bot.snapshotsUsed[1]).toBeGreaterThanOrEqual(gap.u);
    expect(bot.live).toBe(true);

    // Diffs keep applying on the rebuilt book; then it must equal a fresh snapshot.
    await appliedDiffs(bot, 5);
    for (let round = 0; round < 2; round++) {
      const snapshot = await client.rest.depth({ symbol: 'BTCUSDT', limit: 5000 });
      while (bot.updateId < snapshot.lastUpdateId) await nextEvent(bot, 'applied');
      const mine = bookAt.get(snapshot.lastUpdateId);
      expect(mine, `the bot's book at update id ${snapshot.lastUpdateId}`).toBeDefined();
      expect(mine!.bids.length + mine!.asks.length).toBeGreaterThan(0);
      expect(mine).toEqual({ bids: snapshot.bids, asks: snapshot.asks });
      await appliedDiffs(bot, 2);
    }
    expect(bot.gaps).toHaveLength(1);
    expect(bot.snapshotsUsed).toHaveLength(2);
  } finally {
    await bot.stop();
  }
});
