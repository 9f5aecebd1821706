// The start block's words and URLs for the binds an operator uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { controlApiOffReason, DEFAULT_CONFIG, type Config } from '../config/index.ts';
import { controlApiServed } from '../net/control-api.ts';
import { reachableHost, startBlock, startBlockLines } from './start-block.ts';

function withSim(sim: Partial<Config['sim']>): Config {
  return { ...DEFAULT_CONFIG, sim: { ...DEFAULT_CONFIG.sim, ...sim } };
}

test('a wildcard bind is reached through this machine\'s loopback; any other bind through itself', () => {
  assert.equal(reachableHost('0.0.0.0'), '127.0.0.1');
  assert.equal(reachableHost('::'), '[::1]');
  assert.equal(reachableHost('127.0.0.1'), '127.0.0.1');
  assert.equal(reachableHost('::1'), '[::1]');
  assert.equal(reachableHost('192.168.1.5'), '192.168.1.5');
});

test('the start block of a wildcard bind: reachable URLs, the bind explained, the control API off and why', () => {
  const block = startBlock(withSim({ bind: '0.0.0.0' }), { http: 9080, https: 9443 }, '1.2.3');
  assert.equal(block.http, 'http://127.0.0.1:9080');
  assert.equal(block.wss, 'wss://127.0.0.1:9443');
  assert.equal(block.controlApi, null);
  const lines = startBlockLines(block);
  assert.equal(lines[0], 'spot-sim 1.2.3 listening');
  assert.ok(lines.some((line) => /^bind: +0\.0\.0\.0: every interface/.test(line)));
  assert.ok(lines.includes('control API: off: bind 0.0.0.0 is not a loopback address and no sim.control_token is set (set one to serve it to clients that send Authorization: Bearer <token>)'));
  assert.match(lines.at(-1)!, /^net backend: /);
  const withToken = startBlock(withSim({ bind: '0.0.0.0', control_token: 'tok' }), { http: 1, https: 2 }, '1');
  assert.equal(withToken.controlApi, 'http://127.0.0.1:1/sim/v1/');
  assert.equal(startBlock(withSim({ control_api: false }), { http: 1, https: 2 }, '1').controlApiOff, 'sim.control_api = false');
});

test('the start block says the control API is off exactly when the server does not serve it', () => {
  for (const bind of ['127.0.0.1', '::1', 'localhost', '0.0.0.0', '::', '192.168.1.5']) {
    for (const enabled of [true, false]) {
      for (const token of [undefined, 'tok']) {
        const sim = withSim({ bind, control_api: enabled, ...(token === undefined ? {} : { control_token: token }) }).sim;
        assert.equal(controlApiOffReason(sim) === null, controlApiServed({ enabled, bind, ...(token === undefined ? {} : { token }) }), `${bind} ${enabled} ${token}`);
      }
    }
  }
});
