// Market-data stream subscriptions for tests (spec 4.2): a combined-stream connection whose
// payloads arrive in an awaitable EventStream, with the stream name kept beside each payload.

import type { WebSocket } from 'ws';
import { closeSocket, openSocket } from './socket.ts';
import { EventStream } from './event-stream.ts';
import type { MarketEvent } from './types.ts';

export interface StreamMessage<T = MarketEvent> {
  readonly stream: string;
  readonly data: T;
}

export class MarketStream extends EventStream<StreamMessage> {
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;

  constructor(wsBaseUrl: string, streams: readonly string[]) {
    super(`streams ${streams.join(', ')}`);
    this.ws = openSocket(`${wsBaseUrl}/stream?streams=${streams.join('/')}`);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`stream connection refused: HTTP ${res.statusCode}`)));
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data) => {
      try {
        const msg = JSON.parse(String(data)) as Partial<StreamMessage>;
        if (typeof msg.stream === 'string') this.push(msg as StreamMessage);
      } catch {
        // A non-JSON frame (the send_malformed_frames fault): not a stream message.
      }
    });
    this.ws.on('close', (code) => this.end(new Error(`stream connection closed (${code})`)));
  }

  /** Resolves once the connection is open (rejects if the server refuses it). */
  ready(): Promise<void> {
    return this.opened;
  }

  /** The next payload of one stream (e.g. `btcusdt@trade`). */
  async nextOf<T extends MarketEvent>(stream: string, match?: (data: T) => boolean, options?: { timeout?: number }): Promise<T> {
    const msg = await this.next((m) => m.stream === stream && (match === undefined || match(m.data as T)), options);
    return msg.data as T;
  }

  /** Closes the connection. */
  override close(): Promise<void> {
    return closeSocket(this.ws);
  }
}
