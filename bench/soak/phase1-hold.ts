// P1 of the soak, hold: SOAK_CONNECTIONS combined-stream subscribers over the load processes, a
// WS API trader in each, and the ping prober (it runs until the end); after a warm-up, one
// window of delivery delays, with every subscriber held and every depth stream contiguous.

import { performance } from 'node:perf_hooks';
import {
  CONNECTIONS,
  fmtInt,
  log,
  MD_STREAMS,
  ORDER_RATE,
  P1_SECONDS,
  PING_INTERVAL_MS,
  PING_TIMEOUT_MS,
  PROCESSES,
  sleep,
  split,
  WARMUP_SECONDS,
} from './settings.ts';
import { gatewayCounts } from './server-watch.ts';
import { check, logWindow, mdStatus, windowOver, type SoakRun, type Window } from './windows.ts';

/** Opens the load and measures P1; its window is P2's reference. */
export async function holdPhase(run: SoakRun): Promise<Window> {
  const { sim, clients, report } = run;
  log(`\n== P1: ${CONNECTIONS} subscribers + WS API order traffic ==`);
  const t1 = performance.now();
  const perClient = split(CONNECTIONS, PROCESSES);
  await Promise.all(clients.map((c, i) => c.run({ kind: 'md-open', url: `${sim.urls.ws}/stream?streams=${MD_STREAMS}`, count: perClient[i]! })));
  const connectSeconds = (performance.now() - t1) / 1000;
  const orderRates = split(ORDER_RATE * 1000, PROCESSES).map((x) => x / 1000);
  await Promise.all(
    clients.map((c, i) =>
      c.run({
        kind: 'trade-start',
        url: `${sim.urls.ws}/ws-api/v3`,
        apiKey: sim.credentials.apiKey,
        apiSecret: sim.credentials.apiSecret,
        ratePerSec: orderRates[i]!,
        tag: `soak${i}-`,
      }),
    ),
  );
  await clients[0]!.run({ kind: 'ping-start', http: sim.urls.http, https: sim.urls.https, intervalMs: PING_INTERVAL_MS, timeoutMs: PING_TIMEOUT_MS });
  log(`[p1] ${CONNECTIONS} connections opened in ${connectSeconds.toFixed(1)} s; ${PROCESSES} traders at ${orderRates.join('/')} orders/s; ping prober every ${PING_INTERVAL_MS} ms`);
  await sleep(WARMUP_SECONDS * 1000);
  const p1 = await windowOver(run, () => sleep(P1_SECONDS * 1000));
  logWindow('p1', p1);
  const p1Md = await mdStatus(clients);
  const p1Counts = gatewayCounts(sim);
  check('P1 all subscribers held', p1Md.open === CONNECTIONS && p1Md.closed === 0 && p1Md.errors === 0, `${p1Md.open}/${CONNECTIONS} open, ${p1Md.closed} closed, ${p1Md.errors} errors${p1Md.firstError ? ` (${p1Md.firstError})` : ''}; server sees ${p1Counts.marketConnections} market connections`);
  check('P1 depth streams contiguous', p1Md.gaps === 0, `${p1Md.gaps} gaps in ${fmtInt(p1Md.depthMessages)} depth updates${p1Md.firstGap ? ` (${p1Md.firstGap})` : ''}`);
  report.p1 = { connections: CONNECTIONS, connectSeconds, orderRates, window: p1, md: p1Md, counts: p1Counts };
  return p1;
}
