// The fault rules in force and the decisions the pipeline asks of them (ARCHITECTURE rule 10).
// Each named point (./rule.ts) keeps its own list of armed rules, so a point with none costs one
// length check per request; the first armed rule that matches the endpoint and transport takes
// the request (preset slots first, then users' rules in the order added) and counts a hit. A rule
// whose `times` ran out leaves the lists; users' rules stay listed with their hits until removed.
// Event delivery faults (mute, duplicate) are switches here too, not rules: they act on events,
// not on requests.

import { FaultRangeError } from './checks.ts';
import { PRESET_ORDER, PRESETS, type PresetSlot } from './presets.ts';
import { compileRule, faultId, POINTS, type CompiledRule, type Effect, type EndpointInfo, type FaultAction, type FaultRule, type Point, type Refusal, type Transport } from './rule.ts';

/** At most this many rules of users at once (spent ones included): bounded, like everything. */
export const MAX_RULES = 1000;

/**
 * A rule as `sim.faults.rules()` and `GET /sim/v1/faults/rules` list it.
 * @example
 * const views: FaultRuleView[] = sim.faults.rules();
 * console.log(views.map((r) => `${r.id} ${r.preset ?? 'rule'} hits=${r.hits}`));
 */
export interface FaultRuleView {
  readonly id: number;
  readonly on: string | readonly string[];
  readonly transport?: Transport;
  readonly times: number;
  readonly hits: number;
  /** The action; `{ unresponsive: true }` is the preset of `setRestUnresponsive` (held, not carried out). */
  readonly action: FaultAction | { readonly unresponsive: true };
  /** The fault call that armed it (`'rejectNextOrders'` etc.), for the presets of the fixed fault calls. */
  readonly preset?: string;
}

/**
 * What `sim.faults.use()` returns.
 * @example
 * const rule: FaultRuleHandle = sim.faults.use({ on: 'order.place', times: 0, action: { delayMs: 500 } });
 * // ... place orders ...
 * console.log(rule.hits);
 * rule.remove();
 */
export interface FaultRuleHandle {
  readonly id: number;
  /** How many requests it has taken effect on (still readable after it is removed). */
  readonly hits: number;
  /** Removes it (a held REST request is closed); removing twice does nothing. */
  remove(): void;
}

/**
 * An endpoint as `sim.faults.endpoints()` lists it.
 * @example
 * const ids = sim.faults.endpoints().map((e: FaultEndpoint) => e.id);   // ['ping', 'time', ..., 'order.place', ...]
 */
export interface FaultEndpoint {
  readonly id: string;
  readonly transports: readonly Transport[];
  /** The REST route ("POST /api/v3/order"), when there is one. */
  readonly rest?: string;
}

/** What happens to a reply that was produced (delay, reply points). */
export interface ReplyFault {
  readonly delayMs: number;
  readonly outcome: 'send' | 'swallow' | 'close';
  /** Keeps a swallowed REST reply's connection open until the rule goes; returns the release. */
  hold(close: () => void): () => void;
}

const SEND_NOW: ReplyFault = { delayMs: 0, outcome: 'send', hold: () => () => {} };

class ArmedRule {
  hits = 0;
  active = true;
  readonly held = new Set<() => void>();
  constructor(
    readonly id: number,
    readonly rule: CompiledRule,
    /** Preset slots rank first, in their order; users' rules after them. */
    readonly rank: number,
    readonly preset: PresetSlot | null,
  ) {}

  matches(id: string | undefined, transport: Transport): boolean {
    const r = this.rule;
    return (r.transport === null || r.transport === transport) && (r.on === null || (id !== undefined && r.on.has(id)));
  }
}

export class FaultRules {
  private readonly byPoint = Object.fromEntries(POINTS.map((p) => [p, [] as ArmedRule[]])) as Record<Point, ArmedRule[]>;
  private readonly users = new Map<number, ArmedRule>();
  private readonly slots = new Map<PresetSlot, ArmedRule>();
  private nextId = 1;
  /** How often each preset took effect (stats, spec 4.5 "counters"); never reset. */
  readonly fired: Record<PresetSlot | 'duplicateUserEvent', number> = Object.fromEntries(
    [...PRESET_ORDER, 'duplicateUserEvent'].map((s) => [s, 0]),
  ) as Record<PresetSlot | 'duplicateUserEvent', number>;
  userStreamMuted = false;
  private duplicates = 0;

  constructor(private readonly endpointTable: readonly EndpointInfo[]) {}

  // ------------------------------------------------------------------ rules of users

  use(input: FaultRule): FaultRuleHandle {
    const compiled = compileRule(input, this.endpointTable);
    if (this.users.size >= MAX_RULES) throw new FaultRangeError(`at most ${MAX_RULES} fault rules at once; remove some or clear()`);
    const rule = new ArmedRule(this.nextId++, compiled, PRESET_ORDER.length, null);
    this.users.set(rule.id, rule);
    this.activate(rule);
    return { id: rule.id, get hits() { return rule.hits; }, remove: () => void this.remove(rule.id) };
  }

  /** Removes a rule (a user's or a preset's) by id; false when there is none. */
  remove(id: number): boolean {
    const user = this.users.get(id);
    if (user !== undefined) {
      this.users.delete(id);
      this.retire(user);
      return true;
    }
    const slot = [...this.slots].find(([, rule]) => rule.id === id)?.[0];
    if (slot === undefined) return false;
    this.disarm(slot);
    return true;
  }

  list(): FaultRuleView[] {
    const all = [...this.slots.values(), ...this.users.values()].sort((a, b) => a.id - b.id);
    return all.map((r) => ({
      id: r.id,
      ...r.rule.shown,
      times: r.rule.times,
      hits: r.hits,
      ...(r.preset === null ? {} : { preset: PRESETS[r.preset].call }),
    }));
  }

  endpoints(): FaultEndpoint[] {
    return this.endpointTable.map((e) => ({
      id: faultId(e),
      transports: [...(e.rest ? (['rest'] as const) : []), ...(e.ws ? (['ws-api'] as const) : [])],
      ...(e.rest ? { rest: `${e.rest.method} ${e.rest.path}` } : {}),
    }));
  }

  /** Every rule and switch off (API.md §6); returns how many held REST requests were closed. */
  clear(): number {
    let released = 0;
    for (const slot of [...this.slots.keys()]) released += this.disarm(slot);
    for (const rule of this.users.values()) this.retire(rule);
    this.users.clear();
    this.userStreamMuted = false;
    this.duplicates = 0;
    return released;
  }

  // ------------------------------------------------------------------ presets

  /** Arms a preset for `times` requests (0 = until disarmed), replacing what it had armed. */
  arm(slot: PresetSlot, times: number, arg = 0): void {
    this.disarm(slot);
    const preset = PRESETS[slot];
    const effect: Effect = preset.effect(arg);
    const ids = preset.on(this.endpointTable);
    const compiled: CompiledRule = {
      on: ids === null ? null : new Set(ids),
      transport: preset.transport,
      times,
      effect,
      shown: { on: ids ?? '*', ...(preset.transport === null ? {} : { transport: preset.transport }), action: shownAction(effect) },
    };
    const rule = new ArmedRule(this.nextId++, compiled, PRESET_ORDER.indexOf(slot), slot);
    this.slots.set(slot, rule);
    this.activate(rule);
  }

  /** Removes a preset's rule; returns how many held REST requests it closed. */
  disarm(slot: PresetSlot): number {
    const rule = this.slots.get(slot);
    if (rule === undefined) return 0;
    this.slots.delete(slot);
    return this.retire(rule);
  }

  /** What a preset has left: requests for a count, 1 for a switch that is on, 0 when off. */
  armed(slot: PresetSlot): number {
    const rule = this.slots.get(slot);
    if (rule === undefined) return 0;
    return rule.rule.times === 0 ? 1 : rule.rule.times - rule.hits;
  }

  /** The ack delay in force (`setAckDelayMs`), 0 when none. */
  get ackDelayMs(): number {
    const effect = this.slots.get('ackDelay')?.rule.effect;
    return effect?.kind === 'delay' ? effect.ms : 0;
  }

  // ------------------------------------------------------------------ decisions

  /** The refusal injected at an error point, or null (one length check when none is armed). */
  refusalAt(point: 'admission' | 'key' | 'signature' | 'handler', endpoint: EndpointInfo, transport: Transport): Refusal | null {
    if (this.byPoint[point].length === 0) return null;
    const rule = this.take(point, faultId(endpoint), transport);
    return rule !== null && rule.rule.effect.kind === 'refuse' ? rule.rule.effect.refusal : null;
  }

  /** REST before routing: a rule that holds the request unanswered (`endpoint` undefined: no route). */
  arrival(endpoint: EndpointInfo | undefined, transport: Transport): ReplyFault | null {
    if (this.byPoint.arrival.length === 0) return null;
    const rule = this.take('arrival', endpoint === undefined ? undefined : faultId(endpoint), transport);
    return rule === null ? null : { delayMs: 0, outcome: 'swallow', hold: (close) => this.hold(rule, close) };
  }

  /** What happens to the reply of a request that was carried out. */
  replyFault(endpoint: EndpointInfo, transport: Transport): ReplyFault {
    if (this.byPoint.delay.length === 0 && this.byPoint.reply.length === 0) return SEND_NOW;
    const id = faultId(endpoint);
    const delayed = this.byPoint.delay.length === 0 ? null : this.take('delay', id, transport);
    const lost = this.byPoint.reply.length === 0 ? null : this.take('reply', id, transport);
    const effect = lost?.rule.effect;
    return {
      delayMs: delayed?.rule.effect.kind === 'delay' ? delayed.rule.effect.ms : 0,
      outcome: effect?.kind === 'swallow' || effect?.kind === 'close' ? effect.kind : 'send',
      hold: (close) => (lost === null ? () => {} : this.hold(lost, close)),
    };
  }

  // ------------------------------------------------------------------ event delivery

  duplicateNextUserEvents(k: number): void {
    this.duplicates = k;
  }

  /** Consumes one pending duplicate (`duplicate_next_user_events`); true when this event goes twice. */
  duplicateThisEvent(): boolean {
    if (this.duplicates === 0) return false;
    this.duplicates--;
    this.fired.duplicateUserEvent++;
    return true;
  }

  pendingDuplicates(): number {
    return this.duplicates;
  }

  // ------------------------------------------------------------------ internals

  private take(point: Point, id: string | undefined, transport: Transport): ArmedRule | null {
    for (const rule of this.byPoint[point]) {
      if (!rule.matches(id, transport)) continue;
      rule.hits++;
      if (rule.preset !== null) this.fired[rule.preset]++;
      if (rule.rule.times !== 0 && rule.hits >= rule.rule.times) this.deactivate(rule);
      return rule;
    }
    return null;
  }

  private activate(rule: ArmedRule): void {
    const list = this.byPoint[rule.rule.effect.point];
    let at = list.length;
    while (at > 0 && list[at - 1]!.rank > rule.rank) at--;
    list.splice(at, 0, rule);
  }

  private deactivate(rule: ArmedRule): void {
    if (!rule.active) return;
    rule.active = false;
    const list = this.byPoint[rule.rule.effect.point];
    list.splice(list.indexOf(rule), 1);
    // A spent preset leaves its slot (a user's rule stays listed with its hits).
    if (rule.preset !== null && rule.held.size === 0 && this.slots.get(rule.preset) === rule) this.slots.delete(rule.preset);
  }

  /** Takes a rule out for good; closes the requests it holds and returns how many. */
  private retire(rule: ArmedRule): number {
    this.deactivate(rule);
    const held = [...rule.held];
    rule.held.clear();
    for (const close of held) close();
    return held.length;
  }

  private hold(rule: ArmedRule, close: () => void): () => void {
    rule.held.add(close);
    return () => void rule.held.delete(close);
  }
}

/** A preset's effect in the public action form, for listing. */
function shownAction(effect: Effect): FaultRuleView['action'] {
  switch (effect.kind) {
    case 'refuse':
      return { status: effect.refusal.status, code: effect.refusal.code, msg: effect.refusal.msg };
    case 'delay':
      return { delayMs: effect.ms };
    case 'swallow':
      return { swallow: true };
    case 'close':
      return { close: true };
    case 'unresponsive':
      return { unresponsive: true };
  }
}
