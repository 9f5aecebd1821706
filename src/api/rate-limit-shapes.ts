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

/** Rules per configuration (a configuration is never changed in place): the WS API writes them on every reply. */
const RULES = new WeakMap<LimitsConfig, RateLimitRules>();

/**
 * A rule's text up to its count (`count` is RATE_LIMIT_COUNT's last field, after the rule's
 * own): written once per rule, so a reply writes only the counts.
 */
const COUNT_PREFIX = new WeakMap<RateLimitRule, string>();

function countText(rule: RateLimitRule, count: number): string {
  let prefix = COUNT_PREFIX.get(rule);
  if (prefix === undefined) {
    const sample = RATE_LIMIT_COUNT.text(rule, 0);
    prefix = sample.slice(0, sample.length - '0}'.length);
    COUNT_PREFIX.set(rule, prefix);
  }
  return `${prefix}${count}}`;
}

/** The three windows of the configured limits (spec 8). */
export function rateLimitRules(limits: LimitsConfig): RateLimitRules {
  let rules = RULES.get(limits);
  if (rules === undefined) {
    rules = windowsOf(limits);
    RULES.set(limits, rules);
  }
  return rules;
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
  const rules = rateLimitRules(limits);
  const weight = countText(rules.weight, usedWeight);
  if (counts === null) return `[${weight}]`;
  return `[${weight},${countText(rules.ordersTenSeconds, counts.tenSeconds)},${countText(rules.ordersDay, counts.day)}]`;
}
