// spot-sim merged into a repository-wide test: a test that uses none of its fixtures starts
// nothing (this file's fixtures are its own, so its tests get a worker of their own).
import { test as base, expect, mergeTests } from '@playwright/test';
import { test as simTest } from 'spot-sim/fixture';

const own = base.extend<{ greeting: string }>({ greeting: async ({}, use) => use('hello') });
const test = mergeTests(simTest, own);
const listeners = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;

test('a test with only its own fixture opens no listener', ({ greeting }) => {
  expect(greeting).toBe('hello');
  expect(listeners()).toBe(0);
});

test('a test with spot-sim fixtures gets the exchange', async ({ client, greeting }) => {
  expect(greeting).toBe('hello');
  expect((await client.rest.time()).serverTime).toBeGreaterThan(0);
  expect(listeners()).toBe(2);
});
