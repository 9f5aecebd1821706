// The typed client's one error model (API.md section 5.1). Every class has its own `name`, so a
// report prints `SpotSimTimeoutError: ...` rather than a bare `Error`:
// - SpotSimError: the exchange refused (HTTP or WS API status, reference code and message);
// - SpotSimTimeoutError: no reply in time; the outcome is unknown (the request may have taken
//   effect), so it carries what a caller needs to look the order up instead of placing it twice;
// - SpotSimNetworkError: the request never got an answer because the connection failed;
// - StreamClosedError: a call or a wait on a WebSocket that is (or became) closed.

/**
 * A refusal by the exchange: `code`/`msg` as the reference sends them.
 * @example
 * try {
 *   await client.rest.getOrder({ symbol: 'BTCUSDT', orderId: 999 });
 * } catch (error) {
 *   if (error instanceof SpotSimError && error.code === -2013) console.log(error.msg);   // 'Order does not exist.'
 * }
 */
export class SpotSimError extends Error {
  /**
   * How long to wait before retrying, for 429 and 418: REST's `Retry-After` header (seconds) or
   * the WS API's `data.retryAfter` (epoch ms), in milliseconds from when the reply arrived.
   */
  readonly retryAfterMs: number | undefined;
  constructor(
    readonly status: number,
    readonly code: number,
    readonly msg: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly data?: unknown,
    now: number = Date.now(),
  ) {
    super(`${status} ${code}: ${msg}`);
    this.name = 'SpotSimError';
    this.retryAfterMs = status === 429 || status === 418 ? retryAfterOf(headers, data, now) : undefined;
  }
}

function retryAfterOf(headers: Readonly<Record<string, string>>, data: unknown, now: number): number | undefined {
  const header = headers['retry-after'];
  if (header !== undefined && /^\d{1,10}$/.test(header)) return Number(header) * 1000;
  if (data !== null && typeof data === 'object' && 'retryAfter' in data) {
    const at = (data as { retryAfter: unknown }).retryAfter;
    if (typeof at === 'number' && Number.isFinite(at)) return Math.max(0, at - now);
  }
  return undefined;
}

/**
 * No reply within the timeout. The request may or may not have taken effect.
 * @example
 * try {
 *   await client.rest.newOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.001' });
 * } catch (error) {
 *   if (error instanceof SpotSimTimeoutError && error.newClientOrderId !== undefined) {
 *     const order = await client.rest.getOrder({ symbol: 'BTCUSDT', origClientOrderId: error.newClientOrderId });   // did it happen?
 *   }
 * }
 */
export class SpotSimTimeoutError extends Error {
  /** Always 'unknown': a timeout says nothing about whether the exchange acted. */
  readonly outcome = 'unknown' as const;
  constructor(
    message: string,
    /** The WS API request id, or the REST method and path. */
    readonly requestId: string | number | undefined,
    /** The `newClientOrderId` the request carried, if it placed an order. */
    readonly newClientOrderId: string | undefined,
    readonly timeoutMs: number,
  ) {
    super(message);
    this.name = 'SpotSimTimeoutError';
  }
}

/**
 * The connection failed before a reply (refused, reset, TLS failure). `cause` is the platform error.
 * @example
 * const client = new SpotSimClient({ baseUrl: 'http://127.0.0.1:1', ...sim.credentials });
 * await expect(client.rest.ping()).rejects.toBeInstanceOf(SpotSimNetworkError);
 */
export class SpotSimNetworkError extends Error {
  /** The platform's error code, e.g. 'ECONNREFUSED' (SpotSimError.code is the exchange's number). */
  readonly errno: string | undefined;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SpotSimNetworkError';
    const cause = options?.cause as { code?: unknown } | undefined;
    this.errno = typeof cause?.code === 'string' ? cause.code : undefined;
  }
}

/**
 * A call or a wait on a WebSocket that is closed, or closed before the answer came.
 * @example
 * const stream = await client.streams('btcusdt@trade');
 * sim.faults.dropMarketDataConnections();
 * await expect(stream.next('trade')).rejects.toBeInstanceOf(StreamClosedError);
 */
export class StreamClosedError extends Error {
  constructor(
    message: string,
    /** The close code when the socket closed (1006 for an abrupt close), if known. */
    readonly closeCode?: number,
  ) {
    super(message);
    this.name = 'StreamClosedError';
  }
}
