// W1 of the WS benchmark: the WS API order.place round trip on one connection, sequential (send,
// await the reply, repeat), place and cancel alternating so the book never grows; the load
// process (ws-client.ts, job `rtt`) times each request, this process its own CPU meanwhile.

import { formatPercent, summarize, type LoadProcess, type Summary } from './support.ts';
import type { Auth, ClientJob, RttResult } from './ws-client.ts';
import { fmtUs, log, RTT_MAX_SAMPLES, RTT_SECONDS, WARMUP_SECONDS } from './ws-settings.ts';

export interface RttReport {
  readonly mode: Auth['mode'];
  readonly place: Summary;
  readonly cancel: Summary | null;
  readonly errors: number;
  readonly firstError: string | null;
  readonly seconds: number;
  readonly clientCpu: number;
  readonly serverCpu: number;
}

/** Measures W1 against `url` (a simulator's /ws-api/v3, or the bare echo with mode `echo`) and prints its line. */
export async function measureRoundTrip(load: LoadProcess<ClientJob>, url: string, auth: Auth): Promise<RttReport> {
  const { result: r, serverCpu } = await load.runTimed<RttResult>({ kind: 'rtt', url, auth, warmupSeconds: WARMUP_SECONDS, seconds: RTT_SECONDS, maxSamples: RTT_MAX_SAMPLES });
  const out: RttReport = {
    mode: auth.mode,
    place: summarize(r.placeUs),
    cancel: auth.mode === 'echo' ? null : summarize(r.cancelUs),
    errors: r.errors,
    firstError: r.firstError,
    seconds: r.seconds,
    clientCpu: r.clientCpu,
    serverCpu,
  };
  const what = auth.mode === 'echo' ? 'bare ws echo' : `order.place (${auth.mode})`;
  log(
    `[w1] ${what.padEnd(20)} n=${out.place.n}  p50 ${fmtUs(out.place.p50)}  p90 ${fmtUs(out.place.p90)}  p99 ${fmtUs(out.place.p99)}  max ${fmtUs(out.place.max)}` +
      (out.cancel ? `  | order.cancel p50 ${fmtUs(out.cancel.p50)} p99 ${fmtUs(out.cancel.p99)}` : '') +
      `  | cpu server ${formatPercent(serverCpu)} client ${formatPercent(r.clientCpu)}` +
      (r.errors > 0 ? `  | ${r.errors} ERRORS, first: ${r.firstError}` : ''),
  );
  return out;
}
