// Soak load: connection churn (open/close many connections) and abusive sockets that never
// finish a request, each timed until the server frees it. Part of bench/soak/client.ts.

import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { errText, openWs, sleep } from '../load-common.ts';
import type { AbuseCategory, AbuseResult, ChurnResult } from './protocol.ts';

/** Runs `count` tasks, `concurrency` at a time. */
async function pool(count: number, concurrency: number, deadline: number, task: (i: number) => Promise<void>): Promise<{ ok: number; failed: number; firstError: string | null }> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  let firstError: string | null = null;
  const worker = async () => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      try {
        await task(i);
        ok++;
      } catch (e) {
        failed++;
        firstError ??= errText(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  // Tasks not started before the deadline count as failed.
  failed += count - next;
  if (count > next) firstError ??= `${count - next} not started before the deadline`;
  return { ok, failed, firstError };
}

/** ws churn: open, take the first message (market) or answer a ping (API), close three ways. */
export async function churnWs(url: string, count: number, concurrency: number, timeoutSeconds: number): Promise<ChurnResult> {
  const t0 = performance.now();
  const r = await pool(count, concurrency, t0 + timeoutSeconds * 1000, async (i) => {
    const api = i % 2 === 1;
    const ws = await openWs(api ? `${url}/ws-api/v3` : `${url}/ws/btcusdt@depth@100ms`, 5000);
    ws.on('error', () => {});
    if (api) {
      // One request on the connection: the WS API `ping`.
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error('no WS API ping reply within 5 s')), 5000);
        ws.once('message', (d: Buffer) => {
          clearTimeout(timer);
          if (d.includes('"status":200')) res();
          else rej(new Error(`WS API ping: ${d.toString('utf8').slice(0, 200)}`));
        });
        ws.send(`{"id":${i},"method":"ping"}`);
      });
    }
    switch (i % 3) {
      case 0: {
        // Clean close handshake.
        const closed = new Promise<void>((res) => ws.once('close', () => res()));
        ws.close(1000);
        await Promise.race([closed, sleep(5000)]);
        ws.terminate();
        break;
      }
      case 1:
        ws.terminate(); // FIN without a close frame
        break;
      default: {
        const socket = (ws as unknown as { _socket?: Socket })._socket;
        if (socket !== undefined && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy(); // RST
        else ws.terminate();
      }
    }
  });
  return { kind: 'ws', ...r, seconds: (performance.now() - t0) / 1000, requests: 0 };
}

/** HTTP keep-alive churn: one raw connection per task, `requestsPerConnection` pings on it, then FIN. */
export async function churnHttp(host: string, port: number, count: number, concurrency: number, perConn: number, timeoutSeconds: number): Promise<ChurnResult> {
  const t0 = performance.now();
  let requests = 0;
  const request = `GET /api/v3/ping HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: keep-alive\r\n\r\n`;
  const r = await pool(count, concurrency, t0 + timeoutSeconds * 1000, (i) => {
    return new Promise<void>((res, rej) => {
      const socket = connect(port, host);
      let got = '';
      let answered = 0;
      const timer = setTimeout(() => {
        socket.destroy();
        rej(new Error(`no ${perConn} answers within 5 s (got ${answered})`));
      }, 5000);
      socket.setEncoding('latin1');
      socket.on('error', (e) => {
        clearTimeout(timer);
        rej(e);
      });
      socket.on('connect', () => socket.write(request));
      socket.on('data', (d: string) => {
        got += d;
        // Each answer to ping ends with its `{}` body (Content-Length: 2).
        let end: number;
        while ((end = got.indexOf('\r\n\r\n{}')) >= 0) {
          if (!got.startsWith('HTTP/1.1 200')) {
            clearTimeout(timer);
            socket.destroy();
            return rej(new Error(`ping answered ${got.slice(0, 40)}`));
          }
          got = got.slice(end + 6);
          answered++;
          requests++;
          if (answered === perConn) {
            clearTimeout(timer);
            // Alternate a polite FIN and an RST.
            if (i % 2 === 0) socket.end();
            else socket.resetAndDestroy();
            return res();
          }
          socket.write(request);
        }
      });
    });
  });
  return { kind: 'http', ...r, seconds: (performance.now() - t0) / 1000, requests };
}
// ------------------------------------------------------------------ abuse

interface AbuseSpec {
  readonly name: string;
  readonly port: 'http' | 'https';
  /** Called once connected; returns a stop function for its timers. */
  readonly start: (socket: Socket, host: string, port: number) => (() => void) | void;
  /** The client itself resets the socket (the server must notice). */
  readonly selfReset?: boolean;
}

/** A TLS 1.2/1.3 ClientHello record header and the first bytes of its handshake: never completed. */
const HALF_CLIENT_HELLO = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, ...Array.from({ length: 32 }, (_, i) => i)]);

const ABUSE: readonly AbuseSpec[] = [
  { name: 'http: connect, send nothing', port: 'http', start: () => {} },
  { name: 'http: half the headers, then silence', port: 'http', start: (s, h, p) => void s.write(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`) },
  {
    name: 'http: slowloris (a header byte every 500 ms)',
    port: 'http',
    start: (s, h, p) => {
      const head = `GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\nX-Slow: `;
      let i = 0;
      const t = setInterval(() => {
        if (!s.writable) return clearInterval(t);
        s.write(i < head.length ? head[i]! : 'a');
        i++;
      }, 500);
      return () => clearInterval(t);
    },
  },
  {
    name: 'http: POST body a byte every 500 ms',
    port: 'http',
    start: (s, h, p) => {
      s.write(`POST /api/v3/order HTTP/1.1\r\nHost: ${h}:${p}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n`);
      const t = setInterval(() => (s.writable ? s.write('a') : clearInterval(t)), 500);
      return () => clearInterval(t);
    },
  },
  {
    name: 'http: half the headers, then FIN (half-closed)',
    port: 'http',
    start: (s, h, p) => void s.end(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`),
  },
  {
    name: 'http: half the headers, then RST (no FIN)',
    port: 'http',
    selfReset: true,
    start: (s, h, p) => {
      s.write(`GET /api/v3/ping HTTP/1.1\r\nHost: ${h}:${p}\r\n`);
      const t = setTimeout(() => s.resetAndDestroy(), 100);
      return () => clearTimeout(t);
    },
  },
  {
    // A peer that went away without FIN looks like this to the server: nothing comes back. The
    // socket is read (and discarded) so the client notices when the server lets go.
    name: 'ws: upgraded, never answers pings',
    port: 'http',
    start: (s, h, p) =>
      void s.write(
        `GET /ws/btcusdt@depth@100ms HTTP/1.1\r\nHost: ${h}:${p}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
  },
  { name: 'tls: connect, send nothing', port: 'https', start: () => {} },
  { name: 'tls: half a ClientHello, then silence', port: 'https', start: (s) => void s.write(HALF_CLIENT_HELLO) },
  {
    name: 'tls: half a ClientHello, then RST',
    port: 'https',
    selfReset: true,
    start: (s) => {
      s.write(HALF_CLIENT_HELLO);
      const t = setTimeout(() => s.resetAndDestroy(), 100);
      return () => clearTimeout(t);
    },
  },
];

export async function abuse(host: string, httpPort: number, httpsPort: number, perCategory: number, boundSeconds: number): Promise<AbuseResult> {
  const t0 = performance.now();
  const deadline = t0 + boundSeconds * 1000;
  const all: Array<Promise<AbuseCategory>> = ABUSE.map(async (spec) => {
    const port = spec.port === 'http' ? httpPort : httpsPort;
    const freedAt: number[] = [];
    let reply: string | null = null;
    let connectErrors = 0;
    const sockets: Socket[] = [];
    const stops: Array<() => void> = [];
    await Promise.all(
      Array.from(
        { length: perCategory },
        () =>
          new Promise<void>((res) => {
            const s = connect({ port, host, allowHalfOpen: true });
            sockets.push(s);
            const opened = performance.now();
            let connected = false;
            s.on('error', () => {
              if (!connected) connectErrors++;
            });
            s.on('data', (d: Buffer) => {
              reply ??= d.toString('latin1').split('\r\n')[0]!.slice(0, 60) || `${d.length} bytes`;
            });
            // The server freed it: it closed (or reset) the connection; a self-reset counts at once.
            s.once('close', () => {
              if (connected) freedAt.push(performance.now() - opened);
            });
            s.once('end', () => s.destroy());
            s.once('connect', () => {
              connected = true;
              const stop = spec.start(s, host, port);
              if (stop) stops.push(stop);
              res();
            });
            setTimeout(res, 5000).unref();
          }),
      ),
    );
    // Wait until the server freed every one, or the bound.
    while (freedAt.length < sockets.length - connectErrors && performance.now() < deadline) await sleep(100);
    for (const stop of stops) stop();
    for (const s of sockets) s.destroy();
    const sorted = [...freedAt].sort((a, b) => a - b);
    return {
      name: spec.name,
      port: spec.port,
      count: sockets.length,
      freed: freedAt.length,
      freedMsMax: sorted.length ? sorted[sorted.length - 1]! : NaN,
      freedMsMedian: sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN,
      reply,
      connectErrors,
    };
  });
  const categories = await Promise.all(all);
  return { categories, seconds: (performance.now() - t0) / 1000 };
}