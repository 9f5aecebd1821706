// WebSocket connections end to end on both listeners (ws:// and wss://): upgrade routing of
// every path, the market-data control frames with their replies and error codes 0-3, the
// per-connection limits (5 messages/s, 1024 streams, 64 KiB frames), the heartbeat of spec 3.3
// with short intervals, and the cut-off of a consumer that stops reading.
import { performance } from 'node:perf_hooks';
import { apiOn, expect, ok, refusedUpgrade, SCHEMES, test, wsTestWith, WsClient, type Frame } from './support/ws.ts';
import { counterparty } from './support/rest.ts';

/** The reply to a control frame (`{result|error, id}`), not a stream payload. */
const isReply = (f: Frame) => f !== null && typeof f === 'object' && ('result' in f || 'error' in f) && 'id' in f;

async function control(client: WsClient, frame: object | string): Promise<Frame> {
  client.send(frame);
  return client.next(isReply, 5000, `reply to ${typeof frame === 'string' ? frame : JSON.stringify(frame)}`);
}

for (const scheme of SCHEMES) {
  test.describe(scheme, () => {
    test.use({ scheme });

    test('every path: combined, raw with streams, bare /ws, ccxt /ws/0, percent-encoded names', async ({ connect }) => {
      const cases: [string, string[], boolean][] = [
        ['/stream?streams=btcusdt@trade/ethusdt@bookTicker', ['btcusdt@trade', 'ethusdt@bookTicker'], true],
        ['/stream?streams=', [], true],
        ['/stream', [], true],
        ['/ws/btcusdt@trade/ethusdt@depth@100ms', ['btcusdt@trade', 'ethusdt@depth@100ms'], false],
        ['/ws/btcusdt@depth/btcusdt@depth@1000ms/ethusdt@depth', ['btcusdt@depth', 'btcusdt@depth@1000ms', 'ethusdt@depth'], false],
        ['/ws', [], false],
        ['/ws/0', [], false],
        ['/ws/btcusdt%40bookTicker', ['btcusdt@bookTicker'], false],
      ];
      for (const [path, streams, combined] of cases) {
        const client = await connect(path);
        expect(await control(client, { method: 'LIST_SUBSCRIPTIONS', id: 1 }), path).toEqual({ result: streams, id: 1 });
        expect(await control(client, { method: 'GET_PROPERTY', params: ['combined'], id: 2 }), path).toEqual({ result: combined, id: 2 });
        await client.close();
      }
    });

    test('refused upgrades: unknown or upper-case stream names (400, code 2), unknown paths (404), long URLs (414)', async ({ sim }) => {
      const base = sim.urls[scheme];
      const unknown = (name: string) => ({ code: 2, msg: `Invalid request: unknown stream name ${JSON.stringify(name)}` });
      expect(await refusedUpgrade(`${base}/ws/btcusdt@kline_7m`)).toEqual({ status: 400, body: unknown('btcusdt@kline_7m') });
      expect(await refusedUpgrade(`${base}/ws/BTCUSDT@trade`)).toEqual({ status: 400, body: unknown('BTCUSDT@trade') });
      expect(await refusedUpgrade(`${base}/ws/btcusdt@trade/solusdt@trade`)).toEqual({ status: 400, body: unknown('solusdt@trade') });
      expect(await refusedUpgrade(`${base}/stream?streams=btcusdt@depth/nope@depth`)).toEqual({ status: 400, body: unknown('nope@depth') });
      const notFound = await refusedUpgrade(`${base}/ws-api/v1`);
      expect(notFound.status).toBe(404);
      expect(notFound.body.code).toBe(-1000);
      // Past the 8 KiB URL cap (and under Node's 16 KiB header limit, which answers 431 itself).
      expect(await refusedUpgrade(`${base}/stream?streams=${'btcusdt@trade/'.repeat(700)}`)).toEqual({
        status: 414,
        body: { code: -1000, msg: 'Request URL longer than 8192 bytes.' },
      });
    });

    test('SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / GET_PROPERTY replies, in subscription order', async ({ connect }) => {
      const client = await connect('/ws');
      expect(await control(client, { method: 'SUBSCRIBE', params: ['btcusdt@trade', 'ethusdt@depth', 'btcusdt@bookTicker'], id: 1 })).toEqual({ result: null, id: 1 });
      expect(await control(client, { method: 'LIST_SUBSCRIPTIONS', id: 'list-1' })).toEqual({ result: ['btcusdt@trade', 'ethusdt@depth', 'btcusdt@bookTicker'], id: 'list-1' });
      // Subscribing again to a subscribed name and unsubscribing an absent one are no-ops.
      expect(await control(client, { method: 'UNSUBSCRIBE', params: ['ethusdt@depth', 'ethusdt@trade'], id: 312 })).toEqual({ result: null, id: 312 });
      expect(await control(client, { method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: null })).toEqual({ result: null, id: null });
      expect(await control(client, { method: 'LIST_SUBSCRIPTIONS', id: 3 })).toEqual({ result: ['btcusdt@trade', 'btcusdt@bookTicker'], id: 3 });
      // A fresh connection: the 5 messages/s budget of this one is spent.
      const second = await connect('/stream?streams=ethusdt@trade');
      expect(await control(second, { method: 'UNSUBSCRIBE', params: ['ethusdt@trade'], id: 4 })).toEqual({ result: null, id: 4 });
      expect(await control(second, { method: 'LIST_SUBSCRIPTIONS', id: 5 })).toEqual({ result: [], id: 5 });
      expect(await control(second, { method: 'GET_PROPERTY', params: ['combined'], id: 6 })).toEqual({ result: true, id: 6 });
    });

    test('control-frame errors: codes 0-3 with the reference messages, the connection stays open', async ({ connect }) => {
      const err = (code: number, msg: string, id: unknown) => ({ error: { code, msg }, id });
      const variants = '`SUBSCRIBE`, `UNSUBSCRIBE`, `LIST_SUBSCRIPTIONS`, `SET_PROPERTY`, `GET_PROPERTY`';
      const cases: [object | string, object][] = [
        [{ method: 'SET_PROPERTY', params: ['speed', true], id: 7 }, err(0, 'Unknown property', 7)],
        [{ method: 'GET_PROPERTY', params: ['speed'], id: 7 }, err(0, 'Unknown property', 7)],
        [{ method: 'SET_PROPERTY', params: ['combined', 'yes'], id: 8 }, err(1, 'Invalid value type: expected Boolean', 8)],
        [{ method: 'GET_PROPERTY', params: [5], id: 9 }, err(2, 'Invalid request: property name must be a string', 9)],
        [{ method: 'LIST_SUBSCRIPTIONS', id: -1 }, err(2, 'Invalid request: request ID must be an unsigned integer', null)],
        [{ method: 'LIST_SUBSCRIPTIONS', id: 1.5 }, err(2, 'Invalid request: request ID must be an unsigned integer', null)],
        [{ method: 'LIST_SUBSCRIPTIONS', id: 'x'.repeat(37) }, err(2, 'Invalid request: request ID must be an unsigned integer', null)],
        [{ method: 'FOO', id: 10 }, err(2, `Invalid request: unknown variant \`FOO\`, expected one of ${variants} at line 1 column 28`, 10)],
        [{ method: 'SUBSCRIBE', params: ['btcusdt@kline_7m'], id: 12 }, err(2, 'Invalid request: unknown stream name "btcusdt@kline_7m"', 12)],
        [{ method: 'SUBSCRIBE', params: Array(1025).fill('btcusdt@trade'), id: 13 }, err(2, 'Invalid request: too many parameters', 13)],
      ];
      for (const [frame, reply] of cases) {
        const client = await connect('/ws');
        expect(await control(client, frame), JSON.stringify(frame).slice(0, 80)).toEqual(reply);
        expect(await control(client, { method: 'LIST_SUBSCRIPTIONS', id: 99 })).toEqual({ result: [], id: 99 });
        await client.close();
      }
      // Code 3 with its position (the column the simulator reports is where V8 stopped, at best).
      for (const text of ['not json', '{"method":"LIST_SUBSCRIPTIONS",', '\n\n{"method":x}']) {
        const client = await connect('/ws');
        const reply = await control(client, text);
        expect(reply.id).toBeNull();
        expect(reply.error.code).toBe(3);
        expect(reply.error.msg).toMatch(/^Invalid JSON: expected value at line \d+ column \d+$/);
        expect(await control(client, { method: 'LIST_SUBSCRIPTIONS', id: 99 })).toEqual({ result: [], id: 99 });
        await client.close();
      }
      const client = await connect('/ws');
      const missing = await control(client, '{"params":[],"id":11}');
      expect(missing.id).toBe(11);
      expect(missing.error.code).toBe(2);
      expect(missing.error.msg).toMatch(/^Invalid request: missing field `method` at line 1 column \d+$/);
    });

    test('control-frame ids: integers echoed digit for digit up to int64 (like the WS API), larger ones refused with code 2', async ({ connect }) => {
      const echoed = ['0', '9007199254740993', '9223372036854775807'];
      for (const id of echoed) {
        const client = await connect('/ws');
        client.send(`{"method":"LIST_SUBSCRIPTIONS","id":${id}}`);
        await client.next(isReply);
        expect(client.texts.at(-1)).toBe(`{"result":[],"id":${id}}`);
        await client.close();
      }
      for (const id of ['9223372036854775808', '18446744073709551616']) {
        const client = await connect('/ws');
        client.send(`{"method":"LIST_SUBSCRIPTIONS","id":${id}}`);
        expect(await client.next(isReply)).toEqual({ error: { code: 2, msg: 'Invalid request: request ID must be an unsigned integer' }, id: null });
        await client.close();
      }
    });

    test('SET_PROPERTY combined switches the framing of the next payloads both ways', async ({ connect, rest }) => {
      const client = await connect('/ws/btcusdt@bookTicker');
      const touch = async (price: string) => {
        await rest.rest('BUY', price, '0.001');
        return client.next((f) => (f.data ?? f).b === `${price}.00000000`, 5000, `bookTicker at ${price}`);
      };
      expect(await touch('50000')).toMatchObject({ s: 'BTCUSDT', b: '50000.00000000', B: '0.00100000' });
      expect(await control(client, { method: 'SET_PROPERTY', params: ['combined', true], id: 1 })).toEqual({ result: null, id: 1 });
      expect(await control(client, { method: 'GET_PROPERTY', params: ['combined'], id: 2 })).toEqual({ result: true, id: 2 });
      const wrapped = await touch('50001');
      expect(wrapped).toEqual({ stream: 'btcusdt@bookTicker', data: expect.objectContaining({ s: 'BTCUSDT', b: '50001.00000000' }) });
      expect(await control(client, { method: 'SET_PROPERTY', params: ['combined', false], id: 3 })).toEqual({ result: null, id: 3 });
      expect(await touch('50002')).toMatchObject({ s: 'BTCUSDT', b: '50002.00000000', B: '0.00100000' });
    });

    test('more than 5 incoming messages in a second closes the connection with 1008', async ({ connect }) => {
      const client = await connect('/ws');
      // Eleven in a burst: at least six land in one second, whatever the window boundary.
      for (let i = 0; i < 11; i++) client.send({ method: 'LIST_SUBSCRIPTIONS', id: i });
      const closed = await client.closeWithin(3000);
      expect(closed).toEqual({ code: 1008, reason: 'Too many messages' });
      const replies = client.log.filter(isReply);
      expect(replies.length).toBeGreaterThanOrEqual(5);
      expect(replies.length).toBeLessThan(11);
    });

    test('pings and pongs count toward the 5 messages per second (binance-facts §5): a burst of either closes with 1008', async ({ connect }) => {
      for (const send of [(c: WsClient) => c.ws.ping('p'), (c: WsClient) => c.ws.pong('unsolicited')]) {
        const client = await connect('/ws/btcusdt@trade', { autoPong: false });
        for (let i = 0; i < 11; i++) send(client);
        expect(await client.closeWithin(3000)).toEqual({ code: 1008, reason: 'Too many messages' });
      }
      // Four pings and a control frame in a second are within the budget.
      const calm = await connect('/ws/btcusdt@trade');
      for (let i = 0; i < 4; i++) calm.ws.ping('p');
      expect(await control(calm, { method: 'LIST_SUBSCRIPTIONS', id: 1 })).toEqual({ result: ['btcusdt@trade'], id: 1 });
      expect(calm.isOpen).toBe(true);
    });

    test('a frame over 64 KiB closes the connection with 1009; others are unaffected', async ({ connect }) => {
      const big = await connect('/ws');
      const other = await connect('/ws/btcusdt@trade');
      big.send({ method: 'SUBSCRIBE', params: ['x'.repeat(70_000)], id: 1 });
      expect((await big.closeWithin(3000)).code).toBe(1009);
      expect(await control(other, { method: 'LIST_SUBSCRIPTIONS', id: 2 })).toEqual({ result: ['btcusdt@trade'], id: 2 });
    });
  });
}

test.describe('heartbeat', () => {
  const test = wsTestWith({ ping_interval_ms: 100, pong_timeout_ms: 300 });

  for (const scheme of SCHEMES) {
    test(`${scheme}: pinged connections that answer stay open, those that do not are closed after the pong timeout`, async ({ sim, connect }) => {
      const url = sim.urls[scheme];
      const answering = [await connect('/ws/btcusdt@trade'), await connect('/ws-api/v3')];
      const silent = [
        await WsClient.open(`${url}/ws/btcusdt@trade`, { rejectUnauthorized: false, autoPong: false }),
        await WsClient.open(`${url}/ws-api/v3`, { rejectUnauthorized: false, autoPong: false }),
      ];
      try {
        const closes = silent.map((c) => c.closeWithin(3000));
        for (const closed of await Promise.all(closes)) expect(closed.code).toBe(1006); // terminated, no close frame
        for (const c of silent) {
          expect(c.pings).toBeGreaterThanOrEqual(1);
          // Closed no sooner than the pong timeout after the first unanswered ping.
          expect(c.closedAt - c.pingTimes[0]!).toBeGreaterThanOrEqual(250);
        }
        // The answering ones are pinged well past the pong timeout and are still served.
        for (const c of answering) await c.until(() => (c.pings >= 8 ? true : undefined), 5000, '8 pings');
        for (const c of answering) expect(c.isOpen).toBe(true);
        expect(await control(answering[0]!, { method: 'LIST_SUBSCRIPTIONS', id: 1 })).toEqual({ result: ['btcusdt@trade'], id: 1 });
        expect(ok(await apiOn(sim, answering[1]!).call('ping'))).toEqual({});
      } finally {
        for (const c of silent) await c.close();
      }
    });
  }
});

test.describe('heartbeat: only an echo of the server ping counts', () => {
  const test = wsTestWith({ ping_interval_ms: 100, pong_timeout_ms: 300 });

  for (const scheme of SCHEMES) {
    test(`${scheme}: unsolicited pongs and pongs with another payload are accepted but the connection is closed after the pong timeout`, async ({ sim }) => {
      const url = sim.urls[scheme];
      const clients: WsClient[] = [];
      const timers: NodeJS.Timeout[] = [];
      try {
        for (const path of ['/ws/btcusdt@trade', '/ws-api/v3']) {
          // Pongs at 4 a second: under the market-data budget of 5 incoming messages.
          const unsolicited = await WsClient.open(`${url}${path}`, { rejectUnauthorized: false, autoPong: false });
          timers.push(setInterval(() => unsolicited.isOpen && unsolicited.ws.pong('keep me'), 250));
          const wrongPayload = await WsClient.open(`${url}${path}`, { rejectUnauthorized: false, autoPong: false });
          let answeredAt = 0;
          wrongPayload.ws.on('ping', (data) => {
            if (performance.now() - answeredAt < 250) return;
            answeredAt = performance.now();
            wrongPayload.ws.pong(Buffer.concat([data, Buffer.from('x')]));
          });
          clients.push(unsolicited, wrongPayload);
        }
        for (const closed of await Promise.all(clients.map((c) => c.closeWithin(3000)))) expect(closed.code).toBe(1006); // terminated, not 1008
        for (const c of clients) expect(c.closedAt - c.pingTimes[0]!).toBeGreaterThanOrEqual(250);
      } finally {
        for (const t of timers) clearInterval(t);
        for (const c of clients) await c.close();
      }
    });
  }
});

test.describe('slow consumer', () => {
  const test = wsTestWith({ limits: { weight_per_minute: 100_000_000 } });

  for (const scheme of SCHEMES) {
    // (Before, both variants ran on ws://: the block never set its scheme.)
    test.describe(scheme, () => {
      test.use({ scheme });
      test(`${scheme}: a connection that stops reading is cut off; another one keeps working`, async ({ sim, wsApi }) => {
        // A deep book makes each `depth limit=5000` answer a few hundred KB.
        for (let i = 0; i < 4000; i++) {
          counterparty(sim, 'BTCUSDT', 'BUY', (50_000 - i * 0.01).toFixed(2), '0.001');
          counterparty(sim, 'BTCUSDT', 'SELL', (70_000 + i * 0.01).toFixed(2), '0.001');
        }
        const slow = await wsApi();
        const fast = await wsApi();
        const depth = ok(await slow.call('depth', { symbol: 'BTCUSDT', limit: 5000 }));
        expect(depth.bids.length).toBe(4000);
        // ws's own pause(): the socket stops reading, so the server's send queue for it grows.
        slow.client.ws.pause();
        const cutBefore = sim.stats().slowConsumersDisconnected;
        let sent = 0;
        for (let round = 0; round < 200 && sim.stats().slowConsumersDisconnected === cutBefore; round++) {
          for (let i = 0; i < 10; i++, sent++) slow.client.send({ id: `d${sent}`, method: 'depth', params: { symbol: 'BTCUSDT', limit: 5000 } });
          // The other connection is answered while the slow one's queue grows.
          expect(ok(await fast.call('time')).serverTime).toBeGreaterThan(0);
        }
        expect(sim.stats().slowConsumersDisconnected).toBe(cutBefore + 1);
        slow.client.ws.resume();
        const closed = await slow.client.closeWithin(10_000);
        expect(closed.code).toBe(1006); // cut off without a close frame
        const answered = slow.client.log.filter((f) => typeof f.id === 'string' && f.id.startsWith('d')).length;
        expect(answered).toBeLessThan(sent);
        expect(ok(await fast.call('depth', { symbol: 'BTCUSDT', limit: 5 })).bids).toHaveLength(5);
        expect(fast.client.isOpen).toBe(true);
      });
    });
  }
});
