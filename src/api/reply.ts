// What the request pipeline (service.ts) hands the transports: the status, the body, the
// figures REST puts in headers and the WS API in `rateLimits`, and the events the request
// caused (published after the response is sent, spec 4.4).

import type { CoreEvent } from '../core/types.ts';

/** A refusal as the reference exchange writes it: `{code, msg}` (cancelReplace adds `data`). */
export interface Refusal {
  readonly code: number;
  readonly msg: string;
  readonly data?: unknown;
}

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  /** The refusal (the REST body; the WS API's `error`), as a value; null on success. */
  readonly refusal: Refusal | null;
  readonly usedWeight: number;
  /** ORDERS window counts, on order endpoints. */
  readonly orderCounts: { readonly tenSeconds: number; readonly day: number } | null;
  /** Seconds (REST Retry-After) and epoch ms (WS `retryAfter`) for 429/418 replies. */
  readonly retryAfterSeconds?: number;
  readonly retryAtMs?: number;
  readonly events: CoreEvent[];
}

/** What a transport tells its observer about the request a reply answers (the request log). */
export interface RequestSeen {
  /** REST: the HTTP method; WS API: the method name (`order.place`). */
  readonly method: string;
  /** REST: the path, without the query (it carries signatures); WS API: absent. */
  readonly path?: string;
  /** `performance.now()` when the request arrived. */
  readonly receivedAt: number;
}

/** Observes every reply a transport gives (stats, journal, request log). */
export type ReplyObserver = (endpointId: string | undefined, reply: Reply, request: RequestSeen) => void;
