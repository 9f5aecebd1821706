// A replayed day's prints are public trades like any other (API.md section 11 with section 12):
// they trigger the account's waiting stops at the print's own time, and a triggered stop meets
// the synthetic book as it stands after the print that triggered it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invariantViolations } from './invariants.ts';
import { advance, expectOk, replayExchange, submitOrder, T0, type RecordedRow } from './test-support.ts';
import type { CoreEvent, ExecutionReport } from './types.ts';

const REC = Date.UTC(2025, 0, 1, 8);
const us = (ms: number) => ms * 1000;
const L = 9_400_000; // 94,000.00 in ticks (tick 0.01)

function reportsOf(events: readonly CoreEvent[], orderId: number): ExecutionReport[] {
  return events.filter((e): e is ExecutionReport => e.type === 'execution' && e.order.orderId === orderId);
}

const rows: RecordedRow[] = [
  { us: us(REC), price: L, lots: 100 },
  { us: us(REC + 1_000), price: L - 100, lots: 100, m: true },
  { us: us(REC + 2_000), price: L - 600, lots: 100, m: true }, // crosses the stop at 93,995.00
  { us: us(REC + 3_000), price: L - 1_000, lots: 100, m: true },
];

test('a print through a STOP_LOSS triggers it at the print time; it sells into the book around that print', () => {
  const ex = replayExchange(rows, { from: REC }, { sim: { order_types: 'reference' } });
  const placed = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '93995.00' }, T0));
  // One advance over three prints: the stop waits through the first, triggers on the second.
  const events = advance(ex, T0 + 3_000);
  const mine = reportsOf(events, placed.order.orderId);
  assert.deepEqual(mine.map((r) => [r.executionType, r.order.status, r.eventTime]), [
    ['NEW', 'NEW', T0 + 2_000],
    ['TRADE', 'FILLED', T0 + 2_000],
  ]);
  // The best bid one tick under the triggering print (93,994.00 - 0.01), not under the print
  // the book was last rebuilt around (94,000.00).
  assert.equal(mine[1]!.lastPrice, L - 601);
  assert.deepEqual(invariantViolations(ex.state), []);
});

test('a print that does not reach the stop price leaves it waiting', () => {
  const ex = replayExchange(rows.slice(0, 2), { from: REC }, { sim: { order_types: 'reference' } });
  const placed = expectOk(submitOrder(ex, { side: 'SELL', type: 'STOP_LOSS', quantity: '0.001', stopPrice: '93995.00' }, T0));
  assert.deepEqual(reportsOf(advance(ex, T0 + 3_000), placed.order.orderId), []);
  assert.equal(ex.state.stops.size, 1);
});
