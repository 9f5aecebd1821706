import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_API_SECRET, DEFAULT_CONFIG } from './defaults.ts';
import { resolveConfig } from './resolve.ts';
import { netBackendInEffect, redactConfig } from './summary.ts';

test('the net backend in effect is stated honestly', () => {
  assert.equal(netBackendInEffect('epoll', 'linux'), 'epoll');
  assert.match(netBackendInEffect('io_uring', 'linux'), /^epoll \(io_uring configured/);
  assert.match(netBackendInEffect('epoll', 'darwin'), /^kqueue/);
});

test('redactConfig hides the API secret and the control token, and changes nothing else', () => {
  const config = resolveConfig({ sim: { control_token: 'tok' } });
  const redacted = redactConfig(config);
  assert.equal(redacted.sim.account.api_secret, '***');
  assert.equal(redacted.sim.control_token, '***');
  assert.equal(redacted.sim.account.api_key, config.sim.account.api_key);
  assert.equal(config.sim.account.api_secret, DEFAULT_API_SECRET);
  const json = JSON.stringify(redacted);
  assert.ok(!json.includes(DEFAULT_API_SECRET));
  assert.ok(!json.includes('"tok"'));
  assert.equal(redactConfig(DEFAULT_CONFIG).sim.control_token, undefined);
  assert.equal('control_token' in redactConfig(DEFAULT_CONFIG).sim, false);
});
