// bench/REPORT.md is one file with a section per generator: `npx tsx bench/ab/report.ts` writes
// the A/B tables (section "ab"), `npm run bench` (bench/report.ts) the latest run's figures
// (section "figures"). Each replaces only its own section, between its two markers, so neither
// wipes the other's tables nor the notes written by hand around them.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const TITLE = '# Performance report';

const begin = (name: string) => `<!-- begin ${name}: generated, edits inside are overwritten -->`;
const end = (name: string) => `<!-- end ${name} -->`;

/** Replaces section `name` of `file` with `lines` (adds it before the hand-written notes, or at the end). */
export function writeReportSection(file: string, name: string, lines: readonly string[]): string {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : `${TITLE}\n`;
  const section = [begin(name), ...lines, end(name)].join('\n');
  const from = text.indexOf(begin(name));
  const to = text.indexOf(end(name));
  let next: string;
  if (from >= 0 && to > from) next = text.slice(0, from) + section + text.slice(to + end(name).length);
  else {
    const notes = text.indexOf('\n## Notes');
    next = notes >= 0 ? `${text.slice(0, notes + 1)}${section}\n\n${text.slice(notes + 1)}` : `${text.trimEnd()}\n\n${section}\n`;
  }
  writeFileSync(file, next);
  return next;
}
