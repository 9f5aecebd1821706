// Market-data stream subscriptions for tests (spec 4.2): a combined-stream connection whose
// messages (`{stream, data}`) arrive in an awaitable EventStream, typed per stream name. A name
// given to `next()`/`last()` matches a message by its stream (`btcusdt@trade`), by its
// payload's event type (`trade`, `depthUpdate`) or by the stream's kind (`bookTicker`, whose
// payload has no `e`), so `next('trade')` finds the trade inside the combined-stream message.

import type { WebSocket } from 'ws';
import { closeSocket, openSocket } from './socket.ts';
import { SpotSimNetworkError, StreamClosedError } from './errors.ts';
import { EventStream, type WaitOptions } from './event-stream.ts';
import type { StreamEventOf } from './event-types.ts';

/**
 * One combined-stream message: the stream's name and its payload.
 * @example
 * const stream = await client.streams('btcusdt@trade', 'ethusdt@trade');
 * const message: StreamMessage = await stream.next();
 * console.log(message.stream, message.data);
 */
export interface StreamMessage<T = unknown, N extends string = string> {
  readonly stream: N;
  readonly data: T;
}

/**
 * The message type of each named stream (a union over the names).
 * @example
 * const message: StreamMessageOf<'btcusdt@trade'> = await (await client.streams('btcusdt@trade')).next();
 * console.log(message.data.p);   // a TradeEvent's price
 */
export type StreamMessageOf<N extends string> = N extends unknown ? StreamMessage<StreamEventOf<N>, N> : never;

type KindOf<N extends string> = N extends `${string}@${infer K}` ? K : never;
type EventTypeOf<M> = M extends { readonly data: { readonly e: infer E extends string } } ? E : never;
/**
 * What `next()`/`last()` of a stream over `N` accept as a name: a stream name, an event type, a
 * stream kind.
 * @example
 * const names: StreamMatchName<'btcusdt@trade'>[] = ['btcusdt@trade', 'trade'];
 */
export type StreamMatchName<N extends string> = string extends N ? string : N | KindOf<N> | EventTypeOf<StreamMessageOf<N>>;
/**
 * The messages a name matches.
 * @example
 * const stream = await client.streams('btcusdt@trade', 'btcusdt@depth');
 * const diff: MessageNamed<'btcusdt@trade' | 'btcusdt@depth', 'depthUpdate'> = await stream.next('depthUpdate');
 */
export type MessageNamed<N extends string, K extends string> = string extends N
  ? StreamMessage
  : Extract<StreamMessageOf<N>, { readonly stream: K | `${string}@${K}` } | { readonly data: { readonly e: K } }>;

// The default `any` lets a stream of any names be passed where `MarketStream` (names unspecified) is expected.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
/**
 * Market-data streams on one combined connection (`client.streams(...names)`), typed by name:
 * `next()` and `last()` take a stream name, an event type or a stream kind; `nextOf()` gives one
 * stream's payloads.
 * @example
 * const stream = await client.streams('btcusdt@trade', 'btcusdt@bookTicker');
 * const trade = await stream.nextOf('btcusdt@trade');
 * const touch = stream.last('bookTicker')?.data;
 * await stream.close();
 */
export class MarketStream<N extends string = any> extends EventStream<StreamMessageOf<N>> {
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;

  /** @internal Made by `client.streams(...names)`. */
  constructor(wsBaseUrl: string, streams: readonly N[]) {
    super(`streams ${streams.join(', ')}`, () => closeSocket(this.ws));
    this.ws = openSocket(`${wsBaseUrl}/stream?streams=${streams.join('/')}`);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', (error) => reject(new SpotSimNetworkError(`stream connection failed: ${error.message}`, { cause: error })));
      this.ws.once('unexpected-response', (_req, res) => {
        reject(new SpotSimNetworkError(`stream connection refused: HTTP ${res.statusCode}`));
        this.ws.terminate();
      });
    });
    this.opened.catch(() => undefined);
    this.ws.on('message', (data) => {
      try {
        const msg = JSON.parse(String(data)) as Partial<StreamMessage>;
        if (typeof msg.stream === 'string') this.push(msg as StreamMessageOf<N>);
      } catch {
        // A non-JSON frame (the send_malformed_frames fault): not a stream message.
      }
    });
    this.ws.on('close', (code) => this.end(new StreamClosedError(`stream connection closed (${code})`, code)));
  }

  /** Resolves once the connection is open (rejects with SpotSimNetworkError if the server refuses it). */
  ready(): Promise<void> {
    return this.opened;
  }

  /**
   * The newest message of a stream (`'btcusdt@trade'`), an event type (`'trade'`) or a stream
   * kind (`'bookTicker'`), narrowed to it; or matching a predicate.
   */
  override last<K extends StreamMatchName<N>>(name: K): MessageNamed<N, K> | undefined;
  override last<S extends StreamMessageOf<N>>(guard: (m: StreamMessageOf<N>) => m is S): S | undefined;
  override last(match?: (m: StreamMessageOf<N>) => boolean): StreamMessageOf<N> | undefined;
  override last(match?: string | ((m: StreamMessageOf<N>) => boolean)): StreamMessageOf<N> | undefined {
    return super.last(match as never);
  }

  /** Waits for the next message of a stream, an event type or a stream kind (narrowed to it), or matching a predicate. */
  override next<K extends StreamMatchName<N>>(name: K, options?: WaitOptions): Promise<MessageNamed<N, K>>;
  override next<S extends StreamMessageOf<N>>(guard: (m: StreamMessageOf<N>) => m is S, options?: WaitOptions): Promise<S>;
  override next(match?: (m: StreamMessageOf<N>) => boolean, options?: WaitOptions): Promise<StreamMessageOf<N>>;
  override next(match?: string | ((m: StreamMessageOf<N>) => boolean), options?: WaitOptions): Promise<StreamMessageOf<N>> {
    return super.next(match as never, options);
  }

  /** The next payload of one stream (e.g. `btcusdt@trade`), typed by its name. */
  async nextOf<T = StreamEventOf<N>>(stream: N, match?: (data: T) => boolean, options?: WaitOptions): Promise<T> {
    const msg = await super.next((m: StreamMessageOf<N>) => m.stream === stream && (match === undefined || match(m.data as T)), options);
    return msg.data as T;
  }

  protected override matchesName(m: StreamMessageOf<N>, name: string): boolean {
    return m.stream === name || m.stream.endsWith(`@${name}`) || (m.data as { e?: unknown } | null)?.e === name;
  }
}
