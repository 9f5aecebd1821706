// The baseline of the WS benchmark: a bare `ws` server in the bench process, measured by the
// same load process in the same run, so each figure also comes as a ratio to what `ws` alone
// does on this machine.

import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WebSocketServer, type WebSocket } from 'ws';
import { BATCH_MS } from './ws-settings.ts';

/** `/echo` echoes every message; `/broadcast` connections get a depthUpdate-like frame every 100 ms. */
export class BareServer {
  private readonly broadcast = new Set<WebSocket>();
  private timer: NodeJS.Timeout | null = null;
  private seq = 1;
  /** Wall ms of each broadcast loop while recording. */
  batchMs: number[] | null = null;

  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {
    wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
      ws.on('error', () => ws.terminate());
      if (req.url === '/broadcast') {
        this.broadcast.add(ws);
        ws.once('close', () => this.broadcast.delete(ws));
        return;
      }
      ws.on('message', (data, isBinary) => ws.send(data as Buffer, { binary: isBinary }));
    });
  }

  static start(): Promise<BareServer> {
    return new Promise((res, rej) => {
      const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false }, () => {
        res(new BareServer(wss, `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`));
      });
      wss.once('error', rej);
    });
  }

  startBroadcast(): void {
    this.timer = setInterval(() => this.tick(), BATCH_MS);
  }

  private tick(): void {
    if (this.broadcast.size === 0) return;
    const t0 = performance.now();
    // The size of a small generator diff: one changed level a side.
    const u = this.seq++;
    const payload = `{"e":"depthUpdate","E":${Date.now()},"s":"BTCUSDT","U":${u},"u":${u},"b":[["59970.01000000","0.01234000"]],"a":[["60029.99000000","0.02000000"]]}`;
    const frame = Buffer.from(payload);
    for (const ws of this.broadcast) ws.send(frame, { binary: false });
    this.batchMs?.push(performance.now() - t0);
  }

  close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    for (const ws of this.wss.clients) ws.terminate();
    return new Promise((res) => this.wss.close(() => res()));
  }
}
