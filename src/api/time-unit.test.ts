// The microsecond time unit on reply and event text: only the fields that hold times change,
// sentinels (-1) stay, and other numbers (ids, trade ids, update ids) are untouched.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventInUnit, replyInUnit, streamEventInUnit, timeUnitOf } from './time-unit.ts';

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

test('stream events: each event type has its own time fields; ids (trade t, kline f and L, ticker F and L) stay', () => {
  const us = (payload: string) => streamEventInUnit(payload, 'MICROSECOND');
  assert.equal(us('{"e":"trade","E":10,"s":"BTCUSDT","t":12,"p":"1","q":"1","T":9,"m":true,"M":true}'), '{"e":"trade","E":10000,"s":"BTCUSDT","t":12,"p":"1","q":"1","T":9000,"m":true,"M":true}');
  assert.equal(us('{"e":"aggTrade","E":10,"s":"X","a":3,"p":"1","q":"1","f":4,"l":5,"T":9,"m":false,"M":true}'), '{"e":"aggTrade","E":10000,"s":"X","a":3,"p":"1","q":"1","f":4,"l":5,"T":9000,"m":false,"M":true}');
  assert.equal(
    us('{"e":"kline","E":10,"s":"X","k":{"t":60,"T":119,"s":"X","i":"1m","f":7,"L":8,"o":"1","n":2,"x":false}}'),
    '{"e":"kline","E":10000,"s":"X","k":{"t":60000,"T":119000,"s":"X","i":"1m","f":7,"L":8,"o":"1","n":2,"x":false}}',
  );
  assert.equal(us('{"e":"24hrTicker","E":10,"s":"X","O":1,"C":10,"F":3,"L":4,"n":2}'), '{"e":"24hrTicker","E":10000,"s":"X","O":1000,"C":10000,"F":3,"L":4,"n":2}');
  assert.equal(us('{"e":"1hTicker","E":10,"O":1,"C":10,"F":-1,"L":-1}'), '{"e":"1hTicker","E":10000,"O":1000,"C":10000,"F":-1,"L":-1}');
  assert.equal(us('[{"e":"24hrMiniTicker","E":10,"s":"X","c":"1"},{"e":"24hrMiniTicker","E":10,"s":"Y","c":"2"}]'), '[{"e":"24hrMiniTicker","E":10000,"s":"X","c":"1"},{"e":"24hrMiniTicker","E":10000,"s":"Y","c":"2"}]');
  assert.equal(us('{"e":"avgPrice","E":10,"s":"X","i":"5m","w":"1","T":9}'), '{"e":"avgPrice","E":10000,"s":"X","i":"5m","w":"1","T":9000}');
  assert.equal(us('{"e":"depthUpdate","E":10,"s":"X","U":5,"u":6,"b":[],"a":[]}'), '{"e":"depthUpdate","E":10000,"s":"X","U":5,"u":6,"b":[],"a":[]}');
  const book = '{"u":5,"s":"X","b":"1","B":"1","a":"2","A":"1"}';
  assert.equal(us(book), book);
  assert.equal(streamEventInUnit('{"e":"trade","E":10,"T":9}', 'MILLISECOND'), '{"e":"trade","E":10,"T":9}');
});
