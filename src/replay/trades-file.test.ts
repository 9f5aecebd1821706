// Reading the reference's spot aggTrades and trades CSVs into a Recording (API.md section 12):
// each kind, with or without a header, ms or µs times (mixed too), CRLF; and every rule a row can
// break, named by file, line and column.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatProblem } from '../config/index.ts';
import type { Recording } from '../core/recording.ts';
import { FileProblems } from '../file-problems.ts';
import { readTradesCsv, TradesCsvParser } from './trades-file.ts';

const FILE = '/data/BTCUSDT-aggTrades-2025-01-01.csv';
/** BTCUSDT's grids in the default configuration. */
const GRID = { tick: '0.01', lot: '0.00001', tickDecimals: 2, lotDecimals: 5 };
const MS = 1735689600000;

function read(text: string, format: 'aggTrades' | 'trades' = 'aggTrades'): { recording: Recording | undefined; messages: string[]; total: number } {
  const problems = new FileProblems();
  const recording = readTradesCsv(Buffer.from(text, 'utf8'), FILE, format, 'BTCUSDT', GRID, problems);
  return { recording, messages: problems.listed.map(formatProblem), total: problems.total };
}

function columns(r: Recording) {
  return {
    timeUs: [...r.timeUs],
    price: [...r.price],
    qty: [...r.qty],
    buyerIsMaker: [...r.buyerIsMaker],
    newAggregate: [...r.newAggregate],
  };
}

function ok(text: string, format: 'aggTrades' | 'trades' = 'aggTrades'): Recording {
  const { recording, messages } = read(text, format);
  assert.deepEqual(messages, []);
  assert.ok(recording !== undefined);
  return recording;
}

/** The only problem of `text`, as the command line prints it. */
function only(text: string, format: 'aggTrades' | 'trades' = 'aggTrades'): string {
  const { recording, messages } = read(text, format);
  assert.equal(recording, undefined);
  assert.equal(messages.length, 1, messages.join('\n'));
  return messages[0]!;
}

const agg = (time: number | string, price = '60000.00', qty = '0.01000', maker = 'true') => `1,${price},${qty},1,1,${time},${maker},true`;
const trade = (time: number | string, price = '60000.00', qty = '0.01000', maker = 'true') => `1,${price},${qty},600.00,${time},${maker},true`;

test('aggTrades without a header, times in ms: one print a row, in ticks and lots, every row an aggregate', () => {
  const r = ok([agg(MS, '60000.01', '0.00100', 'true'), agg(MS + 1, '59999.99000000', '1.50000000', 'False')].join('\n') + '\n');
  assert.equal(r.symbol, 'BTCUSDT');
  assert.equal(r.count, 2);
  assert.deepEqual(columns(r), {
    timeUs: [MS * 1000, (MS + 1) * 1000],
    price: [6000001, 5999999],
    qty: [100, 150000],
    buyerIsMaker: [1, 0],
    newAggregate: [1, 1],
  });
});

test('a header (a first field that is not an integer) is skipped; equal times keep file order', () => {
  const r = ok(['agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker,is_best_match', agg(MS, '1.00'), agg(MS, '2.00')].join('\n'));
  assert.deepEqual(columns(r).price, [100, 200]);
});

test('trades in µs with a header: rows of one time, price and taker side form one aggregate', () => {
  const us = MS * 1000 + 10866;
  const r = ok(
    ['id,price,qty,quoteQty,time,isBuyerMaker,isBestMatch', trade(us), trade(us), trade(us, '60000.01'), trade(us, '60000.01', '0.01000', 'false'), trade(us + 1, '60000.01', '0.01000', 'false'), trade(us + 1, '60000.01', '0.01000', 'false')].join('\n'),
    'trades',
  );
  assert.deepEqual(columns(r).timeUs, [us, us, us, us, us + 1, us + 1]);
  assert.deepEqual(columns(r).newAggregate, [1, 0, 1, 1, 1, 0]);
});

test('CRLF, a byte-order mark, no final newline, TRUE/false in any case', () => {
  const r = ok(`\uFEFF${agg(MS, '1.00', '1', 'TRUE')}\r\n${agg(MS + 5, '2.00', '2', 'fAlSe')}`);
  assert.deepEqual(columns(r), { timeUs: [MS * 1000, (MS + 5) * 1000], price: [100, 200], qty: [100000, 200000], buyerIsMaker: [1, 0], newAggregate: [1, 1] });
});

test('ms and µs rows mixed: each classed by magnitude, compared in µs', () => {
  const r = ok([agg(MS), agg(MS * 1000 + 1), agg(MS + 1)].join('\n'));
  assert.deepEqual(columns(r).timeUs, [MS * 1000, MS * 1000 + 1, (MS + 1) * 1000]);
});

test('a row with the wrong column count names the kind\'s columns and the futures files', () => {
  assert.equal(
    only(`${agg(MS)}\n1,60000.00,0.01000,1,1,${MS},true\n`),
    `${FILE}:2:1 (row): expected the 8 columns of a spot aggTrades row: aggId, price, qty, firstId, lastId, time, isBuyerMaker, isBestMatch (futures aggTrades files have 7 and are not read), got 7 columns`,
  );
  assert.match(only(`1,60000.00,0.01000,600,${MS},true\n`, 'trades'), /:1:1 \(row\): expected the 7 columns of a spot trades row: .* \(futures trades files have 6 and are not read\), got 6 columns$/);
});

test('a futures header is refused by its column count', () => {
  const header = 'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker';
  assert.match(only(`${header}\n${agg(MS)}\n`), new RegExp(`^${FILE}:1:1 \\(header\\): expected the 8 columns of a spot aggTrades row.*, got 7 columns$`));
});

test('price: a positive decimal on the tick', () => {
  const expected = 'a price on the tick 0.01, from 0.01 to 90071992547409.91';
  assert.equal(only(agg(MS, '60000.005')), `${FILE}:1:2 (price): expected ${expected}, got "60000.005"`);
  for (const bad of ['0', '0.00', '-1', '1e3', '', '1.', '.5', 'abc', '90071992547409.92']) assert.equal(only(agg(MS, bad)), `${FILE}:1:2 (price): expected ${expected}, got ${JSON.stringify(bad)}`);
});

test('qty: a positive decimal on the lot', () => {
  const expected = 'a quantity on the lot 0.00001, from 0.00001 to 90071992547.40991';
  assert.equal(only(agg(MS, '1.00', '0.000001')), `${FILE}:1:3 (qty): expected ${expected}, got "0.000001"`);
  for (const bad of ['0', ' 1', '1,5'.replace(',', ';'), '+1']) assert.equal(only(agg(MS, '1.00', bad)), `${FILE}:1:3 (qty): expected ${expected}, got ${JSON.stringify(bad)}`);
});

test('time: digits, ms from 10^12 or µs from 10^15, below 2^53 µs; column 6 of aggTrades, 5 of trades', () => {
  const expected = 'a time in milliseconds (from 10^12) or microseconds (from 10^15), digits only, at most 9007199254740991 microseconds';
  for (const bad of ['1735689600', '999999999999', '99999999999999', '9007199254740992', '1735689600000.5', '-1735689600000', 'x', '']) {
    assert.equal(only(agg(bad)), `${FILE}:1:6 (time): expected ${expected}, got ${JSON.stringify(bad)}`);
  }
  assert.equal(only(trade('x'), 'trades'), `${FILE}:1:5 (time): expected ${expected}, got "x"`);
  // 9007199254740 ms is 2^53 - 991 µs: the last ms that fits.
  assert.deepEqual(columns(ok(agg(9007199254740))).timeUs, [9007199254740000]);
});

test('time: rows in non-decreasing order', () => {
  assert.equal(
    only([agg(MS + 1), agg(MS * 1000)].join('\n')),
    `${FILE}:2:6 (time): expected a time at or after the row before's (${MS + 1}): rows in time order, got "${MS * 1000}"`,
  );
});

test('isBuyerMaker: true or false in any case; column 7 of aggTrades, 6 of trades', () => {
  for (const bad of ['yes', '1', '', 'truee']) assert.equal(only(agg(MS, '1.00', '1', bad)), `${FILE}:1:7 (isBuyerMaker): expected true or false (in any case), got ${JSON.stringify(bad)}`);
  assert.match(only(trade(MS, '1.00', '1', 'no'), 'trades'), /:1:6 \(isBuyerMaker\)/);
});

test('a blank line inside the file, and a file without rows, are refused', () => {
  assert.equal(only(`${agg(MS)}\n\n${agg(MS)}\n`), `${FILE}:2:1 (row): expected the 8 columns of a spot aggTrades row: aggId, price, qty, firstId, lastId, time, isBuyerMaker, isBestMatch (futures aggTrades files have 7 and are not read), got a blank line`);
  assert.match(only(`${agg(MS)}\n\n`), /:2:1 \(row\): .* got a blank line$/);
  assert.equal(only(''), `${FILE}:1:1 (file): expected at least one trade row, got no rows`);
  assert.equal(only('id,price,qty,firstId,lastId,time,isBuyerMaker,isBestMatch\r\n'), `${FILE}:1:1 (file): expected at least one trade row, got no rows`);
});

test('every problem of a row, by column; every row\'s problems, counted past the listed ones', () => {
  const { messages } = read(agg('x', '1.001', '0', 'maybe'));
  assert.deepEqual(messages.map((m) => /:(\d+) \(/.exec(m)![1]), ['2', '3', '6', '7']);
  const many = read(Array.from({ length: 30 }, () => agg(MS, '1.001')).join('\n'));
  assert.equal(many.total, 30);
  assert.equal(many.messages.length, 20);
  assert.equal(many.recording, undefined);
});

test('the fast pass over the bytes takes exactly what the exact rules take, with the same values', () => {
  const cell = fc.oneof(
    fc.constantFrom('0', '1', '1.5', '60000.01', '60000.010000', '0.00001', '0.000001', '1.', '.5', '-1', '1e3', '', ' 1', 'true', 'False', 'TRUE', 'x'),
    fc.stringMatching(/^[0-9]{1,21}(\.[0-9]{1,21})?$/),
  );
  const time = fc.oneof(fc.integer({ min: MS, max: MS + 5 }).map(String), fc.integer({ min: MS * 1000, max: MS * 1000 + 5000 }).map(String), fc.constantFrom('1735689600', '9007199254740992', '9007199254740', 'x', '1735689600000.0'));
  const row = fc.tuple(cell, cell, time, fc.oneof(fc.constantFrom('true', 'false', 'True', 'FALSE'), cell)).map(([price, qty, t, maker]) => `7,${price},${qty},1,2,${t},${maker},true`);
  fc.assert(
    fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.boolean(), (rows, crlf) => {
      const bytes = Buffer.from(rows.join(crlf ? '\r\n' : '\n'));
      const results = [true, false].map((fastPass) => {
        const problems = new FileProblems();
        const recording = readTradesCsv(bytes, FILE, 'aggTrades', 'BTCUSDT', GRID, problems, fastPass);
        return { columns: recording === undefined ? undefined : columns(recording), problems: problems.listed.map(formatProblem) };
      });
      assert.deepEqual(results[0], results[1]);
    }),
    { numRuns: 2000 },
  );
});

test('read in pieces split anywhere (a .zip inflating), a file gives the rows and the problems it gives read at once', () => {
  const cell = fc.oneof(fc.constantFrom('60000.01', '60000.02', '0.00001', '1.5', 'x', ''), fc.stringMatching(/^[0-9]{1,6}\.[0-9]{2}$/));
  const time = fc.oneof(fc.integer({ min: MS * 1000, max: MS * 1000 + 5000 }).map(String), fc.constantFrom('x', '1735689600'));
  const row = fc.tuple(cell, cell, time, fc.constantFrom('true', 'false', 'maybe')).map(([price, qty, t, maker]) => `7,${price},${qty},1,2,${t},${maker},true`);
  const file = fc.record({
    bom: fc.boolean(),
    header: fc.boolean(),
    rows: fc.array(row, { maxLength: 12 }),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  });
  fc.assert(
    fc.property(file, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }), (f, sizes) => {
      const newline = f.crlf ? '\r\n' : '\n';
      const lines = [...(f.header ? ['agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker,is_best_match'] : []), ...f.rows];
      const text = (f.bom ? '\uFEFF' : '') + lines.join(newline) + (f.finalNewline && lines.length > 0 ? newline : '');
      const bytes = Buffer.from(text, 'utf8');
      const whole = new FileProblems();
      const expected = readTradesCsv(bytes, FILE, 'aggTrades', 'BTCUSDT', GRID, whole);
      const inPieces = new FileProblems();
      const parser = new TradesCsvParser(FILE, 'aggTrades', 'BTCUSDT', GRID, inPieces, () => 1);
      for (let at = 0, k = 0; at < bytes.length; k++) {
        const size = sizes[k % sizes.length]!;
        parser.push(bytes.subarray(at, at + size), false);
        at += size;
      }
      parser.push(new Uint8Array(0), true);
      const got = parser.finish();
      assert.deepEqual(inPieces.listed.map(formatProblem), whole.listed.map(formatProblem));
      assert.deepEqual(got === undefined ? undefined : columns(got), expected === undefined ? undefined : columns(expected));
    }),
    { numRuns: 1000 },
  );
});
