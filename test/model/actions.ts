// What the account-event model does (issue 24 item 1), as plain data fast-check generates and
// shrinks: a step is a burst of actions issued back to back (replies not awaited, so a REST
// cancel can overtake a delayed WS API placement, a reset can land while replies are held),
// then the world settles and is checked. Actions: orders, cancels, cancel-replaces and amends
// over REST and the WS API, cancel-all, counterparty trades (sim.market, fillOpenOrder, the
// generator through clock jumps; cancels with cancelRestrictions), the fault presets and rules that hold, lose or duplicate
// replies and events, closes of connections, resets.

import fc from 'fast-check';
import { formatPlain } from '../../src/core/units.ts';
import { latentMid, openOrders } from '../../src/core/queries.ts';
import type { ModelWorld } from './world.ts';

type Via = 'rest' | 'ws';
export type Action =
  | { k: 'place'; via: Via; conn: number; side: 'BUY' | 'SELL'; kind: 'GTC' | 'IOC' | 'MAKER' | 'MARKET'; off: number; lots: number }
  | { k: 'cancel'; via: Via; conn: number; pick: number; restrict: 'ONLY_NEW' | 'ONLY_PARTIALLY_FILLED' | undefined }
  | { k: 'replace'; via: Via; conn: number; pick: number; off: number; lots: number; allowFailure: boolean }
  | { k: 'amend'; via: 'rest'; pick: number; lots: number }
  | { k: 'cancelAll'; via: Via; conn: number }
  | { k: 'market'; side: 'BUY' | 'SELL'; marketOrder: boolean; off: number; lots: number }
  | { k: 'fill'; pick: number; lots: number }
  | { k: 'ackDelay'; ms: number }
  | { k: 'rule'; on: string; transport: 'rest' | 'ws-api' | undefined; action: 'delay' | 'close' | 'swallow'; ms: number }
  | { k: 'preset'; which: 'reject' | 'swallow' | 'duplicate' | 'rateLimit' | 'malformed' }
  | { k: 'mute' }
  | { k: 'drop'; includeUserStreams: boolean }
  | { k: 'closeConn'; conn: number }
  | { k: 'reset' }
  | { k: 'advance'; ms: number };

const via = fc.constantFrom<Via>('rest', 'ws');
const conn = fc.integer({ min: 0, max: 1 });
const side = fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL');
/** Price offsets from the latent mid in ticks: around the generator's touch (config in world.ts). */
const off = fc.integer({ min: -8, max: 8 }).map((n) => n * 50);
const lots = fc.integer({ min: 1, max: 5 });
const pick = fc.nat({ max: 20 });

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 10, arbitrary: fc.record({ k: fc.constant('place' as const), via, conn, side, kind: fc.constantFrom('GTC' as const, 'GTC' as const, 'IOC' as const, 'MAKER' as const, 'MARKET' as const), off, lots }) },
  { weight: 5, arbitrary: fc.record({ k: fc.constant('cancel' as const), via, conn, pick, restrict: fc.constantFrom(undefined, undefined, 'ONLY_NEW' as const, 'ONLY_PARTIALLY_FILLED' as const) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('replace' as const), via, conn, pick, off, lots, allowFailure: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('amend' as const), via: fc.constant('rest' as const), pick, lots }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancelAll' as const), via, conn }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('market' as const), side, marketOrder: fc.boolean(), off, lots }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('fill' as const), pick, lots }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('ackDelay' as const), ms: fc.integer({ min: 1, max: 30 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant('rule' as const),
      on: fc.constantFrom('order.place', 'order.cancel', 'order.cancelReplace', 'order.amend.keepPriority', '*'),
      transport: fc.constantFrom('rest' as const, 'ws-api' as const, undefined),
      action: fc.constantFrom('delay' as const, 'delay' as const, 'close' as const, 'swallow' as const),
      ms: fc.integer({ min: 1, max: 30 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('preset' as const), which: fc.constantFrom('reject' as const, 'swallow' as const, 'duplicate' as const, 'rateLimit' as const, 'malformed' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('mute' as const) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('drop' as const), includeUserStreams: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('closeConn' as const), conn }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('reset' as const) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_000 }) }) },
);

const trading = fc.oneof(
  { weight: 3, arbitrary: actionArb.filter((a) => a.k === 'place') },
  { weight: 1, arbitrary: actionArb.filter((a) => a.k === 'cancel' || a.k === 'replace' || a.k === 'amend' || a.k === 'market' || a.k === 'fill') },
);
const holding = fc.oneof(
  fc.record({ k: fc.constant('ackDelay' as const), ms: fc.integer({ min: 5, max: 40 }) }),
  fc.record({ k: fc.constant('rule' as const), on: fc.constant('*'), transport: fc.constantFrom('rest' as const, 'ws-api' as const, undefined), action: fc.constant('delay' as const), ms: fc.integer({ min: 5, max: 40 }) }),
);
const ending = fc.oneof(
  fc.record({ k: fc.constant('reset' as const) }),
  fc.record({ k: fc.constant('closeConn' as const), conn }),
  fc.record({ k: fc.constant('drop' as const), includeUserStreams: fc.boolean() }),
  actionArb.filter((a) => a.k === 'cancel' || a.k === 'cancelAll' || a.k === 'market'),
);

/**
 * A step: 1 to 5 random actions in a burst, or (one in four) the shape of the issue's reports:
 * a fault that holds replies, orders, then a reset, a close or a cancel while they are held.
 */
export const stepArb: fc.Arbitrary<Action[]> = fc.oneof(
  { weight: 3, arbitrary: fc.array(actionArb, { minLength: 1, maxLength: 5 }) },
  { weight: 1, arbitrary: fc.tuple(holding, fc.array(trading, { minLength: 1, maxLength: 3 }), ending).map(([h, t, e]) => [h, ...t, e]) },
);

const SYMBOL = 'BTCUSDT';

/** Runs one action (requests are tracked by the world, not awaited). */
export async function perform(world: ModelWorld, a: Action, cid: () => string): Promise<void> {
  const { sim, client } = world;
  const inst = sim.exchange.instrument(SYMBOL)!;
  const mid = latentMid(sim.exchange.state, SYMBOL)!;
  const price = (ticks: number) => formatPlain(Math.max(1, mid + ticks), inst.tickDecimals);
  const qty = (n: number) => formatPlain(inst.minQty * n * 100, inst.lotDecimals);
  const pickOrder = (n: number) => {
    const ids = sim.openClientOrderIds();
    return ids.length === 0 ? undefined : ids[n % ids.length];
  };
  switch (a.k) {
    case 'place': {
      const params = {
        symbol: SYMBOL,
        side: a.side,
        newClientOrderId: cid(),
        quantity: qty(a.lots),
        ...(a.kind === 'MARKET'
          ? { type: 'MARKET' as const }
          : a.kind === 'MAKER'
            ? { type: 'LIMIT_MAKER' as const, price: price((a.side === 'BUY' ? -1 : 1) * a.off) }
            : { type: 'LIMIT' as const, timeInForce: a.kind, price: price((a.side === 'BUY' ? -1 : 1) * a.off) }),
      };
      return issue(world, a.via, a.conn, (api) => api.send('order.place', params), () => client.rest.newOrder(params));
    }
    case 'cancel': {
      const id = pickOrder(a.pick);
      if (id === undefined) return;
      const params = { symbol: SYMBOL, origClientOrderId: id, newClientOrderId: cid(), ...(a.restrict === undefined ? {} : { cancelRestrictions: a.restrict }) };
      return issue(world, a.via, a.conn, (api) => api.send('order.cancel', params), () => client.rest.cancelOrder(params));
    }
    case 'replace': {
      const id = pickOrder(a.pick);
      if (id === undefined) return;
      const side: 'BUY' | 'SELL' = a.off % 100 === 0 ? 'BUY' : 'SELL';
      const params = {
        symbol: SYMBOL, side, type: 'LIMIT' as const, timeInForce: 'GTC' as const, quantity: qty(a.lots), price: price((side === 'BUY' ? -1 : 1) * a.off),
        cancelReplaceMode: a.allowFailure ? ('ALLOW_FAILURE' as const) : ('STOP_ON_FAILURE' as const), cancelOrigClientOrderId: id, newClientOrderId: cid(),
      };
      return issue(world, a.via, a.conn, (api) => api.send('order.cancelReplace', params), () => client.rest.cancelReplace(params));
    }
    case 'amend': {
      const id = pickOrder(a.pick);
      if (id === undefined) return;
      world.track(client.rest.amendKeepPriority({ symbol: SYMBOL, origClientOrderId: id, newQty: qty(a.lots), newClientOrderId: cid() }));
      return;
    }
    case 'cancelAll':
      return issue(world, a.via, a.conn, (api) => api.send('openOrders.cancelAll', { symbol: SYMBOL }), () => client.rest.cancelOpenOrders({ symbol: SYMBOL }));
    case 'market': {
      // A counterparty order against the account's (and the generator's) resting orders.
      const ticks = (a.side === 'BUY' ? 1 : -1) * Math.abs(a.off);
      try {
        if (a.marketOrder) sim.market.place({ symbol: SYMBOL, side: a.side, type: 'MARKET', quantity: qty(a.lots) });
        else sim.market.place({ symbol: SYMBOL, side: a.side, type: 'LIMIT', timeInForce: 'IOC', price: price(ticks), quantity: qty(a.lots) });
      } catch {
        // Refused (no liquidity, filters): nothing changed.
      }
      return;
    }
    case 'fill': {
      const id = pickOrder(a.pick);
      const order = id === undefined ? undefined : openOrders(sim.exchange.state).find((o) => o.clientOrderId === id);
      if (order === undefined) return;
      try {
        sim.faults.fillOpenOrder(order.orderId, qty(a.lots));
      } catch {
        // More than is left, or gone: refused, nothing changed.
      }
      return;
    }
    case 'ackDelay':
      return sim.faults.setAckDelayMs(a.ms);
    case 'rule': {
      const transport = a.action === 'swallow' ? 'ws-api' : a.transport; // a REST swallow holds the socket until clear()
      const action = a.action === 'delay' ? { delayMs: a.ms } : a.action === 'close' ? { close: true as const } : { swallow: true as const };
      sim.faults.use({ on: a.on, ...(transport === undefined ? {} : { transport }), action });
      return;
    }
    case 'preset':
      if (a.which === 'reject') sim.faults.rejectNextOrders(1);
      else if (a.which === 'swallow') sim.faults.swallowNextWsApiResponses(1);
      else if (a.which === 'duplicate') sim.faults.duplicateNextUserEvents(3);
      else if (a.which === 'rateLimit') sim.faults.rateLimitNextRequests(1);
      else sim.faults.sendMalformedFrames(true, true);
      return;
    case 'mute':
      // Documented: events are dropped for good while muted; the views resync.
      sim.faults.setUserStreamMuted(true);
      for (const view of world.views) view.lossy = true;
      return;
    case 'drop':
      sim.faults.dropWsApiConnections(a.includeUserStreams);
      for (const view of world.views) if (a.includeUserStreams || view === world.views[1]) view.lossy = true;
      return;
    case 'closeConn':
      return world.closeTrader(a.conn);
    case 'reset':
      return world.reset();
    case 'advance':
      return sim.advanceTime(a.ms);
  }
}

/** A request over the WS API (on trading connection `conn`) or REST, tracked until it settles. */
async function issue(world: ModelWorld, by: Via, conn: number, ws: (api: Awaited<ReturnType<ModelWorld['trader']>>) => Promise<unknown>, rest: () => Promise<unknown>): Promise<void> {
  if (by === 'rest') return world.track(rest());
  const api = await world.trader(conn);
  world.track(ws(api), conn);
}
