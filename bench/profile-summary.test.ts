// profile-summary.ts --lines: samples per source line, with the line's text, from the
// positionTicks V8 writes into a .cpuprofile.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'profile-summary.ts');

test('--lines ranks source lines by samples and shows their text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-'));
  try {
    const source = join(dir, 'hot.mjs');
    writeFileSync(source, 'function hot(o) {\n  const a = o.first;\n  return a.second;\n}\n');
    const frame = (functionName: string) => ({ functionName, url: `file://${source}`, scriptId: '1', lineNumber: 0, columnNumber: 0 });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), hitCount: 0, children: [2] },
        { id: 2, callFrame: frame('hot'), hitCount: 10, positionTicks: [{ line: 2, ticks: 3 }, { line: 3, ticks: 7 }] },
      ],
      startTime: 0,
      endTime: 10_000,
      samples: Array<number>(10).fill(2),
      timeDeltas: Array<number>(10).fill(1_000),
    };
    writeFileSync(join(dir, 'a.cpuprofile'), JSON.stringify(profile));
    const out = execFileSync(process.execPath, ['--import', 'tsx', SCRIPT, dir, '--lines'], { encoding: 'utf8', timeout: 30_000 });
    const lines = out.trim().split('\n').slice(1);
    assert.equal(lines.length, 2);
    assert.match(lines[0]!, /^\s*70\.0%\s+7\s+hot\s+.*hot\.mjs:3\s+return a\.second;$/);
    assert.match(lines[1]!, /^\s*30\.0%\s+3\s+hot\s+.*hot\.mjs:2\s+const a = o\.first;$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
