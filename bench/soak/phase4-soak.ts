// P4 of the soak: SOAK_MINUTES more of the same (subscribers held, traders trading) with the
// server's RSS and heap sampled every 10 s; then every trader checks that each order it placed
// (since P1) got a NEW and a final executionReport, every subscriber that its depth stream stayed
// contiguous, and the core's invariants hold.

import { performance } from 'node:perf_hooks';
import { invariantViolations } from '../../src/core/invariants.ts';
import { mergeHistograms, summarizeHistogram, type PingResult, type TradeResult } from './protocol.ts';
import type { SlowConsumers } from './phase2-slow.ts';
import { CONNECTIONS, describe, fmtInt, fmtMB, fmtMs, log, MINUTES, SAMPLE_EVERY_MS, SETTLE_SECONDS, sleep } from './settings.ts';
import { loopMeter, memory } from './server-watch.ts';
import { check, logWindow, mdStatus, windowOver, type SoakRun } from './windows.ts';

/** Runs P4 and the final checks; every slow-consumer cut must be one P2 expected. */
export async function soakPhase(run: SoakRun, { cut0, apiCut, mdSlow }: SlowConsumers): Promise<void> {
  const { sim, clients, report } = run;
  log(`\n== P4: soak, ${MINUTES} min ==`);
  const samples: Array<{ t: number; rssMB: number; heapUsedMB: number; connections: number; openOrders: number; orders: number; publicTrades: number; loopP99Ms: number }> = [];
  const soakStart = performance.now();
  const sampleLoop = loopMeter();
  const heapAfterGcMB = { first: NaN, last: NaN };
  const sample = () => {
    const m = memory();
    const s = sim.stats();
    const l = sampleLoop();
    const t = (performance.now() - soakStart) / 1000;
    samples.push({ t, rssMB: m.rssMB, heapUsedMB: m.heapUsedMB, connections: s.connections, openOrders: s.openOrders, orders: s.orders, publicTrades: s.publicTrades, loopP99Ms: t < 1 ? NaN : l.p99 });
    const x = samples.at(-1)!;
    log(`[p4] t=${x.t.toFixed(0).padStart(4)} s  RSS ${fmtMB(x.rssMB)}  heap ${fmtMB(x.heapUsedMB)}  connections ${x.connections}  orders ${fmtInt(x.orders)}  public trades ${fmtInt(x.publicTrades)}  loop p99 ${fmtMs(x.loopP99Ms)}`);
  };
  const soak = await windowOver(run, async () => {
    heapAfterGcMB.first = memory(true).heapUsedMB;
    sample();
    for (;;) {
      const left = MINUTES * 60_000 - (performance.now() - soakStart);
      if (left < 100) break;
      await sleep(Math.min(SAMPLE_EVERY_MS, left));
      sample();
    }
    heapAfterGcMB.last = memory(true).heapUsedMB;
  });
  logWindow('p4', soak);
  const trades = await Promise.all(clients.map((c) => c.run<TradeResult>({ kind: 'trade-stop', settleSeconds: SETTLE_SECONDS })));
  const ping = await clients[0]!.run<PingResult>({ kind: 'ping-stop' });
  const p4Md = await mdStatus(clients);
  const violations = invariantViolations(sim.exchange.state);
  const finalStats = sim.stats();
  const rss = samples.map((s) => s.rssMB);
  const heap = samples.map((s) => s.heapUsedMB);
  const sum = (f: (t: TradeResult) => number) => trades.reduce((s, t) => s + f(t), 0);
  const finals: Record<string, number> = {};
  for (const t of trades) for (const [k, v] of Object.entries(t.finals)) finals[k] = (finals[k] ?? 0) + v;
  const rtt = summarizeHistogram(mergeHistograms(trades.map((t) => t.placeRttMs)));
  const pingLatency = summarizeHistogram(ping.latencyMs);
  log(
    `[p4] RSS first ${fmtMB(rss[0]!)} last ${fmtMB(rss.at(-1)!)} max ${fmtMB(Math.max(...rss))}; heap after a full GC first ${fmtMB(heapAfterGcMB.first)} last ${fmtMB(heapAfterGcMB.last)}, ` +
      `sampled max ${fmtMB(Math.max(...heap))}`,
  );
  log(
    `[p4] orders (P1..P4): ${fmtInt(sum((t) => t.placed))} placed, ${fmtInt(sum((t) => t.acked))} accepted, ${sum((t) => t.placeErrors)} refused; ${fmtInt(sum((t) => t.cancels))} cancels (${sum((t) => t.cancelErrors)} refused); ` +
      `final states ${JSON.stringify(finals)}; order.place round trip ${describe(rtt)}`,
  );
  log(`[p4] pings: ${fmtInt(ping.ok)} ok, ${ping.failed} failed, latency ${describe(pingLatency)}, longest stretch without a ping ${fmtMs(ping.longestGapMs)}${ping.firstError ? `; first error: ${ping.firstError}` : ''}`);
  check('P4 every order: NEW then a final state', sum((t) => t.missingNew + t.missingFinal + t.finalBeforeNew) === 0, `missing NEW ${sum((t) => t.missingNew)}, missing final ${sum((t) => t.missingFinal)}, final before NEW ${sum((t) => t.finalBeforeNew)}${trades.flatMap((t) => t.examplesMissing).length ? ` (e.g. ${trades.flatMap((t) => t.examplesMissing).slice(0, 3).join('; ')})` : ''}`);
  check('P4 no order refused, traders connected', sum((t) => t.placeErrors + t.cancelErrors) === 0 && trades.every((t) => !t.closed), `${sum((t) => t.placeErrors)} place / ${sum((t) => t.cancelErrors)} cancel refused${trades.find((t) => t.firstError)?.firstError ? `; first: ${trades.find((t) => t.firstError)!.firstError}` : ''}`);
  check('P4 depth streams contiguous, subscribers held', p4Md.gaps === 0 && p4Md.closed === 0 && p4Md.errors === 0 && p4Md.open === CONNECTIONS, `${p4Md.open}/${CONNECTIONS} open, ${p4Md.closed} closed, ${p4Md.errors} errors, ${p4Md.gaps} gaps in ${fmtInt(p4Md.depthMessages)} depth updates (${fmtInt(p4Md.tradeMessages)} trades received)`);
  check(
    'P4 server memory bounded',
    Math.max(...rss) - rss[0]! < 64 && heapAfterGcMB.last - heapAfterGcMB.first < 16,
    `RSS ${fmtMB(rss[0]!)} -> ${fmtMB(rss.at(-1)!)} (max ${fmtMB(Math.max(...rss))}), heap after GC ${fmtMB(heapAfterGcMB.first)} -> ${fmtMB(heapAfterGcMB.last)} over ${MINUTES} min`,
  );
  check('P4 invariants hold', violations.length === 0, violations.length === 0 ? 'invariantViolations(sim.exchange.state) is empty' : violations.slice(0, 5).join('; '));
  check('ping succeeded throughout (P1..P4)', ping.failed === 0 && ping.ok > 0, `${fmtInt(ping.ok)} ok, ${ping.failed} failed; longest stretch without a success ${fmtMs(ping.longestGapMs)}`);
  const expectedCuts = cut0 + apiCut + mdSlow.cutByCap();
  check('no slow-consumer cut besides P2', finalStats.slowConsumersDisconnected === expectedCuts, `slowConsumersDisconnected ${finalStats.slowConsumersDisconnected} (expected ${expectedCuts})`);
  report.p4 = {
    minutes: MINUTES,
    window: soak,
    samples,
    rssMB: { first: rss[0], last: rss.at(-1), max: Math.max(...rss) },
    heapUsedMB: { first: heap[0], last: heap.at(-1), max: Math.max(...heap) },
    heapAfterGcMB,
    trades: trades.map(({ placeRttMs: _, ...t }) => t),
    finals,
    orderPlaceRttMs: rtt,
    md: p4Md,
    invariantViolations: violations,
    ping: { ...ping, latencyMs: pingLatency },
    stats: finalStats,
  };
}
