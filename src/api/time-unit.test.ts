// The microsecond time unit on reply and event text: only the fields that hold times change,
// sentinels (-1) stay, and other numbers (ids, trade ids, update ids) are untouched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventInUnit, replyInUnit, timeUnitOf } from './time-unit.ts';

test('MICROSECOND in either case; anything else is milliseconds', () => {
  assert.equal(timeUnitOf('MICROSECOND'), 'MICROSECOND');
  assert.equal(timeUnitOf('microsecond'), 'MICROSECOND');
  assert.equal(timeUnitOf('Microsecond'), 'MILLISECOND');
  assert.equal(timeUnitOf(undefined), 'MILLISECOND');
});

test('reply times are multiplied by 1000; ids and sentinels are not', () => {
  const text = '{"orderId":17,"orderListId":-1,"transactTime":1700000000000,"workingTime":-1,"fills":[{"tradeId":3}],"time":1700000000001,"updateTime":1700000000002}';
  assert.equal(
    replyInUnit(text, 'MICROSECOND'),
    '{"orderId":17,"orderListId":-1,"transactTime":1700000000000000,"workingTime":-1,"fills":[{"tradeId":3}],"time":1700000000001000,"updateTime":1700000000002000}',
  );
  assert.equal(replyInUnit(text, 'MILLISECOND'), text);
});

test('events: E, T, O, W of an executionReport, E and u of outboundAccountPosition, only E of others', () => {
  const report = '{"e":"executionReport","E":1000,"i":5,"T":1001,"t":-1,"I":9,"O":1002,"W":1003,"u":-1,"U":4}';
  assert.equal(eventInUnit(report, 'MICROSECOND'), '{"e":"executionReport","E":1000000,"i":5,"T":1001000,"t":-1,"I":9,"O":1002000,"W":1003000,"u":-1,"U":4}');
  assert.equal(eventInUnit('{"e":"outboundAccountPosition","E":5,"u":6,"B":[]}', 'MICROSECOND'), '{"e":"outboundAccountPosition","E":5000,"u":6000,"B":[]}');
  assert.equal(eventInUnit('{"e":"eventStreamTerminated","E":7}', 'MICROSECOND'), '{"e":"eventStreamTerminated","E":7000}');
});
