// Summarizes V8 .cpuprofile files: the functions with the most self time (and their share).
//
//   node --cpu-prof --cpu-prof-dir=.tmp/prof --import tsx bench/engine.bench.ts --engine=spot-sim --no-heap --no-json
//   npx tsx bench/profile-summary.ts .tmp/prof [--top=30] [--inclusive]
//
// --inclusive: time spent in each function and everything it called (each sample counted once
// per function however deep the recursion), to see which part of a request path costs most.
//
// --lines: samples per source line, with the line's text: where inside an inlined function the
// time goes. A sample lands just after the instruction that stalled, so a line right after a
// load that misses the cache shows that load's cost. tsx reports every function at line 1, so
// profile an esbuild bundle (unminified) of the entry instead (bench/README.md "Profiles").
//
// Given a directory, it reads the largest profile in it (the process that did the work; the
// re-spawning parent and tsx's loader thread write small ones too).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
  /** Samples per line of the function's script (1-based lines). */
  positionTicks?: { line: number; ticks: number }[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const args = process.argv.slice(2);
const topArg = args.find((a) => a.startsWith('--top='));
const TOP = topArg ? Number(topArg.slice(6)) : 30;
const target = args.find((a) => !a.startsWith('--'));
if (target === undefined) {
  console.error('usage: tsx bench/profile-summary.ts <file.cpuprofile | dir> [--top=30] [--inclusive | --lines]');
  process.exit(2);
}

let file = target;
if (statSync(target).isDirectory()) {
  const files = readdirSync(target)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(target, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  if (files.length === 0) throw new Error(`no .cpuprofile in ${target}`);
  file = files[0]!;
}

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
// Self time per node: sum of the time deltas of the samples that landed on it.
const selfUs = new Map<number, number>();
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
for (let i = 0; i < samples.length; i++) {
  // timeDeltas[i] is the gap before sample i; attribute the following gap to sample i.
  const dt = deltas[i + 1] ?? 0;
  selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + Math.max(0, dt));
}

const INCLUSIVE = args.includes('--inclusive');
const keyOf = (node: ProfileNode): string => {
  const cf = node.callFrame;
  const url = cf.url.replace(/^file:\/\//, '');
  const where = url === '' ? '' : ` ${url.includes('/node_modules/') ? url.slice(url.lastIndexOf('/node_modules/') + 14) : relative(process.cwd(), url)}:${cf.lineNumber + 1}`;
  return `${cf.functionName || '(anonymous)'}${where}`;
};
const parentOf = new Map<number, ProfileNode>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);

const byFunction = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  total += us;
  if (!INCLUSIVE) {
    const key = keyOf(node);
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    continue;
  }
  const seen = new Set<string>();
  for (let n: ProfileNode | undefined = node; n !== undefined; n = parentOf.get(n.id)) {
    const key = keyOf(n);
    if (seen.has(key)) continue;
    seen.add(key);
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
}

console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
if (args.includes('--lines')) {
  printLines();
  process.exit(0);
}
const rows = [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
for (const [name, us] of rows) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1e3).toFixed(0).padStart(7)} ms  ${name}`);
}

/** The lines with the most samples, each with its function and text. */
function printLines(): void {
  const ticksByLine = new Map<string, { ticks: number; url: string; line: number; fn: string }>();
  let allTicks = 0;
  for (const node of profile.nodes) {
    allTicks += node.hitCount ?? 0;
    for (const { line, ticks } of node.positionTicks ?? []) {
      const key = `${node.callFrame.url}:${line}`;
      const entry = ticksByLine.get(key) ?? { ticks: 0, url: node.callFrame.url, line, fn: node.callFrame.functionName || '(anonymous)' };
      entry.ticks += ticks;
      ticksByLine.set(key, entry);
    }
  }
  const sources = new Map<string, string[]>();
  const textOf = (url: string, line: number): string => {
    if (!sources.has(url)) {
      const path = url.replace(/^file:\/\//, '');
      sources.set(url, existsSync(path) ? readFileSync(path, 'utf8').split('\n') : []);
    }
    return (sources.get(url)![line - 1] ?? '').trim().slice(0, 100);
  };
  for (const e of [...ticksByLine.values()].sort((a, b) => b.ticks - a.ticks).slice(0, TOP)) {
    const where = `${relative(process.cwd(), e.url.replace(/^file:\/\//, ''))}:${e.line}`;
    console.log(`${((100 * e.ticks) / Math.max(1, allTicks)).toFixed(1).padStart(5)}%  ${String(e.ticks).padStart(6)}  ${e.fn.padEnd(22)} ${where}  ${textOf(e.url, e.line)}`);
  }
}
