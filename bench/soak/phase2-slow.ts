// P2 of the soak, slow consumers: a WS API connection (user-data subscribed) that stops reading
// and keeps asking for depth snapshots must be cut once its send queue passes the cap, while the
// others' delivery p99 moves by at most SLOW_P99_TARGET_MS (decided against the noise between
// two windows without it); and a market-data subscriber on every stream that stops reading,
// watched in the background until the server drops it (P3 reports it).

import { performance } from 'node:perf_hooks';
import { MAX_BUFFERED_BYTES } from '../../src/net/ws-peer.ts';
import {
  AFTER_SECONDS,
  ALL_STREAMS,
  CONNECTIONS,
  fmtMB,
  fmtMs,
  log,
  mb,
  SLOW_API_INTERVAL_MS,
  SLOW_MAX_SECONDS,
  SLOW_P99_TARGET_MS,
  sleep,
} from './settings.ts';
import { largestApiSendQueue, memory, watchSlowSubscriber } from './server-watch.ts';
import { check, logWindow, mdStatus, windowOver, type SoakRun, type Window } from './windows.ts';

/** What the later phases need of P2: the slow-consumer counter before it, its cut, the paused subscriber. */
export interface SlowConsumers {
  /** sim.gateway.slowConsumersCut before P2. */
  readonly cut0: number;
  /** Cuts of the WS API consumer (1 when the cap did its work). */
  readonly apiCut: number;
  readonly mdSlow: ReturnType<typeof watchSlowSubscriber>;
  /** When the consumers stopped reading (performance.now()). */
  readonly slowPausedAt: number;
}

/** Runs P2; `p1` is the window without a slow consumer the others' p99 is compared with. */
export async function slowConsumerPhase(run: SoakRun, p1: Window): Promise<SlowConsumers> {
  const { sim, clients, report } = run;
  log(`\n== P2: slow consumers (stop reading; send-queue cap ${mb(MAX_BUFFERED_BYTES)} MiB) ==`);
  const cut0 = sim.gateway.slowConsumersCut;
  const memBeforeSlow = memory(true);
  // A market-data subscriber on every stream that stops reading: at this generator rate it
  // takes over a minute to pass the cap (the kernel's socket buffers take ~4 MB first), which
  // races the heartbeat (ping 20 s + pong timeout 60 s). It is watched in the background until
  // the server drops it, by whichever comes first.
  await clients[clients.length - 1]!.run({ kind: 'slow-md-open', url: `${sim.urls.ws}/stream?streams=${ALL_STREAMS}` });
  const mdSlow = watchSlowSubscriber(sim, cut0);
  // A WS API connection that stops reading and keeps asking for depth snapshots: its send
  // queue grows at a known pace and must be cut once past the cap, well before any heartbeat.
  const apiClient = clients.length > 1 ? clients[clients.length - 2]! : clients[0]!;
  const slowPausedAt = performance.now();
  await apiClient.run({ kind: 'slow-api-open', url: `${sim.urls.ws}/ws-api/v3`, apiKey: sim.credentials.apiKey, apiSecret: sim.credentials.apiSecret, intervalMs: SLOW_API_INTERVAL_MS, depthLimit: 1000 });
  let cutAfter = NaN;
  let rssMaxSlowMB = memBeforeSlow.rssMB;
  let maxBuffered = 0;
  const p2 = await windowOver(run, async () => {
    while (performance.now() - slowPausedAt < SLOW_MAX_SECONDS * 1000) {
      rssMaxSlowMB = Math.max(rssMaxSlowMB, memory().rssMB);
      maxBuffered = Math.max(maxBuffered, largestApiSendQueue(sim));
      if (sim.gateway.slowConsumersCut > cut0 + mdSlow.cutByCap()) {
        cutAfter = (performance.now() - slowPausedAt) / 1000;
        break;
      }
      await sleep(50);
    }
  });
  const memAtCut = memory();
  await apiClient.run({ kind: 'slow-api-close' });
  logWindow('p2', p2);
  const after = await windowOver(run, () => sleep(AFTER_SECONDS * 1000));
  logWindow('p2 after', after);
  const memAfterSlow = memory(true);
  const apiCut = sim.gateway.slowConsumersCut - cut0 - mdSlow.cutByCap();
  const p99Delta = p2.all.p99 - p1.all.p99;
  const p99Noise = Math.abs(after.all.p99 - p1.all.p99);
  const p2Md = await mdStatus(clients);
  check(
    'P2 slow WS API consumer cut at the cap',
    apiCut === 1,
    `${apiCut} cut, ${Number.isFinite(cutAfter) ? `${cutAfter.toFixed(1)} s after it stopped reading` : `not within ${SLOW_MAX_SECONDS} s`}; largest send queue seen ${fmtMB(mb(maxBuffered))}`,
  );
  check(
    `P2 others' delivery p99 moved by <= ${SLOW_P99_TARGET_MS} ms`,
    // Decided only when the two windows without it agree to within the target; otherwise a
    // result inside the noise is reported as such, either way.
    p99Noise <= SLOW_P99_TARGET_MS ? p99Delta <= SLOW_P99_TARGET_MS : p99Delta <= SLOW_P99_TARGET_MS + p99Noise ? 'noisy' : 'FAIL',
    `p99 ${fmtMs(p1.all.p99)} without (P1) -> ${fmtMs(p2.all.p99)} while it stalled (${p99Delta >= 0 ? '+' : ''}${p99Delta.toFixed(1)} ms); ${fmtMs(after.all.p99)} after the cut ` +
      `(P1 and after the cut, both without it, are ${p99Noise.toFixed(1)} ms apart: the noise here)`,
  );
  check(
    'P2 server memory bounded',
    rssMaxSlowMB - memBeforeSlow.rssMB < 64,
    `RSS ${fmtMB(memBeforeSlow.rssMB)} before, max ${fmtMB(rssMaxSlowMB)} while stalled, ${fmtMB(memAtCut.rssMB)} at the cut, ${fmtMB(memAfterSlow.rssMB)} after; heap after GC ${fmtMB(memBeforeSlow.heapUsedMB)} -> ${fmtMB(memAfterSlow.heapUsedMB)}`,
  );
  check('P2 other subscribers held', p2Md.open === CONNECTIONS && p2Md.closed === 0 && p2Md.gaps === 0, `${p2Md.open}/${CONNECTIONS} open, ${p2Md.closed} closed, ${p2Md.gaps} gaps`);
  report.p2 = {
    capBytes: MAX_BUFFERED_BYTES,
    apiSlowConsumer: { requestIntervalMs: SLOW_API_INTERVAL_MS, depthLimit: 1000, cut: apiCut, cutAfterSeconds: cutAfter, largestSendQueueBytes: maxBuffered },
    withSlow: p2,
    afterCut: after,
    p99WithoutMs: p1.all.p99,
    p99WithMs: p2.all.p99,
    p99DeltaMs: p99Delta,
    p99NoiseMs: p99Noise,
    memory: { before: memBeforeSlow, maxRssMB: rssMaxSlowMB, atCut: memAtCut, after: memAfterSlow },
  };

  return { cut0, apiCut, mdSlow, slowPausedAt };
}
