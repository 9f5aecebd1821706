// The report's generators each own a section of bench/REPORT.md: writing one leaves the other's
// tables and the hand-written notes as they were.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReportSection } from './report-sections.ts';

test('each generator replaces only its own section; notes written by hand stay', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  try {
    const file = join(dir, 'REPORT.md');
    writeFileSync(file, '# Performance report\n\nIntro.\n\n## Notes (written by hand)\n\nKeep me.\n');
    writeReportSection(file, 'ab', ['A/B one']);
    writeReportSection(file, 'figures', ['figures one']);
    writeReportSection(file, 'ab', ['A/B two']);
    const text = readFileSync(file, 'utf8');
    assert.match(text, /A\/B two/);
    assert.doesNotMatch(text, /A\/B one/);
    assert.match(text, /figures one/);
    assert.match(text, /Keep me\./);
    assert.ok(text.indexOf('A/B two') < text.indexOf('## Notes'), 'generated sections come before the notes');
    assert.equal(text.split('<!-- begin ab').length, 2, 'one ab section');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a report without the section or the notes gets the section appended', () => {
  const dir = mkdtempSync(join(tmpdir(), 'report-'));
  try {
    const file = join(dir, 'REPORT.md');
    writeReportSection(file, 'figures', ['only figures']);
    assert.match(readFileSync(file, 'utf8'), /^# Performance report\n\n<!-- begin figures[^\n]*\nonly figures\n<!-- end figures -->\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
