// What the soak watches directly in its server process (the load processes measure what they
// receive): memory (heap after a full collection beside RSS), the gateway's connection counts,
// the server's own time per fan-out, its event-loop delay, and the slow consumers of P2.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Simulator } from '../../src/index.ts';
import { MAX_BUFFERED_BYTES } from '../../src/net/ws-peer.ts';
import { summarizeHistogram, type Histogram } from './protocol.ts';
import { ALL_STREAMS, mb } from './settings.ts';
import type { Summary } from '../support.ts';

// A heap figure after a full collection is the clearer leak signal next to RSS.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** This (server) process's memory, MiB; `collect`: after a full collection. */
export function memory(collect = false) {
  if (collect) gc();
  const m = process.memoryUsage();
  return { rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), externalMB: mb(m.external) };
}

/** What the server holds per connection: P3 checks they return to what they were before. */
export function gatewayCounts(sim: Simulator) {
  return {
    connections: sim.stats().connections,
    wsPeers: sim.gateway.connectionCount,
    marketConnections: sim.gateway.marketConnections().size,
    userSinks: sim.gateway.users.size,
  };
}

/** A fixed-size histogram of server-side times, ms (0.05 ms bins up to 1 s). */
class ServerTimes {
  private bins = new Uint32Array(20_001);
  private n = 0;
  private sum = 0;
  private max = 0;

  add(ms: number): void {
    this.n++;
    this.sum += ms;
    if (ms > this.max) this.max = ms;
    this.bins[Math.min(this.bins.length - 1, Math.floor(ms / 0.05))]!++;
  }

  /** The summary since the last call, then starts over. */
  take(): Summary {
    const h: Histogram = { binMs: 0.05, bins: Array.from(this.bins), n: this.n, sum: this.sum, max: this.max, negative: 0 };
    this.bins = new Uint32Array(this.bins.length);
    this.n = this.sum = this.max = 0;
    return summarizeHistogram(h);
  }
}

/**
 * Times the server's fan-out (wraps the gateway's publish methods, which the simulator calls
 * per event set and per depth batch): from the call to the end of the tick's nextTick queue,
 * where the peers' corked writes are flushed. Event sets are counted when they hold a public
 * trade (the ones fanned out to every subscriber).
 */
export function timeFanOut(sim: Simulator) {
  const gateway = sim.gateway;
  const trades = new ServerTimes();
  const batches = new ServerTimes();
  const publishEvents = gateway.publishEvents;
  const publishBatch = gateway.publishBatch;
  gateway.publishEvents = function timed(events: Parameters<typeof publishEvents>[0]): void {
    if (!events.some((e) => e.type === 'trade')) return publishEvents.call(this, events);
    const t0 = performance.now();
    publishEvents.call(this, events);
    process.nextTick(() => trades.add(performance.now() - t0));
  };
  gateway.publishBatch = function timed(...args: Parameters<typeof publishBatch>): void {
    const t0 = performance.now();
    publishBatch.apply(this, args);
    process.nextTick(() => batches.add(performance.now() - t0));
  };
  return { take: () => ({ tradeEventSets: trades.take(), depthBatches: batches.take() }) };
}
export type FanOutTimer = ReturnType<typeof timeFanOut>;

/** The largest send queue among WS API connections (the gateway's peers are private: a bench-only peek). */
export function largestApiSendQueue(sim: Simulator): number {
  const peers = (sim.gateway as unknown as { peers?: Set<{ kind: string; ws: { bufferedAmount: number } }> }).peers;
  let max = 0;
  if (peers === undefined) return 0;
  for (const p of peers) if (p.kind === 'api') max = Math.max(max, p.ws.bufferedAmount);
  return max;
}

/**
 * Watches the paused market-data subscriber (the only connection on ALL_STREAMS) until the
 * server drops it: when, its largest send queue, and whether the cap did it (the slow-consumer
 * counter moved at that moment) or the heartbeat.
 */
export function watchSlowSubscriber(sim: Simulator, cut0: number) {
  const streamCount = ALL_STREAMS.split('/').length;
  const find = () => {
    for (const c of sim.gateway.marketConnections()) if (c.streams.size === streamCount) return c;
    return undefined;
  };
  const t0 = performance.now();
  let droppedAfter = NaN;
  let byCap = false;
  let maxQueue = 0;
  let seen = find() !== undefined;
  // The counter moves when the cap cuts it; the connection leaves the list once its socket has
  // closed, a little later: compare with the counter about a second before it left.
  const recentCuts: number[] = [];
  const timer = setInterval(() => {
    const c = find();
    const cuts = sim.gateway.slowConsumersCut;
    recentCuts.push(cuts);
    if (recentCuts.length > 20) recentCuts.shift();
    if (c !== undefined) {
      seen = true;
      maxQueue = Math.max(maxQueue, c.peer.ws.bufferedAmount);
    } else if (seen && !Number.isFinite(droppedAfter)) {
      droppedAfter = (performance.now() - t0) / 1000;
      byCap = cuts > recentCuts[0]! && maxQueue > MAX_BUFFERED_BYTES * 0.75;
      clearInterval(timer);
    }
  }, 50);
  timer.unref();
  return {
    cutByCap: () => (byCap ? 1 : 0),
    result: () => ({ droppedAfterSeconds: droppedAfter, by: Number.isFinite(droppedAfter) ? (byCap ? 'send-queue cap' : 'heartbeat (pong timeout)') : 'still connected', largestSendQueueBytes: maxQueue, cut0 }),
    stop: () => clearInterval(timer),
  };
}

/** The server's event-loop delay since the last call (each window reads one meter, P4's samples their own). */
export function loopMeter() {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return () => {
    const out = { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
    h.reset();
    return out;
  };
}
export type LoopMeter = ReturnType<typeof loopMeter>;
