// docs/errors.md is generated from the error table (scripts/docs/errors.ts; its staleness is
// src/reference-docs.test.ts's): every row has a note saying when the simulator sends it, and
// the page holds every code the table can answer, every row's status and message, and every fault
// call that injects a row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ERRORS, type ErrorName } from './core/errors.ts';
import { PRESETS } from './faults/presets.ts';
import { errorsReference, linked, presetCallsOf } from '../scripts/docs/errors.ts';
import { ERROR_NOTES } from '../scripts/docs/error-notes.ts';

const ROOT = resolve(import.meta.dirname, '..');
const page = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
const names = Object.keys(ERRORS) as ErrorName[];

/** The page's section of one code: from its heading to the next. */
function section(code: number): string {
  const start = page.indexOf(`\n## ${code}`);
  assert.ok(start >= 0, `docs/errors.md has no section for ${code}`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

test('the generator refuses a table row without a note, and a note for a row the table no longer has', () => {
  const { UNKNOWN: _dropped, ...withoutOne } = ERROR_NOTES;
  assert.throws(() => errorsReference(withoutOne), /missing UNKNOWN/);
  assert.throws(() => errorsReference({ ...ERROR_NOTES, GONE_ROW: 'x' }), /unknown GONE_ROW/);
});

test('docs/errors.md has every code of the error table, and each row with its status, message and note', () => {
  for (const name of names) {
    const row = ERRORS[name];
    const text = section(row.code);
    const message = row.msg === '%s' ? "(the fault's message)" : row.msg.replace(/%s/g, '…').replace(/\|/g, '\\|');
    assert.ok(text.includes(`| ${row.http} | `), `${name}: no row with HTTP ${row.http} under ${row.code}`);
    assert.ok(text.includes(message), `${name}: its message is not under ${row.code}`);
    assert.ok(text.includes(linked(ERROR_NOTES[name]).replace(/\|/g, '\\|')), `${name}: its note is not under ${row.code}`);
  }
});

test('every fault call that refuses with a row of the table is named under that row', () => {
  const refusing = Object.values(PRESETS).filter((p) => p.effect(1).kind === 'refuse').map((p) => p.call);
  const named = names.flatMap((n) => presetCallsOf(n));
  assert.deepEqual([...named].sort(), [...refusing].sort());
  for (const name of names) for (const call of presetCallsOf(name)) assert.ok(section(ERRORS[name].code).includes(`sim.faults.${call}(`), `${call} under ${ERRORS[name].code}`);
});
