// The spec's fault calls (spec 4.5, API.md section 3) that act on requests, as rules of the one
// rule model (./rule.ts). Each call owns one slot: calling it again re-arms its rule, 0 (or off)
// removes it. The slots are consulted before the rules users add, in this order (a ban wins over
// a rate limit armed at the same time, as before). The other calls act at once (drops, expiry,
// fills) or on event delivery (mute, duplicate) and live in ./controller.ts and ./rules.ts.

import { ERRORS, type ErrorName } from '../core/errors.ts';
import type { Effect, EndpointInfo, Transport } from './rule.ts';
import { faultId } from './rule.ts';

export type PresetSlot = 'ban' | 'rateLimit' | 'failAuth' | 'failTimestamp' | 'rejectOrder' | 'swallowWsApi' | 'ackDelay' | 'restUnresponsive';

/** A reference ME message (binance-facts §2.3) for injected rejections: a venue-side refusal. */
export const INJECTED_REJECT_MESSAGE = 'Market is closed.';

export interface Preset {
  /** The fault call that arms it (shown in `rules()`). */
  readonly call: string;
  /** Endpoint ids, or null for every request. */
  readonly on: (endpoints: readonly EndpointInfo[]) => string[] | null;
  readonly transport: Transport | null;
  readonly effect: (arg: number) => Effect;
}

const everyRequest = () => null;

/** The placements of the endpoint table: `order.place` and, with order lists served, `orderList.place*`. */
const isPlacement = (e: EndpointInfo) => e.id === 'order.place' || e.id === 'orderList.place' || e.id.startsWith('orderList.place.');

function refuse(point: 'admission' | 'key' | 'signature', row: ErrorName): () => Effect {
  const effect: Effect = { kind: 'refuse', point, refusal: { status: ERRORS[row].http, code: ERRORS[row].code, row, msg: ERRORS[row].msg } };
  return () => effect;
}

export const PRESETS: Readonly<Record<PresetSlot, Preset>> = {
  // ban_next_requests / rate_limit_next_requests: before the weight is charged, REST and WS API alike.
  ban: { call: 'banNextRequests', on: everyRequest, transport: null, effect: refuse('admission', 'IP_BANNED') },
  rateLimit: { call: 'rateLimitNextRequests', on: everyRequest, transport: null, effect: refuse('admission', 'TOO_MUCH_WEIGHT') },
  // fail_next_auth: as if the key had been revoked (spec 7: 401 / -2015), only where a key is checked.
  failAuth: { call: 'failNextAuth', on: everyRequest, transport: null, effect: refuse('key', 'REJECTED_API_KEY') },
  failTimestamp: { call: 'failNextTimestamp', on: everyRequest, transport: null, effect: refuse('signature', 'TIMESTAMP_OUTSIDE_RECV_WINDOW') },
  // reject_next_orders: refused after the order count, before the matching engine; nothing changes.
  // A placement is an order's or an order list's (one request: one count, the list refused whole).
  rejectOrder: {
    call: 'rejectNextOrders',
    on: (endpoints) => endpoints.filter(isPlacement).map(faultId),
    transport: null,
    effect: () => ({ kind: 'refuse', point: 'handler', refusal: { status: 400, code: ERRORS.ORDER_REJECTED.code, row: null, msg: INJECTED_REJECT_MESSAGE } }),
  },
  // swallow_next_ws_api_responses: carried out, but no reply (spec 4.5).
  swallowWsApi: { call: 'swallowNextWsApiResponses', on: everyRequest, transport: 'ws-api', effect: () => ({ kind: 'swallow', point: 'reply' }) },
  // set_ack_delay_ms: the WS API replies of order changes, with their user events, come later.
  ackDelay: {
    call: 'setAckDelayMs',
    on: (endpoints) => endpoints.filter((e) => e.changesOrders === true && e.ws !== undefined).map(faultId),
    transport: 'ws-api',
    effect: (ms) => ({ kind: 'delay', point: 'delay', ms }),
  },
  // set_rest_unresponsive: no reply at all and not carried out, until switched off.
  restUnresponsive: { call: 'setRestUnresponsive', on: everyRequest, transport: 'rest', effect: () => ({ kind: 'unresponsive', point: 'arrival' }) },
};

export const PRESET_ORDER = Object.keys(PRESETS) as PresetSlot[];
