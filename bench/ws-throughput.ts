// W2 of the WS benchmark: the W1 requests pipelined on one connection (WINDOW requests always in
// flight, each slot placing then cancelling) with a user-data subscription; the load process
// (ws-client.ts, job `pipe`) counts replies and events, this process its own CPU meanwhile, so
// the rate also comes per server core (steadier than the raw rate when other work shares the
// cores).

import { formatPercent, formatRate, type LoadProcess } from './support.ts';
import type { Auth, ClientJob, PipeResult } from './ws-client.ts';
import { log, SECONDS, WARMUP_SECONDS, WINDOW } from './ws-settings.ts';

export interface PipeReport {
  readonly mode: Auth['mode'];
  /** order.place replies per second (echo: echoed frames / 2). */
  readonly ordersPerSec: number;
  readonly requestsPerSec: number;
  readonly eventsPerSec: number;
  readonly window: number;
  readonly errors: number;
  readonly firstError: string | null;
  readonly seconds: number;
  readonly clientCpu: number;
  readonly serverCpu: number;
  /** ordersPerSec / serverCpu: the rate with one full core (contention-robust, roughly). */
  readonly ordersPerServerCore: number;
  /** Server CPU µs per order (a place and its cancel, with their user-data events). */
  readonly serverCpuUsPerOrder: number;
}

/** Measures W2 against `url` (a simulator's /ws-api/v3, or the bare echo with mode `echo`) and prints its line. */
export async function measureThroughput(load: LoadProcess<ClientJob>, url: string, auth: Auth): Promise<PipeReport> {
  const { result: r, serverCpu } = await load.runTimed<PipeResult>({ kind: 'pipe', url, auth, warmupSeconds: WARMUP_SECONDS, seconds: SECONDS, window: WINDOW, subscribe: true });
  const echo = auth.mode === 'echo';
  const requests = echo ? r.places : r.places + r.cancels;
  const out: PipeReport = {
    mode: auth.mode,
    ordersPerSec: echo ? r.places / 2 / r.seconds : r.places / r.seconds,
    requestsPerSec: requests / r.seconds,
    eventsPerSec: r.events / r.seconds,
    window: r.window,
    errors: r.errors,
    firstError: r.firstError,
    seconds: r.seconds,
    clientCpu: r.clientCpu,
    serverCpu,
    ordersPerServerCore: (echo ? r.places / 2 / r.seconds : r.places / r.seconds) / serverCpu,
    serverCpuUsPerOrder: (serverCpu * 1e6) / (echo ? r.places / 2 / r.seconds : r.places / r.seconds),
  };
  const what = echo ? 'bare ws echo' : `place+cancel (${auth.mode})`;
  log(
    `[w2] ${what.padEnd(20)} window ${r.window}, ${r.seconds.toFixed(1)} s: ${echo ? 'frames' : 'requests'}/s ${formatRate(out.requestsPerSec)}  ` +
      `${echo ? 'pairs' : 'orders'}/s ${formatRate(out.ordersPerSec)}` +
      (echo ? '' : `  user-data events/s ${formatRate(out.eventsPerSec)}`) +
      `  | cpu server ${formatPercent(serverCpu)} client ${formatPercent(r.clientCpu)}, server ${out.serverCpuUsPerOrder.toFixed(1)} µs cpu per ${echo ? 'pair' : 'order'} ` +
      `= ${formatRate(out.ordersPerServerCore)} ${echo ? 'pairs' : 'orders'}/s per server core` +
      (r.errors > 0 ? `  | ${r.errors} ERRORS, first: ${r.firstError}` : ''),
  );
  return out;
}
