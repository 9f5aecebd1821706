// docs/reference/ is generated from the sources it describes (scripts/docs/generate.ts): this
// test fails when a committed file is stale, so the reference cannot drift from the endpoint
// table, the configuration schema, the fault calls or the TypeScript API. Fix: `npm run docs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { staleReferenceFiles } from '../scripts/docs/generate.ts';

test('the generated reference in docs/reference is up to date with its sources (npm run docs)', () => {
  assert.deepEqual(staleReferenceFiles(), []);
});
