// P3 of the soak, abuse: at once, WebSocket and HTTP keep-alive churn and sockets that never
// finish (idle, half headers, slowloris, slow body, FIN/RST mid-request, stalled TLS, a
// WebSocket that never pongs). The ping prober must keep succeeding, every abusive socket must be
// freed, and the connection counts must return to what they were before; the paused subscriber
// of P2 must be gone by now too.

import { performance } from 'node:perf_hooks';
import type { AbuseResult, ChurnResult } from './protocol.ts';
import type { SlowConsumers } from './phase2-slow.ts';
import { ABUSE_BOUND_SECONDS, ABUSE_PER_KIND, CHURN, CHURN_BOUND_SECONDS, CONNECTIONS, fmtInt, fmtMB, fmtMs, log, mb, PROCESSES, sleep, split } from './settings.ts';
import { gatewayCounts, memory } from './server-watch.ts';
import { check, mdStatus, type SoakRun } from './windows.ts';

/** Runs P3, then reports the paused subscriber of P2 (which must be gone by now). */
export async function abusePhase(run: SoakRun, { mdSlow, slowPausedAt }: SlowConsumers): Promise<void> {
  const { sim, clients, report } = run;
  log(`\n== P3: churn, half-open sockets, slow headers, stalled TLS handshakes ==`);
  const before3 = gatewayCounts(sim);
  const memBefore3 = memory(true);
  let maxConnections = before3.connections;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxConnections = Math.max(maxConnections, sim.stats().connections);
      await sleep(50);
    }
  })();
  const t3 = performance.now();
  const churnPer = split(CHURN, PROCESSES);
  const abuseClient = clients[clients.length - 1]!;
  const [wsChurn, httpChurn, abuse] = await Promise.all([
    Promise.all(clients.map((c, i) => c.run<ChurnResult>({ kind: 'churn-ws', url: sim.urls.ws, count: churnPer[i]!, concurrency: 20, timeoutSeconds: CHURN_BOUND_SECONDS }))),
    Promise.all(
      clients.map((c, i) =>
        c.run<ChurnResult>({ kind: 'churn-http', host: '127.0.0.1', port: sim.ports.http, count: churnPer[i]!, concurrency: 20, requestsPerConnection: 2, timeoutSeconds: CHURN_BOUND_SECONDS }),
      ),
    ),
    abuseClient.run<AbuseResult>({ kind: 'abuse', host: '127.0.0.1', httpPort: sim.ports.http, httpsPort: sim.ports.https, perCategory: ABUSE_PER_KIND, boundSeconds: ABUSE_BOUND_SECONDS }),
  ]);
  const jobsSeconds = (performance.now() - t3) / 1000;
  // The server frees its side on its own schedule: wait (bounded) for the counts to come back.
  let backAfter = NaN;
  const waitFrom = performance.now();
  // The paused market-data subscriber of P2 is among the "before" counts until the server drops it.
  const pausedGone = () => (Number.isFinite(mdSlow.result().droppedAfterSeconds) ? 1 : 0);
  const backToBaseline = (c: ReturnType<typeof gatewayCounts>) =>
    c.connections === before3.connections - pausedGone() &&
    c.wsPeers === before3.wsPeers - pausedGone() &&
    c.marketConnections === before3.marketConnections - pausedGone() &&
    c.userSinks === before3.userSinks;
  while (performance.now() - waitFrom < 30_000) {
    if (backToBaseline(gatewayCounts(sim))) {
      backAfter = (performance.now() - t3) / 1000;
      break;
    }
    await sleep(100);
  }
  sampling = false;
  await sampler;
  const after3 = gatewayCounts(sim);
  const memAfter3 = memory(true);
  const sumChurn = (rs: ChurnResult[]) => ({
    ok: rs.reduce((s, r) => s + r.ok, 0),
    failed: rs.reduce((s, r) => s + r.failed, 0),
    requests: rs.reduce((s, r) => s + r.requests, 0),
    firstError: rs.find((r) => r.firstError !== null)?.firstError ?? null,
    seconds: Math.max(...rs.map((r) => r.seconds)),
  });
  const ws3 = sumChurn(wsChurn);
  const http3 = sumChurn(httpChurn);
  log(`[p3] ws churn: ${fmtInt(ws3.ok)} ok, ${ws3.failed} failed in ${ws3.seconds.toFixed(1)} s (${fmtInt(ws3.ok / ws3.seconds)}/s)${ws3.firstError ? `; first error: ${ws3.firstError}` : ''}`);
  log(`[p3] http keep-alive churn: ${fmtInt(http3.ok)} connections ok (${fmtInt(http3.requests)} requests), ${http3.failed} failed in ${http3.seconds.toFixed(1)} s${http3.firstError ? `; first error: ${http3.firstError}` : ''}`);
  log(`[p3] abusive sockets (${ABUSE_PER_KIND} per kind; "freed" = the server closed it, or the client reset it itself):`);
  for (const c of abuse.categories) {
    log(`[p3]   ${c.name.padEnd(48)} ${c.freed}/${c.count} freed, median ${fmtMs(c.freedMsMedian)} max ${fmtMs(c.freedMsMax)}; server said: ${c.reply ?? '(nothing)'}${c.connectErrors ? `; ${c.connectErrors} connect errors` : ''}`);
  }
  log(
    `[p3] connections (sim.stats): ${before3.connections} before, max ${maxConnections} during, ${after3.connections} after (back ${Number.isFinite(backAfter) ? `${backAfter.toFixed(1)} s after the start` : 'NOT within 30 s of the end'}); ` +
      `ws peers ${before3.wsPeers} -> ${after3.wsPeers}, market ${before3.marketConnections} -> ${after3.marketConnections}, user sinks ${before3.userSinks} -> ${after3.userSinks}`,
  );
  check('P3 churn without errors', ws3.failed === 0 && http3.failed === 0, `ws ${ws3.failed} failed of ${CHURN}, http ${http3.failed} failed of ${CHURN}`);
  const unfreed = abuse.categories.filter((c) => c.freed < c.count - c.connectErrors);
  check('P3 server freed every abusive socket', unfreed.length === 0, unfreed.length === 0 ? `all ${abuse.categories.length} kinds within ${abuse.seconds.toFixed(0)} s` : unfreed.map((c) => `${c.name}: ${c.count - c.freed} still open`).join('; '));
  check(
    'P3 connections back to the baseline',
    backToBaseline(after3),
    `${before3.connections} -> ${after3.connections}, ws peers ${before3.wsPeers} -> ${after3.wsPeers}, market ${before3.marketConnections} -> ${after3.marketConnections}, user sinks ${before3.userSinks} -> ${after3.userSinks}` +
      (pausedGone() ? ' (the paused subscriber of P2 counted before, dropped since)' : ''),
  );
  check('P3 memory', memAfter3.heapUsedMB - memBefore3.heapUsedMB < 32, `RSS ${fmtMB(memBefore3.rssMB)} -> ${fmtMB(memAfter3.rssMB)}, heap after GC ${fmtMB(memBefore3.heapUsedMB)} -> ${fmtMB(memAfter3.heapUsedMB)}`);
  const slowMd = mdSlow.result();
  mdSlow.stop();
  await clients[clients.length - 1]!.run({ kind: 'slow-md-close' });
  check(
    'P2/P3 paused market-data subscriber dropped',
    Number.isFinite(slowMd.droppedAfterSeconds),
    Number.isFinite(slowMd.droppedAfterSeconds)
      ? `by the ${slowMd.by}, ${slowMd.droppedAfterSeconds.toFixed(1)} s after it stopped reading; largest send queue seen ${fmtMB(mb(slowMd.largestSendQueueBytes))}`
      : `still connected after ${((performance.now() - slowPausedAt) / 1000).toFixed(0)} s`,
  );
  report.pausedSubscriber = slowMd;
  const p3Md = await mdStatus(clients);
  check('P3 subscribers held', p3Md.open === CONNECTIONS && p3Md.closed === 0 && p3Md.gaps === 0, `${p3Md.open}/${CONNECTIONS} open, ${p3Md.closed} closed, ${p3Md.gaps} gaps`);
  report.p3 = { jobsSeconds, backAfterSeconds: backAfter, before: before3, maxConnections, after: after3, wsChurn: ws3, httpChurn: http3, abuse, memory: { before: memBefore3, after: memAfter3 } };
}
