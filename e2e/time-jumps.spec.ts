// One long manual-clock jump (docs/time.md): heartbeats are the transport's and run on the wall
// clock, so `advanceTime` of any length leaves live WebSockets open; the exchange's timers run on
// the simulated clock, so a jump past a listen key's validity delivers `listenKeyExpired` to its
// live stream, at the key's own instant.
import { apiOn, expect, ok, SCHEMES, test, wsTestWith } from './support/ws.ts';

const VALIDITY_MS = 3_600_000;

for (const scheme of SCHEMES) {
  test.describe(`${scheme}, manual clock`, () => {
    const test = wsTestWith({ clock: 'manual', listen_key_validity_ms: VALIDITY_MS });
    test.use({ scheme });

    test('one advanceTime(3_600_001) delivers listenKeyExpired to the live stream; no socket is cut', async ({ sim, connect, rest }) => {
      const key = (await rest.keyed('POST', '/api/v3/userDataStream')).body.listenKey as string;
      const createdAt = sim.now();
      const user = await connect(`/ws/${key}`);
      const market = await connect('/ws/btcusdt@trade');
      const api = await connect('/ws-api/v3');
      sim.advanceTime(VALIDITY_MS + 1);
      expect(await user.next((f) => f.e === 'listenKeyExpired', 5000, 'listenKeyExpired')).toEqual({ e: 'listenKeyExpired', E: createdAt + VALIDITY_MS, listenKey: key });
      // The market-data and WS API connections lived through the jump and still answer.
      market.send({ method: 'LIST_SUBSCRIPTIONS', id: 7 });
      expect(await market.next((f) => f.id === 7, 5000, 'the LIST_SUBSCRIPTIONS reply')).toEqual({ result: ['btcusdt@trade'], id: 7 });
      expect(ok(await apiOn(sim, api).call('time'))).toEqual({ serverTime: createdAt + VALIDITY_MS + 1 });
      expect([user.isOpen, market.isOpen, api.isOpen]).toEqual([true, true, true]);
    });

    test('a day in one call, then another: connections stay open and answer', async ({ sim, connect }) => {
      const market = await connect('/ws/btcusdt@trade');
      const api = await connect('/ws-api/v3');
      const start = sim.now();
      sim.advanceTime(86_400_000);
      sim.advanceTime(86_400_000);
      expect(ok(await apiOn(sim, api).call('time'))).toEqual({ serverTime: start + 2 * 86_400_000 });
      market.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
      expect(await market.next((f) => f.id === 1, 5000, 'the reply')).toEqual({ result: ['btcusdt@trade'], id: 1 });
    });
  });
}
