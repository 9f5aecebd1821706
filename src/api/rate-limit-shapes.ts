// The `rateLimits` block, built in one place (binance-facts §3.2, §6): the rules exchangeInfo
// lists, the counts GET rateLimit/order answers, and the WS API's `rateLimits` on every reply
// (as text: it rides on every order reply). One field list for all three.

import type { LimitsConfig } from '../config/types.ts';
import { fieldsOf, shape, type WireOf } from './shape.ts';

export interface RateLimitRule {
  readonly rateLimitType: 'REQUEST_WEIGHT' | 'ORDERS';
  readonly interval: 'MINUTE' | 'SECOND' | 'DAY';
  readonly intervalNum: number;
  readonly limit: number;
}

/** A rule with its current count: the source is the rule, the context the count. */
const f = fieldsOf<RateLimitRule, number>();
const RULE_FIELDS = {
  rateLimitType: f.text<string>((r) => r.rateLimitType),
  interval: f.text<string>((r) => r.interval),
  intervalNum: f.num((r) => r.intervalNum),
  limit: f.num((r) => r.limit),
};
export const RATE_LIMIT = shape(RULE_FIELDS);
export const RATE_LIMIT_COUNT = shape({ ...RULE_FIELDS, count: f.num((_r, count) => count) });

export type RateLimitWire = WireOf<typeof RATE_LIMIT.fields>;
export type RateLimitCountWire = WireOf<typeof RATE_LIMIT_COUNT.fields>;

export interface RateLimitRules {
  readonly weight: RateLimitRule;
  readonly ordersTenSeconds: RateLimitRule;
  readonly ordersDay: RateLimitRule;
}

/**
 * The rules of a configuration (never changed in place) with each rule's text up to its count
 * (`count` is RATE_LIMIT_COUNT's last field): made once, so a WS API reply, which carries the
 * block, writes only the counts after one lookup.
 */
interface RateLimitTable {
  readonly rules: RateLimitRules;
  readonly countPrefix: Readonly<Record<keyof RateLimitRules, string>>;
}

const TABLES = new WeakMap<LimitsConfig, RateLimitTable>();

function tableOf(limits: LimitsConfig): RateLimitTable {
  let table = TABLES.get(limits);
  if (table === undefined) {
    const rules = windowsOf(limits);
    const prefix = (rule: RateLimitRule) => {
      const sample = RATE_LIMIT_COUNT.text(rule, 0);
      return sample.slice(0, sample.length - '0}'.length);
    };
    table = { rules, countPrefix: { weight: prefix(rules.weight), ordersTenSeconds: prefix(rules.ordersTenSeconds), ordersDay: prefix(rules.ordersDay) } };
    TABLES.set(limits, table);
  }
  return table;
}

/** The three windows of the configured limits (spec 8). */
export function rateLimitRules(limits: LimitsConfig): RateLimitRules {
  return tableOf(limits).rules;
}

function windowsOf(limits: LimitsConfig): RateLimitRules {
  return {
    weight: { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: limits.weight_per_minute },
    ordersTenSeconds: { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.orders_per_10s },
    ordersDay: { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: limits.orders_per_day },
  };
}

/** exchangeInfo's `rateLimits`: the rules, without counts. */
export function rateLimitList(limits: LimitsConfig): RateLimitWire[] {
  const rules = rateLimitRules(limits);
  return [rules.weight, rules.ordersTenSeconds, rules.ordersDay].map((r) => RATE_LIMIT.object(r, 0));
}

export interface OrderCounts {
  readonly tenSeconds: number;
  readonly day: number;
}

/** GET rateLimit/order: both ORDERS windows with their counts. */
export function orderRateLimits(limits: LimitsConfig, counts: OrderCounts): RateLimitCountWire[] {
  const rules = rateLimitRules(limits);
  return [RATE_LIMIT_COUNT.object(rules.ordersTenSeconds, counts.tenSeconds), RATE_LIMIT_COUNT.object(rules.ordersDay, counts.day)];
}

/** The WS API's `rateLimits` as JSON text: the weight, plus both ORDERS windows when counted. */
export function rateLimitsText(limits: LimitsConfig, usedWeight: number, counts: OrderCounts | null): string {
  const p = tableOf(limits).countPrefix;
  if (counts === null) return `[${p.weight}${usedWeight}}]`;
  return `[${p.weight}${usedWeight}},${p.ordersTenSeconds}${counts.tenSeconds}},${p.ordersDay}${counts.day}}]`;
}
