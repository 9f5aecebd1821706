// A/B benchmarks: one commit (the base) against this working tree (the head), in one run,
// alternating, so that a machine whose baseline swings by 30 % between runs cannot turn a loss
// into a gain. Only prints and writes JSON; it never asserts a time. (docs: bench/README.md)
//
//   npm run bench:ab -- <base-ref> [bench ...] [--rounds=4] [--scripts=auto|head|base]
//                       [--json=<file>] [--cache-dir=<dir>] [--args='<extra bench flags>']
//   benches: engine, ws (= w1 + w2 + m1), w1, w2, m1, push, rest, reset, routing (default: engine w1 w2)
//
// The base is exported from git (`git archive`, so uncommitted changes never leak into it) into
// <cache-dir>/<sha> (default node_modules/.cache/bench-ab) and gets its own `npm ci` once;
// later runs against the same commit reuse it. Each round runs every named bench once for
// each side, in the order base-head, head-base, base-head, ... (drift over the run falls on both
// sides). Which bench scripts measure the base (--scripts):
//   head  this tree's bench/ copied beside the base's src (same measuring code on both sides);
//   base  the base commit's own bench/ (when this tree's scripts need newer src);
//   auto  head when it runs against the base's src, else base (the default; the table says which).
// Per figure: the median of each side over the rounds, head/base, each side's spread
// ((max - min) / median), and whether the difference exceeds the spread (the two sides' ranges
// do not overlap).

import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AB_BENCHES, type AbBench } from './figures.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const option = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const positional = args.filter((a) => !a.startsWith('--'));

function usage(msg: string): never {
  console.error(`${msg}\nusage: npm run bench:ab -- <base-ref> [${AB_BENCHES.map((b) => b.name).join('|')} ...] [--rounds=4] [--scripts=auto|head|base] [--json=<file>]`);
  process.exit(2);
}

const baseRef = positional[0] ?? usage('missing <base-ref>');
const benchNames = positional.length > 1 ? positional.slice(1) : ['engine', 'w1', 'w2'];
const benches = benchNames.map((n) => AB_BENCHES.find((b) => b.name === n) ?? usage(`unknown bench ${JSON.stringify(n)}`));
const ROUNDS = Number(option('rounds') ?? 4);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) usage(`--rounds: a whole number from 1, not ${JSON.stringify(option('rounds'))}`);
// With 2 rounds in base-head-head-base order, a machine that slowed in the middle of the run
// fell on the head only (REST 0.785x, then 0.987x with 5 rounds: bench/REPORT.md).
const MIN_TRUSTED_ROUNDS = 4;
const SCRIPTS = option('scripts') ?? 'auto';
if (!['auto', 'head', 'base'].includes(SCRIPTS)) usage(`--scripts: auto, head or base, not ${SCRIPTS}`);
/** Extra flags for every bench run (both sides), e.g. --args='--only=shallow --engine=spot-sim'. */
const EXTRA_ARGS = (option('args') ?? '').split(' ').filter((a) => a !== '');
const CACHE = resolve(option('cache-dir') ?? join(ROOT, 'node_modules', '.cache', 'bench-ab'));

function git(...gitArgs: string[]): string {
  const r = spawnSync('git', ['-C', ROOT, ...gitArgs], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${gitArgs.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

const baseSha = git('rev-parse', '--verify', `${baseRef}^{commit}`);
const headSha = git('rev-parse', 'HEAD');
const headDirty = git('status', '--porcelain', '--untracked-files=no') !== '';
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const LOGS = join(ROOT, '.tmp', 'bench-ab', stamp);
mkdirSync(LOGS, { recursive: true });

// ------------------------------------------------------------------ the base tree

function prepareBase(): string {
  const tree = join(CACHE, baseSha);
  const ready = join(tree, '.bench-ab-ready');
  if (existsSync(ready)) {
    console.log(`base ${baseSha.slice(0, 7)}: reusing ${tree}`);
    return tree;
  }
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  console.log(`base ${baseSha.slice(0, 7)}: git archive + npm ci into ${tree} (once per commit)`);
  const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', baseSha], { maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${baseSha}: ${archive.stderr.toString()}`);
  const untar = spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'inherit' });
  if (ci.status !== 0) throw new Error(`npm ci in ${tree} failed (exit ${ci.status})`);
  writeFileSync(ready, `${new Date().toISOString()}\n`);
  return tree;
}

// ------------------------------------------------------------------ running one bench

interface Side {
  readonly label: 'base' | 'head';
  readonly root: string;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Runs bench/<file>.bench.ts from `benchDir` (with `root`'s node_modules): its results, or null. */
function runBench(bench: AbBench, root: string, benchDir: string, logName: string): Json | null {
  const script = join(benchDir, `${bench.file}.bench.ts`);
  if (!existsSync(script)) return null;
  const results = join(benchDir, 'results', `${bench.file}.json`);
  rmSync(results, { force: true });
  const flags = bench.serverFlags ? ['--max-semi-space-size=8'] : [];
  const env = { ...process.env, SPOT_SIM_BENCH_CHILD: '1', ...(bench.serverFlags ? { MALLOC_ARENA_MAX: '2' } : {}) };
  const log = join(LOGS, `${logName}.log`);
  const fd = openSync(log, 'w');
  const started = Date.now();
  const r = spawnSync(process.execPath, ['--expose-gc', ...flags, '--import', 'tsx', script, ...bench.args, ...EXTRA_ARGS], { cwd: root, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (r.status !== 0 || !existsSync(results)) {
    console.log(`  ${logName}: failed (exit ${r.status ?? r.signal}) after ${seconds} s, log ${log}`);
    return null;
  }
  console.log(`  ${logName}: ${seconds} s`);
  return JSON.parse(readFileSync(results, 'utf8')) as Json;
}

/** This tree's bench/ beside the base's src, so both sides are measured by the same code. */
function headScriptsInBase(baseRoot: string): string {
  const dir = join(baseRoot, 'bench-ab-head');
  rmSync(dir, { recursive: true, force: true });
  cpSync(join(ROOT, 'bench'), dir, { recursive: true, filter: (src) => !src.includes(`${join(ROOT, 'bench', 'results')}`) });
  return dir;
}

// ------------------------------------------------------------------ statistics

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};
const spread = (xs: readonly number[]): number => (xs.length === 0 ? NaN : xs.length < 2 ? 0 : (Math.max(...xs) - Math.min(...xs)) / Math.abs(median(xs)));

interface FigureResult {
  bench: string;
  figure: string;
  unit: string;
  better: 'higher' | 'lower';
  base: number[];
  head: number[];
  baseMedian: number;
  headMedian: number;
  headOverBase: number;
  baseSpread: number;
  headSpread: number;
  /** The two sides' ranges do not overlap: the difference is larger than this run's noise. */
  exceedsSpread: boolean;
  verdict: 'better' | 'worse' | 'within spread';
}

function compare(bench: AbBench, baseRuns: Json[], headRuns: Json[]): FigureResult[] {
  const out: FigureResult[] = [];
  for (const f of bench.figures) {
    const base = baseRuns.map(f.read).filter((v): v is number => v !== undefined);
    const head = headRuns.map(f.read).filter((v): v is number => v !== undefined);
    if (base.length === 0 && head.length === 0) continue;
    const baseMedian = median(base);
    const headMedian = median(head);
    const exceedsSpread = base.length > 0 && head.length > 0 && (Math.min(...head) > Math.max(...base) || Math.max(...head) < Math.min(...base));
    const up = headMedian > baseMedian;
    const verdict = !exceedsSpread ? 'within spread' : up === (f.better === 'higher') ? 'better' : 'worse';
    out.push({ bench: bench.name, figure: f.name, unit: f.unit, better: f.better, base, head, baseMedian, headMedian, headOverBase: headMedian / baseMedian, baseSpread: spread(base), headSpread: spread(head), exceedsSpread, verdict });
  }
  return out;
}

const fmt = (v: number): string => (!Number.isFinite(v) ? '—' : Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
const pct = (v: number): string => (Number.isFinite(v) ? `±${((v * 100) / 2).toFixed(1)}%` : '—');

// ------------------------------------------------------------------ main

const baseRoot = prepareBase();
const headSide: Side = { label: 'head', root: ROOT };
const baseSide: Side = { label: 'base', root: baseRoot };
const headBenchInBase = SCRIPTS === 'base' ? null : headScriptsInBase(baseRoot);
if (ROUNDS < MIN_TRUSTED_ROUNDS) console.warn(`bench:ab: ${ROUNDS} rounds; with fewer than ${MIN_TRUSTED_ROUNDS} a drift of the machine's load can fall on one side only: do not base a claim on this run`);
console.log(`A/B: base ${baseSha.slice(0, 7)} vs head ${headSha.slice(0, 7)}${headDirty ? ' + uncommitted changes' : ''}, ${ROUNDS} rounds, load average ${loadavg().map((v) => v.toFixed(2)).join(' / ')}; logs in ${LOGS}`);

const allFigures: FigureResult[] = [];
const scriptsUsed: Record<string, string> = {};
for (const bench of benches) {
  console.log(`\n${bench.name} (bench/${bench.file}.bench.ts ${bench.args.join(' ')})`);
  const runs: Record<'base' | 'head', Json[]> = { base: [], head: [] };
  let baseBenchDir: string | null = SCRIPTS === 'base' ? join(baseRoot, 'bench') : headBenchInBase;
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? [baseSide, headSide] : [headSide, baseSide];
    for (const side of order) {
      const logName = `${bench.name}-r${round}-${side.label}`;
      if (side.label === 'head') {
        const r = runBench(bench, ROOT, join(ROOT, 'bench'), logName);
        if (r) runs.head.push(r);
        continue;
      }
      if (baseBenchDir === null) continue;
      let r = runBench(bench, baseRoot, baseBenchDir, logName);
      // auto: this tree's scripts did not run against the base's src (e.g. a core API the base
      // does not have yet): measure the base with its own scripts from now on.
      if (r === null && SCRIPTS === 'auto' && baseBenchDir === headBenchInBase && runs.base.length === 0) {
        baseBenchDir = join(baseRoot, 'bench');
        console.log(`  this tree's bench/${bench.file}.bench.ts does not run on the base; using the base's own`);
        r = runBench(bench, baseRoot, baseBenchDir, `${logName}-own`);
        if (r === null) baseBenchDir = null;
      }
      if (r) runs.base.push(r);
    }
  }
  scriptsUsed[bench.name] = baseBenchDir === null ? 'none ran' : baseBenchDir === headBenchInBase ? "head's bench scripts on the base's src" : "the base's own bench scripts";
  const figures = compare(bench, runs.base, runs.head);
  allFigures.push(...figures);
  console.log(`  base measured by ${scriptsUsed[bench.name]} (${runs.base.length} runs; head ${runs.head.length})`);
}

const header = ['figure', 'unit', 'base', 'head', 'head/base', 'base spread', 'head spread', 'beyond spread'];
const rows = allFigures.map((f) => [f.figure, f.unit, fmt(f.baseMedian), fmt(f.headMedian), `${f.headOverBase.toFixed(3)}`, pct(f.baseSpread), pct(f.headSpread), f.verdict === 'within spread' ? 'no' : `yes (${f.verdict})`]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
console.log(`\nbase ${baseSha.slice(0, 7)} vs head ${headSha.slice(0, 7)}${headDirty ? '+' : ''}: medians of ${ROUNDS} rounds; spread = half the range over the rounds, relative to the median`);
for (const r of [header, widths.map((w) => '-'.repeat(w)), ...rows]) console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));

const jsonFile = resolve(option('json') ?? join(ROOT, 'bench', 'results', `ab-${baseSha.slice(0, 7)}.json`));
mkdirSync(dirname(jsonFile), { recursive: true });
writeFileSync(
  jsonFile,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, base: { ref: baseRef, sha: baseSha }, head: { sha: headSha, dirty: headDirty }, rounds: ROUNDS, args: EXTRA_ARGS, loadAverageAtEnd: loadavg(), baseScripts: scriptsUsed, figures: allFigures }, null, 2)}\n`,
);
console.log(`written: ${jsonFile}`);
console.log(`bench logs: ${LOGS}`);
