// The request log of `--log-format json` (API.md section 1): one record per reply the REST and
// WS API transports give, taken where the stats and the journal take theirs (the simulator's
// one reply observer). Records are built only while someone listens.
import type { Reply, RequestSeen } from './api/reply.ts';

export interface RequestRecord {
  readonly transport: 'rest' | 'ws-api';
  /** REST: the HTTP method; WS API: the method name. */
  readonly method: string;
  /** REST only: the path, without the query. */
  readonly path?: string;
  /** The endpoint's id (docs/reference/endpoints.md), or null for an unknown route. */
  readonly endpoint: string | null;
  readonly status: number;
  /** The reference's error code of a refusal. */
  readonly code?: number;
  /** The request weight used in the current minute after this request (X-MBX-USED-WEIGHT-1M). */
  readonly usedWeight: number;
  /** From the request's arrival to its reply being ready (an injected delay not counted), in ms. */
  readonly durationMs: number;
}

export type RequestListener = (record: RequestRecord) => void;

/** Paths come from clients: a log line never carries more than this much of one. */
const MAX_PATH_CHARS = 200;

export class RequestLog {
  private readonly listeners = new Set<RequestListener>();

  /** Calls `listener` with every request answered from now on; returns the unsubscribe. */
  subscribe(listener: RequestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  record(endpointId: string | undefined, reply: Reply, request: RequestSeen, transport: 'rest' | 'ws-api', now: number): void {
    if (this.listeners.size === 0) return;
    const path = request.path === undefined ? undefined : request.path.length > MAX_PATH_CHARS ? `${request.path.slice(0, MAX_PATH_CHARS)}...` : request.path;
    const record: RequestRecord = {
      transport,
      method: request.method,
      ...(path === undefined ? {} : { path }),
      endpoint: endpointId ?? null,
      status: reply.status,
      ...(reply.refusal === null ? {} : { code: reply.refusal.code }),
      usedWeight: reply.usedWeight,
      durationMs: Math.round((now - request.receivedAt) * 1000) / 1000,
    };
    for (const listener of this.listeners) listener(record);
  }
}
