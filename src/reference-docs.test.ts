// docs/reference/ and docs/errors.md are generated from the sources they describe
// (scripts/docs/generate.ts): this test fails when a committed file is stale, so the reference
// cannot drift from the endpoint table, the configuration schema, the fault calls, the error
// table or the TypeScript API. Fix: `npm run docs`. The TypeScript reference also needs every
// export to carry a description and an `@example` in its doc comment, and every example to
// type-check against the sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { staleReferenceFiles } from '../scripts/docs/generate.ts';
import { undocumentedExports } from '../scripts/docs/ts-api.ts';
import { exampleErrors } from '../scripts/docs/ts-examples.ts';

test('the generated reference in docs/reference is up to date with its sources (npm run docs)', () => {
  assert.deepEqual(staleReferenceFiles(), []);
});

test('every export of the package has a description and an example in its doc comment', () => {
  assert.deepEqual(undocumentedExports(), [], 'add a doc comment with a description and an @example to each');
});

test('every example of the TypeScript reference type-checks against the sources', () => {
  assert.deepEqual(exampleErrors(), []);
});
