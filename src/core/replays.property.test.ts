// The replay counterparty under random recordings and random account and scripted activity
// (API.md section 12): after every command and every print the core's invariants hold (money
// conserved, book uncrossed, locks and reserves exact); after every print the fill rule left no
// account order through it, and the synthetic book is exactly `depth_levels` levels of
// `level_qty` a side around it (whatever the account took or a cancel removed before); a depth
// batch publishes the live book, and until the next one the book as published stays; the same
// story run twice publishes the same events.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { placeOrder } from '../api/orders.ts';
import { ScriptedMarket } from './counterparty/index.ts';
import { invariantViolations } from './invariants.ts';
import { depthSnapshot } from './queries.ts';
import { NONE } from './book/index.ts';
import { advance, bookOf, flushDepth, replayExchange, T0, toJson, type RecordedRow } from './test-support.ts';
import type { Exchange } from './exchange.ts';

const L = 9_400_000;
const REC = Date.UTC(2025, 0, 1);

type Step =
  | { kind: 'advance'; ms: number }
  | { kind: 'order'; side: 'BUY' | 'SELL'; type: 'LIMIT' | 'MARKET' | 'IOC'; offset: number; qty: string }
  | { kind: 'cancelAll' }
  | { kind: 'scripted'; side: 'BUY' | 'SELL'; offset: number }
  | { kind: 'scriptedCancelAll' }
  | { kind: 'flush' };

interface Story {
  readonly moves: readonly { gapMs: number; step: number; lots: number; m: boolean }[];
  readonly levels: number;
  readonly levelQty: string;
  readonly fillAtTouch: boolean;
  readonly historyRows: number;
  readonly steps: readonly Step[];
}

function rowsOf(story: Story): RecordedRow[] {
  let t = REC * 1000;
  let price = L;
  return story.moves.map((m) => {
    t += m.gapMs * 1000;
    price += m.step;
    return { us: t, price, lots: m.lots, m: m.m };
  });
}

function run(story: Story, check: boolean): string[] {
  const rows = rowsOf(story);
  const from = rows[Math.min(story.historyRows, rows.length - 1)]!.us / 1000;
  const ex = replayExchange(rows, { from, depth_levels: story.levels, level_qty: story.levelQty, fill_at_touch: story.fillAtTouch });
  const market = new ScriptedMarket(ex);
  const log: string[] = [];
  let now = T0;
  let scripted = false;
  let published = depthSnapshot(ex.state, 'BTCUSDT', 5000, 'flushed');
  const last = () => ex.marketData.of(0).lastTrade()!.price;
  for (const step of story.steps) {
    let events: unknown[] = [];
    if (step.kind === 'advance') {
      now += step.ms;
      // Print by print when checking (each print's instant its own advance), else in one go.
      for (let at = check ? Math.min(ex.nextPrintAt(), now) : now; ; at = Math.min(ex.nextPrintAt(), now)) {
        const printsBefore = printedRows(ex);
        events = [...events, ...advance(ex, at)];
        if (check && printedRows(ex) > printsBefore) {
          assert.deepEqual(invariantViolations(ex.state), [], `after the print at ${at}`);
          checkFillRule(ex, lastPrint(ex, rows));
          if (!scripted) checkSyntheticBook(ex, lastPrint(ex, rows), story);
        }
        if (at >= now) break;
      }
    } else if (step.kind === 'order') {
      const price = ((last() + step.offset) / 100).toFixed(2);
      const fields = step.type === 'MARKET' ? { type: 'MARKET' } : { type: 'LIMIT', timeInForce: step.type === 'IOC' ? 'IOC' : 'GTC', price };
      const out = placeOrder(ex, { symbol: 'BTCUSDT', side: step.side, quantity: step.qty, ...fields }, now);
      events = out.events;
    } else if (step.kind === 'cancelAll') {
      events = ex.submit({ type: 'cancelAll', now, symbolIndex: 0 }).events;
    } else if (step.kind === 'scripted') {
      events = market.place({ symbolIndex: 0, side: step.side, orderType: 'LIMIT', timeInForce: 'GTC', price: Math.max(1, last() + step.offset), quantity: 5_000 }, now).events;
      scripted = true;
    } else if (step.kind === 'scriptedCancelAll') {
      market.cancelAll(0, now);
    } else {
      const before = depthSnapshot(ex.state, 'BTCUSDT', 5000, 'flushed');
      const batch = flushDepth(ex, now);
      log.push(toJson(batch));
      // Right after a batch the book as published is the live book; before it, the last batch's.
      if (check) assert.deepEqual(depthSnapshot(ex.state, 'BTCUSDT', 5000, 'flushed'), depthSnapshot(ex.state, 'BTCUSDT', 5000, 'live'));
      if (check) assert.deepEqual(before, published);
      published = depthSnapshot(ex.state, 'BTCUSDT', 5000, 'flushed');
    }
    log.push(toJson(events));
    if (check) assert.deepEqual(invariantViolations(ex.state), [], `after ${JSON.stringify(step)}`);
  }
  return log;
}

/** Recorded rows printed so far (history rows included): trades less the account's. */
function printedRows(ex: Exchange): number {
  return ex.instruments[0]!.lastTradeId - ex.state.tradeLog.all('BTCUSDT').length;
}

function lastPrint(ex: Exchange, rows: readonly RecordedRow[]): RecordedRow {
  return rows[printedRows(ex) - 1]!;
}

/** No resting account order is through the last print: BUYs at or below it, SELLs at or above. */
function checkFillRule(ex: Exchange, print: RecordedRow): void {
  for (const side of [bookOf(ex, 'BTCUSDT')!.bids, bookOf(ex, 'BTCUSDT')!.asks]) {
    for (const level of side.levels) {
      if (level.accountCount === 0) continue;
      assert.ok(side.isBid ? level.price <= print.price : level.price >= print.price, `account ${side.side} at ${level.price} through the print at ${print.price}`);
    }
  }
}

/** Without scripted orders: exactly `levels` synthetic orders of `level_qty` a side around the print. */
function checkSyntheticBook(ex: Exchange, print: RecordedRow, story: Story): void {
  const lots = Math.round(Number(story.levelQty) * 100_000);
  const book = bookOf(ex, 'BTCUSDT')!;
  const s = ex.state.orders;
  for (const side of [book.bids, book.asks]) {
    const synthetic: [number, number][] = [];
    for (const level of side.levels) for (let o = level.head; o !== NONE; o = s.next(o)) if (!s.isAccount(o)) synthetic.push([level.price, s.remaining(o)]);
    synthetic.sort((a, b) => (side.isBid ? b[0] - a[0] : a[0] - b[0]));
    const want: [number, number][] = [];
    for (let k = 1; k <= story.levels; k++) want.push([side.isBid ? print.price - k : print.price + k, lots]);
    assert.deepEqual(synthetic, want, `${side.side} around ${print.price}`);
  }
}

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3000 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      type: fc.constantFrom('LIMIT' as const, 'MARKET' as const, 'IOC' as const),
      offset: fc.integer({ min: -40, max: 40 }),
      qty: fc.constantFrom('0.001', '0.01', '0.5', '3'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scripted' as const), side: fc.constantFrom('BUY' as const, 'SELL' as const), offset: fc.integer({ min: -30, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('scriptedCancelAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flush' as const) }) },
);

const storyArb: fc.Arbitrary<Story> = fc.record({
  moves: fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 1500 }), step: fc.integer({ min: -25, max: 25 }), lots: fc.integer({ min: 1, max: 300_000 }), m: fc.boolean() }), { minLength: 1, maxLength: 60 }),
  levels: fc.integer({ min: 1, max: 25 }),
  levelQty: fc.constantFrom('0.001', '0.1', '1'),
  fillAtTouch: fc.boolean(),
  historyRows: fc.integer({ min: 0, max: 10 }),
  steps: fc.array(stepArb, { maxLength: 40 }),
});

test('random replays: invariants after every command, the fill rule and the synthetic book after every print', () => {
  fc.assert(
    fc.property(storyArb, (story) => {
      run(story, true);
    }),
    { numRuns: 150 },
  );
});

test('the same recording, configuration and commands publish the same events', () => {
  fc.assert(
    fc.property(storyArb, (story) => {
      assert.deepEqual(run(story, false), run(story, false));
    }),
    { numRuns: 40 },
  );
});
