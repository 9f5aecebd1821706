// Market-data WebSockets (spec 4.2, 6.1; binance-facts §5): raw (`/ws`, `/ws/<a>/<b>`) and
// combined (`/stream?streams=a/b`) connections, the control frames SUBSCRIBE / UNSUBSCRIBE /
// LIST_SUBSCRIPTIONS / SET_PROPERTY / GET_PROPERTY with the reference replies and error codes
// 0-3, and the fan-out: each payload is serialized once per batch and each wrapped frame built
// once per stream name, then the same bytes go to every subscriber.

import type { RawData } from 'ws';
import type { EventWire } from '../api/event-wire.ts';
import type { DepthDiff, PublicTrade, Touch } from '../core/types.ts';
import type { UserSink, UserStreams } from './user-streams.ts';
import { parseExact, roundedIntegers } from '../api/exact-json.ts';
import { describeUntrusted } from '../untrusted.ts';
import { requestIdText } from './request-id.ts';
import { streamEventInUnit, type TimeUnit } from '../api/time-unit.ts';
import { textFrame } from './frames.ts';
import { CLOSE_POLICY, type Peer } from './ws-peer.ts';
import type { StreamFanOut } from './market-data-pushes.ts';
import { HeldDepth } from './held-depth.ts';

/** binance-facts §5: 1024 streams per connection, 5 incoming messages per second. */
export const MAX_STREAMS_PER_CONNECTION = 1024;
export const MAX_MESSAGES_PER_SECOND = 5;

const DEPTH_SUFFIXES = ['@depth', '@depth@100ms', '@depth@1000ms'] as const;
/** The per-symbol streams published from the exchange's events and depth batches (spec 4.2). */
export const EVENT_STREAM_SUFFIXES = [...DEPTH_SUFFIXES, '@bookTicker', '@trade'] as const;
const METHODS = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'];

/** What a connection may subscribe to, beside market streams: a valid listen key. */
export type ListenKeyCheck = (name: string) => boolean;

export class MarketConnection {
  /** Subscribed names in subscription order (LIST_SUBSCRIPTIONS answers in this order). */
  readonly streams = new Set<string>();
  /** The simulated time each market stream was subscribed at. */
  readonly subscribedAt = new Map<string, number>();
  readonly userSinks = new Map<string, UserSink>();

  constructor(
    readonly peer: Peer,
    public combined: boolean,
    /** `timeUnit=MICROSECOND` on the URL: this connection's events carry µs times. */
    readonly timeUnit: TimeUnit = 'MILLISECOND',
  ) {}
}

export class MarketStreams implements StreamFanOut {
  private readonly subscribers = new Map<string, Set<MarketConnection>>();
  readonly connections = new Set<MarketConnection>();
  private readonly validStreams: ReadonlySet<string>;
  /** Depth diffs and touches held through a manual-clock jump (null: sent as they come). */
  private held: HeldDepth | null = null;
  /** The depth-diff and bookTicker streams of every symbol (asked about at every scheduler stop of a replay). */
  private readonly bookStreams: readonly string[];

  constructor(
    symbols: readonly string[],
    private readonly wire: EventWire,
    private readonly users: UserStreams,
    private readonly isListenKey: ListenKeyCheck,
    private readonly monotonicNow: () => number,
    /** Counts and logs an exception the last line of defence caught. */
    private readonly onUnexpected: (where: string, error: unknown) => void = () => undefined,
    /** Further stream names (klines, tickers, aggTrade...: market-data-pushes.ts). */
    extraStreams: Iterable<string> = [],
    /** Told when a stream gains its first subscriber (timed pushes may now be due). */
    private readonly onFirstSubscriber: (name: string) => void = () => undefined,
    /** The simulated clock (when each subscription began). */
    private readonly simNow: () => number = () => 0,
  ) {
    const names = new Set<string>(extraStreams);
    for (const symbol of symbols) {
      const s = symbol.toLowerCase();
      for (const suffix of EVENT_STREAM_SUFFIXES) names.add(s + suffix);
    }
    this.validStreams = names;
    this.bookStreams = [...names].filter((name) => name.endsWith('@bookTicker') || DEPTH_SUFFIXES.some((suffix) => name.endsWith(suffix)));
  }

  *activeNames(): Iterable<string> {
    for (const [name, subs] of this.subscribers) if (subs.size > 0) yield name;
  }

  /** Whether a depth-diff or bookTicker stream has a subscriber: someone follows the books' changes. */
  hasBookStreams(): boolean {
    for (const name of this.bookStreams) if (this.hasSubscribers(name)) return true;
    return false;
  }

  hasSubscribers(name: string): boolean {
    const subs = this.subscribers.get(name);
    return subs !== undefined && subs.size > 0;
  }

  /** One payload to every subscriber of `name` (built once per framing); see StreamFanOut. */
  send(name: string, payload: string, subscribedBefore?: number): void {
    const subs = this.subscribers.get(name);
    if (subs !== undefined && subs.size > 0) this.fanOut(name, payload, subs, subscribedBefore);
  }

  /** A stream name this server publishes (symbols lowercase, spec 4.2). */
  isStream(name: string): boolean {
    return this.validStreams.has(name);
  }

  /** Whether a connection may subscribe to `name`: a market stream or a valid listen key. */
  isSubscribable(name: string): boolean {
    return this.isStream(name) || this.isListenKey(name);
  }

  open(peer: Peer, combined: boolean, initial: readonly string[], timeUnit: TimeUnit = 'MILLISECOND'): MarketConnection {
    const conn = new MarketConnection(peer, combined, timeUnit);
    this.connections.add(conn);
    for (const name of initial) this.subscribe(conn, name);
    peer.ws.on('message', (data, isBinary) => this.onMessage(conn, data, isBinary));
    // Pings and (unsolicited) pongs count like JSON control frames (binance-facts §5).
    peer.onControlFrame = () => this.countIncoming(conn);
    peer.ws.once('close', () => this.close(conn));
    return conn;
  }

  private close(conn: MarketConnection): void {
    this.connections.delete(conn);
    for (const name of conn.streams) this.subscribers.get(name)?.delete(conn);
    for (const sink of conn.userSinks.values()) this.users.remove(sink);
    conn.userSinks.clear();
  }

  private subscribe(conn: MarketConnection, name: string): void {
    if (conn.streams.has(name)) return;
    conn.streams.add(name);
    if (this.isStream(name)) {
      conn.subscribedAt.set(name, this.simNow());
      let set = this.subscribers.get(name);
      if (set === undefined) this.subscribers.set(name, (set = new Set()));
      set.add(conn);
      if (set.size === 1) this.onFirstSubscriber(name);
    } else {
      // A listen key on a stream connection: the legacy user stream (client-requests §8).
      const sink: UserSink = conn.combined
        ? { form: 'combined', peer: conn.peer, listenKey: name, timeUnit: conn.timeUnit }
        : { form: 'raw', peer: conn.peer, listenKey: name, timeUnit: conn.timeUnit };
      conn.userSinks.set(name, sink);
      this.users.add(sink);
    }
  }

  private unsubscribe(conn: MarketConnection, name: string): void {
    if (!conn.streams.delete(name)) return;
    conn.subscribedAt.delete(name);
    this.subscribers.get(name)?.delete(conn);
    const sink = conn.userSinks.get(name);
    if (sink !== undefined) {
      this.users.remove(sink);
      conn.userSinks.delete(name);
    }
  }

  // ------------------------------------------------------------------ control frames

  /** Counts one incoming message; false (and the connection closing) when over the limit. */
  private countIncoming(conn: MarketConnection): boolean {
    if (conn.peer.countMessage(this.monotonicNow(), MAX_MESSAGES_PER_SECOND)) return true;
    // Reference: going over 5 incoming messages per second disconnects.
    conn.peer.close(CLOSE_POLICY, 'Too many messages');
    return false;
  }

  private onMessage(conn: MarketConnection, data: RawData, isBinary: boolean): void {
    if (!this.countIncoming(conn)) return;
    const text = isBinary ? null : rawText(data);
    let reply: string;
    try {
      reply = replyText(this.control(conn, text));
    } catch (error) {
      // The last line of defence (issue 18): no frame takes the process down; the generic
      // error (code 2, the reference's "Invalid request"), counted as the defect it is.
      this.onUnexpected('a market-data control frame', error);
      reply = replyText(invalid('Invalid request', 'null'));
    }
    conn.peer.send(reply);
  }

  /**
   * The reply to one control frame (binance-facts §5 shapes and error codes); its `id` is the
   * request id as JSON text (int64 ids come back digit for digit).
   */
  private control(conn: MarketConnection, text: string | null): Reply {
    let msg: unknown;
    try {
      if (text === null) throw new SyntaxError('binary');
      msg = JSON.parse(text);
    } catch (error) {
      const [line, column] = jsonErrorPosition(text ?? '', error);
      return { error: { code: 3, msg: `Invalid JSON: expected value at line ${line} column ${column}` }, id: 'null' };
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      return invalid('Invalid request: expected a JSON object', 'null');
    }
    let req = msg as Record<string, unknown>;
    // An id beyond 2^53 is echoed as the digits sent: only then is the frame scanned exactly.
    if (roundedIntegers(req)) req = parseExact(text!, req) as Record<string, unknown>;
    const id = requestIdText(req.id, true);
    if (id === null) return invalid('Invalid request: request ID must be an unsigned integer', 'null');
    const method = req.method;
    if (method === undefined) return invalid(`Invalid request: missing field \`method\` at line 1 column ${text!.length}`, id);
    if (typeof method !== 'string' || !METHODS.includes(method)) {
      // The value as a client sent it, described within a bound (it may nest thousands deep).
      const shown = typeof method === 'string' ? `\`${method.slice(0, 100)}\`` : describeUntrusted(method);
      return invalid(
        `Invalid request: unknown variant ${shown}, expected one of \`SUBSCRIBE\`, \`UNSUBSCRIBE\`, \`LIST_SUBSCRIPTIONS\`, \`SET_PROPERTY\`, \`GET_PROPERTY\` at line 1 column 28`,
        id,
      );
    }
    const params = req.params ?? [];
    if (!Array.isArray(params)) return invalid('Invalid request: params must be an array', id);
    switch (method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        if (!params.every((p): p is string => typeof p === 'string')) return invalid('Invalid request: stream names must be strings', id);
        if (params.length > MAX_STREAMS_PER_CONNECTION) return invalid('Invalid request: too many parameters', id);
        if (method === 'UNSUBSCRIBE') {
          for (const name of params) this.unsubscribe(conn, name);
          return { result: null, id };
        }
        const unknown = params.find((name) => !conn.streams.has(name) && !this.isSubscribable(name));
        if (unknown !== undefined) return invalid(`Invalid request: unknown stream name ${JSON.stringify(unknown)}`, id);
        const added = new Set(params.filter((name) => !conn.streams.has(name))).size;
        if (conn.streams.size + added > MAX_STREAMS_PER_CONNECTION) return invalid('Invalid request: too many parameters', id);
        for (const name of params) this.subscribe(conn, name);
        return { result: null, id };
      }
      case 'LIST_SUBSCRIPTIONS':
        return { result: [...conn.streams].filter((name) => this.isStream(name) || this.users.has(conn.userSinks.get(name))), id };
      case 'SET_PROPERTY': {
        if (typeof params[0] !== 'string') return invalid('Invalid request: property name must be a string', id);
        if (params[0] !== 'combined') return { error: { code: 0, msg: 'Unknown property' }, id };
        if (typeof params[1] !== 'boolean') return { error: { code: 1, msg: 'Invalid value type: expected Boolean' }, id };
        this.setCombined(conn, params[1]);
        return { result: null, id };
      }
      default: {
        // GET_PROPERTY
        if (typeof params[0] !== 'string') return invalid('Invalid request: property name must be a string', id);
        if (params[0] !== 'combined') return { error: { code: 0, msg: 'Unknown property' }, id };
        return { result: conn.combined, id };
      }
    }
  }

  private setCombined(conn: MarketConnection, combined: boolean): void {
    if (conn.combined === combined) return;
    conn.combined = combined;
    // Listen-key sinks change their framing with the connection.
    for (const name of [...conn.userSinks.keys()]) {
      this.unsubscribe(conn, name);
      this.subscribe(conn, name);
    }
  }

  // ------------------------------------------------------------------ publishing

  /**
   * From now until `releaseDepth()` (one manual-clock jump), depth diffs merge per symbol and
   * bookTicker keeps each symbol's last touch (./held-depth.ts): a client reads nothing until the
   * jump ends, and what it needs then is where the book is, not every 100 ms step on the way.
   */
  holdDepth(): void {
    this.held ??= new HeldDepth();
  }

  /** Sends what was held: one diff and one bookTicker per symbol that changed. */
  releaseDepth(): void {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    const { diffs, touches } = held.take();
    this.publishBatch(diffs, touches);
  }

  /** One depth batch: a `depthUpdate` per changed symbol, `bookTicker` per changed touch. */
  publishBatch(diffs: readonly DepthDiff[], touches: readonly Touch[]): void {
    if (this.subscribers.size === 0) return;
    const held = this.held;
    for (const diff of diffs) {
      const symbol = diff.symbol.toLowerCase();
      if (!DEPTH_SUFFIXES.some((suffix) => this.hasSubscribers(symbol + suffix))) continue;
      if (held === null) this.sendDiff(symbol, diff);
      else {
        const gap = held.add(diff);
        if (gap !== null) this.sendDiff(symbol, gap);
      }
    }
    for (const touch of touches) {
      const name = `${touch.symbol.toLowerCase()}@bookTicker`;
      const subs = this.subscribers.get(name);
      if (subs === undefined || subs.size === 0) continue;
      if (held === null) this.fanOut(name, this.wire.bookTicker(touch), subs);
      else held.addTouch(touch);
    }
  }

  private sendDiff(symbol: string, diff: DepthDiff): void {
    let payload: string | null = null;
    for (const suffix of DEPTH_SUFFIXES) {
      const name = symbol + suffix;
      const subs = this.subscribers.get(name);
      if (subs === undefined || subs.size === 0) continue;
      payload ??= this.wire.depthUpdate(diff);
      this.fanOut(name, payload, subs);
    }
  }

  /** Public trades, sent immediately (spec 6.1). */
  publishTrade(trade: PublicTrade): void {
    const name = `${trade.symbol.toLowerCase()}@trade`;
    const subs = this.subscribers.get(name);
    if (subs !== undefined && subs.size > 0) this.fanOut(name, this.wire.trade(trade), subs);
  }

  /**
   * One frame per framing and time unit, built on first use and shared by every subscriber;
   * with `subscribedBefore`, only to the connections subscribed to `name` before it.
   */
  private fanOut(name: string, payload: string, subs: ReadonlySet<MarketConnection>, subscribedBefore = Infinity): void {
    let raw: Buffer | null = null;
    let combined: Buffer | null = null;
    let micro: string | null = null;
    let rawMicro: Buffer | null = null;
    let combinedMicro: Buffer | null = null;
    for (const conn of subs) {
      if (subscribedBefore !== Infinity && !(conn.subscribedAt.get(name)! < subscribedBefore)) continue;
      if (conn.timeUnit === 'MILLISECOND') {
        if (conn.combined) conn.peer.sendFrame((combined ??= textFrame(`{"stream":"${name}","data":${payload}}`)));
        else conn.peer.sendFrame((raw ??= textFrame(payload)));
      } else {
        micro ??= streamEventInUnit(payload, 'MICROSECOND');
        if (conn.combined) conn.peer.sendFrame((combinedMicro ??= textFrame(`{"stream":"${name}","data":${micro}}`)));
        else conn.peer.sendFrame((rawMicro ??= textFrame(micro)));
      }
    }
  }
}

/** A control-frame reply: `result` or `error`, then the id (JSON text). */
type Reply = ({ result: unknown } | { error: { code: number; msg: string } }) & { id: string };

function invalid(msg: string, id: string): Reply {
  return { error: { code: 2, msg }, id };
}

function replyText(reply: Reply): string {
  const body = 'error' in reply ? `"error":${JSON.stringify(reply.error)}` : `"result":${JSON.stringify(reply.result)}`;
  return `{${body},"id":${reply.id}}`;
}

export function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/**
 * Line and column (1-based) of a JSON.parse failure: the position V8 reports when it does, else
 * the first character that cannot start a JSON value, else the end of the text.
 */
export function jsonErrorPosition(text: string, error: unknown): [number, number] {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  const first = text.search(/\S/);
  const badStart = first >= 0 && !/[{["\-0-9tfn]/.test(text[first]!) ? first : -1;
  const pos = match ? Number(match[1]) : badStart >= 0 ? badStart : text.length;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return [line, column];
}
