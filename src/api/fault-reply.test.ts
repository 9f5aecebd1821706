// An injected `{ error: code }` (API.md 3.1) reads like the reference's own refusal: the first
// row of that code in the error table, every placeholder filled, Retry-After timing on 429/418.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startSimulator } from '../index.ts';
import { ERRORS } from '../core/errors.ts';
import { rowOfCode } from '../faults/rule.ts';
import { ENDPOINTS } from './endpoints.ts';
import { refusalReply } from './fault-reply.ts';

test('every code of the error table answers a complete message with its row status', async () => {
  await using sim = await startSimulator({ config: { sim: { port: 0, tls_port: 0, clock: 'manual', start_time_ms: 1_700_000_000_000, generator: { enabled: false } } } });
  const place = ENDPOINTS.find((e) => e.id === 'order.place')!;
  const codes = new Set(Object.values(ERRORS).map((row) => row.code));
  for (const code of codes) {
    const row = rowOfCode(code)!;
    const reply = refusalReply(sim.service, { status: ERRORS[row].http, code, row, msg: ERRORS[row].msg }, sim.now(), place);
    const body = reply.body as { code: number; msg: string };
    assert.equal(reply.status, ERRORS[row].http, `${code}`);
    assert.equal(body.code, code);
    assert.doesNotMatch(body.msg, /%s|undefined/, `${code}: ${body.msg}`);
    assert.equal(reply.retryAfterSeconds !== undefined, reply.status === 429 || reply.status === 418, `${code}`);
    assert.ok(reply.orderCounts !== null, 'an order endpoint reports its order counts');
  }
  const weight = refusalReply(sim.service, { status: 429, code: -1003, row: 'TOO_MUCH_WEIGHT', msg: '' }, sim.now(), place).body as { msg: string };
  assert.match(weight.msg, /^Too much request weight used; current limit is 6000 request weight per 1 MINUTE\./);
});
