// The final (x: true) form of a candle goes only to connections subscribed while it was open
// (web-socket-streams.md: it is pushed at the close). A client that reads klines after a
// minute boundary (its last candle: the new one) and subscribes before the push tick that
// follows the boundary must not get the older candle next: a chart refuses an update older
// than its last bar ("Cannot update oldest data", seen in the example's Chromium test).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { EventWire } from '../api/event-wire.ts';
import { counterparty, lots, makeExchange, T0 } from '../core/test-support.ts';
import { MarketDataPushes, marketDataStreams, type StreamFanOut } from './market-data-pushes.ts';
import { MarketStreams } from './market-streams.ts';
import type { UserStreams } from './user-streams.ts';
import type { Peer } from './ws-peer.ts';

const NAME = 'btcusdt@kline_1m';
const MINUTE = 60_000;
const B = T0 - (T0 % MINUTE) + MINUTE; // the first minute boundary after T0

test('the pushes send a closed candle with the new candle\'s open as the subscription cutoff', () => {
  const sent: { payload: string; cutoff: number | undefined }[] = [];
  const fanOut: StreamFanOut = {
    activeNames: () => [NAME],
    hasSubscribers: (name) => name === NAME,
    send: (_name, payload, cutoff) => void sent.push({ payload, cutoff }),
  };
  const exchange = makeExchange();
  // One trade in the minute before B, so that minute has a candle.
  counterparty(exchange, 'BTCUSDT', 'SELL', '50000', '0.001', B - 30_000);
  exchange.submit({ type: 'counterpartyTake', now: B - 30_000, symbolIndex: 0, side: 'BUY', price: null, lots: lots(exchange, 'BTCUSDT', '0.001') });
  const pushes = new MarketDataPushes(marketDataStreams(['BTCUSDT']), fanOut, () => exchange);
  pushes.publish(B - 2000); // the open candle, pushed on its period
  sent.length = 0;
  pushes.publish(B + 100); // the boundary passed: the closed candle first
  const closed = sent.find((s) => JSON.parse(s.payload).k.x === true);
  assert.ok(closed !== undefined, 'the closed candle is pushed');
  assert.equal(JSON.parse(closed.payload).k.t, B - MINUTE);
  assert.equal(closed.cutoff, B);
});

function stubPeer(frames: Buffer[]): Peer {
  const ws = Object.assign(new EventEmitter(), { readyState: 1, OPEN: 1 });
  return { ws, onControlFrame: null, sendFrame: (frame: Buffer) => void frames.push(frame), send: () => undefined } as unknown as Peer;
}

test('a send with a cutoff reaches only the connections subscribed before it; without one, all', () => {
  let now = B - 500;
  const streams = new MarketStreams(['BTCUSDT'], {} as EventWire, {} as UserStreams, () => false, () => 0, () => undefined, [NAME], () => undefined, () => now);
  const early: Buffer[] = [];
  const late: Buffer[] = [];
  streams.open(stubPeer(early), true, [NAME]);
  now = B + 50;
  streams.open(stubPeer(late), true, [NAME]);
  streams.send(NAME, '{"closed":1}', B);
  assert.equal(early.length, 1);
  assert.equal(late.length, 0);
  streams.send(NAME, '{"open":1}');
  assert.equal(early.length, 2);
  assert.equal(late.length, 1);
});
