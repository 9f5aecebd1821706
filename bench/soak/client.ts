// The load side of bench/soak/soak.ts, forked by it (never run on its own): market-data subscribers,
// a WS API trader, a ping prober, connection churn and abusive sockets, driven over the IPC
// channel. Several jobs run at once in one process (the subscribers keep receiving while the
// trader trades); every job is bounded in count and time.
//
// Jobs:
//   md-open        `count` combined-stream connections (depth + trades); each checks its depth
//                  stream is contiguous (U == previous u + 1) for the whole run.
//   window-start / window-end   delivery delay (receive wall time - the event's `E`) of every
//                  depthUpdate and trade between the two, as a fixed-size histogram (mergeable),
//                  with this process's CPU share and event-loop delay over the window.
//   md-status      connections open / closed / errors, messages, depth gaps so far.
//   slow-md-open / slow-md-close   a market-data connection on every stream that pauses its
//                  socket after its first message (a subscriber that stops reading).
//   slow-api-open / slow-api-close   a WS API connection (user-data subscribed) that pauses its
//                  socket and keeps asking for `depth` snapshots it never reads, so its send
//                  queue on the server grows at a known pace until the server cuts it.
//   trade-start / trade-stop  one WS API connection with a user-data subscription placing orders
//                  at a steady rate (LIMIT far from the touch, cancelled ~0.5 s later; every 5th a
//                  small MARKET order that trades): on stop it checks that every order it placed
//                  produced a NEW executionReport and then a final one.
//   ping-start / ping-stop   GET /api/v3/ping over http and https every `intervalMs`.
//   churn-ws / churn-http    open/close `count` connections, `concurrency` at a time.
//   abuse          sockets that never finish a request: idle, partial headers, slowloris, slow
//                  body, RST mid-request, FIN mid-request, TLS idle / half a ClientHello, a
//                  WebSocket that never answers pings; reports when the server freed each.
//
// The parts: client-md.ts (subscribers, windows, slow consumers), client-trader.ts (trader,
// ping prober), client-abuse.ts (churn, abuse); the protocol in protocol.ts.

import { serveJobs } from '../load-common.ts';
import { abuse, churnHttp, churnWs } from './client-abuse.ts';
import { closeAllMd, mdOpen, mdStatus, slowApiClose, slowApiOpen, slowMdClose, slowMdOpen, windowBegin, windowEnd } from './client-md.ts';
import type { Job } from './protocol.ts';
import { Pinger, Trader } from './client-trader.ts';

export type { AbuseCategory, AbuseResult, ChurnResult, Histogram, Job, MdStatus, PingResult, TradeResult, WindowResult } from './protocol.ts';

let trader: Trader | null = null;
let pinger: Pinger | null = null;

async function handle(job: Job): Promise<unknown> {
  switch (job.kind) {
    case 'md-open':
      return mdOpen(job.url, job.count);
    case 'md-status':
      return mdStatus();
    case 'window-start':
      windowBegin();
      return null;
    case 'window-end':
      return windowEnd();
    case 'slow-md-open':
      await slowMdOpen(job.url);
      return null;
    case 'slow-md-close':
      slowMdClose();
      return null;
    case 'slow-api-open':
      await slowApiOpen(job.url, job.apiKey, job.apiSecret, job.intervalMs, job.depthLimit);
      return null;
    case 'slow-api-close':
      slowApiClose();
      return null;
    case 'trade-start':
      trader = await Trader.start(job.url, job.apiKey, job.apiSecret, job.tag, job.ratePerSec);
      return null;
    case 'trade-stop': {
      if (trader === null) throw new Error('no trader running');
      const r = await trader.stop(job.settleSeconds);
      trader = null;
      return r;
    }
    case 'ping-start':
      pinger = new Pinger(job.http, job.https, job.intervalMs, job.timeoutMs);
      return null;
    case 'ping-stop': {
      if (pinger === null) throw new Error('no pinger running');
      const r = await pinger.stop();
      pinger = null;
      return r;
    }
    case 'churn-ws':
      return churnWs(job.url, job.count, job.concurrency, job.timeoutSeconds);
    case 'churn-http':
      return churnHttp(job.host, job.port, job.count, job.concurrency, job.requestsPerConnection, job.timeoutSeconds);
    case 'abuse':
      return abuse(job.host, job.httpPort, job.httpsPort, job.perCategory, job.boundSeconds);
  }
}

serveJobs('bench/soak/client.ts', '`npm run soak`', handle, closeAllMd);
