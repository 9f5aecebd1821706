// Writes bench/REPORT.md from `npm run bench:ab` results (bench/results/ab-<sha>.json, or the
// files named): one A/B table per run (base, head, head/base, spreads, beyond the spread or
// not), the newest first, each headed by its time and benches so the report's summary can name
// it. Every performance figure in the report is a ratio measured in one run.
//
//   npx tsx bench/ab/report.ts [ab.json ...]       (default: every bench/results/ab-*.json)

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeReportSection } from '../report-sections.ts';

/** bench/, where the results and the report are. */
const dir = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(dir, 'results');

interface AbFigure {
  bench: string;
  figure: string;
  unit: string;
  base: number[];
  head: number[];
  // NaN (a side without the figure) is written to JSON as null.
  baseMedian: number | null;
  headMedian: number | null;
  headOverBase: number | null;
  baseSpread: number | null;
  headSpread: number | null;
  verdict: 'better' | 'worse' | 'within spread';
}

interface AbRun {
  date: string;
  node: string;
  base: { ref: string; sha: string };
  head: { sha: string; dirty: boolean };
  rounds: number;
  args?: string[];
  loadAverageAtEnd: number[];
  baseScripts: Record<string, string>;
  figures: AbFigure[];
}

const files = process.argv.slice(2).length > 0 ? process.argv.slice(2) : existsSync(resultsDir) ? readdirSync(resultsDir).filter((f) => /^ab-.*\.json$/.test(f)).map((f) => join(resultsDir, f)) : [];
const runs = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as AbRun).sort((a, b) => b.date.localeCompare(a.date));

const fmt = (v: number | null): string => (v === null || !Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
/** "2026-11-26 08:36Z: engine, w1, base 18ee0d6 vs head 5c4d2f4" (the ref when it is not the sha). */
function heading(run: AbRun): string {
  const base = run.base.sha.slice(0, 7);
  const ref = run.base.ref === base ? '' : ` (${run.base.ref})`;
  const time = `${run.date.slice(0, 10)} ${run.date.slice(11, 16)}Z`;
  return `### ${time}: ${Object.keys(run.baseScripts).join(', ')}, base ${base}${ref} vs head ${run.head.sha.slice(0, 7)}${run.head.dirty ? '+' : ''}`;
}
const pct = (v: number | null): string => (v !== null && Number.isFinite(v) && v !== 0 ? `±${((v * 100) / 2).toFixed(1)}%` : '—');

const lines = [
  '## A/B runs (`npm run bench:ab`)',
  '',
  'Written by `npx tsx bench/ab/report.ts` from `npm run bench:ab` results. Each table is one run: the',
  'base commit and the head measured alternately (base-head, head-base, ...), each figure the median of',
  'the rounds, spread = half the range over the rounds relative to the median, "beyond spread" = the two',
  "sides' ranges do not overlap. Absolute figures depend on the machine and its load (the runs below",
  'may have shared 2 cores with other work: see each run\'s load average); compare the ratios. Newest first;',
  'a head marked `+` is that commit with uncommitted changes on top.',
  '',
];
for (const run of runs) {
  lines.push(heading(run), '');
  lines.push(`${run.date}, node ${run.node}, ${run.rounds} rounds${run.args && run.args.length > 0 ? `, bench flags \`${run.args.join(' ')}\`` : ''}, load average at the end ${run.loadAverageAtEnd.map((v) => v.toFixed(1)).join(' / ')}.`);
  for (const [bench, how] of Object.entries(run.baseScripts)) lines.push(`- ${bench}: base measured by ${how}`);
  lines.push('', '| figure | unit | base | head | head/base | base spread | head spread | beyond spread |', '|---|---|---|---|---|---|---|---|');
  for (const f of run.figures) {
    lines.push(`| ${f.figure} | ${f.unit} | ${fmt(f.baseMedian)} | ${fmt(f.headMedian)} | ${f.headOverBase === null || !Number.isFinite(f.headOverBase) ? '—' : f.headOverBase.toFixed(3)} | ${pct(f.baseSpread)} | ${pct(f.headSpread)} | ${f.verdict === 'within spread' ? 'no' : `yes (${f.verdict})`} |`);
  }
  lines.push('');
}
if (runs.length === 0) lines.push('No A/B results found (run `npm run bench:ab -- <base-ref>` first).', '');
const out = join(dir, 'REPORT.md');
writeReportSection(out, 'ab', lines);
console.log(lines.join('\n'));
console.log(`written: ${out}`);
