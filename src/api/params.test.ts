import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { isApiError } from '../core/errors.ts';
import { Authenticator } from './auth.ts';
import { parseRestParams } from './params.ts';

/** The signed payload as the straightforward split / filter / join computes it. */
function reference(text: string): string {
  return text
    .split('&')
    .filter((part) => !part.startsWith('signature='))
    .join('&');
}

test('the signed payload drops every signature= pair and keeps everything else as sent', () => {
  const cases = [
    'symbol=BTCUSDT&timestamp=1&signature=ab',
    'signature=ab&symbol=BTCUSDT&timestamp=1',
    'symbol=BTCUSDT&signature=ab&timestamp=1',
    'signature=ab',
    'a=1&&b=2&signature=x&',
    'x=signature=1&signature=',
    'mysignature=1&b=2',
    '',
  ];
  for (const query of cases) {
    for (const body of ['', 'price=1&signature=zz', 'quantity=0.001']) {
      let params;
      try {
        params = parseRestParams(query, body);
      } catch (error) {
        assert.ok(isApiError(error), `${query} | ${body}`); // duplicate names are refused either way
        continue;
      }
      assert.equal(params.signedPayload, reference(query) + reference(body), `${query} | ${body}`);
    }
  }
});

test('names and values are decoded, with or without escapes; the query wins over the body', () => {
  const p = parseRestParams('symbol=BTCUSDT&newClientOrderId=a%2Bb+c&price=2', 'price=1&side=BUY&note=x%20y');
  assert.equal(p.get('symbol'), 'BTCUSDT');
  assert.equal(p.get('newClientOrderId'), 'a+b c');
  assert.equal(p.get('price'), '2');
  assert.equal(p.get('side'), 'BUY');
  assert.equal(p.get('note'), 'x y');
  assert.deepEqual(p.names().sort(), ['newClientOrderId', 'note', 'price', 'side', 'symbol']);
  const q = parseRestParams('a=1&b=', '');
  assert.equal(q.get('a'), '1');
  assert.equal(q.get('b'), undefined);
  assert.deepEqual(q.names(), ['a', 'b']);
  assert.throws(() => parseRestParams('a=%E0%A4%A', ''), (e) => isApiError(e));
  assert.throws(() => parseRestParams('a=1&a=2', ''), (e) => isApiError(e));
});

test('HMAC signatures verify over the payload as sent (either hex case), and a wrong one is refused', () => {
  const secret = 'SpotSimTestSecret0123456789';
  const auth = new Authenticator({ apiKey: 'k', apiSecret: secret }, 60_000);
  const now = 1_700_000_000_000;
  const payload = `symbol=BTCUSDT&side=BUY&quantity=0.001&timestamp=${now}`;
  const sig = createHmac('sha256', secret).update(payload).digest('hex');
  assert.equal(auth.checkSigned(parseRestParams(`${payload}&signature=${sig}`, ''), now), null);
  assert.equal(auth.checkSigned(parseRestParams(`${payload}&signature=${sig.toUpperCase()}`, ''), now), null);
  const bad = auth.checkSigned(parseRestParams(`${payload}&signature=${'0'.repeat(64)}`, ''), now);
  assert.ok(bad !== null && bad.code === -1022);
});

test('LONG parameters take the whole int64 range, leading zeros too; beyond it is -1130, not digits -1100', () => {
  const int = (v: string) => parseRestParams(`orderId=${v}`, '').int('orderId');
  assert.equal(int('42'), 42);
  assert.equal(int('-9223372036854775808') !== undefined, true);
  // 2^63-1 names no order (ids stay far below 2^53), but it is a valid LONG, not -1100.
  assert.ok(int('9223372036854775807')! > Number.MAX_SAFE_INTEGER);
  assert.equal(int('00000000000000000001'), 1);
  // Up to 20 digits but outside int64: the message names no pattern the value matches.
  for (const big of ['9223372036854775808', '-9223372036854775809', '18446744073709551616', '99999999999999999999']) {
    assert.throws(() => int(big), (e: unknown) => isApiError(e) && e.code === -1130 && e.msg === "Data sent for parameter 'orderId' is not valid.", big);
  }
  for (const bad of ['123456789012345678901', '000000000000000000001', '1.5', 'abc', '1e3', '-']) {
    assert.throws(
      () => int(bad),
      (e: unknown) => isApiError(e) && e.code === -1100 && e.msg === "Illegal characters found in parameter 'orderId'; legal range is '^[0-9]{1,20}$'.",
      bad,
    );
  }
});
