// The reply of an injected refusal (a fault rule's error, API.md 3.1): what the reference
// exchange sends for that code on either transport. A row's placeholders are filled as the
// service itself fills them (the configured limits, the ban's end); 429 and 418 carry the
// Retry-After / retryAfter of the weight window, as every rate-limit refusal does.

import { apiError, type ErrorName } from '../core/errors.ts';
import type { Refusal } from '../faults/rule.ts';
import type { Endpoint, HandlerServices } from './endpoint-types.ts';
import type { Reply } from './reply.ts';

/** What a refusal's reply reads: the configured limits and the windows' state. */
type Figures = Pick<HandlerServices, 'config' | 'limits'>;

/**
 * Fill-ins for the rows whose message names a parameter or a filter: a plausible instance, so
 * an injected code reads like a real refusal (give `{ status, code, msg }` for another text).
 */
const SAMPLE_ARGS: Partial<Record<ErrorName, string[]>> = {
  FILTER_FAILURE: ['PRICE_FILTER'],
  ILLEGAL_CHARS: ['symbol', '^[A-Z0-9-_.]{1,20}$'],
  MANDATORY_PARAM: ['symbol'],
  PARAM_NOT_REQUIRED: ['price'],
  BAD_PRECISION: ['quantity'],
  LOOKUP_INTERVAL_TOO_BIG: ['24'],
  INVALID_PARAMETER: ['symbol'],
  ORDER_REJECTED: ['Market is closed.'],
};

export function refusalReply(service: Figures, refusal: Refusal, now: number, endpoint: Endpoint): Reply {
  const limited = refusal.status === 429 || refusal.status === 418;
  const timing = limited ? service.limits.injectedRefusal(refusal.status === 418 ? 'ban' : 'rateLimit', now) : null;
  const msg = refusal.row === null ? refusal.msg : message(service, refusal.row, timing?.retryAtMs ?? now);
  const refused = { code: refusal.code, msg };
  return {
    status: refusal.status,
    body: refused,
    refusal: refused,
    usedWeight: service.limits.usedWeight(now),
    orderCounts: endpoint.countsOrder ? service.limits.orderCounts(now) : null,
    events: [],
    ...(timing === null ? {} : { retryAfterSeconds: timing.retryAfterSeconds, retryAtMs: timing.retryAtMs }),
  };
}

/** A row's message with its placeholders filled. */
export function message(service: Figures, row: ErrorName, retryAtMs: number): string {
  const limits = service.config.sim.limits;
  let args: (string | number)[];
  switch (row) {
    case 'TOO_MUCH_WEIGHT':
      args = [limits.weight_per_minute, '1 MINUTE'];
      break;
    case 'TOO_MANY_ORDERS':
      args = [limits.orders_per_10s, '10 SECOND'];
      break;
    case 'IP_BANNED':
      args = [retryAtMs];
      break;
    case 'BAD_RECV_WINDOW':
      args = [limits.max_recv_window_ms];
      break;
    default:
      args = SAMPLE_ARGS[row] ?? [];
  }
  return apiError(row, ...args).msg;
}
